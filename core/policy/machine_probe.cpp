#include "policy/machine.h"

namespace tether::policy::machine {

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

} // namespace tether::policy::machine
