// Which MCP servers opencode 2.x runs for a location: the config documents it reads, in
// priority order, and the servers each declares in the native or the legacy shape [R33] [R34].
#pragma once

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace tether::standin_v2 {

struct McpServerConfig {
    QString name;
    bool local = true;                  // type "local" (a command) or "remote" (a URL)
    QStringList command;                // local: argv
    QString cwd;                        // local: relative to the location directory
    QMap<QString, QString> environment; // local: over the service's environment
    QString url;                        // remote
    bool disabled = false;
};

// The servers one document declares (lowest priority first): legacy `mcp.<name>` entries
// (`enabled:false` -> disabled; enabled-only entries dropped) under native `mcp.servers.<name>`
// ones, which win a conflict. `servers`/`timeout` are native keys unless they look like a
// direct legacy entry (type local/remote). Malformed entries are skipped [R34] [R35]. Pure.
QList<McpServerConfig> mcpServersOf(const QJsonObject &document);

// A config document: its text and where it came from (a path, or OPENCODE_CONFIG_CONTENT).
struct ConfigDocument {
    QString source;
    QByteArray text;
};

// The config documents of a location, lowest priority first [R59] [R33] [R9]: the global
// directory's opencode.json then opencode.jsonc; OPENCODE_CONFIG; every directory from the root
// down to the location (opencode.json, opencode.jsonc; not when it is the global directory, nor
// with OPENCODE_CONFIG_PROJECT_DISABLE / OPENCODE_DISABLE_PROJECT_CONFIG); their .opencode/
// directories' opencode.json(c), outermost first; OPENCODE_CONFIG_CONTENT. Missing files are
// left out; global files never re-enter through the walk.
QList<ConfigDocument> configDocuments(const QString &location, const QString &globalDirectory,
                                      const QString &home, const QProcessEnvironment &env);

struct LoadedMcpConfig {
    QList<McpServerConfig> servers; // by name; a later document's entry replaces one [R61]
    QStringList rejected;           // sources that are not JSON/JSONC objects
};

LoadedMcpConfig loadMcpConfig(const QList<ConfigDocument> &documents);

} // namespace tether::standin_v2
