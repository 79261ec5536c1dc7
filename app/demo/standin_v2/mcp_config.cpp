#include "demo/standin_v2/mcp_config.h"

#include "demo/standin_v2/jsonc.h"
#include "demo/standin_v2/locations.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

namespace tether::standin_v2 {

namespace {

const QStringList kNames{QStringLiteral("opencode.json"), QStringLiteral("opencode.jsonc")};

std::optional<QStringList> stringList(const QJsonValue &v) {
    if (!v.isArray()) return std::nullopt;
    QStringList out;
    for (const QJsonValue &item : v.toArray()) {
        if (!item.isString()) return std::nullopt;
        out << item.toString();
    }
    return out;
}

std::optional<QMap<QString, QString>> stringMap(const QJsonValue &v) {
    if (!v.isObject()) return std::nullopt;
    QMap<QString, QString> out;
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (!it.value().isString()) return std::nullopt;
        out.insert(it.key(), it.value().toString());
    }
    return out;
}

bool optionalBool(const QJsonObject &o, const char *key, bool &out) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined()) return true;
    if (!v.isBool()) return false;
    out = v.toBool();
    return true;
}

// One entry, native (LocalConfig | RemoteConfig [R27]) or legacy (1.x: enabled instead of
// disabled, no cwd [R35]); nullopt when it does not decode.
std::optional<McpServerConfig> decodeServer(const QString &name, const QJsonValue &value,
                                            bool legacy) {
    if (!value.isObject()) return std::nullopt;
    const QJsonObject o = value.toObject();
    McpServerConfig s;
    s.name = name;
    const QString type = o.value(QLatin1String("type")).toString();
    if (type == QLatin1String("local")) {
        const std::optional<QStringList> command = stringList(o.value(QLatin1String("command")));
        if (!command) return std::nullopt;
        s.command = *command;
        if (const QJsonValue env = o.value(QLatin1String("environment")); !env.isUndefined()) {
            const std::optional<QMap<QString, QString>> map = stringMap(env);
            if (!map) return std::nullopt;
            s.environment = *map;
        }
        if (const QJsonValue cwd = o.value(QLatin1String("cwd")); !legacy && !cwd.isUndefined()) {
            if (!cwd.isString()) return std::nullopt;
            s.cwd = cwd.toString();
        }
    } else if (type == QLatin1String("remote")) {
        if (!o.value(QLatin1String("url")).isString()) return std::nullopt;
        s.local = false;
        s.url = o.value(QLatin1String("url")).toString();
    } else {
        return std::nullopt;
    }
    if (legacy) {
        bool enabled = true;
        if (!optionalBool(o, "enabled", enabled)) return std::nullopt;
        s.disabled = !enabled;
    } else if (!optionalBool(o, "disabled", s.disabled)) {
        return std::nullopt;
    }
    return s;
}

bool directLegacy(const QJsonValue &v) {
    const QString type = v.toObject().value(QLatin1String("type")).toString();
    return v.isObject() && (type == QLatin1String("local") || type == QLatin1String("remote"));
}

bool enabledOnly(const QJsonValue &v) {
    const QJsonObject o = v.toObject();
    return v.isObject() && !o.contains(QLatin1String("type")) &&
           o.value(QLatin1String("enabled")).isBool();
}

// Replaces the entry of the same name, or appends.
void put(QList<McpServerConfig> &servers, const McpServerConfig &server) {
    for (McpServerConfig &s : servers)
        if (s.name == server.name) {
            s = server;
            return;
        }
    servers << server;
}

// fs.resolve: symbolic links followed; a missing file resolves through its directory.
QString resolved(const QString &path) {
    const QFileInfo info(path);
    if (info.exists()) return info.canonicalFilePath();
    const QString dir = QFileInfo(info.absolutePath()).canonicalFilePath();
    return (dir.isEmpty() ? info.absolutePath() : dir) + QLatin1Char('/') + info.fileName();
}

void addFile(QList<ConfigDocument> &out, const QString &path) {
    QFile f(path);
    if (!QFileInfo(path).isFile() || !f.open(QIODevice::ReadOnly)) return;
    out << ConfigDocument{QDir::cleanPath(path), f.readAll()};
}

} // namespace

QList<McpServerConfig> mcpServersOf(const QJsonObject &document) {
    const QJsonValue mcp = document.value(QLatin1String("mcp"));
    if (!mcp.isObject()) return {};
    QList<McpServerConfig> legacy, native;
    const QJsonObject entries = mcp.toObject();
    for (auto it = entries.begin(); it != entries.end(); ++it) {
        const QString &name = it.key();
        const QJsonValue value = it.value();
        if (enabledOnly(value)) continue;
        if (name == QLatin1String("servers") && !directLegacy(value)) {
            const QJsonObject servers = value.toObject();
            for (auto s = servers.begin(); s != servers.end(); ++s)
                if (const auto server = decodeServer(s.key(), s.value(), false))
                    put(native, *server);
            continue;
        }
        if (name == QLatin1String("timeout") && !directLegacy(value)) continue;
        if (const auto server = decodeServer(name, value, true)) put(legacy, *server);
    }
    for (const McpServerConfig &s : std::as_const(native))
        put(legacy, s);
    return legacy;
}

QList<ConfigDocument> configDocuments(const QString &location, const QString &globalDirectory,
                                      const QString &home, const QProcessEnvironment &env) {
    QList<ConfigDocument> out;
    for (const QString &name : kNames)
        addFile(out, globalDirectory + QLatin1Char('/') + name);
    if (const QString file = env.value(QStringLiteral("OPENCODE_CONFIG")); !file.isEmpty())
        addFile(out, QDir(location).absoluteFilePath(file));

    const QString projectSwitch =
        env.contains(QStringLiteral("OPENCODE_CONFIG_PROJECT_DISABLE"))
            ? env.value(QStringLiteral("OPENCODE_CONFIG_PROJECT_DISABLE"))
            : env.value(QStringLiteral("OPENCODE_DISABLE_PROJECT_CONFIG"));
    QStringList walk; // the location first, the root last
    if (!truthy(projectSwitch) && resolved(location) != resolved(globalDirectory)) {
        QDir dir(QDir::cleanPath(QDir(location).absolutePath()));
        for (;;) {
            walk << dir.absolutePath();
            if (dir.isRoot() || !dir.cdUp()) break;
        }
    }
    const QStringList globalPaths{resolved(globalDirectory),
                                  resolved(home + QStringLiteral("/.claude")),
                                  resolved(home + QStringLiteral("/.agents")),
                                  resolved(globalDirectory + QStringLiteral("/opencode.json")),
                                  resolved(globalDirectory + QStringLiteral("/opencode.jsonc"))};
    const auto visible = [&](const QString &path) { return !globalPaths.contains(resolved(path)); };
    QStringList direct, project;
    for (auto it = walk.crbegin(); it != walk.crend(); ++it) { // the root first
        const QString base = *it == QLatin1String("/") ? QString() : *it;
        for (const QString &name : kNames)
            if (visible(base + QLatin1Char('/') + name)) direct << base + QLatin1Char('/') + name;
        if (const QString dot = base + QStringLiteral("/.opencode"); visible(dot)) project << dot;
    }
    for (const QString &path : std::as_const(direct))
        addFile(out, path);
    for (const QString &dir : std::as_const(project))
        for (const QString &name : kNames)
            addFile(out, dir + QLatin1Char('/') + name);
    if (env.contains(QStringLiteral("OPENCODE_CONFIG_CONTENT")))
        out << ConfigDocument{QStringLiteral("OPENCODE_CONFIG_CONTENT"),
                              env.value(QStringLiteral("OPENCODE_CONFIG_CONTENT")).toUtf8()};
    return out;
}

LoadedMcpConfig loadMcpConfig(const QList<ConfigDocument> &documents) {
    LoadedMcpConfig loaded;
    for (const ConfigDocument &d : documents) {
        const std::optional<QJsonDocument> doc = parseJsonc(d.text);
        if (!doc || !doc->isObject()) {
            loaded.rejected << d.source;
            continue;
        }
        for (const McpServerConfig &s : mcpServersOf(doc->object()))
            put(loaded.servers, s);
    }
    return loaded;
}

} // namespace tether::standin_v2
