#include "policy/supervision.h"

#include <algorithm>
#include <type_traits>
#include <utility>

namespace tether::policy {

// ---- Ports ------------------------------------------------------------------------------------

namespace {

// Whether a listener takes the loopback address of `family` away from a new service.
bool conflicts(const Listener &l, Family family) {
    if (l.family == family) return true;
    return l.wildcard && l.family == Family::V6 && family == Family::V4; // dual-stack ::
}

} // namespace

PortHolder portHolder(const PortFacts &facts, os::Pid servicePid, Family family) {
    if (!facts.readable) return PortHolder::Unknown;
    bool any = false, visibleOther = false;
    for (const Listener &l : facts.listeners) {
        if (!conflicts(l, family)) continue;
        if (servicePid > 0 && l.pid == servicePid) return PortHolder::Service;
        any = true;
        if (l.pid > 0) visibleOther = true;
    }
    if (!any) return PortHolder::Free;
    return visibleOther ? PortHolder::Other : PortHolder::Invisible;
}

std::optional<Family> serviceFamily(const PortFacts &facts, os::Pid servicePid) {
    if (servicePid <= 0) return std::nullopt;
    std::optional<Family> found;
    for (const Listener &l : facts.listeners) {
        if (l.pid != servicePid) continue;
        if (l.family == Family::V4 || (l.wildcard && l.family == Family::V6)) return Family::V4;
        found = Family::V6;
    }
    return found;
}

bool descendsFrom(os::Pid pid, const os::Identity &root,
                  const std::vector<os::ProcessInfo> &processes) {
    const auto find = [&](os::Pid p) -> const os::ProcessInfo * {
        for (const os::ProcessInfo &i : processes)
            if (i.pid == p) return &i;
        return nullptr;
    };
    const os::ProcessInfo *rootInfo = find(root.pid);
    if (pid <= 0 || pid == root.pid || !rootInfo || rootInfo->startTime != root.startTime)
        return false;
    const os::ProcessInfo *at = find(pid);
    // Each step goes up one parent; a chain longer than the list has a cycle in it.
    for (std::size_t steps = 0; at && steps < processes.size(); ++steps) {
        if (at->state == os::RunState::Zombie) return false;
        const os::ProcessInfo *parent = find(at->ppid);
        if (!parent || at->ppid == at->pid || parent->startTime > at->startTime) return false;
        if (parent == rootInfo) return true;
        at = parent;
    }
    return false;
}

os::Pid servicePortOwner(const os::Identity &root, const PortFacts &facts,
                         const std::vector<os::ProcessInfo> &tree) {
    for (const Listener &l : facts.listeners)
        if (l.pid == root.pid) return root.pid;
    for (const Listener &l : facts.listeners)
        if (descendsFrom(l.pid, root, tree)) return l.pid;
    return root.pid;
}

TimingsConflict timingsConflict(const Timings &t) {
    if (t.probeTimeoutMs >= t.windowMs) return TimingsConflict::TimeoutNotBelowWindow;
    if (t.probeIntervalMs > t.windowMs) return TimingsConflict::IntervalAboveWindow;
    return TimingsConflict::None;
}

std::string timingsProblem(const Timings &t) {
    const TimingsConflict c = timingsConflict(t);
    if (c == TimingsConflict::TimeoutNotBelowWindow)
        return "[probe] timeoutMs (" + std::to_string(t.probeTimeoutMs) +
               ") must be below [recovery] windowMs (" + std::to_string(t.windowMs) +
               "): a single missed probe would spend the whole recovery window";
    if (c == TimingsConflict::IntervalAboveWindow)
        return "[probe] intervalMs (" + std::to_string(t.probeIntervalMs) +
               ") must not exceed [recovery] windowMs (" + std::to_string(t.windowMs) +
               "): a single missed probe would spend the whole recovery window";
    return {};
}

GroupVerdict mayKillGroup(os::Pid pgid, const os::Identity &service,
                          const std::vector<os::ProcessInfo> &members, os::Pid selfPid,
                          os::Pid selfGroup, std::uint64_t startedBy) {
    if (pgid <= 1 || pgid == selfGroup || pgid == selfPid)
        return {false, "group " + std::to_string(pgid) + " is protected"};
    std::vector<const os::ProcessInfo *> live;
    for (const os::ProcessInfo &m : members)
        if (m.pgid == pgid && m.state != os::RunState::Zombie) live.push_back(&m);
    if (live.empty()) return {false, "group " + std::to_string(pgid) + " is empty"};
    for (const os::ProcessInfo *m : live) {
        if (m->pid == selfPid) return {false, "Tether is in group " + std::to_string(pgid)};
        if (m->pid == pgid && (m->pid != service.pid || m->startTime != service.startTime))
            return {false, "group " + std::to_string(pgid) + " now has another leader"};
        if (service.startTime != 0 && m->startTime < service.startTime)
            return {false, "pid " + std::to_string(m->pid) + " in group " + std::to_string(pgid) +
                               " started before the service"};
        if (startedBy != 0 && m->startTime > startedBy)
            return {false, "pid " + std::to_string(m->pid) + " in group " + std::to_string(pgid) +
                               " started after the service was gone"};
    }
    return {true, {}};
}

// ---- Names ------------------------------------------------------------------------------------

const char *toString(Phase p) {
    switch (p) {
    case Phase::Idle:
        return "idle";
    case Phase::Resolving:
        return "resolving";
    case Phase::Launching:
        return "launching";
    case Phase::Starting:
        return "starting";
    case Phase::Running:
        return "running";
    case Phase::Verifying:
        return "verifying";
    case Phase::Stopping:
        return "stopping";
    case Phase::Cleaning:
        return "cleaning";
    case Phase::BackingOff:
        return "backing-off";
    case Phase::Released:
        return "released";
    }
    return "idle";
}

const char *toString(StopCause c) {
    switch (c) {
    case StopCause::User:
        return "stop requested";
    case StopCause::Restart:
        return "restart requested";
    case StopCause::Recovery:
        return "recovery window spent";
    case StopCause::StartupTimeout:
        return "not healthy within the start-up deadline";
    case StopCause::VersionUpdate:
        return "version update";
    case StopCause::PortChange:
        return "the configured port changed";
    case StopCause::StartFailed:
        return "its start failed";
    case StopCause::Crash:
        return "the service died";
    case StopCause::External:
        return "stopped by another program";
    case StopCause::Replaced:
        return "replaced by another program";
    }
    return "stop";
}

const char *eventName(const Event &e) {
    static const char *const names[] = {"start",
                                        "stop",
                                        "restart",
                                        "quit",
                                        "settings-changed",
                                        "timer",
                                        "time-gap",
                                        "probe-answered",
                                        "probe-missed",
                                        "startup-facts",
                                        "launched",
                                        "launch-failed",
                                        "exited",
                                        "verified",
                                        "stop-plan-done",
                                        "managed-registration-changed",
                                        "stream-alive",
                                        "activity-changed"};
    static_assert(std::variant_size_v<Event> == sizeof(names) / sizeof(names[0]));
    return names[e.index()];
}

State displayState(const SupervisionState &s) {
    switch (s.phase) {
    case Phase::Idle:
        return s.failure.empty() ? State::Stopped : State::Failed;
    case Phase::Resolving:
        // Waiting for a registered owner to listen, or for a replacement to register, is part
        // of a start; a retry after a look that could not tell is a restart.
        return s.due[int(Timer::Resolve)] && !s.waitingSince && !s.successorSince
                   ? State::Restarting
                   : State::Starting;
    case Phase::Launching:
    case Phase::Starting:
        return State::Starting;
    case Phase::Released:
        if (s.releasedStarting) return State::Starting;
        [[fallthrough]];
    case Phase::Running:
        return s.responding ? State::Healthy : State::NotResponding;
    case Phase::Verifying:
    case Phase::Stopping:
        return s.stopCause == StopCause::Recovery || s.stopCause == StopCause::StartupTimeout ||
                       s.stopCause == StopCause::StartFailed
                   ? State::Recovering
                   : State::Stopping;
    case Phase::Cleaning:
        return s.want == Want::Running && !s.quitting ? State::Restarting : State::Stopping;
    case Phase::BackingOff:
        return State::Restarting;
    }
    return State::Stopped;
}

bool settling(const SupervisionState &s) {
    return s.phase == Phase::Verifying || s.phase == Phase::Stopping || s.phase == Phase::Cleaning;
}

NextSteps nextSteps(const SupervisionState &s, Ms now) {
    NextSteps n;
    // The same decision the Window timer takes (decideWindow), read ahead of time.
    if (s.phase == Phase::Running && !s.responding)
        n.replaceInMs = decideWindow(s.window, now, s.config.timings).remainingMs;
    if (s.phase == Phase::BackingOff && s.due[int(Timer::Restart)])
        n.restartInMs = std::max<Ms>(0, *s.due[int(Timer::Restart)] - now);
    return n;
}

// ---- The transition function --------------------------------------------------------------------

namespace {

std::string pidText(os::Pid pid) {
    return "pid " + std::to_string(pid);
}

bool countsAsFailure(StopCause c) {
    return c == StopCause::Recovery || c == StopCause::StartupTimeout ||
           c == StopCause::VersionUpdate || c == StopCause::StartFailed || c == StopCause::Crash;
}

constexpr Ms kSuccessorLookMs = 250;
// How long a registration may still name an owner that exited before that is a crash: a client
// that stopped it removes the file once its poll sees the pid gone and reaped.
constexpr Ms kUnregisterWaitMs = 1000;

// The owner service.json names, as a tracked service.
TrackedService trackedOwner(const ManagedFacts &m) {
    TrackedService t;
    t.id = m.process;
    t.pgid = m.pgid;
    t.port = m.port;
    t.password = m.password;
    t.managedId = m.id;
    t.external = !m.launchedByUs;
    return t;
}

// One step in progress: the state being changed, the commands issued so far.
class Machine {
public:
    Machine(SupervisionState s, Ms now)
        : s_(std::move(s))
        , now_(now) {}

    Step finish(bool wasSettling) {
        if (wasSettling && !settling(s_)) out_.push_back(Settled{});
        return Step{std::move(s_), std::move(out_)};
    }

    // One function per event; each looks at the phase.
    void on(const StartRequested &);
    void on(const StopRequested &);
    void on(const RestartRequested &);
    void on(const QuitRequested &);
    void on(const SettingsChanged &);
    void on(const TimerFired &);
    void on(const TimeGap &);
    void on(const ProbeAnswered &);
    void on(const ProbeMissed &);
    void on(const StartupFacts &);
    void on(const Launched &);
    void on(const LaunchFailed &);
    void on(const Exited &);
    void on(const Verified &);
    void on(const StopPlanDone &);
    void on(const ManagedRegistrationChanged &);
    void on(const StreamAlive &);
    void on(const ActivityChanged &);

private:
    const Timings &timings() const { return s_.config.timings; }
    // How long a start may take: [probe] startupDeadlineMs, at least what the profile's own
    // clients wait (opencode 2.x: 120 s).
    Ms startupBudget() const {
        return std::max(timings().startupDeadlineMs, s_.config.minStartupDeadlineMs);
    }
    void emit(Command c) { out_.push_back(std::move(c)); }
    void log(std::string line) { emit(Log{std::move(line)}); }
    void notify(NoticeKind k, std::string message) { emit(Notify{k, std::move(message)}); }
    void startTimer(Timer t, Ms delay) {
        delay = std::max<Ms>(0, delay);
        s_.due[int(t)] = now_ + delay;
        emit(StartTimer{t, delay});
    }
    void cancelTimer(Timer t) {
        if (!s_.due[int(t)]) return;
        s_.due[int(t)].reset();
        emit(CancelTimer{t});
    }
    void cancelAllTimers() {
        for (int t = 0; t < kTimerCount; ++t)
            cancelTimer(Timer(t));
    }
    bool leaving() const { return s_.quitting && !s_.leaveRunningOnQuit; }
    bool mayStart() const { return s_.want == Want::Running && !leaving(); }

    // noticeText: what the notification says, when the log's message is not for a person.
    void fail(const std::string &message, std::optional<NoticeKind> kind = std::nullopt,
              const std::string &noticeText = {});
    void goIdle(const std::string &reason);
    void beginStart();
    void decideLaunch(const PortFacts &port);
    void adopt(const TrackedService &svc, const std::string &version, const std::string &reason);
    void release();
    void sendProbe();
    void scheduleProbe(Ms delay);
    void timeGap(const std::string &why);
    void checkGap(Timer t);
    void probeFailed(const std::string &why);
    bool lateAnswer(Ms sentAt);
    void notReady(const std::string &why);
    void startFailed(const std::string &why);
    void followOther(const ManagedFacts &m, const std::string &reason);
    void beginStop(StopCause cause, const std::string &reason);
    void runPlan(bool terminate, bool group);
    Terminals terminalsFor(bool terminate) const;
    void serviceEnded();
    void scheduleRestart(const std::string &reason);
    void checkVersion(const std::string &reported);
    void startupFactsManaged(const StartupFacts &f);
    void startupFactsOwn(const StartupFacts &f);
    void forget();
    void refused(const std::string &why);

    SupervisionState s_;
    Ms now_;
    std::vector<Command> out_;
};

void Machine::forget() {
    cancelTimer(Timer::Probe);
    cancelTimer(Timer::Window);
    s_.probeSeq = 0;
    s_.svc.reset();
    s_.version.clear();
    s_.versionMismatch = false;
    s_.lastAnswerLatency = -1;
    s_.responding = true;
    s_.startupDeadline.reset();
    s_.notReadySince.reset();
}

void Machine::fail(const std::string &message, std::optional<NoticeKind> kind,
                   const std::string &noticeText) {
    forget();
    s_.exitPending.clear();
    cancelAllTimers();
    s_.phase = Phase::Idle;
    s_.failure = message;
    s_.lastError = message;
    s_.reason = message;
    if (kind) notify(*kind, noticeText.empty() ? message : noticeText);
}

void Machine::goIdle(const std::string &reason) {
    forget();
    s_.exitPending.clear();
    cancelAllTimers();
    s_.phase = Phase::Idle;
    s_.failure.clear();
    s_.fixFirst = FixFirst::Nothing;
    s_.reason = reason;
}

// ---- Starting: facts first, then adopt or launch -----------------------------------------------

void Machine::beginStart() {
    if (!mayStart()) {
        goIdle("stopped");
        return;
    }
    if (!s_.config.profileError.empty()) { // every profile error is about [service] program
        s_.fixFirst = FixFirst::Program;
        fail(s_.config.profileError, NoticeKind::MustFix);
        return;
    }
    cancelTimer(Timer::Restart);
    cancelTimer(Timer::Resolve);
    s_.leftRunning.clear(); // a new attempt: what an earlier stop left is in the log
    s_.phase = Phase::Resolving;
    s_.failure.clear();
    s_.fixFirst = FixFirst::Nothing;
    emit(GatherStartupFacts{s_.config.port});
}

void Machine::on(const StartupFacts &f) {
    if (s_.phase != Phase::Resolving || s_.due[int(Timer::Resolve)]) return;
    if (!mayStart()) {
        goIdle("stopped");
        return;
    }
    s_.launchPort = f.launchPort.value_or(s_.config.port);
    if (s_.config.selfRegistering)
        startupFactsManaged(f);
    else
        startupFactsOwn(f);
}

void Machine::startupFactsOwn(const StartupFacts &f) {
    const RegistrationFacts &r = f.registration;
    const std::optional<Ms> waiting = std::exchange(s_.waitingSince, std::nullopt);
    if (r.read == RegistrationFacts::Read::Invalid) {
        s_.lastError = r.error;
        log("registration dropped as stale: " + r.error);
        emit(DropRegistration{true, {}});
    } else if (r.read == RegistrationFacts::Read::Ok) {
        switch (r.life) {
        case Liveness::Unknown:
            // Never guess "gone": a second service would fight the first for the port.
            s_.lastError =
                "cannot verify the registered service " + pidText(r.id.pid) + "; retrying";
            s_.reason = s_.lastError;
            startTimer(Timer::Resolve, timings().probeIntervalMs);
            return;
        case Liveness::Gone:
        case Liveness::Different:
            log("registration names " + pidText(r.id.pid) +
                ", which is gone or now another program: not signalled, registration dropped");
            notify(NoticeKind::Stale, "The process it named is gone; nothing was stopped.");
            emit(DropRegistration{});
            break;
        case Liveness::Alive: {
            TrackedService svc;
            svc.id = r.id;
            svc.pgid = r.pgid;
            svc.port = r.port;
            svc.password = r.password;
            svc.program = r.program;
            // A wrapper's descendant that listens is the service too (defect 3.7).
            const os::Pid owner = servicePortOwner(r.id, r.portFacts, r.tree);
            if (owner != r.id.pid)
                log("registered " + pidText(r.id.pid) + " listens on port " +
                    std::to_string(r.port) + " through its descendant " + pidText(owner));
            const std::optional<Family> family = serviceFamily(r.portFacts, owner);
            const PortHolder holder =
                family ? PortHolder::Service : portHolder(r.portFacts, owner, Family::V4);
            svc.family = family.value_or(Family::V4);
            if (holder == PortHolder::Unknown) {
                s_.lastError = "cannot read who listens on port " + std::to_string(r.port) +
                               " to verify the registered service " + pidText(r.id.pid) +
                               "; retrying";
                s_.reason = s_.lastError;
                startTimer(Timer::Resolve, timings().probeIntervalMs);
                return;
            }
            if (holder == PortHolder::Service && r.port != s_.config.port &&
                decideKill(IdentityCheck::Match, PortCheck::OwnedByService, false) ==
                    KillVerdict::Proceed) {
                // Tether's own service, verified by identity and port (these facts are a
                // verification), on the old port: stop it before starting on the new one, or
                // it would run unsupervised.
                s_.svc = svc;
                log("registered service " + pidText(r.id.pid) + " listens on port " +
                    std::to_string(r.port) + ", not " + std::to_string(s_.config.port) +
                    ": stopping it before starting on the configured port");
                s_.stopCause = StopCause::PortChange;
                s_.reason = "the configured port changed";
                runPlan(true, true);
                return;
            }
            if (holder == PortHolder::Service ||
                (holder == PortHolder::Invisible && r.port == s_.config.port)) {
                // Invisible: the owner cannot be read (wine reports pid 0). Probing is harmless;
                // a kill will still need the port proven.
                adopt(svc, r.version, "adopted running service " + pidText(r.id.pid));
                return;
            }
            // Alive, ours by identity and program, its port free: a service whose Tether quit or
            // died while it was starting listens soon. Waited for as the 2.x path waits, up to
            // the start-up deadline, and never a contender beside it meanwhile.
            if (holder == PortHolder::Free) s_.waitingSince = waiting.value_or(now_);
            if (s_.waitingSince && s_.quitting) { // left running: handed over as it is
                s_.waitingSince.reset();
                adopt(svc, r.version,
                      "registered service " + pidText(r.id.pid) + " still starting");
                return;
            }
            if (s_.waitingSince && now_ - *s_.waitingSince < timings().startupDeadlineMs) {
                s_.lastError = "registered service " + pidText(r.id.pid) +
                               " does not listen on port " + std::to_string(r.port) + " yet";
                s_.reason = s_.lastError;
                startTimer(Timer::Resolve, timings().probeIntervalMs);
                return;
            }
            s_.waitingSince.reset();
            // Still not listening, or its port is another's: not the service. Never signalled.
            log("registered " + pidText(r.id.pid) + " does not listen on port " +
                std::to_string(r.port) + ": not the service; not signalled, registration dropped");
            notify(NoticeKind::Stale,
                   "The process it named is not the service; nothing was stopped.");
            emit(DropRegistration{});
            break;
        }
        }
    }
    decideLaunch(f.configuredPort);
}

void Machine::startupFactsManaged(const StartupFacts &f) {
    const ManagedFacts &m = f.managed;
    using V = ManagedFacts::Verdict;
    if (m.verdict != V::Wait) s_.waitingSince.reset();
    // Another client's terminate() removes the file only after it sees the pid gone (its poll,
    // 50 ms): Gone right after the owner's exit may still be that stop, not a crash.
    // The file may name it before Tether saw it register (its watch runs every 50 ms then).
    const bool exitedOwner = !s_.exitPending.empty() && s_.svc &&
                             (s_.svc->managedId == m.id ||
                              (s_.svc->managedId.empty() && m.process.pid == s_.svc->id.pid));
    if (m.verdict != V::None && !(m.verdict == V::Gone && exitedOwner)) s_.successorSince.reset();
    switch (m.verdict) {
    case V::None:
        if (!s_.exitPending.empty() && s_.svc) {
            // It exited and took its registration with it: a clean stop, by another client
            // (`opencode service stop`) or by one that replaces it and starts a new service
            // right away. A crash leaves the file naming the dead pid (V::Gone).
            if (!s_.successorSince) s_.successorSince = now_;
            if (!s_.quitting && now_ - *s_.successorSince < kSuccessorWaitMs) { // a quit waits not
                s_.reason = "its owner exited and unregistered: looking for a replacement";
                startTimer(Timer::Resolve, kSuccessorLookMs);
                return;
            }
            s_.successorSince.reset();
            const std::string why = s_.exitPending;
            s_.exitPending.clear();
            log(why + " and unregistered, and no other service registered within " +
                std::to_string(kSuccessorWaitMs / 1000) +
                " s: stopped by another program; Tether leaves it stopped");
            notify(NoticeKind::StoppedElsewhere,
                   "Tether leaves it stopped. Start it from the tray when you need it.");
            s_.want = Want::Stopped;
            s_.stopCause = StopCause::External;
            s_.reason = "stopped by another program";
            runPlan(false, s_.svc->exitWitnessed); // what it left, if anything, still goes
            return;
        }
        break;
    case V::Invalid:
        // Not removed: Tether cannot tell whose it is. A new service replaces it.
        log(m.detail + ": ignored");
        s_.lastError = m.detail;
        break;
    case V::Adopt: {
        if (!s_.exitPending.empty() && s_.svc && s_.svc->managedId == m.id) break; // the same one
        if (!s_.exitPending.empty() && s_.svc) {
            // What the old owner left (MCP servers in its group) goes first, as after any
            // death; then the start finds the new owner and follows it, no budget spent.
            log("service.json now names " + pidText(m.process.pid) + " (" + m.id +
                "): following the new owner once what " + pidText(s_.svc->id.pid) +
                " left is cleaned up");
            s_.exitPending.clear();
            s_.successorSince.reset();
            s_.stopCause = StopCause::Replaced;
            s_.reason = "replaced by another program: " + pidText(m.process.pid);
            runPlan(false, s_.svc->exitWitnessed);
            return;
        }
        s_.exitPending.clear();
        followOther(m, "adopted running service " + pidText(m.process.pid));
        return;
    }
    case V::Wait: {
        // Alive and plausibly the writer, not listening (yet): never start a contender.
        if (!s_.waitingSince) s_.waitingSince = now_;
        if (now_ - *s_.waitingSince >= startupBudget()) {
            s_.waitingSince.reset();
            fail("the registered service " + pidText(m.process.pid) + " does not listen on port " +
                 std::to_string(m.port) + "; stop it or remove its service.json");
            return;
        }
        s_.lastError = "registered service " + pidText(m.process.pid) +
                       " does not listen on port " + std::to_string(m.port) + " yet";
        s_.reason = s_.lastError;
        startTimer(Timer::Resolve, timings().probeIntervalMs);
        return;
    }
    case V::Gone:
        if (exitedOwner) {
            if (!s_.successorSince) s_.successorSince = now_;
            if (!s_.quitting && now_ - *s_.successorSince < kUnregisterWaitMs) {
                s_.reason = "its owner exited: waiting for its registration to be removed";
                startTimer(Timer::Resolve, kSuccessorLookMs);
                return;
            }
            s_.successorSince.reset();
        }
        log("service.json names " + pidText(m.process.pid) +
            ", which is gone or a process started after the registration: not signalled, "
            "registration removed as stale");
        notify(NoticeKind::Stale, "opencode's service.json named a process that is gone; nothing "
                                  "was stopped.");
        emit(DropRegistration{false, m.id});
        break;
    case V::PortHeld:
        fail("port " + std::to_string(m.port) + " of the registered service " +
                 pidText(m.process.pid) + " is held by " + m.detail +
                 "; stop that program (service.json left as it is)",
             NoticeKind::PortHeld);
        return;
    case V::Unknown:
        s_.lastError =
            "cannot verify the registered service " + pidText(m.process.pid) + "; retrying";
        s_.reason = s_.lastError;
        startTimer(Timer::Resolve, timings().probeIntervalMs);
        return;
    }
    if (!s_.exitPending.empty() && s_.svc) {
        // The owner died and nobody took over: a crash after all. Clean what it left first.
        const std::string why = s_.exitPending;
        s_.exitPending.clear();
        if (s_.want == Want::Running && !s_.quitting) notify(NoticeKind::Crashed, crashText(why));
        s_.stopCause = StopCause::Crash;
        s_.reason = why;
        runPlan(false, s_.svc->exitWitnessed);
        return;
    }
    decideLaunch(f.configuredPort);
}

void Machine::decideLaunch(const PortFacts &port) {
    if (std::exchange(s_.relaunchAfterReplaced, false)) {
        // Else an owner that registers first and then vanishes, again and again, would have
        // Tether relaunch without end.
        s_.budget = recordFailure(s_.budget, now_, timings());
        if (decideRestart(s_.budget, now_, timings()).giveUp) {
            fail("gave up after " +
                     countOf((long long)s_.budget.failures.size(), "failed or replaced launch",
                             "failed or replaced launches") +
                     " within " + durationWords(timings().burstWindowMs),
                 NoticeKind::GaveUp,
                 "It failed to start, or another program's service took its place and went "
                 "away, too often. Start it from the tray menu once the cause is fixed.");
            return;
        }
    }
    const std::string p = std::to_string(s_.launchPort);
    if (s_.launchPort == 0) { // the service's own choice, unknown here: it says where it went
        s_.phase = Phase::Launching;
        s_.reason = "launching the service";
        emit(Launch{0});
        return;
    }
    switch (portHolder(port, 0, Family::V4)) {
    case PortHolder::Free:
        break;
    case PortHolder::Service: // cannot be: nobody is the service here
    case PortHolder::Other: {
        std::string owners;
        for (const Listener &l : port.listeners)
            if (l.pid > 0 && conflicts(l, Family::V4))
                owners +=
                    (owners.empty() ? "" : ", ") + (l.owner.empty() ? pidText(l.pid) : l.owner);
        // opencode 2.x takes the port its own config names: that is where to change it.
        const std::string change = s_.config.selfRegistering
                                       ? "set another with `opencode service set port <port>`"
                                       : "change [service] port";
        fail("port " + p + " is held by " + owners + "; stop that program or " + change,
             NoticeKind::PortHeld,
             "Port " + p + " is used by " + owners + ". Stop that program, or " +
                 (s_.config.selfRegistering
                      ? "give opencode another port: opencode service set port <port>."
                      : "choose another port in Settings."));
        return;
    }
    case PortHolder::Invisible:
        fail("port " + p +
                 " is held by a process Tether cannot see (another user's?); stop it or change "
                 "[service] port",
             NoticeKind::PortHeld);
        return;
    case PortHolder::Unknown:
        s_.lastError = "cannot read who listens on port " + p + "; retrying";
        s_.reason = s_.lastError;
        startTimer(Timer::Resolve, timings().probeIntervalMs);
        return;
    }
    s_.phase = Phase::Launching;
    s_.reason = "launching the service on port " + p;
    emit(Launch{s_.launchPort});
}

void Machine::adopt(const TrackedService &svc, const std::string &version,
                    const std::string &reason) {
    s_.relaunchAfterReplaced = false; // no launch: an owner is followed
    s_.svc = svc;
    s_.phase = Phase::Starting;
    s_.responding = true;
    s_.window = windowOpenedAt(now_);
    s_.startupDeadline.reset(); // adopted: no start-up deadline, the window rules
    s_.startupAttempt = 0;
    s_.stableSince.reset();
    s_.version = version;
    s_.versionMismatch = false;
    s_.reason = reason;
    if (s_.quitting) {
        release();
        return;
    }
    sendProbe();
}

void Machine::release() {
    cancelAllTimers();
    s_.probeSeq = 0;
    s_.releasedStarting = s_.phase == Phase::Starting;
    if (s_.releasedStarting)
        log("left running while still starting: the next Tether waits for it to listen");
    s_.phase = Phase::Released;
    s_.reason = "left running";
    emit(Release{});
    emit(Settled{});
}

void Machine::on(const Launched &l) {
    if (s_.phase != Phase::Launching) return;
    TrackedService svc;
    svc.id = l.id;
    svc.pgid = l.pgid;
    svc.ourChild = true;
    svc.port = s_.launchPort;
    svc.family = s_.config.launchFamily;
    svc.password = l.password;
    s_.svc = svc;
    s_.phase = Phase::Starting;
    s_.responding = true;
    s_.window = windowOpenedAt(now_);
    s_.startupAttempt = 0;
    s_.startupDeadline = now_ + startupBudget();
    s_.stableSince.reset();
    s_.version.clear();
    s_.versionMismatch = false;
    s_.versionNoticed = false;
    s_.reason = "started " + pidText(l.id.pid) +
                (svc.port > 0 ? " on port " + std::to_string(svc.port) : std::string());
    log(s_.reason);
    if (!s_.config.selfRegistering) emit(WriteRegistration{});
    if (s_.quitting && s_.leaveRunningOnQuit) {
        release();
        return;
    }
    if (s_.want != Want::Running) { // a stop arrived while it was being launched
        beginStop(StopCause::User, "stop requested");
        return;
    }
    scheduleProbe(startupProbeDelay(0));
}

void Machine::on(const LaunchFailed &f) {
    if (s_.phase != Phase::Launching) return;
    s_.svc.reset();
    // A program that cannot be started fails the same way next time: Failed at once.
    s_.fixFirst = fixFirstForLaunchFailure();
    fail("cannot start the service: " + f.why + " (setting [service] program)",
         NoticeKind::MustFix);
}

// ---- Probing and the recovery window
// -------------------------------------------------------------

void Machine::sendProbe() {
    cancelTimer(Timer::Probe);
    s_.probeSeq = ++s_.lastSeq;
    s_.probeSentAt = now_;
    emit(SendProbe{s_.probeSeq, s_.svc->port, s_.svc->family, timings().probeTimeoutMs});
}

void Machine::scheduleProbe(Ms delay) {
    s_.probeSeq = 0;
    startTimer(Timer::Probe, delay);
}

void Machine::timeGap(const std::string &why) {
    log("time gap (" + why + "): the recovery window restarts");
    s_.window = onTimeGap(s_.window, now_);
    // The start-up deadline, too, counts only time Tether experienced.
    if (s_.startupDeadline) s_.startupDeadline = now_ + startupBudget();
    if (s_.phase == Phase::Starting || s_.phase == Phase::Running) {
        if (s_.due[int(Timer::Window)]) startTimer(Timer::Window, timings().windowMs);
        if (s_.probeSeq == 0) sendProbe(); // fresh evidence at once
    }
}

void Machine::checkGap(Timer t) {
    if (!s_.due[int(t)]) return;
    const Ms due = *s_.due[int(t)];
    if (isTimeGap(due, now_, timings()))
        timeGap(now_ > due ? "a timer fired " + std::to_string(now_ - due) + " ms late"
                           : "the clock went back " + std::to_string(due - now_) + " ms");
}

void Machine::on(const TimeGap &g) {
    timeGap(g.why);
}

void Machine::on(const TimerFired &f) {
    const int i = int(f.timer);
    if (!s_.due[i]) return; // cancelled meanwhile
    const bool probing = s_.phase == Phase::Starting || s_.phase == Phase::Running;
    if (probing) checkGap(f.timer);
    s_.due[i].reset();
    switch (f.timer) {
    case Timer::Probe:
        if (probing && s_.probeSeq == 0) sendProbe();
        return;
    case Timer::Window: {
        if (s_.phase != Phase::Running || s_.responding) return;
        if (now_ < s_.window.anchor) timeGap("the clock went back");
        const WindowDecision d = decideWindow(s_.window, now_, timings());
        if (d.recover)
            beginStop(StopCause::Recovery, "no answer for " +
                                               std::to_string(now_ - s_.window.anchor) +
                                               " ms (recovery window spent)");
        else if (d.remainingMs > 0) // spent without a fresh miss: the next missed probe decides
            startTimer(Timer::Window, d.remainingMs);
        return;
    }
    case Timer::Restart:
        if (s_.phase == Phase::BackingOff) beginStart();
        return;
    case Timer::Resolve:
        if (s_.phase == Phase::Resolving) beginStart();
        return;
    case Timer::Verify:
        if (s_.phase == Phase::Verifying && s_.svc) emit(Verify{s_.svc->id, s_.svc->port});
        return;
    }
}

// An answer that came back across a gap in Tether's own time: the gap restarts the window.
// True when the answer is no evidence at all (the clock went back under it).
bool Machine::lateAnswer(Ms sentAt) {
    const Ms deadline = sentAt + timings().probeTimeoutMs;
    if (now_ < sentAt) {
        timeGap("the clock went back under a probe");
        return true;
    }
    if (now_ > deadline && isTimeGap(deadline, now_, timings()))
        timeGap("a probe settled " + std::to_string(now_ - deadline) + " ms after its deadline");
    return false;
}

void Machine::on(const ProbeAnswered &a) {
    if (a.seq == 0 || a.seq != s_.probeSeq || !s_.svc) return;
    const std::string why = a.error.empty() ? "unhealthy answer" : a.error;
    if (!a.healthy && a.boot == Boot::Starting) {
        notReady(why);
        return;
    }
    if (!a.healthy && a.boot == Boot::Failed) {
        startFailed(why);
        return;
    }
    if (!a.healthy) {
        probeFailed(why);
        return;
    }
    const Ms sentAt = s_.probeSentAt;
    s_.probeSeq = 0;
    if (lateAnswer(sentAt)) return;
    s_.notReadySince.reset();
    s_.lastAnswerLatency = now_ - sentAt;
    s_.window = onProbeAnswered(s_.window, now_);
    cancelTimer(Timer::Window);
    s_.lastError.clear();
    const std::string answered = "answered in " + std::to_string(now_ - sentAt) + " ms";
    if (s_.phase == Phase::Starting) {
        s_.phase = Phase::Running;
        s_.responding = true;
        s_.startupDeadline.reset();
        s_.reason = answered;
        if (!s_.stableSince) s_.stableSince = now_;
        if (s_.noticeOnHealthy) {
            s_.noticeOnHealthy = false;
            notify(NoticeKind::Restarted, "It was restarted and answers again.");
        }
    } else if (!s_.responding) {
        s_.responding = true;
        s_.reason = answered;
        notify(NoticeKind::Recovered, "It answers again after a pause.");
    }
    // A busy spell is not a failure: the stable clock runs on (it started at the first answer).
    if (s_.stableSince) s_.budget = onHealthy(s_.budget, *s_.stableSince, now_, timings());
    // Relaxed while the event stream shows life (recovery.h nextProbeAt).
    scheduleProbe(nextProbeAt(s_.window, sentAt, timings()) - now_);
    checkVersion(a.version);
}

// "Not ready" (503): it boots or shuts down. It answered, so its event loop runs: for as long
// as a start may take (the start-up deadline, which opencode 2.x's clients make 120 s), each
// such answer counts for the recovery window as an answer does; a service that stays not ready
// longer is judged as a silent one. It never makes the service Healthy.
void Machine::notReady(const std::string &why) {
    if (!s_.notReadySince) s_.notReadySince = now_;
    if (now_ - *s_.notReadySince >= startupBudget()) {
        probeFailed(why + " for " + std::to_string((now_ - *s_.notReadySince) / 1000) + " s");
        return;
    }
    const Ms sentAt = s_.probeSentAt;
    s_.probeSeq = 0;
    if (lateAnswer(sentAt)) return;
    s_.lastError = why;
    s_.window = onProbeAnswered(s_.window, now_);
    cancelTimer(Timer::Window);
    if (s_.phase == Phase::Starting) {
        s_.reason = why;
        if (s_.startupDeadline && now_ >= *s_.startupDeadline) {
            beginStop(StopCause::StartupTimeout, "not ready within " +
                                                     std::to_string(startupBudget()) +
                                                     " ms of its start: " + why);
            return;
        }
        Ms delay = startupProbeDelay(++s_.startupAttempt);
        if (s_.startupDeadline) delay = std::min(delay, *s_.startupDeadline - now_);
        scheduleProbe(delay);
        return;
    }
    if (s_.responding) {
        s_.responding = false;
        s_.reason = why;
    }
    scheduleProbe(timings().probeIntervalMs - (now_ - sentAt));
}

// It said its start failed (opencode 2.x /api/info 500) and will stay so, alive: stopped and
// counted as a failed start, so the budget decides whether another start is worth it.
void Machine::startFailed(const std::string &why) {
    s_.probeSeq = 0;
    s_.lastError = why;
    beginStop(StopCause::StartFailed, "its start failed: " + why);
}

void Machine::on(const ProbeMissed &m) {
    if (m.seq == 0 || m.seq != s_.probeSeq || !s_.svc) return;
    if (m.refused && !s_.config.hostPinned) // nothing at that address: try the other family
        s_.svc->family = s_.svc->family == Family::V4 ? Family::V6 : Family::V4;
    probeFailed(m.why);
}

void Machine::probeFailed(const std::string &why) {
    const Ms sentAt = s_.probeSentAt;
    s_.probeSeq = 0;
    const Ms deadline = sentAt + timings().probeTimeoutMs;
    if (now_ < sentAt || (now_ > deadline && isTimeGap(deadline, now_, timings()))) {
        // Tether's own stall, not the service's silence: this miss is no evidence.
        timeGap(now_ < sentAt
                    ? "the clock went back under a probe"
                    : "a probe deadline passed " + std::to_string(now_ - deadline) + " ms late");
        return;
    }
    s_.lastError = why;
    if (s_.phase == Phase::Starting && s_.startupDeadline) {
        if (now_ >= *s_.startupDeadline) {
            beginStop(StopCause::StartupTimeout, "not healthy within " +
                                                     std::to_string(startupBudget()) +
                                                     " ms of its start: " + why);
            return;
        }
        scheduleProbe(std::min(startupProbeDelay(++s_.startupAttempt), *s_.startupDeadline - now_));
        return;
    }
    s_.phase = Phase::Running;
    s_.window = onProbeMissed(s_.window, sentAt);
    if (s_.responding) {
        s_.responding = false;
        s_.reason = why;
    }
    const WindowDecision d = decideWindow(s_.window, now_, timings());
    if (d.recover) {
        beginStop(StopCause::Recovery, "no answer for " + std::to_string(now_ - s_.window.anchor) +
                                           " ms (recovery window spent)");
        return;
    }
    if (d.remainingMs > 0) startTimer(Timer::Window, d.remainingMs);
    scheduleProbe(d.remainingMs > 0
                      ? std::min(timings().probeIntervalMs - (now_ - sentAt), d.remainingMs)
                      : timings().probeIntervalMs - (now_ - sentAt));
}

// Evidence of life from the second channel. opencode 1.x sends server.heartbeat every 10 s on
// /global/event and keeps doing so during a long tool call; a SIGSTOPped process sends nothing.
// An event counts for the recovery window as an answered probe does (the window restarts from
// it; misses of probes sent before it are no longer fresh evidence), capped at one window after
// the last answer (recovery.h onLifeSign): a live loop behind a health route that never answers
// is still replaced, after two windows. It never makes the service Healthy (only a health
// answer does). A frozen service (no answer, no event) is replaced after one window, as before.
void Machine::on(const StreamAlive &) {
    if (s_.phase != Phase::Running || !s_.svc) return;
    s_.window = onLifeSign(s_.window, now_, timings());
    // Alive and answering: the next probe may wait for the stream to go quiet (nextProbeAt).
    const auto &due = s_.due[int(Timer::Probe)];
    if (!s_.responding || s_.probeSeq != 0 || !due) return;
    const Ms next = nextProbeAt(s_.window, s_.probeSentAt, timings());
    if (next > *due) startTimer(Timer::Probe, next - now_);
}

void Machine::on(const ActivityChanged &a) {
    s_.toolCallsRun = a.toolCallsRun;
    if (s_.toolCallsRun || !s_.updateWaiting) return;
    s_.updateWaiting = false;
    if (s_.phase != Phase::Running || !s_.svc || s_.versionReplaced) return;
    s_.versionReplaced = true;
    log("no tool call runs any more: replacing version " + s_.version + " with " +
        s_.config.installedVersion + " (opted in)");
    beginStop(StopCause::VersionUpdate,
              "replacing version " + s_.version + " with " + s_.config.installedVersion);
}

void Machine::checkVersion(const std::string &reported) {
    if (reported.empty() || reported == s_.version || !s_.svc) return;
    s_.version = reported;
    if (s_.svc->ourChild && !s_.config.selfRegistering) emit(WriteRegistration{});
    const bool mayReplace = s_.config.autoReplaceOnVersionChange && !s_.versionReplaced;
    switch (decideVersion(reported, s_.config.installedVersion, mayReplace)) {
    case VersionAction::None:
        s_.versionMismatch = false;
        return;
    case VersionAction::ShowMismatch:
        s_.versionMismatch = true;
        if (!s_.versionNoticed) {
            s_.versionNoticed = true;
            notify(NoticeKind::VersionMismatch, "The service runs version " + reported +
                                                    "; version " + s_.config.installedVersion +
                                                    " is installed. Restart to update.");
        }
        return;
    case VersionAction::Replace:
        s_.versionMismatch = true;
        if (s_.toolCallsRun) { // an update is never worth a lost tool call: it waits for idle
            if (!s_.updateWaiting)
                log("version " + reported + " differs from the installed " +
                    s_.config.installedVersion + ": replacing once no tool call runs");
            s_.updateWaiting = true;
            return;
        }
        // Once: a replacement that still reports another version is only flagged after this.
        s_.versionReplaced = true;
        log("version " + reported + " differs from the installed " + s_.config.installedVersion +
            ": replacing (opted in)");
        beginStop(StopCause::VersionUpdate,
                  "replacing version " + reported + " with " + s_.config.installedVersion);
        return;
    }
}

// ---- Stopping: verify, then one plan
// -------------------------------------------------------------

void Machine::beginStop(StopCause cause, const std::string &reason) {
    cancelTimer(Timer::Probe);
    cancelTimer(Timer::Window);
    s_.probeSeq = 0;
    s_.updateWaiting = false; // whatever stops it now, the wait for idle is over
    s_.stopCause = cause;
    s_.reason = reason;
    s_.phase = Phase::Verifying;
    emit(Verify{s_.svc->id, s_.svc->port});
}

// A ready service that is replaced hands its terminals to the next one; a stop lets it end
// them; a hung or failed one cannot be asked (as ensure()'s eviction: no request).
Terminals Machine::terminalsFor(bool terminate) const {
    if (!s_.config.selfRegistering || !terminate) return Terminals::Untouched;
    // Ready and answering until the stop (a first answer sets stableSince).
    const bool answers = s_.stableSince.has_value() && s_.responding;
    switch (s_.stopCause) {
    case StopCause::Restart:
    case StopCause::VersionUpdate:
    case StopCause::PortChange:
        return answers ? Terminals::HandOver : Terminals::Clear;
    case StopCause::User:
        return answers ? Terminals::ShutDown : Terminals::Clear;
    case StopCause::Recovery:
    case StopCause::StartupTimeout:
    case StopCause::StartFailed:
    case StopCause::Crash:
    case StopCause::External:
    case StopCause::Replaced:
        break;
    }
    return Terminals::Clear;
}

void Machine::runPlan(bool terminate, bool group) {
    const TrackedService &svc = *s_.svc;
    StopPlan plan;
    plan.service = svc.id;
    plan.pgid = svc.pgid;
    plan.terminate = terminate;
    plan.graceMs = timings().graceMs;
    // After a death the group is its MCP children: swept only when [orphans] whileRunning says
    // clean (ask lists them for a person); a stop takes its group with it.
    plan.group = group && svc.pgid > 1 && (terminate || s_.config.cleanOrphans);
    plan.groupGraceMs = s_.config.orphanGraceMs;
    plan.membersStartedBy = svc.goneBy;
    plan.orphans = true; // the MCP side applies [orphans] whileRunning (clean, ask, ignore)
    plan.terminals = terminalsFor(terminate);
    s_.phase = terminate ? Phase::Stopping : Phase::Cleaning;
    if (terminate) log("terminating " + pidText(svc.id.pid) + ": " + s_.reason);
    emit(RunStopPlan{plan, s_.stopCause});
}

void Machine::on(const Verified &v) {
    if (s_.phase != Phase::Verifying || !s_.svc) return;
    const TrackedService &svc = *s_.svc;
    IdentityCheck identity = IdentityCheck::Unknown;
    switch (v.life) {
    case Liveness::Alive:
        identity = IdentityCheck::Match;
        break;
    case Liveness::Gone:
        identity = IdentityCheck::Gone;
        break;
    case Liveness::Different:
        identity = IdentityCheck::Different;
        break;
    case Liveness::Unknown:
        identity = IdentityCheck::Unknown;
        break;
    }
    PortCheck port = PortCheck::Unknown;
    // The port owner may be a descendant of the launched wrapper (defect 3.7): then the stop
    // plan terminates the launched process, its descendants and its job, the whole chain.
    const os::Pid owner = servicePortOwner(svc.id, v.portFacts, v.tree);
    if (owner != svc.id.pid && v.life == Liveness::Alive)
        log(pidText(svc.id.pid) + " holds port " + std::to_string(svc.port) +
            " through its descendant " + pidText(owner));
    const PortHolder holder = serviceFamily(v.portFacts, owner)
                                  ? PortHolder::Service
                                  : portHolder(v.portFacts, owner, svc.family);
    switch (holder) {
    case PortHolder::Service:
        port = PortCheck::OwnedByService;
        break;
    case PortHolder::Free:
        port = PortCheck::Free;
        break;
    case PortHolder::Other:
        port = PortCheck::OwnedByOther;
        break;
    case PortHolder::Invisible:
    case PortHolder::Unknown:
        port = PortCheck::Unknown;
        break;
    }
    // opencode 2.x: a service that service.json no longer names leaves by itself (its re-read
    // of the file); another client registered since Tether last looked. Never signalled.
    // Tether's own child that stopped answering (frozen, hung) cannot leave by itself: it is
    // ended as any hung child of Tether's, through the checks below.
    const bool ownHungChild = svc.ourChild && !s_.responding;
    if (identity == IdentityCheck::Match && v.managed && !svc.managedId.empty() && !ownHungChild &&
        v.managed->verdict != ManagedFacts::Verdict::Unknown && v.managed->id != svc.managedId) {
        s_.refusedSince.reset();
        // The person's Stop (or quit-and-stop) means the service, not one pid: when the file
        // now names another live owner, that one is what other clients use, so it is the one
        // verified and stopped; the old one leaves by itself, unsignalled.
        if (s_.stopCause == StopCause::User && v.managed->verdict == ManagedFacts::Verdict::Adopt &&
            v.managed->process.pid != svc.id.pid) {
            const ManagedFacts &m = *v.managed;
            log(pidText(svc.id.pid) +
                " is no longer named by service.json: not signalled, it "
                "leaves by itself; stopping " +
                pidText(m.process.pid) + " (" + m.id + "), which the file names now");
            const TrackedService next = trackedOwner(m);
            s_.svc = next;
            emit(Verify{next.id, next.port});
            return;
        }
        log(pidText(svc.id.pid) + " is no longer named by service.json: not signalled, it leaves "
                                  "by itself");
        runPlan(false, false);
        return;
    }
    // Another owner replaced one that Tether did not launch: it is not Tether's to signal.
    if (identity == IdentityCheck::Match && s_.stopCause == StopCause::Replaced && !svc.ourChild) {
        s_.refusedSince.reset();
        log(pidText(svc.id.pid) + " was replaced in service.json: not signalled, it leaves by "
                                  "itself");
        runPlan(false, false);
        return;
    }
    switch (decideKill(identity, port, v.childRunning)) {
    case KillVerdict::Proceed:
        s_.refusedSince.reset();
        runPlan(true, true);
        return;
    case KillVerdict::DropStale:
        s_.refusedSince.reset();
        if (identity == IdentityCheck::Match) {
            // Alive but not the service (it does not hold the port): never signal it or its
            // group; the registration goes.
            log(pidText(svc.id.pid) +
                " is alive but does not hold the service's port: not the service; not "
                "signalled, registration dropped");
            s_.leftRunning = pidText(svc.id.pid) + " was left running: it does not hold port " +
                             std::to_string(svc.port) +
                             ", so Tether cannot verify it is the service and did not signal it";
            runPlan(false, false);
        } else {
            // Gone (or its pid reused): what it left behind is still cleaned.
            log(pidText(svc.id.pid) + " is no longer the service (" +
                (identity == IdentityCheck::Gone ? "gone" : "exited, pid reused") +
                "): not signalled; cleaning what it left");
            // Its group only when its exit was witnessed: a group id whose death Tether did not
            // see may have been free, and reused, since (its ledger children are still swept).
            if (s_.svc->goneBy == 0) s_.svc->goneBy = v.at;
            runPlan(false, s_.svc->exitWitnessed);
        }
        return;
    case KillVerdict::Refuse:
        break;
    }
    refused("cannot verify that " + pidText(svc.id.pid) + " is the service; not signalling it");
}

// A verification (or a plan's own re-check) could not tell: never signal, look again shortly.
// Tether's own running child is always looked at again (its pid cannot be reused while it is
// unreaped); another process that stays unverifiable for a whole window is left alone.
void Machine::refused(const std::string &why) {
    log(why);
    s_.lastError = why;
    if (!s_.refusedSince) s_.refusedSince = now_;
    if (!s_.svc->ourChild && now_ - *s_.refusedSince >= timings().windowMs) {
        s_.refusedSince.reset();
        fail(why + " for " + std::to_string(timings().windowMs / 1000) + " s: it was left running");
        return;
    }
    if (s_.stopCause == StopCause::VersionUpdate) {
        // Not used up by a refusal: the next answer decides again (issue 25 c).
        s_.versionReplaced = false;
        s_.version.clear();
    }
    if (s_.stopCause == StopCause::Recovery || s_.stopCause == StopCause::StartupTimeout ||
        s_.stopCause == StopCause::StartFailed || s_.stopCause == StopCause::VersionUpdate) {
        // The window goes on: probes continue, and the next window check tries again.
        s_.phase = Phase::Running;
        s_.responding = s_.stopCause == StopCause::VersionUpdate;
        s_.reason = why;
        if (!s_.responding) startTimer(Timer::Window, timings().probeIntervalMs);
        scheduleProbe(timings().probeIntervalMs);
        return;
    }
    // An explicit stop (or restart) stays under way until it can be told.
    s_.phase = Phase::Verifying;
    s_.reason = why;
    startTimer(Timer::Verify, timings().probeIntervalMs);
}

void Machine::on(const StopPlanDone &d) {
    if (s_.phase != Phase::Stopping && s_.phase != Phase::Cleaning) return;
    if (d.refused && s_.phase == Phase::Stopping && s_.svc) {
        // Its identity did not hold right before the signal: nothing was sent. Verified again.
        refused("could not stop " + pidText(s_.svc->id.pid) + ": " + d.detail);
        return;
    }
    // opencode's own stop removes service.json once the process is gone, if it still names
    // it; one that was left running keeps its registration (without it, it would leave).
    const std::string managedId = s_.svc ? s_.svc->managedId : std::string();
    s_.relaunchAfterReplaced = s_.stopCause == StopCause::Replaced && s_.svc && s_.svc->ourChild;
    forget();
    emit(DropRegistration{});
    if (!managedId.empty() && s_.leftRunning.empty()) emit(DropRegistration{false, managedId});
    s_.phase = Phase::Idle;
    serviceEnded();
}

// The tracked service is gone (stopped, replaced, crashed, cleaned): what next is the user's
// last intent.
void Machine::serviceEnded() {
    const StopCause cause = s_.stopCause;
    const std::string leftRunning = std::exchange(s_.leftRunning, {});
    if (!mayStart()) {
        // Not "stopped" while the process a person may take for the service still runs.
        if (!leftRunning.empty())
            fail(leftRunning);
        else
            goIdle(cause == StopCause::User       ? "stopped on request"
                   : cause == StopCause::External ? "stopped by another program"
                                                  : "stopped");
        return;
    }
    if (s_.quitting) { // leaving a service running: a replacement now, no back-off
        beginStart();
        return;
    }
    if (cause == StopCause::Crash && s_.fixFirst != FixFirst::Nothing) {
        fail(s_.lastError, NoticeKind::MustFix);
        return;
    }
    if (countsAsFailure(cause)) {
        s_.budget = recordFailure(s_.budget, now_, timings());
        s_.stableSince.reset();
        scheduleRestart(s_.lastError.empty() ? toString(cause) : s_.lastError);
        return;
    }
    if (cause == StopCause::Restart) {
        s_.noticeOnHealthy = true;
        ++s_.restarts;
    }
    beginStart();
}

void Machine::scheduleRestart(const std::string &reason) {
    if (!mayStart()) {
        goIdle("stopped");
        return;
    }
    const RestartDecision d = decideRestart(s_.budget, now_, timings());
    if (d.giveUp) {
        fail("gave up after " +
                 countOf((long long)s_.budget.failures.size(), "crash or failed start",
                         "crashes or failed starts") +
                 " within " + durationWords(timings().burstWindowMs) + "; last: " + reason,
             NoticeKind::GaveUp,
             crashText(reason) + " It failed " +
                 countOf((long long)s_.budget.failures.size(), "time", "times") + " within " +
                 durationWords(timings().burstWindowMs) +
                 ". Start it from the tray menu once the cause is fixed.");
        return;
    }
    s_.noticeOnHealthy = true;
    ++s_.restarts;
    s_.phase = Phase::BackingOff;
    s_.reason = "restarting in " + std::to_string(d.delayMs) + " ms (" + reason + ")";
    startTimer(Timer::Restart, d.delayMs);
}

void Machine::on(const Exited &e) {
    if (!s_.svc || e.id.pid != s_.svc->id.pid) return;
    if (s_.svc->id.startTime != 0 && e.id.startTime != 0 && e.id != s_.svc->id) return;
    if (s_.svc->goneBy == 0) s_.svc->goneBy = e.seenBy;
    s_.svc->exitWitnessed = s_.svc->ourChild;
    switch (s_.phase) {
    case Phase::Starting:
    case Phase::Running:
        break;
    case Phase::Verifying:
        // A stop waiting to tell who the pid is: the exit tells. What it left is cleaned.
        cancelTimer(Timer::Verify);
        s_.refusedSince.reset();
        log(pidText(s_.svc->id.pid) + " exited while being verified: cleaning what it left");
        runPlan(false, s_.svc->exitWitnessed);
        return;
    default:
        return; // a plan under way sees it itself
    }
    s_.lastError = e.why;
    if (s_.config.selfRegistering) {
        // Another client may have replaced it (the old one leaves by itself): look first.
        cancelTimer(Timer::Probe);
        cancelTimer(Timer::Window);
        s_.probeSeq = 0;
        s_.exitPending = e.why;
        s_.phase = Phase::Resolving;
        emit(GatherStartupFacts{s_.config.port});
        return;
    }
    // An exit that blames its command line or program is not retried (serviceEnded): no crash
    // notice either, the failure is told once it is cleaned up.
    s_.fixFirst = e.exit ? fixFirst(*e.exit) : FixFirst::Nothing;
    if (mayStart() && !s_.quitting && s_.fixFirst == FixFirst::Nothing)
        notify(NoticeKind::Crashed, crashText(e.why));
    s_.stopCause = StopCause::Crash;
    s_.reason = e.why;
    cancelTimer(Timer::Probe);
    cancelTimer(Timer::Window);
    s_.probeSeq = 0;
    runPlan(false, s_.svc->exitWitnessed);
}

void Machine::on(const ManagedRegistrationChanged &c) {
    if (!s_.config.selfRegistering) return;
    const ManagedFacts &m = c.facts;
    if (s_.phase == Phase::Idle && !s_.quitting && m.verdict == ManagedFacts::Verdict::Adopt) {
        // Another client's Service.ensure() started it (the TUI, the desktop app, the CLI):
        // they want it running, and Tether shows and supervises what runs, whatever it said
        // before. It was never Tether's to stop, so it is followed as it is.
        s_.want = Want::Running;
        s_.budget = {};
        s_.relaunchAfterReplaced = false;
        s_.failure.clear();
        log("another program started the service (" + pidText(m.process.pid) + ", " + m.id +
            "): following it");
        notify(NoticeKind::StartedElsewhere, "Tether watches over it again.");
        followOther(m, "started by another program: " + pidText(m.process.pid));
        return;
    }
    if (!s_.svc) return;
    if (s_.phase != Phase::Starting && s_.phase != Phase::Running) return;
    TrackedService &svc = *s_.svc;
    if (!m.id.empty() && m.id == svc.managedId) {
        svc.password = m.password;
        return;
    }
    if (svc.ourChild && svc.managedId.empty() && m.launchedByUs && m.process.pid == svc.id.pid) {
        // The service Tether launched registered: from now on it is driven through the file.
        svc.managedId = m.id;
        svc.password = m.password;
        svc.port = m.port;
        svc.external = false;
        log(pidText(m.process.pid) + " registered as " + m.id + " on port " +
            std::to_string(m.port));
        // Read first after a stall of Tether's own, with the probe's timer overdue: that is a
        // gap, or the probe sent at once would be judged against a deadline the stall spent.
        checkGap(Timer::Probe);
        if (s_.probeSeq == 0) sendProbe();
        return;
    }
    if (m.verdict != ManagedFacts::Verdict::Adopt) return;
    if (svc.ourChild && svc.managedId.empty()) {
        // Tether's own launch, not registered yet, leaves only while an owner answers its
        // incumbent check: after a Stop of that owner it would come up behind the person's
        // back. Stopped first (it is Tether's child); the start after it follows the new owner.
        beginStop(StopCause::Replaced, "service.json names " + pidText(m.process.pid) +
                                           ", registered first: the launch is not needed");
        return;
    }
    // The old owner may have died with no exit seen yet (the kernel's notice and the probes lag
    // the file), and what a dead owner left (its MCP servers) is Tether's to clean. Looked at
    // first, never signalled unless it is Tether's own hung child (on(Verified)); the start
    // after it follows the owner the file names.
    beginStop(StopCause::Replaced, "service.json now names " + pidText(m.process.pid) +
                                       ": looking at what " + pidText(svc.id.pid) + " left");
}

void Machine::followOther(const ManagedFacts &m, const std::string &reason) {
    adopt(trackedOwner(m), m.version, reason);
}

// ---- The person's requests --------------------------------------------------------------------

void Machine::on(const StartRequested &) {
    if (s_.phase == Phase::Released) return;
    s_.want = Want::Running;
    if (leaving()) return;
    switch (s_.phase) {
    case Phase::Idle:
        s_.budget = {}; // an explicit start gets a fresh budget
        s_.relaunchAfterReplaced = false;
        beginStart();
        return;
    case Phase::BackingOff:
        beginStart();
        return;
    case Phase::Resolving:
        if (s_.due[int(Timer::Resolve)]) beginStart();
        return;
    default:
        return; // starting, running, or a stop whose end now starts it again (with the budget
                // it has: a start in the middle of a crash loop does not wipe the loop out)
    }
}

void Machine::on(const StopRequested &) {
    s_.want = Want::Stopped;
    if (s_.phase == Phase::Released) { // handed over at quit: let go of it, never signalled
        goIdle("released: left running");
        return;
    }
    if (s_.phase == Phase::Resolving && !s_.exitPending.empty() && s_.svc) {
        // An owner that exited, looked at again (opencode 2.x): what it left still goes.
        cancelTimer(Timer::Resolve);
        s_.exitPending.clear();
        s_.successorSince.reset();
        s_.stopCause = StopCause::User;
        s_.reason = "stop requested";
        runPlan(false, s_.svc->exitWitnessed);
        return;
    }
    switch (s_.phase) {
    case Phase::Idle:
    case Phase::BackingOff:
    case Phase::Resolving:
        s_.exitPending.clear();
        goIdle("stopped on request");
        return;
    case Phase::Starting:
    case Phase::Running:
        beginStop(StopCause::User, "stop requested");
        return;
    case Phase::Verifying:
    case Phase::Stopping:
    case Phase::Cleaning:
        if (s_.stopCause == StopCause::Restart) s_.stopCause = StopCause::User;
        return;
    case Phase::Launching: // stopped as soon as it is there
    case Phase::Released:
        return;
    }
}

void Machine::on(const RestartRequested &) {
    if (s_.phase == Phase::Released || leaving()) return;
    s_.want = Want::Running;
    s_.budget = {};
    s_.relaunchAfterReplaced = false;
    switch (s_.phase) {
    case Phase::Starting:
    case Phase::Running:
        beginStop(StopCause::Restart, "restart requested");
        return;
    case Phase::Idle:
    case Phase::BackingOff:
    case Phase::Resolving:
        s_.noticeOnHealthy = true;
        beginStart();
        return;
    case Phase::Verifying:
    case Phase::Stopping:
    case Phase::Cleaning:
        if (s_.stopCause == StopCause::User) s_.stopCause = StopCause::Restart;
        return;
    case Phase::Launching:
        log("restart asked while the service is being started: the one starting is new");
        return;
    case Phase::Released:
        return;
    }
}

void Machine::on(const QuitRequested &q) {
    if (s_.phase == Phase::Released) return;
    s_.quitting = true;
    s_.leaveRunningOnQuit = !q.stopService;
    if (q.stopService) {
        on(StopRequested{});
        if (s_.phase == Phase::Idle) emit(Settled{});
        return;
    }
    switch (s_.phase) {
    case Phase::Starting:
    case Phase::Running:
        release();
        return;
    case Phase::BackingOff:
    case Phase::Resolving:
        if (s_.want == Want::Running)
            beginStart(); // leave a service running: start it now, hand it over
        else
            goIdle("stopped");
        if (s_.phase == Phase::Idle) emit(Settled{});
        return;
    case Phase::Idle:
        emit(Settled{});
        return;
    default:
        return; // what is under way finishes first
    }
}

void Machine::on(const SettingsChanged &c) {
    const bool portChanged = c.config.port != s_.config.port;
    if (c.config.installedVersion != s_.config.installedVersion) {
        s_.versionReplaced = false;
        s_.versionNoticed = false;
    }
    s_.config = c.config;
    if (portChanged && s_.svc && (s_.phase == Phase::Starting || s_.phase == Phase::Running))
        beginStop(StopCause::PortChange, "the configured port changed");
}

} // namespace

Step step(SupervisionState state, const Event &event, Ms now) {
    const bool wasSettling = settling(state);
    Machine m(std::move(state), now);
    std::visit([&m](const auto &e) { m.on(e); }, event);
    return m.finish(wasSettling);
}

} // namespace tether::policy
