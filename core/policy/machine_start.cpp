#include "policy/machine.h"

namespace tether::policy::machine {

// ---- Starting: facts first, then adopt or launch -----------------------------------------------

void Machine::beginStart() {
    // Every start begins with the newest settings: none launches the program they replaced.
    if (s_.pendingConfig && !s_.quitting) applyPending();
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
    s_.failure.reset();
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
            retryUnverified(r.id.pid);
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
            if (holder == PortHolder::Service && r.port != s_.config.port) {
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
        retryUnverified(m.process.pid);
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

// The registered service cannot be verified now: never guessed gone, looked at again.
void Machine::retryUnverified(os::Pid pid) {
    s_.lastError = "cannot verify the registered service " + pidText(pid) + "; retrying";
    s_.reason = s_.lastError;
    startTimer(Timer::Resolve, timings().probeIntervalMs);
}

} // namespace tether::policy::machine
