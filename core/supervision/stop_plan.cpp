#include "supervision/stop_plan.h"

#include "supervision/sweep.h"

#include <algorithm>

namespace tether::supervision {

namespace {

// The group's live members. None listed while the group is not empty is a process table that
// could not be read (a transient failure): read again shortly rather than taken for empty,
// which would leave a member that ignores TERM running.
std::vector<os::ProcessInfo> groupMembersOf(ProcessTable &table, os::Pid pgid) {
    constexpr int kAttempts = 5;
    constexpr Ms kRetryMs = 200;
    std::vector<os::ProcessInfo> members = table.groupMembers(pgid);
    for (int attempt = 1; members.empty() && attempt < kAttempts; ++attempt) {
        if (table.waitGroupEmpty(pgid, 0)) break; // it is empty
        table.pause(kRetryMs);
        members = table.groupMembers(pgid);
    }
    return members;
}

using os::TerminateOutcome;

// The service's identity right now: true when the same live process is there.
bool verified(ProcessTable &table, const os::Identity &id, StopPlanReport &r) {
    const os::Lookup l = table.inspect(id.pid);
    switch (l.status) {
    case os::Lookup::Status::NotFound:
        r.service = TerminateOutcome::AlreadyGone;
        return false;
    case os::Lookup::Status::Error:
        r.service = TerminateOutcome::Refused;
        r.detail = "look-up failed, liveness unknown: " + l.error;
        return false;
    case os::Lookup::Status::Found:
        break;
    }
    if (l.info.startTime != id.startTime) {
        r.service = TerminateOutcome::Refused;
        r.detail = "pid now belongs to another process (start time differs)";
        return false;
    }
    if (l.info.state == os::RunState::Zombie) {
        r.service = TerminateOutcome::AlreadyGone;
        return false;
    }
    return true;
}

// The service through the one escalation (sweep.cpp): TERM + CONT, grace, KILL, each verified.
void terminateService(const policy::StopPlan &plan, ProcessTable &table, Ms killWaitMs,
                      StopPlanReport &r) {
    policy::SweepPlan one;
    policy::SweepTarget service;
    service.id = plan.service;
    service.name = "the service";
    one.singles.push_back(service);
    const SweepReport report =
        sweep(one, {std::chrono::milliseconds(plan.graceMs), std::chrono::milliseconds(killWaitMs)},
              table);
    r.service = report.results.front().outcome;
    r.detail = report.results.front().detail;
}

} // namespace

StopPlanReport beginStopPlan(const policy::StopPlan &plan, ProcessTable &table, Ms killWaitMs) {
    StopPlanReport r;
    std::vector<os::Identity> strays;
    if (plan.terminate) {
        // The tree as it is while the service lives: after its death it cannot be read.
        const std::vector<os::ProcessInfo> snap = table.snapshot();
        for (os::Pid d : os::descendants(plan.service.pid, snap))
            for (const os::ProcessInfo &p : snap)
                if (p.pid == d && (!plan.group || plan.pgid <= 1 || p.pgid != plan.pgid))
                    strays.push_back({p.pid, p.startTime});
        terminateService(plan, table, killWaitMs, r);
        if (r.refused()) { // the identity did not hold: nothing of it, nor its group, is ours
            r.groupSkipped = "the service's identity did not hold";
            return r;
        }
    } else {
        // Only its remnants: a pid still in use (by it, unproven, or by another process) means
        // the group id may not be its own any more. Nothing is signalled then.
        if (verified(table, plan.service, r) || r.service == TerminateOutcome::Refused) {
            r.service = TerminateOutcome::AlreadyGone;
            r.groupSkipped = "its pid is in use: left alone";
            return r;
        }
    }
    for (const os::Identity &id : strays) { // each re-verified right before its signal
        StopPlanReport look;
        if (!verified(table, id, look)) continue;
        if (table.signal(id, os::Signal::Terminate, nullptr)) {
            table.signal(id, os::Signal::Continue, nullptr);
            r.straysTermed.push_back(id);
        } else {
            r.straysUnsignalled.push_back(id); // no TERM (Windows): KILL, verified, no grace
        }
    }
    if (!plan.group || plan.pgid <= 1) return r;
    // What is left of its group: decided on the members seen right now, then sent at once.
    const std::vector<os::ProcessInfo> members = groupMembersOf(table, plan.pgid);
    if (members.empty()) return r; // nothing left: nothing to send, nothing to report
    const policy::GroupVerdict v =
        policy::mayKillGroup(plan.pgid, plan.service, members, table.selfPid(), table.selfGroup(),
                             plan.membersStartedBy);
    if (!v.signal) {
        r.groupSkipped = v.why;
        return r;
    }
    std::string error;
    if (!table.signalGroup(plan.pgid, os::Signal::Terminate, &error)) {
        r.groupSkipped = "group signal failed: " + error;
        return r;
    }
    table.signalGroup(plan.pgid, os::Signal::Continue, nullptr);
    for (const os::ProcessInfo &m : members)
        r.groupTermed.push_back(m.pid);
    return r;
}

void finishStopPlan(const policy::StopPlan &plan, ProcessTable &table, StopPlanReport &r,
                    Ms killWaitMs) {
    // The group and the strays share one grace.
    const Ms deadline = table.clockMs() + plan.groupGraceMs;
    const auto left = [&] { return std::max<Ms>(0, deadline - table.clockMs()); };
    const bool groupLeft = !r.groupTermed.empty() && !table.waitGroupEmpty(plan.pgid, left());
    std::vector<os::Identity> straysLeft = r.straysUnsignalled;
    for (const os::Identity &id : r.straysTermed)
        if (!table.waitGone(id, left())) straysLeft.push_back(id);
    for (const os::Identity &id : straysLeft) {
        StopPlanReport look; // verified right before the signal, as everything the plan sends
        if (verified(table, id, look) && table.signal(id, os::Signal::Kill, nullptr))
            r.straysKilled.push_back(id.pid);
    }
    for (const os::Identity &id : straysLeft)
        table.waitGone(id, killWaitMs);
    if (!groupLeft) return;
    // Verified again: the group may have emptied and its id gone to a new leader meanwhile.
    const std::vector<os::ProcessInfo> members = groupMembersOf(table, plan.pgid);
    const policy::GroupVerdict v =
        policy::mayKillGroup(plan.pgid, plan.service, members, table.selfPid(), table.selfGroup(),
                             plan.membersStartedBy);
    if (!v.signal) {
        r.groupSkipped = v.why;
        return;
    }
    std::string error;
    if (!table.signalGroup(plan.pgid, os::Signal::Kill, &error)) {
        r.groupSkipped = "group SIGKILL failed: " + error;
        return;
    }
    for (const os::ProcessInfo &m : members)
        r.groupKilled.push_back(m.pid);
    table.waitGroupEmpty(plan.pgid, killWaitMs);
}

StopPlanReport runStopPlan(const policy::StopPlan &plan, ProcessTable &table, Ms killWaitMs) {
    StopPlanReport r = beginStopPlan(plan, table, killWaitMs);
    finishStopPlan(plan, table, r, killWaitMs);
    return r;
}

} // namespace tether::supervision
