// Where opencode 2.x's MCP commands are: its own config files. The service has no route that
// gives them (docs/opencode2-protocol.md, MCP), and without them Tether cannot tell which of
// the service's children is which MCP server, so nothing would enter the ledger or be cleaned
// after a crash. opencode reads opencode.json / opencode.jsonc from its global config folder,
// OPENCODE_CONFIG, every folder from the root down to the location, their .opencode/ folders,
// and OPENCODE_CONFIG_CONTENT, later ones overriding earlier ones by server name; a file has
// the native shape (mcp.servers.<name>, `disabled`) or the 1.x one (mcp.<name>, `enabled`).
#pragma once

#include "mcp/mcp_config.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <vector>

namespace tether::mcp {

// JSONC (// and /* */ comments, trailing commas) as JSON; strings are kept as they are.
QByteArray jsoncToJson(const QByteArray &text);

// One config document's MCP entries (pure). A document without "mcp" has none; a malformed
// entry is skipped with a warning; on the same name the native entry wins over the 1.x one.
ConfigParse parseOpencodeConfig(const QByteArray &text);

// What opencode reads its config locations from (this process's environment by default).
struct OpencodeConfigEnvironment {
    QString home;
    QString configHome;   // $XDG_CONFIG_HOME, else ~/.config
    QString configFile;   // OPENCODE_CONFIG
    QString configDir;    // OPENCODE_CONFIG_DIR: one more folder of config files
    QByteArray content;   // OPENCODE_CONFIG_CONTENT: inline JSON, read last
    bool projects = true; // false: OPENCODE_DISABLE_PROJECT_CONFIG is set
};
OpencodeConfigEnvironment opencodeConfigEnvironment();

// The files that may hold config for `directory`, lowest priority first (pure; not checked).
QStringList opencodeConfigFiles(const OpencodeConfigEnvironment &env, const QString &directory);

struct OpencodeMcpConfig {
    std::vector<McpEntry> entries; // merged, sorted by name
    std::vector<std::string> warnings;
    QStringList sources; // the files that were read (and "OPENCODE_CONFIG_CONTENT")
};

// One document per source, lowest priority first; a later entry replaces an earlier one.
OpencodeMcpConfig mergeOpencodeConfigs(const std::vector<std::pair<QString, ConfigParse>> &docs);

// Reads the files (each at most kMaxConfigFileBytes; a missing one is skipped).
inline constexpr qint64 kMaxConfigFileBytes = 1024 * 1024;
OpencodeMcpConfig readOpencodeMcpConfig(const OpencodeConfigEnvironment &env,
                                        const QString &directory);

} // namespace tether::mcp
