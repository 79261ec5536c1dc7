#include "policy/machine.h"

namespace tether::policy::machine {

std::string pidText(os::Pid pid) {
    return "pid " + std::to_string(pid);
}

bool countsAsFailure(StopCause c) {
    return c == StopCause::Recovery || c == StopCause::StartupTimeout ||
           c == StopCause::VersionUpdate || c == StopCause::StartFailed || c == StopCause::Crash;
}

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

bool conflicts(const Listener &l, Family family) {
    if (l.family == family) return true;
    return l.wildcard && l.family == Family::V6 && family == Family::V4; // dual-stack ::
}

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
    s_.failure.reset();
    s_.fixFirst = FixFirst::Nothing;
    s_.reason = reason;
}

} // namespace tether::policy::machine
