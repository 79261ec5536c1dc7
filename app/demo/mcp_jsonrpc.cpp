#include "demo/mcp_jsonrpc.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace tether::demo {

namespace {

constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;

const char *const kSupportedVersions[] = {"2025-06-18", "2025-03-26", "2024-11-05"};

QByteArray encode(const QJsonObject &o) {
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QByteArray result(const QJsonValue &id, const QJsonValue &value) {
    return encode({{"jsonrpc", "2.0"}, {"id", id}, {"result", value}});
}

QByteArray error(const QJsonValue &id, int code, const QString &message) {
    return encode({{"jsonrpc", "2.0"},
                   {"id", id},
                   {"error", QJsonObject{{"code", code}, {"message", message}}}});
}

QJsonObject initializeResult(const QJsonObject &params, const McpServerInfo &info) {
    // Answer with the client's version when we know it, else our newest (MCP lifecycle rules).
    QString version = QString::fromLatin1(kSupportedVersions[0]);
    const QString requested = params.value("protocolVersion").toString();
    for (const char *v : kSupportedVersions)
        if (requested == QLatin1String(v)) version = requested;
    return {{"protocolVersion", version},
            {"capabilities", QJsonObject{{"tools", QJsonObject{}}}},
            {"serverInfo", QJsonObject{{"name", info.name}, {"version", info.version}}}};
}

QJsonObject echoTool() {
    const QJsonObject schema{{"type", "object"},
                             {"properties", QJsonObject{{"text", QJsonObject{{"type", "string"}}}}},
                             {"required", QJsonArray{"text"}}};
    return {
        {"name", "echo"}, {"description", "Returns its text argument."}, {"inputSchema", schema}};
}

} // namespace

std::optional<QByteArray> answerMcpMessage(const QByteArray &line, const McpServerInfo &info) {
    if (line.trimmed().isEmpty()) return std::nullopt;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return error(QJsonValue::Null, kParseError, parseError.errorString());
    if (!doc.isObject())
        return error(QJsonValue::Null, kInvalidRequest, QStringLiteral("not a JSON-RPC object"));
    const QJsonObject msg = doc.object();
    const bool hasId = msg.contains("id");
    const QJsonValue id = msg.value("id");
    if (msg.value("jsonrpc") != QLatin1String("2.0") || !msg.value("method").isString()) {
        if (!hasId && (msg.contains("result") || msg.contains("error")))
            return std::nullopt; // a response to nothing we asked: ignore
        return error(hasId ? id : QJsonValue::Null, kInvalidRequest,
                     QStringLiteral("jsonrpc must be \"2.0\" and method a string"));
    }
    if (!hasId) return std::nullopt; // notifications (e.g. notifications/initialized) get no reply

    const QString method = msg.value("method").toString();
    const QJsonObject params = msg.value("params").toObject();
    if (method == QLatin1String("initialize")) return result(id, initializeResult(params, info));
    if (method == QLatin1String("ping")) return result(id, QJsonObject{});
    if (method == QLatin1String("tools/list"))
        return result(id, QJsonObject{{"tools", QJsonArray{echoTool()}}});
    if (method == QLatin1String("tools/call")) {
        if (params.value("name") != QLatin1String("echo"))
            return error(id, kInvalidParams,
                         QStringLiteral("unknown tool %1").arg(params.value("name").toString()));
        const QString text = params.value("arguments").toObject().value("text").toString();
        return result(
            id, QJsonObject{{"content", QJsonArray{QJsonObject{{"type", "text"}, {"text", text}}}},
                            {"isError", false}});
    }
    return error(id, kMethodNotFound, QStringLiteral("method not found: %1").arg(method));
}

} // namespace tether::demo
