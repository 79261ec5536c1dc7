// The OS-independent half of the OS boundary: rules expressed over inspect() and snapshots.
#include "os/process.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <unordered_map>

namespace tether::os {

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

Liveness alive(const Identity &id) {
    if (id.pid <= 0) return Liveness::Gone;
    const Lookup l = inspect(id.pid);
    switch (l.status) {
    case Lookup::Status::NotFound:
        return Liveness::Gone;
    case Lookup::Status::Error:
        return Liveness::Unknown;
    case Lookup::Status::Found:
        break;
    }
    if (l.info.state == RunState::Zombie || l.info.startTime != id.startTime) return Liveness::Gone;
    return Liveness::Alive;
}

std::optional<Identity> identityOf(Pid pid) {
    const Lookup l = inspect(pid);
    if (l.status != Lookup::Status::Found || l.info.state == RunState::Zombie) return std::nullopt;
    return Identity{l.info.pid, l.info.startTime};
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

std::vector<Pid> descendants(Pid root) {
    return descendants(root, snapshot());
}

#if !defined(__linux__) && !defined(__APPLE__) // both list the tree more cheaply
std::vector<ProcessInfo> snapshotTree(Pid root) {
    const std::vector<ProcessInfo> all = snapshot();
    std::vector<ProcessInfo> tree;
    const std::vector<Pid> below = descendants(root, all);
    for (const ProcessInfo &p : all)
        if (p.pid == root || std::find(below.begin(), below.end(), p.pid) != below.end())
            tree.push_back(p);
    return tree;
}
#endif

bool waitGone(const Identity &id, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    auto pause = std::chrono::milliseconds(1);
    for (;;) {
        if (alive(id) == Liveness::Gone) return true;
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::milliseconds(20));
    }
}

std::vector<Pid> liveGroupMembers(Pid pgid) {
    std::vector<Pid> members;
    if (pgid <= 0) return members;
    for (const ProcessInfo &p : snapshot())
        if (p.pgid == pgid && p.state != RunState::Zombie) members.push_back(p.pid);
    return members;
}

} // namespace tether::os
