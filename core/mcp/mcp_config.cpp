#include "mcp/mcp_config.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>

namespace tether::mcp {

namespace {

// Names and error texts end up in menus and logs: keep them bounded.
constexpr qsizetype kMaxTextChars = 4096;

std::string text(const QString &s) {
    return s.left(kMaxTextChars).toStdString();
}

const char *typeName(const QJsonValue &v) {
    switch (v.type()) {
    case QJsonValue::Null:
        return "null";
    case QJsonValue::Bool:
        return "a boolean";
    case QJsonValue::Double:
        return "a number";
    case QJsonValue::String:
        return "a string";
    case QJsonValue::Array:
        return "an array";
    case QJsonValue::Object:
        return "an object";
    case QJsonValue::Undefined:
        return "missing";
    }
    return "unknown";
}

// Parses the body into a document, or explains why not.
bool parseDocument(const QByteArray &body, QJsonDocument *doc, std::string *error) {
    if (body.size() > kMaxBodyBytes) {
        *error = "body too large (" + std::to_string(body.size()) + " bytes, limit " +
                 std::to_string(kMaxBodyBytes) + ")";
        return false;
    }
    if (body.trimmed().isEmpty()) {
        *error = "empty body";
        return false;
    }
    QJsonParseError pe{};
    *doc = QJsonDocument::fromJson(body, &pe);
    if (pe.error != QJsonParseError::NoError) {
        *error = "not JSON: " + pe.errorString().toStdString() + " at offset " +
                 std::to_string(pe.offset);
        return false;
    }
    return true;
}

} // namespace

bool parseMcpEntry(const QString &name, const QJsonValue &value, McpEntry *out, std::string *why) {
    if (!value.isObject()) {
        *why = std::string("is ") + typeName(value) + ", not an object";
        return false;
    }
    const QJsonObject o = value.toObject();
    McpEntry e;
    e.name = text(name);

    const QJsonValue type = o.value(QStringLiteral("type"));
    if (type.isString() && type.toString() == QStringLiteral("local")) {
        e.type = McpEntry::Type::Local;
    } else if (type.isString() && type.toString() == QStringLiteral("remote")) {
        e.type = McpEntry::Type::Remote;
    } else {
        *why = type.isString() ? "has unknown type \"" + text(type.toString()) + "\""
                               : std::string("has type ") + typeName(type);
        return false;
    }

    const QJsonValue enabled = o.value(QStringLiteral("enabled"));
    if (enabled.isBool())
        e.enabled = enabled.toBool();
    else if (!enabled.isUndefined() && !enabled.isNull()) {
        *why = std::string("has \"enabled\" that is ") + typeName(enabled);
        return false;
    }
    // opencode 2.x's native shape says the opposite (docs/opencode2-protocol.md, MCP).
    const QJsonValue disabled = o.value(QStringLiteral("disabled"));
    if (disabled.isBool())
        e.enabled = !disabled.toBool();
    else if (!disabled.isUndefined() && !disabled.isNull()) {
        *why = std::string("has \"disabled\" that is ") + typeName(disabled);
        return false;
    }

    if (e.type == McpEntry::Type::Local) {
        const QJsonValue command = o.value(QStringLiteral("command"));
        if (!command.isArray() || command.toArray().isEmpty()) {
            *why = std::string("is local but \"command\" is ") +
                   (command.isArray() ? "empty" : typeName(command));
            return false;
        }
        for (const QJsonValue &arg : command.toArray()) {
            if (!arg.isString()) {
                *why = std::string("has a command element that is ") + typeName(arg);
                return false;
            }
            e.command.push_back(arg.toString().toStdString());
        }
        if (e.command.front().empty()) {
            *why = "has an empty program name";
            return false;
        }
        const QJsonValue env = o.value(QStringLiteral("environment"));
        if (env.isObject()) {
            const QJsonObject envObj = env.toObject();
            for (auto it = envObj.begin(); it != envObj.end(); ++it) {
                if (it.value().isString())
                    e.environment.emplace_back(it.key().toStdString(),
                                               it.value().toString().toStdString());
            }
        }
    } else {
        const QJsonValue url = o.value(QStringLiteral("url"));
        if (!url.isString()) {
            *why = std::string("is remote but \"url\" is ") + typeName(url);
            return false;
        }
        e.url = text(url.toString());
    }
    *out = std::move(e);
    return true;
}

namespace {

template <typename T> void sortByName(std::vector<T> *v) {
    std::stable_sort(v->begin(), v->end(), [](const T &a, const T &b) { return a.name < b.name; });
}

} // namespace

ConfigParse parseConfig(const QByteArray &body) {
    ConfigParse r;
    QJsonDocument doc;
    if (!parseDocument(body, &doc, &r.error)) return r;
    if (!doc.isObject()) {
        r.error = "config is not a JSON object";
        return r;
    }
    const QJsonValue mcp = doc.object().value(QStringLiteral("mcp"));
    if (mcp.isUndefined() || mcp.isNull()) {
        r.ok = true;
        return r;
    }
    if (!mcp.isObject()) {
        r.error = std::string("\"mcp\" is ") + typeName(mcp) + ", not an object";
        return r;
    }
    const QJsonObject entries = mcp.toObject();
    for (auto it = entries.begin(); it != entries.end(); ++it) {
        McpEntry e;
        std::string why;
        if (parseMcpEntry(it.key(), it.value(), &e, &why))
            r.entries.push_back(std::move(e));
        else
            r.warnings.push_back("mcp entry \"" + text(it.key()) + "\" " + why + ": skipped");
    }
    sortByName(&r.entries);
    r.ok = true;
    return r;
}

McpServerStatus normalizeStatus(std::string name, const std::string &rawStatus,
                                const std::string &error) {
    static const char *const known[] = {status::Connected, status::Pending,
                                        status::Disabled,  status::Failed,
                                        status::NeedsAuth, status::NeedsClientRegistration};
    McpServerStatus s;
    s.name = std::move(name);
    for (const char *k : known) {
        if (rawStatus == k) {
            s.status = k;
            s.error = error;
            return s;
        }
    }
    s.status = status::Unknown;
    s.error = rawStatus.empty() ? std::string("no status reported")
                                : "unrecognised status \"" + rawStatus + "\"";
    if (!error.empty()) s.error += ": " + error;
    return s;
}

namespace {

// One server's {status, error?} object; `name` comes from the key (1.x) or the field (2.x).
McpServerStatus statusFrom(const std::string &name, const QJsonObject &o) {
    const QJsonValue st = o.value(QStringLiteral("status"));
    const QJsonValue err = o.value(QStringLiteral("error"));
    std::string raw = st.isString() ? text(st.toString()) : std::string();
    std::string error = err.isString() ? text(err.toString()) : std::string();
    if (!st.isString() && !st.isUndefined())
        error = std::string("status is ") + typeName(st) + (error.empty() ? "" : ": " + error);
    return normalizeStatus(name, raw, error);
}

} // namespace

StatusParse parseStatusV1(const QByteArray &body) {
    StatusParse r;
    QJsonDocument doc;
    if (!parseDocument(body, &doc, &r.error)) return r;
    if (!doc.isObject()) {
        r.error = "MCP status is not a JSON object";
        return r;
    }
    const QJsonObject servers = doc.object();
    for (auto it = servers.begin(); it != servers.end(); ++it) {
        if (!it.value().isObject()) {
            r.warnings.push_back("MCP status of \"" + text(it.key()) + "\" is " +
                                 typeName(it.value()) + ": skipped");
            continue;
        }
        r.servers.push_back(statusFrom(text(it.key()), it.value().toObject()));
    }
    sortByName(&r.servers);
    r.ok = true;
    return r;
}

StatusParse parseStatusV2(const QByteArray &body) {
    StatusParse r;
    QJsonDocument doc;
    if (!parseDocument(body, &doc, &r.error)) return r;
    // opencode 2.x answers Location.response(Array<Mcp.Server>): {location, data}
    // (docs/opencode2-protocol.md, MCP).
    if (!doc.isObject()) {
        r.error = "MCP status is not a JSON object with \"location\" and \"data\"";
        return r;
    }
    const QJsonObject envelope = doc.object();
    const QJsonValue data = envelope.value(QStringLiteral("data"));
    if (!data.isArray()) {
        r.error = std::string("MCP status \"data\" is ") + typeName(data) + ", not an array";
        return r;
    }
    const QJsonObject location = envelope.value(QStringLiteral("location")).toObject();
    r.directory = text(location.value(QStringLiteral("directory")).toString());
    r.projectDirectory =
        text(location.value(QStringLiteral("project")).toObject().value("directory").toString());
    const QJsonArray servers = data.toArray();
    for (qsizetype i = 0; i < servers.size(); ++i) {
        const QJsonValue v = servers.at(i);
        const QJsonValue name = v.toObject().value(QStringLiteral("name"));
        if (!v.isObject() || !name.isString() || name.toString().isEmpty()) {
            r.warnings.push_back("MCP status element " + std::to_string(i) +
                                 " has no name: skipped");
            continue;
        }
        // Mcp.Status is a union tagged by "status": {status: "failed", error: "..."}.
        const QJsonValue status = v.toObject().value(QStringLiteral("status"));
        McpServerStatus s = status.isObject()
                                ? statusFrom(text(name.toString()), status.toObject())
                                : normalizeStatus(text(name.toString()), {},
                                                  std::string("status is ") + typeName(status));
        const QJsonValue integration = v.toObject().value(QStringLiteral("integrationID"));
        if (integration.isString()) s.integrationId = text(integration.toString());
        r.servers.push_back(std::move(s));
    }
    sortByName(&r.servers);
    r.ok = true;
    return r;
}

} // namespace tether::mcp
