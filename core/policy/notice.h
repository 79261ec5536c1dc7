// What a notification is about: one enum, one stable name each (logs, status --json, the tray's
// choice of icon and rate limit). The message itself is prose for a person.
#pragma once

namespace tether::policy {

enum class NoticeKind {
    Crashed,         // the service stopped unexpectedly (a restart follows under the budget)
    Restarted,       // a replacement is healthy
    Recovered,       // a service that missed probes answers again
    GaveUp,          // the restart budget is spent: Failed
    PortHeld,        // another program holds the service's port: Failed
    VersionMismatch, // the service runs another version than the installed one
    Stale,           // a registration named a process that is gone or another one: dropped
    OrphansFound,    // MCP processes of a dead service wait for a person's decision
    McpResources,    // an MCP server is over its memory or CPU limit
    Interrupted,     // a replacement or a stop cut short running tool calls: names them
};

const char *toString(NoticeKind k); // "crashed", "gave-up", ... (kebab case)
bool fromString(const char *name, NoticeKind *out);

} // namespace tether::policy
