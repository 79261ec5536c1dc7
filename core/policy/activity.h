// What the service is doing: busy sessions and running tool calls, folded from the events of its
// stream (opencode 1.x /global/event, the demo's copy). Pure: the shell parses the stream into
// ActivityEvent and injects the clock; nothing here reads a socket or a clock.
#pragma once

#include "policy/recovery.h" // Ms
#include "policy/state.h"

#include <cstddef>
#include <string>
#include <vector>

namespace tether::policy {

enum class ActivityEventKind {
    Connected,   // the stream answered (server.connected, or the response headers)
    Heartbeat,   // server.heartbeat: the event loop runs, nothing else changed
    SessionBusy, // session.status {type: busy} (also "retry": still working)
    SessionIdle, // session.status {type: idle}, or session.idle
    ToolPending, // message.part.updated, tool part in state pending
    ToolRunning, // ... in state running
    ToolEnded,   // ... completed or error
    Other,       // any other event: proof of life only
};

struct ActivityEvent {
    ActivityEventKind kind = ActivityEventKind::Other;
    std::string session;   // session id; empty for server events
    std::string part;      // tool part id (message.part.updated)
    std::string tool;      // tool name as the service names it, e.g. everything_trigger-...
    std::string directory; // the envelope's: where the session works (for a later catch-up)
    // A tool part's age by the service's clock (its state.time.start) when the event was read;
    // -1: unknown (pending). A call first seen mid-way is timed from its real start.
    Ms runningMs = -1;
};

// What the service says it is doing when asked, not told (opencode 1.x /session/status and
// /session/{id}/message): how a (re)connected stream learns of work that started before it.
struct ActivitySnapshotTool {
    std::string session;
    std::string part;
    std::string tool;
    Ms runningMs = 0; // how long it had run when the service answered (its own clock)
};
struct ActivitySnapshot {
    std::vector<std::string> busySessions;
    std::vector<ActivitySnapshotTool> tools; // pending or running parts of those sessions
};

struct BusySession {
    std::string id;
    Ms since = 0;
};

struct RunningTool {
    std::string session;
    std::string tool;
    std::string part;
    Ms since = 0; // when Tether first saw it pending or running
};

// A hostile or runaway stream cannot grow Tether's memory: past the caps new entries are
// dropped (and counted), the oldest are kept, since they are the ones a person asks about.
struct ActivityLimits {
    std::size_t maxSessions = 64;
    std::size_t maxTools = 128;
};

struct Activity {
    std::string identity; // the service process this belongs to (pid + start time), as given
    std::vector<BusySession> sessions;
    std::vector<RunningTool> tools;
    Ms lastEventAt = -1;     // any event, heartbeats included; -1: none since the reset
    Ms lastHeartbeatAt = -1; // server.heartbeat only
    std::size_t dropped = 0; // entries refused by the caps since the reset
    // From a (re)connect until the snapshot is applied: what the stream said in the meantime
    // is newer than the snapshot, whose requests were answered at some point in between.
    bool catchingUp = false;
    std::vector<std::string> seenParts;    // tool parts with an event since the connect
    std::vector<std::string> idleSessions; // sessions the stream called idle since the connect
    bool seenOverflow = false;             // more than the caps: the snapshot cannot be merged
};

// What a replacement or a forced stop cut short, kept for the status and the notification.
struct Interruption {
    std::vector<BusySession> sessions;
    std::vector<RunningTool> tools;
    Ms at = -1; // -1: nothing was ever interrupted
};

Activity applyActivityEvent(Activity a, const ActivityEvent &e, Ms now,
                            const ActivityLimits &limits = {});
// A (re)connected stream: events were missed, and opencode does not replay them, so nothing
// known before can be trusted; the stream rebuilds the picture from here, and a snapshot
// (applyActivitySnapshot) fills in what was already running.
Activity onStreamReconnected(Activity a);
// Merges what the service answered since the connect: its busy sessions, and their tool
// parts still pending or running. The stream's own word since the connect wins (a part it
// reported, a session it called idle); a part the service lists as running in a session it
// does not call busy is left out (after a kill opencode keeps such parts "running" forever).
// Ends the catch-up; an empty snapshot (the requests failed) just ends it.
Activity applyActivitySnapshot(Activity a, const ActivitySnapshot &s, Ms now,
                               const ActivityLimits &limits = {});
// Another process answers now (replaced, restarted, adopted): a tool part a kill interrupted
// stays "running" forever in the new service, so nothing of the old one carries over.
Activity onServiceIdentity(Activity a, const std::string &identity);

bool isBusy(const Activity &a);        // a session works or a tool call runs
bool runsToolCalls(const Activity &a); // what a stop would interrupt
// A person's Stop, Restart or Quit: may it go ahead at once, or must the person say yes first
// (the tray's question, the CLI's --force)? One rule for both: running tool calls are lost work,
// and a quit cuts them short only when it stops the service (policy/quit.h).
enum class PersonAction { Stop, Restart, Quit };
bool needsConsent(PersonAction action, bool quitStopsService, const Activity &a);
// The sessions and tools running now, as what a stop or a replacement at `now` interrupts.
Interruption interruptionOf(const Activity &a, Ms now);

// A change of state that ends the service's work: from serving (Healthy, NotResponding) to
// anything else (a replacement, a stop, a restart, a crash). What ran then was interrupted.
bool interruptsWork(State from, State to);

// Count of busy sessions: those reported busy, plus those with a running tool the stream named
// before (or without) their status.
std::size_t busySessionCount(const Activity &a);

// One line for a person, e.g. "busy: 1 session, tool everything_trigger-long-running-operation
// for 45 s"; "idle" when nothing runs. The tray, the status window and `tether status` share it.
std::string describeActivity(const Activity &a, Ms now);
// For a running service whose profile has no event stream (opencode 2.x, custom): its work cannot
// be seen, so nothing is refused on its account; said rather than shown as "idle".
std::string describeUnseenActivity();
// "tool X (session S) for 45 s, ..." naming every running tool call; for consent and refusals.
std::string describeTools(const std::vector<RunningTool> &tools, Ms now);
// "interrupted: tool X (session S), 1 busy session" for a notification; empty when nothing.
std::string describeInterruption(const Interruption &i);

} // namespace tether::policy
