#include "policy/orphans.h"

#include "policy/argv_match.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace tether::policy {

namespace {

using ByPid = std::unordered_map<os::Pid, const os::ProcessInfo *>;

ByPid indexByPid(const std::vector<os::ProcessInfo> &snapshot) {
    ByPid byPid;
    for (const os::ProcessInfo &p : snapshot)
        byPid.emplace(p.pid, &p);
    return byPid;
}

bool isLive(const os::ProcessInfo &p) {
    return p.state != os::RunState::Zombie;
}

// Tether, its ancestors and the kernel's own processes are never orphans nor targets.
bool isProtected(os::Pid pid, const Self &self) {
    return pid <= 1 || pid == self.pid ||
           std::find(self.ancestors.begin(), self.ancestors.end(), pid) != self.ancestors.end();
}

os::Liveness serviceLiveness(const os::Identity &service, const OrphanInput &in) {
    for (const auto &[id, liveness] : in.services) {
        if (id == service) return liveness;
    }
    return os::Liveness::Unknown;
}

// Why p's parent counts as gone, or empty when the parent is still there.
std::string parentGone(const os::ProcessInfo &p, const ByPid &byPid, const Self &self) {
    if (p.ppid <= 1) return "reparented to init";
    if (std::find(self.ancestors.begin(), self.ancestors.end(), p.ppid) != self.ancestors.end())
        return "reparented to a subreaper (Tether's ancestor " + std::to_string(p.ppid) + ")";
    const auto parent = byPid.find(p.ppid);
    if (parent == byPid.end()) return "parent " + std::to_string(p.ppid) + " is gone";
    if (parent->second->startTime > p.startTime)
        return "parent pid " + std::to_string(p.ppid) + " was reused by a newer process";
    return {};
}

} // namespace

const char *toString(OrphanKind k) {
    switch (k) {
    case OrphanKind::Ledger:
        return "ledger";
    case OrphanKind::Possible:
        return "possible";
    }
    return "ledger";
}

std::vector<os::Pid> ancestorsOf(os::Pid pid, const std::vector<os::ProcessInfo> &snapshot) {
    const ByPid byPid = indexByPid(snapshot);
    std::vector<os::Pid> out;
    auto current = byPid.find(pid);
    while (current != byPid.end()) {
        const os::ProcessInfo &child = *current->second;
        if (child.ppid <= 0 || child.ppid == child.pid ||
            std::find(out.begin(), out.end(), child.ppid) != out.end())
            break;
        const auto parent = byPid.find(child.ppid);
        if (parent != byPid.end() && parent->second->startTime > child.startTime)
            break; // a stale ppid: the real parent is gone
        out.push_back(child.ppid);
        current = parent;
    }
    return out;
}

std::vector<Orphan> classifyOrphans(const OrphanInput &in) {
    const ByPid byPid = indexByPid(in.snapshot);
    std::vector<Orphan> out;
    std::unordered_set<os::Pid> listed;

    for (const LedgerEntry &e : in.ledger) {
        const auto it = byPid.find(e.process.pid);
        if (it == byPid.end() || !isLive(*it->second) ||
            it->second->startTime != e.process.startTime || isProtected(e.process.pid, in.self) ||
            listed.count(e.process.pid))
            continue; // gone, or the pid now belongs to another process: not ours to touch
        if (serviceLiveness(e.service, in) != os::Liveness::Gone) continue;
        listed.insert(e.process.pid);
        out.push_back({*it->second, OrphanKind::Ledger, e.name,
                       "its service (pid " + std::to_string(e.service.pid) + ") is gone"});
    }

    auto inLedger = [&](const os::ProcessInfo &p) {
        return std::any_of(in.ledger.begin(), in.ledger.end(), [&](const LedgerEntry &e) {
            return e.process == os::Identity{p.pid, p.startTime};
        });
    };
    std::vector<const os::ProcessInfo *> byPidOrder;
    for (const os::ProcessInfo &p : in.snapshot)
        byPidOrder.push_back(&p);
    std::sort(byPidOrder.begin(), byPidOrder.end(),
              [](const os::ProcessInfo *a, const os::ProcessInfo *b) { return a->pid < b->pid; });

    // The earliest start among the services that run now: a process started since then may be
    // one of theirs (a double-forked, setsid MCP server has no visible tie to it).
    std::optional<std::uint64_t> liveSince;
    const auto live = [&](const os::Identity &service) {
        if (service.startTime != 0 && (!liveSince || service.startTime < *liveSince))
            liveSince = service.startTime;
    };
    for (const os::Identity &service : in.liveServices)
        live(service);
    for (const auto &[service, liveness] : in.services)
        if (liveness == os::Liveness::Alive) live(service);

    std::vector<Orphan> possible;
    for (const os::ProcessInfo *p : byPidOrder) {
        if (!isLive(*p) || isProtected(p->pid, in.self) || listed.count(p->pid) || inLedger(*p))
            continue;
        if (liveSince && p->startTime >= *liveSince) continue;
        const bool configured =
            std::any_of(in.mcpCommands.begin(), in.mcpCommands.end(),
                        [&](const auto &command) { return argvMatchesCommand(p->argv, command); });
        if (!configured) continue;
        const std::string why = parentGone(*p, byPid, in.self);
        if (why.empty()) continue;
        listed.insert(p->pid);
        possible.push_back({*p, OrphanKind::Possible, {}, "runs a configured MCP command; " + why});
        // The rest of its tree (npx -> sh -> node) belongs to the same MCP server.
        for (os::Pid d : os::descendants(p->pid, in.snapshot)) {
            const auto it = byPid.find(d);
            if (it == byPid.end() || !isLive(*it->second) || isProtected(d, in.self) ||
                listed.count(d))
                continue;
            listed.insert(d);
            possible.push_back({*it->second,
                                OrphanKind::Possible,
                                {},
                                "descendant of possible orphan " + std::to_string(p->pid)});
        }
    }
    std::sort(possible.begin(), possible.end(),
              [](const Orphan &a, const Orphan &b) { return a.process.pid < b.process.pid; });
    out.insert(out.end(), possible.begin(), possible.end());
    return out;
}

bool groupIsAllSwept(os::Pid pgid, const std::vector<os::Identity> &swept,
                     const std::vector<os::ProcessInfo> &snapshot, const Self &self) {
    if (pgid <= 1 || pgid == self.pgid) return false;
    bool any = false;
    for (const os::ProcessInfo &p : snapshot) {
        if (p.pgid != pgid || !isLive(p)) continue;
        if (isProtected(p.pid, self) ||
            std::find(swept.begin(), swept.end(), os::Identity{p.pid, p.startTime}) == swept.end())
            return false;
        any = true;
    }
    return any;
}

SweepPlan planSweep(const std::vector<Orphan> &orphans,
                    const std::vector<os::ProcessInfo> &snapshot, const Self &self,
                    const SweepOptions &options) {
    const ByPid byPid = indexByPid(snapshot);
    SweepPlan plan;
    std::vector<SweepTarget> targets;
    std::unordered_set<os::Pid> seen;

    for (const Orphan &o : orphans) {
        SweepTarget t{
            {o.process.pid, o.process.startTime}, o.process.pgid, o.kind, o.name, o.process.argv};
        const auto now = byPid.find(t.id.pid);
        if (isProtected(t.id.pid, self)) {
            plan.skipped.push_back({t, "is Tether, one of its ancestors, or a system process"});
        } else if (seen.count(t.id.pid)) {
            continue;
        } else if (o.kind == OrphanKind::Possible && !options.possibleConfirmed) {
            plan.skipped.push_back({t, "possible orphan: needs a person's confirmation"});
        } else if (now == byPid.end() || now->second->startTime != t.id.startTime) {
            const bool reused = now != byPid.end();
            plan.skipped.push_back({t,
                                    reused
                                        ? "pid now belongs to another process (start time differs)"
                                        : "already exited",
                                    !reused});
        } else if (!isLive(*now->second)) {
            plan.skipped.push_back({t, "already exited (zombie)", true});
        } else {
            t.pgid = now->second->pgid; // the group it is in now, not when it was recorded
            seen.insert(t.id.pid);
            targets.push_back(std::move(t));
        }
    }

    std::map<os::Pid, std::vector<SweepTarget>> byGroup;
    for (SweepTarget &t : targets)
        byGroup[t.pgid].push_back(std::move(t));
    std::vector<os::Identity> swept;
    for (const auto &[pgid, members] : byGroup) {
        for (const SweepTarget &t : members)
            swept.push_back(t.id);
    }
    for (auto &[pgid, members] : byGroup) {
        if (groupIsAllSwept(pgid, swept, snapshot, self)) {
            plan.groups.push_back({pgid, std::move(members)});
        } else {
            for (SweepTarget &t : members)
                plan.singles.push_back(std::move(t));
        }
    }
    std::sort(plan.singles.begin(), plan.singles.end(),
              [](const SweepTarget &a, const SweepTarget &b) { return a.id.pid < b.id.pid; });
    return plan;
}

} // namespace tether::policy
