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
    Crashed,          // the service stopped unexpectedly (a restart follows under the budget)
    Restarted,        // a replacement is healthy
    Recovered,        // a service that missed probes answers again
    GaveUp,           // the restart budget is spent: Failed
    PortHeld,         // another program holds the service's port: Failed
    MustFix,          // its arguments or program must change first (policy/failure.h): Failed
    VersionMismatch,  // the service runs another version than the installed one
    Stale,            // a registration named a process that is gone or another one: dropped
    OrphansFound,     // MCP processes of a dead service wait for a person's decision
    McpResources,     // an MCP server is over its memory or CPU limit
    Interrupted,      // a replacement or a stop cut short running tool calls: names them
    StartedElsewhere, // another program started the service while Tether had it stopped
    StoppedElsewhere, // another program stopped the service (it exited and unregistered)
    StateNotSaved,    // a state file could not be written (a full disk): its last copy is kept
};

const char *toString(NoticeKind k); // "crashed", "gave-up", ... (kebab case)
bool fromString(const char *name, NoticeKind *out);

// Critical is kept for what Tether could not mend (it gave up, or cannot start at all); a
// crash it is already restarting is a warning; good news is information.
enum class NoticeSeverity { Information, Warning, Critical };
NoticeSeverity severityOf(NoticeKind k);

// The service as a person knows it: "opencode", "The demo service", "The service" (a phrase of
// the catalogue, policy/words.h).
const char *serviceName(const std::optional<Dialect> &profile);
// The notification's title, whole, with %1 for the service's name: what happened and what
// Tether does about it, without pids (a phrase of the catalogue: the UI translates it, then
// fills in serviceName).
const char *noticeTitleWords(NoticeKind k);
// The same in English, the name filled in.
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

// One notification per incident. A crash is held a moment: if the service runs again within
// kIncidentMs, one notice says both ("stopped unexpectedly and was restarted"); if it gives up or
// needs a person instead, only that is told; if neither comes, the crash is told as it stands
// (still restarting) and its end follows as good news. Good news is otherwise told only as the
// end of bad news a person saw. What a person has just confirmed (a stop that cuts tool calls
// short) is not told back to them. Times are a monotonic clock's, injected.
using NoticeMs = long long;
constexpr NoticeMs kIncidentMs = 10000;
constexpr NoticeMs kConfirmedMs = 30000; // a confirmation covers what follows within this

struct NoticeHistory {
    bool troubleShown = false;           // a crash notice was shown and its end not yet told
    std::optional<NoticeMs> crashHeldAt; // a crash not told yet, waiting for how it ends
    bool cutShort = false;               // the held crash cut tool calls short
    std::optional<NoticeMs> confirmedAt; // a person confirmed interrupting tool calls
};

struct NoticeStep {
    NoticeHistory history;
    std::optional<NoticeKind> show; // the notice to show now, if any
    bool afterCrash = false;        // show is the end of a crash told with it, in one notice
    bool cutShort = false;          // that crash cut tool calls short: say so in the same notice
    std::optional<NoticeMs> wakeAt; // call onNoticeTimer then (a crash is held)
};

NoticeStep onNotice(NoticeHistory h, NoticeKind k, NoticeMs now);
// The time a held crash waited for is up: it is told as it stands.
NoticeStep onNoticeTimer(NoticeHistory h, NoticeMs now);
// A person confirmed a stop, restart or quit that interrupts tool calls.
NoticeHistory onConfirmedInterruption(NoticeHistory h, NoticeMs now);

} // namespace tether::policy
