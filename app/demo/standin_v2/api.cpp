#include "demo/standin_v2/api.h"

#include "demo/common/event_stream.h"
#include "demo/standin_v2/mcp_servers.h"
#include "demo/standin_v2/options.h"
#include "demo/standin_v2/sessions.h"

#include <QDateTime>
#include <QDir>
#include <QJsonArray>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QUrlQuery>

namespace tether::standin_v2 {

using demo::HttpRequest;
using demo::HttpResponse;

namespace {

constexpr qint64 kHandoffLifetimeMs = 30000;

QString queryValue(const HttpRequest &r, const QString &key) {
    return QUrlQuery(QString::fromUtf8(r.query)).queryItemValue(key, QUrl::FullyDecoded);
}

bool hasQuery(const HttpRequest &r, const QString &key) {
    return QUrlQuery(QString::fromUtf8(r.query)).hasQueryItem(key);
}

HttpResponse withHeader(HttpResponse r, const QByteArray &name, const QByteArray &value) {
    r.headers.append(qMakePair(name, value));
    return r;
}

HttpResponse noContent() {
    return HttpResponse{204, {}, {}};
}

HttpResponse notFound() {
    return HttpResponse::text(404, "Not Found");
}

// 401 with the challenge and the body of the authorization middleware [R23] [R18].
HttpResponse unauthorized() {
    return withHeader(HttpResponse::json(401, QJsonObject{{"_tag", "UnauthorizedError"},
                                                          {"message", "Authentication required"}}),
                      "WWW-Authenticate", R"(Basic realm="Secure Area")");
}

// What every other route answers before the service is ready [R17].
HttpResponse unavailable(ServiceState state) {
    if (state == ServiceState::Failed)
        return HttpResponse::json(
            503, QJsonObject{{"code", "service_failed"},
                             {"message", "The background service could not start."},
                             {"action", "Run `opencode service restart` after checking the "
                                        "service logs."}});
    return withHeader(HttpResponse::json(503, QJsonObject{{"code", state == ServiceState::Stopping
                                                                       ? "service_stopping"
                                                                       : "service_starting"}}),
                      "Retry-After", "1");
}

QString randomToken(int bytes) {
    QByteArray raw(bytes, Qt::Uninitialized);
    for (char &c : raw)
        c = static_cast<char>(QRandomGenerator::system()->bounded(256));
    return QString::fromLatin1(
        raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

// "/api/<a>/<b>/<c>" -> {a, b, c}; empty when the path is not under /api/.
QStringList apiSegments(const QByteArray &path) {
    if (!path.startsWith("/api/")) return {};
    QStringList out;
    for (const QByteArray &part : path.mid(5).split('/'))
        out << QString::fromUtf8(QByteArray::fromPercentEncoding(part));
    return out;
}

} // namespace

Api::Api(ServiceIdentity identity, McpServers &mcp, Sessions &sessions, demo::EventStream &events,
         std::function<void(const QString &)> say)
    : identity_(std::move(identity))
    , mcp_(mcp)
    , sessions_(sessions)
    , events_(events)
    , say_(std::move(say)) {
}

bool Api::authorized(const HttpRequest &request, const QByteArray &password) {
    // An auth_token in the query wins over the header [R23].
    QByteArray encoded = queryValue(request, QStringLiteral("auth_token")).toLatin1();
    if (encoded.isEmpty()) {
        const QByteArray header = request.header("authorization").trimmed();
        const qsizetype space = header.indexOf(' ');
        if (space < 0 || header.left(space).toLower() != "basic") return false;
        encoded = header.mid(space + 1).trimmed();
    }
    const auto result =
        QByteArray::fromBase64Encoding(encoded, QByteArray::AbortOnBase64DecodingErrors);
    if (!result) return false;
    const QByteArray *decoded = &result.decoded;
    const QByteArray expected = "opencode:" + password;
    // No early exit: the time taken does not tell how much of a guess was right.
    unsigned char diff = decoded->size() == expected.size() ? 0 : 1;
    for (qsizetype i = 0; i < std::min(decoded->size(), expected.size()); ++i)
        diff |= static_cast<unsigned char>(decoded->at(i) ^ expected.at(i));
    return diff == 0;
}

HttpResponse Api::info(int status) const {
    QJsonObject paths{{"tmp", identity_.tmp}};
    if (status == 200) paths.insert("home", QDir::homePath()); // the ready handler's [R21]
    HttpResponse r = HttpResponse::json(status, QJsonObject{{"version", identity_.version},
                                                            {"pid", double(identity_.pid)},
                                                            {"urls", QJsonArray{identity_.url}},
                                                            {"paths", paths}});
    return status == 503 ? withHeader(r, "Retry-After", "1") : r;
}

bool Api::adoptStream(const HttpRequest &request, QTcpSocket *socket) {
    if (request.method != "GET" || request.path != "/api/event" || !ready() ||
        !authorized(request, identity_.password.toUtf8()))
        return false; // handle() answers: 401, 503
    // Interest by location and sessions; none is the global feed [R39].
    const QString directory = queryValue(request, QStringLiteral("location[directory]"));
    QStringList wanted;
    for (const QString &v : QUrlQuery(QString::fromUtf8(request.query))
                                .allQueryItemValues(QStringLiteral("session"), QUrl::FullyDecoded))
        for (const QString &id : v.split(QLatin1Char(',')))
            if (!id.trimmed().isEmpty()) wanted << id.trimmed();
    demo::EventStream::Interest interest;
    if (!directory.isEmpty() || !wanted.isEmpty())
        interest = [directory, wanted](const QJsonObject &e) {
            if (!directory.isEmpty() &&
                e.value("location").toObject().value("directory").toString() != directory)
                return false;
            const QString session = e.value("data").toObject().value("sessionID").toString();
            return wanted.isEmpty() || session.isEmpty() || wanted.contains(session);
        };
    events_.subscribe(socket, interest);
    return true;
}

HttpResponse Api::handle(const HttpRequest &request) {
    const QByteArray password = identity_.password.toUtf8();
    // /api/status always, /api/info until ready: the info body with the state's status [R17].
    if (request.method == "GET" &&
        (request.path == "/api/status" || (request.path == "/api/info" && !ready()))) {
        if (!authorized(request, password)) return unauthorized();
        switch (state_) {
        case ServiceState::Ready:
            return info(200);
        case ServiceState::Failed:
            return info(500);
        case ServiceState::Starting:
        case ServiceState::Stopping:
            return info(503);
        }
    }
    if (!authorized(request, password)) return unauthorized();
    if (!ready()) return unavailable(state_);
    return route(request);
}

HttpResponse Api::route(const HttpRequest &request) {
    const bool get = request.method == "GET";
    const bool post = request.method == "POST";
    const QStringList s = apiSegments(request.path);
    if (get && s == QStringList{"info"}) return info(200);
    if (get && s == QStringList{"health"}) // protocol group server.health [R19]
        return HttpResponse::json(200, QJsonObject{{"healthy", true},
                                                   {"version", identity_.version},
                                                   {"pid", double(identity_.pid)}});
    if (get && s == QStringList{"mcp"}) return mcpList(request);
    if (post && s.size() == 3 && s[0] == QLatin1String("mcp") &&
        (s[2] == QLatin1String("connect") || s[2] == QLatin1String("disconnect"))) {
        const bool found =
            s[2] == QLatin1String("connect") ? mcp_.connect(s[1]) : mcp_.disconnect(s[1]);
        if (found) return noContent();
        return HttpResponse::json(404, QJsonObject{{"_tag", "McpServerNotFoundError"},
                                                   {"name", s[1]},
                                                   {"message", "MCP server not found: " + s[1]}});
    }
    if (get && s == QStringList{"session", "active"}) // [SDK:2229]
        return HttpResponse::json(200, QJsonObject{{"data", sessions_.active()}});
    if (post && s.size() == 3 && s[0] == QLatin1String("session") &&
        s[2] == QLatin1String("interrupt")) {
        if (sessions_.interrupt(s[1])) return noContent();
        return HttpResponse::json(404, QJsonObject{{"_tag", "SessionNotFoundError"},
                                                   {"sessionID", s[1]},
                                                   {"message", "Session not found: " + s[1]}});
    }
    if (post && s == QStringList{"experimental", "persistent-pty", "handoff"} &&
        identity_.ptyHandoff) { // {handoff: {directory, instanceID, ticket, expiresAt}} [R7]
        const QString ticket = QStringLiteral("pty_") + randomToken(18);
        say_(QStringLiteral("pty handoff ticket %1").arg(ticket));
        const qint64 expires = QDateTime::currentMSecsSinceEpoch() + kHandoffLifetimeMs;
        return HttpResponse::json(200,
                                  QJsonObject{{"handoff", QJsonObject{
                                                              {"directory", identity_.location},
                                                              {"instanceID", identity_.id},
                                                              {"ticket", ticket},
                                                              {"expiresAt", double(expires)},
                                                          }}});
    }
    if (post && s == QStringList{"experimental", "persistent-pty", "shutdown"}) { // [R7]
        say_(QStringLiteral("pty shutdown"));
        return noContent();
    }
    if (post && request.path == "/demo/tool-call") return toolCall(request);
    return notFound(); // POST /api/service/stop among them: the removed stop route [R52]
}

HttpResponse Api::mcpList(const HttpRequest &request) const {
    // Location.response: {location: {directory, project: {id, directory}}, data} [R29] [R30].
    const QString asked = queryValue(request, QStringLiteral("location[directory]"));
    if (!asked.isEmpty() && QDir::cleanPath(asked) != QDir::cleanPath(identity_.location))
        return HttpResponse::json(
            501, QJsonObject{{"_tag", "StandinUnsupported"},
                             {"message",
                              "the stand-in serves only its own location, " + identity_.location}});
    const QJsonObject location{
        {"directory", identity_.location},
        {"project", QJsonObject{{"id", "global"}, {"directory", identity_.location}}}};
    return HttpResponse::json(200, QJsonObject{{"location", location}, {"data", mcp_.statuses()}});
}

// Test hook (not opencode): POST /demo/tool-call?tool=NAME&seconds=S[&directory=D].
HttpResponse Api::toolCall(const HttpRequest &request) {
    bool ok = false;
    const int seconds = queryValue(request, QStringLiteral("seconds")).toInt(&ok);
    const QString tool = queryValue(request, QStringLiteral("tool"));
    if (tool.isEmpty() || !ok || seconds < 0 || seconds > kMaxToolCallSeconds)
        return HttpResponse::json(400, QJsonObject{{"error", "tool=NAME&seconds=S (0..86400)"}});
    const QString directory = hasQuery(request, QStringLiteral("directory"))
                                  ? queryValue(request, QStringLiteral("directory"))
                                  : identity_.location;
    const ToolCall c = sessions_.startToolCall(directory, tool, seconds);
    return HttpResponse::json(200, QJsonObject{{"sessionID", c.sessionID},
                                               {"assistantMessageID", c.assistantMessageID},
                                               {"callID", c.callID},
                                               {"tool", c.tool}});
}

} // namespace tether::standin_v2
