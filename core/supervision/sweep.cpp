#include "supervision/sweep.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace tether::supervision {

namespace {

using Clock = std::chrono::steady_clock;
using os::TerminateOutcome;

template <typename D> D msSince(Clock::time_point t0) {
    return std::chrono::duration_cast<D>(Clock::now() - t0);
}

// One target through the sweep.
struct Tracked {
    SweepResult result;
    bool pending = false;         // verified live and signalled (or about to be): awaiting its exit
    bool termUndelivered = false; // TERM failed on the verified process: KILL without a grace
};

// What the target's pid is right now. Returns true when it is still the same live process;
// otherwise fills in the final outcome.
bool verify(ProcessTable &table, Tracked &t) {
    const os::Lookup l = table.inspect(t.result.target.id.pid);
    switch (l.status) {
    case os::Lookup::Status::NotFound:
        t.result.outcome = TerminateOutcome::AlreadyGone;
        return false;
    case os::Lookup::Status::Error:
        t.result.outcome = TerminateOutcome::Refused;
        t.result.detail = "look-up failed, liveness unknown: " + l.error;
        return false;
    case os::Lookup::Status::Found:
        break;
    }
    if (l.info.startTime != t.result.target.id.startTime) {
        t.result.outcome = TerminateOutcome::Refused;
        t.result.detail = "pid now belongs to another process (start time differs)";
        return false;
    }
    if (l.info.state == os::RunState::Zombie) {
        t.result.outcome = TerminateOutcome::AlreadyGone;
        return false;
    }
    return true;
}

// The group rule, re-checked on a fresh snapshot right before the group signals of a step:
// one snapshot for all the groups of that step (a full snapshot per group was seconds with 30
// groups among 2,000 processes), taken after the step before it. Processes the swept ones
// forked since the plan was made belong to them and do not spoil the group.
class GroupCheck {
public:
    GroupCheck(ProcessTable &table, const std::vector<os::Identity> &swept)
        : snap_(table.snapshot())
        , allowed_(swept)
        , self_(selfFrom(snap_, table)) {
        std::unordered_map<os::Pid, const os::ProcessInfo *> byPid;
        for (const os::ProcessInfo &p : snap_)
            byPid.emplace(p.pid, &p);
        const os::ProcessForest forest(snap_);
        for (const os::Identity &id : swept)
            for (os::Pid d : forest.descendants(id.pid))
                if (const auto it = byPid.find(d); it != byPid.end())
                    allowed_.push_back({it->second->pid, it->second->startTime});
    }
    bool allSwept(os::Pid pgid) const {
        return policy::groupIsAllSwept(pgid, allowed_, snap_, self_);
    }

private:
    std::vector<os::ProcessInfo> snap_;
    std::vector<os::Identity> allowed_;
    policy::Self self_;
};

// Signals each pending target individually (identity re-verified by the OS layer). A target
// found gone at KILL time exited on TERM, unless its group was just sent KILL.
void signalEach(ProcessTable &table, std::vector<Tracked *> &targets, os::Signal sig,
                const std::vector<os::Pid> &killedGroups = {}) {
    for (Tracked *t : targets) {
        if (!t->pending) continue;
        std::string error;
        if (table.signal(t->result.target.id, sig, &error)) continue;
        if (sig == os::Signal::Continue)
            continue; // harmless if it failed: the process may already be gone
        const bool same = verify(table, *t);
        if (same && sig == os::Signal::Terminate) {
            // Still the verified process, but no TERM reached it (Windows has none without a
            // console to break into): it stays pending for the KILL, which re-verifies it and
            // is refused in turn where TERM was for want of permission. Waiting out a grace for
            // a TERM never sent would only delay the stop.
            t->termUndelivered = true;
            t->result.detail = "no graceful stop (" + error + ")";
        } else if (same) {
            t->pending = false;
            t->result.outcome = TerminateOutcome::Refused;
            t->result.detail = "signal failed: " + error;
        } else {
            t->pending = false;
            if (sig == os::Signal::Kill && t->result.outcome == TerminateOutcome::AlreadyGone) {
                const bool groupKilled =
                    t->result.viaGroup && std::find(killedGroups.begin(), killedGroups.end(),
                                                    t->result.target.pgid) != killedGroups.end();
                t->result.outcome =
                    groupKilled ? TerminateOutcome::Killed : TerminateOutcome::ExitedOnTerm;
            }
        }
    }
}

// Waits until every pending target is gone (a zombie counts as gone) or the deadline passes
// (on the table's clock); the gone ones get `outcome`. One wait after the other, each for what
// is left of the time.
void awaitGone(ProcessTable &table, std::vector<Tracked> &all, Ms deadline,
               TerminateOutcome outcome) {
    for (Tracked &t : all) {
        if (!t.pending || (t.termUndelivered && outcome == TerminateOutcome::ExitedOnTerm))
            continue;
        if (table.waitGone(t.result.target.id, std::max<Ms>(0, deadline - table.clockMs()))) {
            t.pending = false;
            t.result.outcome = outcome;
        }
    }
}

} // namespace

int SweepReport::count(os::TerminateOutcome o) const {
    return static_cast<int>(std::count_if(results.begin(), results.end(),
                                          [&](const SweepResult &r) { return r.outcome == o; }));
}

std::vector<os::Identity> SweepReport::gone() const {
    std::vector<os::Identity> out;
    for (const SweepResult &r : results) {
        if (r.outcome == TerminateOutcome::Killed || r.outcome == TerminateOutcome::ExitedOnTerm ||
            r.outcome == TerminateOutcome::AlreadyGone)
            out.push_back(r.target.id);
    }
    return out;
}

policy::Self selfFrom(const std::vector<os::ProcessInfo> &snapshot, ProcessTable &table) {
    policy::Self self;
    self.pid = table.selfPid();
    self.pgid = table.selfGroup();
    self.ancestors = policy::ancestorsOf(self.pid, snapshot);
    return self;
}

SweepReport sweep(const policy::SweepPlan &plan, const SweepConfig &config, ProcessTable &table) {
    const auto t0 = Clock::now();
    SweepReport report;

    // Everything the plan names, with its group when it is to be signalled as one.
    std::vector<Tracked> all;
    std::vector<std::pair<os::Pid, std::vector<std::size_t>>> groups;
    for (const policy::SweepGroup &g : plan.groups) {
        groups.push_back({g.pgid, {}});
        for (const policy::SweepTarget &t : g.members) {
            groups.back().second.push_back(all.size());
            all.push_back({{t, TerminateOutcome::Unknown, {}, true}, true});
        }
    }
    for (const policy::SweepTarget &t : plan.singles)
        all.push_back({{t, TerminateOutcome::Unknown, {}, false}, true});
    std::vector<os::Identity> swept;
    for (const Tracked &t : all)
        swept.push_back(t.result.target.id);

    // TERM (+ CONT: a stopped process must run to act on it), group-wide where the rule holds.
    for (Tracked &t : all)
        t.pending = verify(table, t);
    std::vector<Tracked *> individually;
    std::vector<os::Pid> termedGroups;
    std::optional<GroupCheck> termCheck;
    if (!groups.empty()) termCheck.emplace(table, swept);
    for (auto &[pgid, members] : groups) {
        const bool anyLive =
            std::any_of(members.begin(), members.end(), [&](auto i) { return all[i].pending; });
        std::string error;
        if (anyLive && termCheck->allSwept(pgid) &&
            table.signalGroup(pgid, os::Signal::Terminate, &error)) {
            table.signalGroup(pgid, os::Signal::Continue, nullptr);
            termedGroups.push_back(pgid);
            continue;
        }
        for (auto i : members) {
            all[i].result.viaGroup = false;
            individually.push_back(&all[i]);
        }
    }
    for (Tracked &t : all) {
        if (!t.result.viaGroup) individually.push_back(&t);
    }
    std::sort(individually.begin(), individually.end());
    individually.erase(std::unique(individually.begin(), individually.end()), individually.end());
    signalEach(table, individually, os::Signal::Terminate);
    signalEach(table, individually, os::Signal::Continue);

    awaitGone(table, all, table.clockMs() + config.grace.count(), TerminateOutcome::ExitedOnTerm);

    // KILL what is left: the group first (it also reaches anything the orphans forked since
    // the plan was made; the group rule is re-checked), then each verified identity.
    const bool anyLeft = std::any_of(all.begin(), all.end(), [](auto &t) { return t.pending; });
    if (anyLeft) {
        std::vector<Tracked *> left;
        for (Tracked &t : all) {
            if (t.pending) left.push_back(&t);
        }
        std::vector<os::Pid> killedGroups;
        std::optional<GroupCheck> killCheck;
        if (!termedGroups.empty()) killCheck.emplace(table, swept);
        for (os::Pid pgid : termedGroups) {
            if (killCheck->allSwept(pgid) && table.signalGroup(pgid, os::Signal::Kill, nullptr))
                killedGroups.push_back(pgid);
        }
        signalEach(table, left, os::Signal::Kill, killedGroups);
        awaitGone(table, all, table.clockMs() + config.killWait.count(), TerminateOutcome::Killed);
        for (Tracked &t : all) {
            if (t.pending) {
                t.pending = false;
                t.result.outcome = TerminateOutcome::Unknown;
                t.result.detail = "still running after SIGKILL";
            }
        }
    }

    for (Tracked &t : all)
        report.results.push_back(std::move(t.result));
    for (const policy::Skipped &s : plan.skipped) {
        report.results.push_back(
            {s.target, s.alreadyGone ? TerminateOutcome::AlreadyGone : TerminateOutcome::Refused,
             s.reason, false});
    }
    report.elapsed = msSince<std::chrono::milliseconds>(t0);
    return report;
}

} // namespace tether::supervision
