#include "policy/supervision.h"

#include "policy/machine.h"

#include <algorithm>
#include <type_traits>
#include <utility>

namespace tether::policy {

// ---- Ports ------------------------------------------------------------------------------------

using machine::conflicts;

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
    case StopCause::Settings:
        return "the settings changed";
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
        return s.failure ? State::Failed : State::Stopped;
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
    if (s.phase == Phase::Starting && s.startupDeadline)
        n.startupDeadlineInMs = std::max<Ms>(0, *s.startupDeadline - now);
    return n;
}

// ---- The transition function --------------------------------------------------------------------
// The machine and its handlers: policy/machine.h and machine_*.cpp.

Step step(SupervisionState state, const Event &event, Ms now) {
    const bool wasSettling = settling(state);
    machine::Machine m(std::move(state), now);
    std::visit([&m](const auto &e) { m.on(e); }, event);
    return m.finish(wasSettling);
}

} // namespace tether::policy
