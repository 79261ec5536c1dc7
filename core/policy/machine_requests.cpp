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
        if (s_.stopCause == StopCause::Restart || s_.stopCause == StopCause::Settings)
            s_.stopCause = StopCause::User;
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
    if (s_.quitting || s_.phase == Phase::Released) {
        log("settings not applied: Tether is quitting");
        return;
    }
    const bool serviceChanged = c.serviceChanged || c.config.port != s_.config.port;
    if (!serviceChanged) { // timings, limits: whatever runs goes on under them
        s_.pendingConfig.reset();
        applyConfig(c.config);
        return;
    }
    // Newer settings replace pending ones; settlePending (after this step) decides the rest.
    s_.pendingConfig = c.config;
    const bool underWay = s_.phase == Phase::Launching || s_.phase == Phase::Verifying ||
                          s_.phase == Phase::Stopping || s_.phase == Phase::Cleaning ||
                          (s_.phase == Phase::Resolving && s_.svc);
    if (underWay) // said, not silent: they wait for what is under way
        log("settings wait: they apply once the service being started or stopped has ended");
}

void Machine::applyConfig(const SupervisionConfig &config) {
    if (config.installedVersion != s_.config.installedVersion) {
        s_.versionReplaced = false;
        s_.versionNoticed = false;
    }
    s_.config = config;
    emit(ApplySettings{});
    log("settings applied");
}

void Machine::applyPending() {
    const SupervisionConfig next = std::move(*s_.pendingConfig);
    s_.pendingConfig.reset();
    applyConfig(next);
}

// Settings that change the service: a tracked service is stopped first (its end comes back
// here, or to beginStart); with nothing tracked they apply now, and a wanted service (Failed
// counts: `want` is still Running) starts with them.
void Machine::settlePending() {
    if (!s_.pendingConfig) return;
    if (s_.quitting) {
        s_.pendingConfig.reset();
        log("settings not applied: Tether is quitting");
        return;
    }
    if (s_.svc) {
        if (s_.phase == Phase::Starting || s_.phase == Phase::Running) {
            if (s_.pendingConfig->port != s_.config.port)
                beginStop(StopCause::PortChange, "the configured port changed");
            else
                beginStop(StopCause::Settings, "the settings changed");
        }
        return; // Verifying, Stopping, Cleaning, an exited owner looked at again: its end
    }
    switch (s_.phase) {
    case Phase::Idle: {
        const bool wanted = s_.want == Want::Running;
        applyPending();
        if (!wanted || !mayStart()) return;
        s_.budget = {}; // settings a person changed: a fresh attempt, as an explicit start
        s_.relaunchAfterReplaced = false;
        beginStart();
        return;
    }
    case Phase::BackingOff:
    case Phase::Resolving: // facts gathered for the old settings: gathered again
        beginStart();      // applies them first
        return;
    case Phase::Launching: // stopped once it is there (Starting, tracked)
    case Phase::Starting:
    case Phase::Running:
    case Phase::Verifying:
    case Phase::Stopping:
    case Phase::Cleaning:
    case Phase::Released:
        return;
    }
}

} // namespace tether::policy::machine
