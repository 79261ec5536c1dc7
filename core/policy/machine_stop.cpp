#include "policy/machine.h"

namespace tether::policy::machine {

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
    case StopCause::Settings:
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
    s_.svc->groupLeftOut = !group && !terminate && svc.pgid > 1 && svc.ourChild &&
                           !svc.exitWitnessed && s_.config.cleanOrphans;
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
    const Liveness identity = v.life;
    // The port owner may be a descendant of the launched wrapper (defect 3.7): then the stop
    // plan terminates the launched process, its descendants and its job, the whole chain.
    const os::Pid owner = servicePortOwner(svc.id, v.portFacts, v.tree);
    if (owner != svc.id.pid && v.life == Liveness::Alive)
        log(pidText(svc.id.pid) + " holds port " + std::to_string(svc.port) +
            " through its descendant " + pidText(owner));
    const PortHolder port = serviceFamily(v.portFacts, owner)
                                ? PortHolder::Service
                                : portHolder(v.portFacts, owner, svc.family);
    // opencode 2.x: a service that service.json no longer names leaves by itself (its re-read
    // of the file); another client registered since Tether last looked. Never signalled.
    // Tether's own child that stopped answering (frozen, hung) cannot leave by itself: it is
    // ended as any hung child of Tether's, through the checks below.
    const bool ownHungChild = svc.ourChild && !s_.responding;
    if (identity == Liveness::Alive && v.managed && !svc.managedId.empty() && !ownHungChild &&
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
    if (identity == Liveness::Alive && s_.stopCause == StopCause::Replaced && !svc.ourChild) {
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
        if (identity == Liveness::Alive) {
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
                (identity == Liveness::Gone ? "gone" : "exited, pid reused") +
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
    // Tether's own child, seen gone before its exit was reported: its clean-up left its group
    // out (the id might have been reused). Reported since, the group is known to be its own:
    // the MCP servers in it that no ledger names go now.
    if (s_.svc && s_.svc->groupLeftOut && s_.svc->exitWitnessed) {
        log(pidText(s_.svc->id.pid) + "'s exit is reported: its group " +
            std::to_string(s_.svc->pgid) + " is cleaned too");
        runPlan(false, true);
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
        s_.failure.reset();
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

} // namespace tether::policy::machine
