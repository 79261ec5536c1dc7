#include "demo/opencode_v2_api.h"

#include <QJsonArray>
#include <QJsonObject>

namespace tether::demo {

namespace {
HttpResponse errorJson(int status, const QString &message) {
    return HttpResponse::json(status, QJsonObject{{"error", message}});
}
} // namespace

QList<McpChildSpec> withOwnProcessGroups(QList<McpChildSpec> specs) {
    for (McpChildSpec &s : specs)
        if (!s.command.contains(QStringLiteral("--setsid")))
            s.command << QStringLiteral("--setsid");
    return specs;
}

OpencodeV2Api::OpencodeV2Api(V2Identity identity, HealthAnswer health, QByteArray password,
                             McpFleet &fleet)
    : identity_(std::move(identity))
    , health_(std::move(health))
    , password_(std::move(password))
    , fleet_(fleet) {
}

HttpResponse OpencodeV2Api::handle(const HttpRequest &req) {
    if (!opencodeAuthorized(req, password_)) return unauthorizedResponse();
    const QByteArray &path = req.path;
    const bool get = req.method == "GET";
    if (path == "/api/info") return get ? info() : errorJson(405, QStringLiteral("use GET"));
    if (path == "/api/health") {
        if (!get) return errorJson(405, QStringLiteral("use GET"));
        if (health_.status != 200) return healthResponse(health_);
        return HttpResponse::json(200, QJsonObject{{"healthy", true},
                                                   {"version", identity_.version},
                                                   {"pid", double(identity_.pid)}});
    }
    if (path == "/api/mcp") return get ? mcpStatus() : errorJson(405, QStringLiteral("use GET"));
    if (path == "/api/config") return get ? config() : errorJson(405, QStringLiteral("use GET"));

    const QList<QByteArray> parts = path.split('/'); // "", "api", "mcp", name, action
    if (parts.size() == 5 && parts[0].isEmpty() && parts[1] == "api" && parts[2] == "mcp" &&
        (parts[4] == "connect" || parts[4] == "disconnect")) {
        if (req.method != "POST") return errorJson(405, QStringLiteral("use POST"));
        const QString name = QString::fromUtf8(QByteArray::fromPercentEncoding(parts[3]));
        if (!fleet_.has(name))
            return errorJson(404, QStringLiteral("MCP server %1 not found").arg(name));
        if (parts[4] == "connect")
            fleet_.connectServer(name);
        else
            fleet_.disconnectServer(name);
        return {204, {}, {}};
    }
    return errorJson(404, QStringLiteral("not found"));
}

HttpResponse OpencodeV2Api::info() const {
    if (health_.status != 200 || health_.body != HealthBody::Json)
        return healthResponse(health_); // the fault switches apply to the health route
    return HttpResponse::json(200,
                              QJsonObject{{"version", identity_.version},
                                          {"pid", double(identity_.pid)},
                                          {"urls", QJsonArray{identity_.url}},
                                          {"paths", QJsonObject{{"state", identity_.stateDir}}}});
}

HttpResponse OpencodeV2Api::mcpStatus() const {
    QJsonArray all;
    for (const McpStatus &s : fleet_.statuses()) {
        QJsonObject entry{{"name", s.name},
                          {"status", QString::fromLatin1(toString(s.state))},
                          {"integrationID", QStringLiteral("local:%1").arg(s.name)}};
        if (s.state == McpState::Failed) entry.insert("error", s.error);
        all.append(entry);
    }
    return HttpResponse::json(200, all);
}

// Not confirmed in opencode 2.x: the resolved config with each MCP entry's command, shaped as
// opencode 1.x's GET /config, so a supervisor can tell which child is which MCP server.
HttpResponse OpencodeV2Api::config() const {
    QJsonObject mcp;
    for (const McpChildSpec &spec : fleet_.specs())
        mcp.insert(spec.name, QJsonObject{{"type", "local"},
                                          {"command", QJsonArray::fromStringList(spec.command)},
                                          {"enabled", true}});
    return HttpResponse::json(200, QJsonObject{{"mcp", mcp}});
}

} // namespace tether::demo
