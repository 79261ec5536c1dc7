// What a notification is about: one enum, one stable name each (logs, status --json, the tray's
// choice of icon and rate limit). What a person reads is decided here too: the title in plain
// words, how loud it is, and whether good news is worth telling at all.
#pragma once

#include "policy/dialect.h"

#include <optional>
#include <string>
#include <vector>

namespace tether::policy {

enum class NoticeKind {
    Crashed,         // the service stopped unexpectedly (a restart follows under the budget)
    Restarted,       // a replacement is healthy
    Recovered,       // a service that missed probes answers again
    GaveUp,          // the restart budget is spent: Failed
    PortHeld,        // another program holds the service's port: Failed
    MustFix,         // its arguments or program must change first (policy/failure.h): Failed
    VersionMismatch, // the service runs another version than the installed one
    Stale,           // a registration named a process that is gone or another one: dropped
    OrphansFound,    // MCP processes of a dead service wait for a person's decision
    McpResources,    // an MCP server is over its memory or CPU limit
    Interrupted,     // a replacement or a stop cut short running tool calls: names them
};

const char *toString(NoticeKind k); // "crashed", "gave-up", ... (kebab case)
bool fromString(const char *name, NoticeKind *out);

// Critical is kept for what Tether could not mend (it gave up, or cannot start at all); a
// crash it is already restarting is a warning; good news is information.
enum class NoticeSeverity { Information, Warning, Critical };
NoticeSeverity severityOf(NoticeKind k);

// The service as a person knows it: "opencode", "The demo service", "The service".
std::string serviceName(const std::optional<Dialect> &profile);
// The notification's title: what happened and what Tether does about it, without pids.
std::string noticeTitle(NoticeKind k, const std::optional<Dialect> &profile);

// A crash notice's text from the exit reason the log keeps ("pid 12 exited with code 1"): the
// same without the pid ("It exited with code 1.").
std::string crashText(const std::string &why);

// "45 s", "10 min", "3 h": a length of time as a notification says it.
std::string durationWords(long long ms);

// What an interruption cost, for a person: the tools cut short by name (no session ids), or
// only how many sessions were busy. "bash and read were cut short; ask again if needed."
std::string interruptedText(const std::vector<std::string> &tools, long long busySessions);

// "1 process", "3 processes".
std::string countOf(long long n, const char *one, const char *many);

// Good news is told only as the end of bad news a person saw: "running again" follows a shown
// crash notice, once; a recovery nobody was told about needs no notification.
struct NoticeHistory {
    bool troubleShown = false; // a crash notice was shown and its end not yet told
};
bool mayNotify(const NoticeHistory &h, NoticeKind k);
NoticeHistory afterShown(NoticeHistory h, NoticeKind k); // after a notice of k was shown

} // namespace tether::policy
