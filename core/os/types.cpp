// What os/types.h works out from plain data alone: no OS call here (the policy links this).
#include "os/types.h"

#include <algorithm>

namespace tether::os {

std::string baseName(const std::string &path) {
    const std::size_t slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

const char *toString(TerminateOutcome o) {
    switch (o) {
    case TerminateOutcome::ExitedOnTerm:
        return "exited-on-term";
    case TerminateOutcome::Killed:
        return "killed";
    case TerminateOutcome::AlreadyGone:
        return "already-gone";
    case TerminateOutcome::Refused:
        return "refused";
    case TerminateOutcome::Unknown:
        return "unknown";
    }
    return "unknown";
}

ProcessForest::ProcessForest(const std::vector<ProcessInfo> &snap) {
    children_.reserve(snap.size());
    byPid_.reserve(snap.size());
    for (const ProcessInfo &p : snap) {
        children_.emplace(p.ppid, &p);
        byPid_.emplace(p.pid, &p);
    }
}

std::vector<Pid> ProcessForest::descendants(Pid root) const {
    std::vector<Pid> out;
    std::vector<Pid> frontier{root};
    while (!frontier.empty()) {
        const Pid parent = frontier.back();
        frontier.pop_back();
        const auto parentIt = byPid_.find(parent);
        auto [begin, end] = children_.equal_range(parent);
        for (auto it = begin; it != end; ++it) {
            const ProcessInfo *child = it->second;
            if (child->pid == parent || child->pid == root) continue;
            // A stale ppid can point at a reused pid: a real child never predates its parent.
            if (parentIt != byPid_.end() && child->startTime < parentIt->second->startTime)
                continue;
            if (std::find(out.begin(), out.end(), child->pid) != out.end()) continue;
            out.push_back(child->pid);
            frontier.push_back(child->pid);
        }
    }
    return out;
}

std::vector<Pid> descendants(Pid root, const std::vector<ProcessInfo> &snap) {
    return ProcessForest(snap).descendants(root);
}

} // namespace tether::os
