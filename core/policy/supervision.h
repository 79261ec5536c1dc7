// The whole supervision as one pure transition function: (state, event, now) -> (state,
// commands). State is plain data (what the user wants, the tracked service, the window, the
// budget, what is in flight); events are what the shell observed; commands are what the shell
// carries out. Nothing here reads a clock, a file, a socket or the process table, so every
// sequence can be replayed in a test against a simulated world (tests/policy/tst_supervision_*).
//
// Where is a kill decided? Here, in step(): a terminating RunStopPlan is only ever issued right
// after facts that prove the identity and the port, through decideKill: a Verified event, or
// the start-up facts of Tether's own registration (a service it started, still on the port it
// registered, stopped before a start on another port). Where is it carried out? In the shell's
// stop-plan runner, which re-verifies every signal right before sending it.
#pragma once

#include "os/types.h"
#include "policy/failure.h"
#include "policy/notice.h"
#include "policy/recovery.h"
#include "policy/state.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tether::policy {

// ---- Where a service listens ------------------------------------------------------------------

enum class Family { V4, V6 };

struct Listener {
    os::Pid pid = 0; // 0: the owner could not be read (another user's process, wine)
    Family family = Family::V4;
    bool wildcard = false; // 0.0.0.0 or :: (a v6 wildcard may also take v4: dual stack)
    std::string owner;     // "PID 12 (node)", for a person
};

struct PortFacts {
    bool readable = false; // false: the tables could not be read at all
    std::vector<Listener> listeners;
};

// servicePid 0: nobody is the service (a launch is being considered).
PortHolder portHolder(const PortFacts &facts, os::Pid servicePid, Family family);
// Where the service itself listens, when the facts show it (else nullopt).
std::optional<Family> serviceFamily(const PortFacts &facts, os::Pid servicePid);

// ---- Which process is the service -------------------------------------------------------------
// The launched process may only be a wrapper: an npm install on Windows runs opencode.cmd ->
// cmd.exe -> node -> opencode.exe, and the last one listens. The service is the launched process
// and its descendants; its port owner may be any one of them.
//
// Whether pid descends from root in `processes`: every step of its parent chain is listed, the
// chain reaches root with root's own start time, and no process started before its parent (a
// stale parent pid, reused on Windows, names a process that started after its "child").
bool descendsFrom(os::Pid pid, const os::Identity &root,
                  const std::vector<os::ProcessInfo> &processes);
// The pid that holds the port for the service: root itself when it listens (or when nothing in
// its tree visibly does), else the first listener that descends from root. Pass the result to
// portHolder / serviceFamily: a descendant that owns the port then counts as the service.
os::Pid servicePortOwner(const os::Identity &root, const PortFacts &facts,
                         const std::vector<os::ProcessInfo> &tree);

// ---- Configuration (from settings and the resolved profile) ----------------------------------

struct SupervisionConfig {
    Timings timings;
    int port = 4096; // 0: the service picks its own (opencode 2.x; the facts say which)
    bool autoReplaceOnVersionChange = false;
    std::string installedVersion;
    bool selfRegistering = false; // opencode 2.x: the service writes its own registration
    // A start may take at least this long, whatever the settings say (opencode 2.x: its own
    // clients wait 120 s for a service to get ready; killing it sooner fights them).
    Ms minStartupDeadlineMs = 0;
    bool hostPinned = true;           // the launch names its address (opencode, demo); custom: not
    Family launchFamily = Family::V4; // where a launched service listens (its --hostname)
    std::string profileError;         // non-empty: the profile cannot run; a start fails with it
    bool cleanOrphans = true;         // [orphans] whileRunning = clean: a dead service's group goes
    Ms orphanGraceMs = 500;           // [orphans] graceMs: TERM -> KILL for what a service left
};

// Settings that make one missed probe fatal (DESIGN rule 1 needs several probes per window).
enum class TimingsConflict {
    None,
    TimeoutNotBelowWindow, // probe timeout >= recovery window
    IntervalAboveWindow,   // probe interval > recovery window
};
TimingsConflict timingsConflict(const Timings &t);
// The same for the log: the offending key and why, or empty when the timings are consistent.
std::string timingsProblem(const Timings &t);

// ---- State ------------------------------------------------------------------------------------

enum class Want { Stopped, Running };

enum class Phase {
    Idle,       // nothing tracked (Stopped, or Failed when `failure` is set)
    Resolving,  // asked for the start-up facts: registration, its process, the port
    Launching,  // Launch issued: waiting for Launched / LaunchFailed
    Starting,   // tracked, probing until its first healthy answer
    Running,    // tracked and answered: Healthy or NotResponding (see `responding`)
    Verifying,  // asked for identity + port facts before a stop plan
    Stopping,   // a stop plan runs (terminate, group, orphans)
    Cleaning,   // the service is gone: the stop plan's remnant part (group, orphans) runs
    BackingOff, // waiting for the restart timer
    Released,   // quit with the service left running: inert from here on
};
const char *toString(Phase p);

// Why a stop plan runs; what follows it is decided by `want`, not by the cause.
enum class StopCause {
    User,
    Restart,
    Recovery,
    StartupTimeout,
    VersionUpdate,
    PortChange,
    Settings,    // settings that change the service itself (program, arguments, profile, ...)
    StartFailed, // it answered that its start failed (opencode 2.x: /api/info 500)
    Crash,       // the service died by itself: only the remnant part runs
    External,    // another program stopped it (opencode 2.x: it exited and unregistered)
    Replaced, // another program replaced it (opencode 2.x: a new owner registered after its exit)
};
const char *toString(StopCause c);

enum class Timer { Probe, Window, Restart, Resolve, Verify };
inline constexpr int kTimerCount = 5;

// opencode 2.x: how long an owner that exited and unregistered is given to be replaced by
// another client (opencode's ensure() stops the old service, then starts a new one at once,
// which registers in ~250 ms) before Tether takes it as stopped by that client. What it left
// is cleaned up after that wait.
inline constexpr Ms kSuccessorWaitMs = 10000;

struct TrackedService {
    os::Identity id;       // start time 0 until the launcher reports it
    os::Pid pgid = 0;      // the group it leads (containment); 0: none of ours
    bool ourChild = false; // launched by this Tether: its exit is reported by the launcher
    bool external = false; // adopted, and not started by a Tether (opencode 2.x elsewhere)
    int port = 0;
    Family family = Family::V4; // where it is probed
    std::string password;       // sent with every probe (Basic auth)
    std::string program;        // what was started (registration's `program`)
    std::string managedId;      // opencode 2.x: the registration id being followed
    std::uint64_t goneBy = 0;   // start-time token by which it was seen gone (0: alive)
    // Its exit was reported by the launcher (our child, reaped just now): only then is its
    // group id known not to have been free, and so not reused, since it died.
    bool exitWitnessed = false;
    // A clean-up ran without its group (no exit witnessed yet): owed once the exit is.
    bool groupLeftOut = false;
};

struct SupervisionState {
    SupervisionConfig config;
    Want want = Want::Stopped;
    bool quitting = false; // no new service after this, except to leave one running
    bool leaveRunningOnQuit = false;
    Phase phase = Phase::Idle;
    std::optional<TrackedService> svc;
    bool responding = true;             // Running: Healthy (true) or NotResponding (false)
    std::optional<std::string> failure; // Idle and set: Failed, for this reason
    // Failed (or about to be) because a setting must change first: no retry (policy/failure.h).
    FixFirst fixFirst = FixFirst::Nothing;
    std::string lastError;

    RecoveryWindow window;
    RestartBudget budget;
    // Times are on the injected monotonic clock, which may be any value (negative too, after a
    // clock set back): "none" is an empty optional, never a magic number.
    std::optional<Ms> stableSince; // run without a failure since (busy spells included)
    int startupAttempt = 0;
    std::optional<Ms> startupDeadline; // none for adopted services
    std::optional<Ms> waitingSince;    // a registered owner (2.x or our own) not listening yet
    std::optional<Ms> notReadySince;   // answers "not ready" (503) since: starting or stopping
    std::optional<Ms> successorSince;  // opencode 2.x: its owner exited unregistered; waiting
                                       // for another client's replacement to register
    int launchPort = 0;                // where a launch will listen (the start-up facts')
    std::optional<Ms> refusedSince;    // verifications refused (cannot tell) since
    // A stop found the tracked pid alive but not on the port (rule 3: never signalled): what a
    // person who asked for it to be gone is told, instead of "stopped".
    std::string leftRunning;
    bool releasedStarting = false; // Released before its first answer: still Starting, not Healthy

    std::uint64_t probeSeq = 0; // the probe in flight (0: none)
    std::uint64_t lastSeq = 0;
    Ms probeSentAt = 0;
    std::optional<Ms> due[kTimerCount]; // when each timer fires (empty: not running)

    std::string version;
    bool versionMismatch = false;
    bool versionNoticed = false;
    bool versionReplaced = false; // an automatic update replacement happened: only flag now
    bool toolCallsRun = false;    // the stream says tool calls run (ActivityChanged)
    bool updateWaiting = false;   // an automatic update replacement waits for them to end

    StopCause stopCause = StopCause::User;
    bool noticeOnHealthy = false; // a replacement is on its way: say so once it is healthy
    // Tether's own launch was stopped because another owner registered first: a launch after
    // it (that owner gone in between) is an automatic relaunch, spent from the budget.
    bool relaunchAfterReplaced = false;
    int restarts = 0;
    Ms lastAnswerLatency = -1;
    std::string reason;      // why the last transition happened, for the log and the UI
    std::string exitPending; // opencode 2.x: the owner exited; its registration is re-read
    // Settings that change the service, accepted while one is tracked: applied once it has
    // ended (a newer change replaces them; a quit drops them).
    std::optional<SupervisionConfig> pendingConfig;
};

// The one enum a person sees (icon, status --json).
State displayState(const SupervisionState &s);
// A stop plan or a clean-up is under way: quitting now would leave work half done.
bool settling(const SupervisionState &s);

// What happens next without a person, for the words a person reads ("it will be replaced in
// 18 s if it does not answer", "starting again in 4 s"): how long until the recovery window
// of a not-responding service is spent, until a backed-off restart, and until a start that has
// not answered yet runs out of its start-up deadline (the one the probes check,
// SupervisionState::startupDeadline; none for an adopted service). Empty when nothing is
// planned. A spent window without a fresh miss waits for the next probe: 0.
struct NextSteps {
    std::optional<Ms> replaceInMs;
    std::optional<Ms> restartInMs;
    std::optional<Ms> startupDeadlineInMs;
};
NextSteps nextSteps(const SupervisionState &s, Ms now);

// ---- Events (observations) ---------------------------------------------------------------------

struct StartRequested {};
struct StopRequested {};
struct RestartRequested {};
struct QuitRequested {
    bool stopService = false; // [app] stopServiceOnQuit (or a logout configured so)
};
// New settings. One that changes the service itself (serviceChanged, or a new port) waits in
// `pendingConfig` while a service is tracked: that one is stopped first, and the next start
// uses them. Any other change applies at once. Either way ApplySettings says when.
struct SettingsChanged {
    SupervisionConfig config;
    bool serviceChanged = false; // the profile, program, arguments, health path or state dir
};
struct TimerFired {
    Timer timer;
};
struct TimeGap { // the OS said the machine slept, or Tether was stalled
    std::string why;
};
// Where an answering service says its start stands (opencode 2.x GET /api/info).
enum class Boot {
    Ready,    // a plain answer, healthy or not
    Starting, // 503: it is booting (or shutting down): alive, not ready
    Failed,   // 500: its boot failed; it stays alive and will not get ready
};
struct ProbeAnswered {
    std::uint64_t seq = 0;
    bool healthy = false;
    std::string version; // empty when the answer has none
    std::string error;   // why unhealthy
    Boot boot = Boot::Ready;
};
struct ProbeMissed {
    std::uint64_t seq = 0;
    bool refused = false; // connection refused: nothing listens at that address
    std::string why;
};

// Tether's own registration of the service it started (1.x, custom, demo).
struct RegistrationFacts {
    enum class Read { Missing, Invalid, Ok } read = Read::Missing;
    std::string error; // Invalid: why
    os::Identity id;
    os::Pid pgid = 0;
    int port = 0;
    std::string password;
    std::string program;
    std::string version;
    Liveness life = Liveness::Unknown; // Different: a live pid that runs another program
    PortFacts portFacts;               // of the registered port
    std::vector<os::ProcessInfo> tree; // the registered process and its descendants (when a
                                       // visible listener is another pid: a wrapper's chain)
};

// opencode 2.x: the service's own registration (service.json), judged by the shell's reader.
struct ManagedFacts {
    enum class Verdict {
        None,
        Invalid,
        Adopt,
        Wait,
        Gone,
        PortHeld,
        Unknown
    } verdict = Verdict::None;
    std::string id;
    os::Identity process; // the OS start time of the live pid
    os::Pid pgid = 0;
    int port = 0;
    std::string password;
    std::string version;
    bool launchedByUs = false; // names the pid this Tether launched
    std::string detail;        // Invalid / PortHeld: for the message
};

struct StartupFacts {
    RegistrationFacts registration;
    ManagedFacts managed;
    PortFacts configuredPort; // of the port a launch would take
    // That port, when the facts say: the configured one, or (opencode 2.x) the one the service
    // will choose, read from its config now; 0 when it cannot be known (nothing is checked
    // before the launch). Not given: the configured port.
    std::optional<int> launchPort;
};
struct Launched {
    os::Identity id;
    os::Pid pgid = 0;
    std::string password;
};
struct LaunchFailed {
    std::string why;
};
struct Exited {
    os::Identity id; // which process (a late report about an earlier one is ignored)
    std::string why;
    std::uint64_t seenBy = 0; // start-time token when the exit was seen (the executor fills it)
    std::optional<ExitFacts> exit = std::nullopt; // how it ended, when seen (our child)
};
struct Verified {
    std::uint64_t at = 0; // start-time token of the verification
    Liveness life = Liveness::Unknown;
    bool childRunning = false; // the launcher still holds it as its running child
    PortFacts portFacts;
    std::vector<os::ProcessInfo> tree;   // the service and its descendants (see RegistrationFacts)
    std::optional<ManagedFacts> managed; // opencode 2.x: service.json, read with the rest
};
struct StopPlanDone {
    bool refused = false; // the identity did not hold right before a signal: nothing was sent
    std::string detail;
};
// opencode 2.x: service.json changed (another owner, or one while nothing is tracked).
struct ManagedRegistrationChanged {
    ManagedFacts facts;
};
// The service's event stream delivered an event (a heartbeat or any other): its event loop runs.
struct StreamAlive {};
// Tool calls started or all ended (policy/activity.h runsToolCalls): an update waits for idle.
struct ActivityChanged {
    bool toolCallsRun = false;
};

using Event = std::variant<StartRequested, StopRequested, RestartRequested, QuitRequested,
                           SettingsChanged, TimerFired, TimeGap, ProbeAnswered, ProbeMissed,
                           StartupFacts, Launched, LaunchFailed, Exited, Verified, StopPlanDone,
                           ManagedRegistrationChanged, StreamAlive, ActivityChanged>;
const char *eventName(const Event &e);

// ---- Commands ----------------------------------------------------------------------------------

struct StartTimer {
    Timer timer;
    Ms delayMs = 0;
};
struct CancelTimer {
    Timer timer;
};
struct SendProbe {
    std::uint64_t seq = 0;
    int port = 0;
    Family family = Family::V4;
    Ms timeoutMs = 0;
};
struct GatherStartupFacts {
    int configuredPort = 0;
};
struct Launch {
    int port = 0;
};
struct Verify {
    os::Identity id;
    int port = 0;
};

// opencode 2.x's persistent terminals, before its service is signalled (its own clients do
// the same: docs/opencode2-protocol.md, Stop and replace).
enum class Terminals {
    Untouched, // not opencode 2.x, or the service is already gone
    Clear,     // a hung or failed service: no request; an old handoff ticket is dropped
    ShutDown,  // a stop: the service is asked to end them cleanly first
    HandOver,  // a replacement of a ready service: the next one takes them over
};

// The one stop plan: explicit stop, restart, recovery, crash clean-up. Each step re-verifies
// what it signals right before the signal (the shell's runner).
struct StopPlan {
    os::Identity service;
    os::Pid pgid = 0;      // the group it led; 0: none
    bool terminate = true; // graceful stop (TERM + CONT), grace, KILL; false: already dead
    Ms graceMs = 0;
    bool group = true;   // then what is left of its group / job: TERM + CONT, ...
    Ms groupGraceMs = 0; // ... this long for it to empty (with the orphans), then KILL
    std::uint64_t membersStartedBy = 0;         // a dead service's group: members must be this old
    bool orphans = true;                        // then its orphaned MCP processes (ledger)
    Terminals terminals = Terminals::Untouched; // first of all (opencode 2.x)
};
// The group step, decided right before the group signal: pgid is still the service's group
// only while it has live members, none of them started before the service (none can descend
// from it), and a member with pid == pgid, if any, is the service itself (else the id was
// reused by a new group leader after the group emptied). Never a protected group.
struct GroupVerdict {
    bool signal = false;
    std::string why; // when not
};
// startedBy (a start-time token, 0: none): the service was seen gone by then, so a member that
// started later is not its own (the group id may have been reused since the group emptied).
GroupVerdict mayKillGroup(os::Pid pgid, const os::Identity &service,
                          const std::vector<os::ProcessInfo> &members, os::Pid selfPid,
                          os::Pid selfGroup, std::uint64_t startedBy = 0);

struct RunStopPlan {
    StopPlan plan;
    StopCause cause = StopCause::User;
};
struct WriteRegistration {}; // the shell writes Tether's registration from the tracked service
struct DropRegistration {
    bool setAside = false; // a damaged file is kept as evidence
    std::string managedId; // opencode 2.x: remove service.json only if it still names this id
};
struct Notify {
    NoticeKind kind;
    std::string message;
};
struct Log {
    std::string line;
};
// The state's config is now the settings last given: the shell swaps what depends on them
// (launcher, registration paths, watchers). Never while a service is tracked for a change of
// the service itself: a launch after it runs the new program.
struct ApplySettings {};
struct Release {}; // quit: leave the service running, detached from Tether
struct Settled {}; // nothing is under way any more

using Command = std::variant<StartTimer, CancelTimer, SendProbe, GatherStartupFacts, Launch, Verify,
                             RunStopPlan, WriteRegistration, DropRegistration, Notify, Log,
                             ApplySettings, Release, Settled>;

struct Step {
    SupervisionState state;
    std::vector<Command> commands;
};

// The transition function. `now` is the monotonic clock in ms.
Step step(SupervisionState state, const Event &event, Ms now);

} // namespace tether::policy
