#include "mcp/matching.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace tether::mcp {

namespace {

bool isLive(const os::ProcessInfo &p) {
    return p.state != os::RunState::Zombie;
}

} // namespace

std::vector<McpCommand> localCommands(const std::vector<McpEntry> &entries) {
    std::vector<McpCommand> out;
    for (const McpEntry &e : entries) {
        if (e.type == McpEntry::Type::Local && !e.command.empty())
            out.push_back({e.name, e.command});
    }
    return out;
}

std::vector<McpProcessTree> matchMcpProcesses(os::Pid servicePid,
                                              const std::vector<os::ProcessInfo> &snapshot,
                                              const std::vector<McpCommand> &commands) {
    std::unordered_map<os::Pid, const os::ProcessInfo *> byPid;
    for (const os::ProcessInfo &p : snapshot)
        byPid.emplace(p.pid, &p);
    const auto service = byPid.find(servicePid);

    // Direct, live children of the service (a stale ppid never predates its parent).
    std::vector<const os::ProcessInfo *> children;
    for (const os::ProcessInfo &p : snapshot) {
        if (p.ppid != servicePid || p.pid == servicePid || !isLive(p)) continue;
        if (service != byPid.end() && p.startTime < service->second->startTime) continue;
        children.push_back(&p);
    }

    struct Subtree {
        std::vector<const os::ProcessInfo *> live; // root first
    };
    std::vector<Subtree> subtrees;
    const os::ProcessForest forest(snapshot);
    for (const os::ProcessInfo *child : children) {
        Subtree t{{child}};
        for (os::Pid pid : forest.descendants(child->pid)) {
            const auto it = byPid.find(pid);
            if (it != byPid.end() && isLive(*it->second)) t.live.push_back(it->second);
        }
        subtrees.push_back(std::move(t));
    }

    // Strength of each (command, child) pair: the child's own argv first; failing that, a
    // descendant that runs the command (a wrapper such as `sh -c` in between) ranks last.
    struct Candidate {
        int strength;
        std::size_t command;
        std::size_t child;
    };
    std::vector<Candidate> candidates;
    for (std::size_t c = 0; c < commands.size(); ++c) {
        for (std::size_t k = 0; k < children.size(); ++k) {
            int strength = static_cast<int>(matchArgv(children[k]->argv, commands[c].command));
            if (strength == 0) {
                const auto &live = subtrees[k].live;
                const bool inside = std::any_of(live.begin() + 1, live.end(), [&](auto *p) {
                    const ArgvMatch m = matchArgv(p->argv, commands[c].command);
                    return m == ArgvMatch::Exact || m == ArgvMatch::Interpreter;
                });
                strength = inside ? 0 : -1;
            }
            if (strength >= 0) candidates.push_back({strength, c, k});
        }
    }
    // Strongest first; among equals the oldest child, then the lowest pid: deterministic.
    std::sort(candidates.begin(), candidates.end(), [&](const Candidate &a, const Candidate &b) {
        const auto *pa = children[a.child];
        const auto *pb = children[b.child];
        return std::make_tuple(-a.strength, pa->startTime, pa->pid, a.command) <
               std::make_tuple(-b.strength, pb->startTime, pb->pid, b.command);
    });

    std::vector<McpProcessTree> out(commands.size());
    for (std::size_t c = 0; c < commands.size(); ++c)
        out[c].name = commands[c].name;
    std::vector<bool> childTaken(children.size(), false);
    for (const Candidate &cand : candidates) {
        McpProcessTree &tree = out[cand.command];
        if (tree.rootPid != 0 || childTaken[cand.child]) continue;
        childTaken[cand.child] = true;
        tree.rootPid = children[cand.child]->pid;
        tree.rootStartTime = children[cand.child]->startTime;
        for (const os::ProcessInfo *p : subtrees[cand.child].live) {
            tree.pids.push_back(p->pid);
            tree.rssKiB += p->rssKiB;
            tree.cpuTimeMs += p->cpuTimeMs;
        }
    }
    return out;
}

} // namespace tether::mcp
