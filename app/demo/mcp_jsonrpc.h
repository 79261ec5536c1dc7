// The demo MCP server's protocol: one newline-delimited JSON-RPC 2.0 message in, at most one
// reply out (pure). Speaks initialize, ping, tools/list and tools/call for one "echo" tool.
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace tether::demo {

struct McpServerInfo {
    QString name;
    QString version;
};

// The reply line (compact JSON, no newline) or nullopt for notifications and blank lines.
std::optional<QByteArray> answerMcpMessage(const QByteArray &line, const McpServerInfo &info);

} // namespace tether::demo
