// The service's view of its MCP servers: the configured entries (opencode 1.x `GET /config`,
// "mcp" object; 2.x has no such route: see opencode_config.h) and their connection status
// (1.x `GET /mcp`, 2.x `GET /api/mcp`).
// Parsers are defensive: any input, however wrong, yields a result with a clear error.
#pragma once

#include <QByteArray>
#include <QJsonValue>

#include <string>
#include <utility>
#include <vector>

namespace tether::mcp {

struct McpEntry {
    enum class Type { Local, Remote };
    std::string name;
    Type type = Type::Local;
    std::vector<std::string> command; // Local: program + arguments, as the service runs it
    std::string url;                  // Remote
    bool enabled = true;              // opencode's default when "enabled" is absent
    std::vector<std::pair<std::string, std::string>> environment;
};

struct ConfigParse {
    bool ok = false;
    std::string error;                 // set when !ok: the body as a whole is unusable
    std::vector<McpEntry> entries;     // sorted by name
    std::vector<std::string> warnings; // entries skipped because they were malformed
};

// Bodies larger than this are refused unparsed (a real config is a few KiB).
constexpr qsizetype kMaxBodyBytes = 8 * 1024 * 1024;

// The whole `GET /config` body. A config without "mcp" is fine: no entries.
ConfigParse parseConfig(const QByteArray &body);
// One MCP entry {type, command | url, enabled? | disabled?, environment?}; false with why.
bool parseMcpEntry(const QString &name, const QJsonValue &value, McpEntry *out, std::string *why);

// Stable status names; anything the service reports beyond these becomes "unknown" with the
// raw value kept in `error`.
namespace status {
inline constexpr const char *Connected = "connected";
inline constexpr const char *Pending = "pending"; // 2.x: configured, not connected yet
inline constexpr const char *Disabled = "disabled";
inline constexpr const char *Failed = "failed";
inline constexpr const char *NeedsAuth = "needs_auth";
inline constexpr const char *NeedsClientRegistration = "needs_client_registration";
inline constexpr const char *Unknown = "unknown";
} // namespace status

struct McpServerStatus {
    std::string name;
    std::string status; // one of the names in mcp::status
    std::string error;
    std::string integrationId; // 2.x only
};

struct StatusParse {
    bool ok = false;
    std::string error;
    std::vector<McpServerStatus> servers; // sorted by name
    std::vector<std::string> warnings;
    // 2.x: the location the list is for (its config files are found from there).
    std::string directory;
    std::string projectDirectory;
};

// opencode 1.x `GET /mcp`: {name: {status, error?}}.
StatusParse parseStatusV1(const QByteArray &body);
// opencode 2.x `GET /api/mcp`: {location: {directory, project: {directory}}, data: [{name,
// status: {status, error?}, integrationID?}]} (docs/opencode2-protocol.md).
StatusParse parseStatusV2(const QByteArray &body);

// Maps a reported status (+ error) onto the stable names.
McpServerStatus normalizeStatus(std::string name, const std::string &rawStatus,
                                const std::string &error);

} // namespace tether::mcp
