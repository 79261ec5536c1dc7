#include "demo/opencode1_api.h"

#include "demo/basic_auth.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QUrlQuery>

namespace tether::demo {

namespace {
constexpr qsizetype kHugeBodyBytes = 10 * 1024 * 1024;

HttpResponse errorJson(int status, const QString &message) {
    return HttpResponse::json(status, QJsonObject{{"error", message}});
}
} // namespace

HttpResponse healthResponse(const HealthAnswer &a) {
    switch (a.body) {
    case HealthBody::Garbage: {
        // Claims JSON, is not: truncated object, a NUL, invalid UTF-8.
        static const char kGarbage[] = "{\"healthy\":tr\0\xff\xfe<html>";
        HttpResponse r = HttpResponse::text(a.status, QByteArray(kGarbage, sizeof kGarbage - 1));
        r.headers = {{"Content-Type", "application/json"}};
        return r;
    }
    case HealthBody::Huge: {
        // Valid JSON, 10 MiB: a probe must cap what it reads.
        QByteArray body = R"({"healthy":true,"version":")" + a.version.toUtf8() + R"(","pad":")";
        body += QByteArray(kHugeBodyBytes - body.size() - 2, 'x');
        body += "\"}";
        return {a.status, {{"Content-Type", "application/json"}}, body};
    }
    case HealthBody::Json:
        break;
    }
    return HttpResponse::json(a.status, QJsonObject{{"healthy", true}, {"version", a.version}});
}

bool opencodeAuthorized(const HttpRequest &request, const QByteArray &password) {
    if (password.isEmpty()) return true;
    return basicAuthorizationMatches(request.header("authorization"), kOpencodeUser, password);
}

HttpResponse unauthorizedResponse() {
    HttpResponse r = HttpResponse::text(401, "Unauthorized");
    r.headers.append(
        qMakePair(QByteArray("WWW-Authenticate"), QByteArray(R"(Basic realm="opencode")")));
    return r;
}

Opencode1Api::Opencode1Api(HealthAnswer health, QByteArray password, McpFleet &fleet,
                           EventStream &events, DemoActivity &activity)
    : health_(std::move(health))
    , password_(std::move(password))
    , fleet_(fleet)
    , events_(events)
    , activity_(activity) {
}

QString requestDirectory(const HttpRequest &request) {
    const QString dir = QUrlQuery(QString::fromUtf8(request.query))
                            .queryItemValue(QStringLiteral("directory"), QUrl::FullyDecoded);
    return dir.isEmpty() ? QDir::currentPath() : dir;
}

bool Opencode1Api::adoptStream(const HttpRequest &req, QTcpSocket *socket) {
    // Anything but an authorized GET is answered by handle() (401, 405) and closed.
    if (req.path != "/global/event" || req.method != "GET" || !opencodeAuthorized(req, password_))
        return false;
    events_.subscribe(socket);
    return true;
}

HttpResponse Opencode1Api::handle(const HttpRequest &req) {
    if (!opencodeAuthorized(req, password_)) return unauthorizedResponse();

    const QByteArray &path = req.path;
    const bool get = req.method == "GET";
    const bool post = req.method == "POST";
    if (path == "/global/health")
        return get ? healthResponse(health_) : errorJson(405, QStringLiteral("use GET"));
    if (path == "/mcp") return get ? mcpStatus() : errorJson(405, QStringLiteral("use GET"));
    if (path == "/config") return get ? config() : errorJson(405, QStringLiteral("use GET"));
    if (path == "/global/event") return errorJson(405, QStringLiteral("use GET"));
    if (path == "/session")
        return get ? HttpResponse::json(200,
                                        sessionListBody(activity_.running() + activity_.finished()))
                   : errorJson(405, QStringLiteral("use GET"));
    if (path == "/session/status")
        return get ? sessionStatus(req) : errorJson(405, QStringLiteral("use GET"));
    if (path == "/demo/tool-call")
        return post ? startToolCall(req) : errorJson(405, QStringLiteral("use POST"));

    // /mcp/{name}/connect and /mcp/{name}/disconnect
    const QList<QByteArray> parts = path.split('/');
    if (parts.size() == 4 && parts[0].isEmpty() && parts[1] == "session" && parts[3] == "message") {
        if (!get) return errorJson(405, QStringLiteral("use GET"));
        return sessionMessages(QString::fromUtf8(QByteArray::fromPercentEncoding(parts[2])));
    }
    if (parts.size() == 4 && parts[0].isEmpty() && parts[1] == "mcp" &&
        (parts[3] == "connect" || parts[3] == "disconnect")) {
        if (!post) return errorJson(405, QStringLiteral("use POST"));
        const QString name = QString::fromUtf8(QByteArray::fromPercentEncoding(parts[2]));
        if (!fleet_.has(name))
            return errorJson(404, QStringLiteral("MCP server %1 not found").arg(name));
        if (parts[3] == "connect")
            fleet_.connectServer(name);
        else
            fleet_.disconnectServer(name);
        return HttpResponse::json(200, true);
    }
    return errorJson(404, QStringLiteral("not found"));
}

HttpResponse Opencode1Api::mcpStatus() const {
    QJsonObject all;
    for (const McpStatus &s : fleet_.statuses()) {
        QJsonObject entry{{"status", QString::fromLatin1(toString(s.state))}};
        if (s.state == McpState::Failed) entry.insert("error", s.error);
        all.insert(s.name, entry);
    }
    return HttpResponse::json(200, all);
}

HttpResponse Opencode1Api::sessionStatus(const HttpRequest &req) const {
    return HttpResponse::json(200,
                              sessionStatusBody(activity_.busySessions(requestDirectory(req))));
}

HttpResponse Opencode1Api::startToolCall(const HttpRequest &req) {
    const QUrlQuery query(QString::fromUtf8(req.query));
    const QString tool = query.queryItemValue(QStringLiteral("tool"), QUrl::FullyDecoded);
    bool ok = false;
    const int seconds = query.queryItemValue(QStringLiteral("seconds")).toInt(&ok);
    if (tool.isEmpty() || !ok || seconds < 0 || seconds > kMaxToolCallSeconds)
        return errorJson(
            400, QStringLiteral("need tool=NAME and seconds=0..%1").arg(kMaxToolCallSeconds));
    const DemoToolCall call = activity_.startToolCall(requestDirectory(req), tool, seconds);
    return HttpResponse::json(200, QJsonObject{{"sessionID", call.sessionId},
                                               {"partID", call.partId},
                                               {"tool", call.tool},
                                               {"directory", call.directory}});
}

HttpResponse Opencode1Api::sessionMessages(const QString &sessionId) const {
    const DemoToolCall *call = activity_.find(sessionId);
    if (!call) return errorJson(404, QStringLiteral("session %1 not found").arg(sessionId));
    return HttpResponse::json(200, sessionMessagesBody(*call));
}

HttpResponse Opencode1Api::config() const {
    QJsonObject mcp;
    for (const McpChildSpec &spec : fleet_.specs()) {
        mcp.insert(spec.name, QJsonObject{{"type", "local"},
                                          {"command", QJsonArray::fromStringList(spec.command)},
                                          {"enabled", true}});
    }
    return HttpResponse::json(200, QJsonObject{{"mcp", mcp}});
}

} // namespace tether::demo
