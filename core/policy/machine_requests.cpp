#include "policy/machine.h"

namespace tether::policy::machine {

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

} // namespace tether::policy::machine
