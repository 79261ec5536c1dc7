// The OS-independent half of the OS boundary: rules expressed over inspect() and snapshots.
#include "os/process.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <unordered_map>

namespace tether::os {

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
