#include "supervision/os_process_table.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>
#include <vector>

namespace tether::supervision {

namespace {

std::chrono::milliseconds clampedMs(Ms ms) {
    return std::chrono::milliseconds(std::max<Ms>(ms, 0));
}

} // namespace

std::string ownerLabel(os::Pid pid, const os::Lookup &lookup) {
    std::string label = "PID " + std::to_string(pid);
    if (lookup.status != os::Lookup::Status::Found) return label;
    std::string name = os::baseName(lookup.info.executable);
    if (name.empty() && !lookup.info.argv.empty()) name = os::baseName(lookup.info.argv.front());
    if (!name.empty()) label += " (" + name + ")";
    return label;
}

policy::PortFacts portFactsFrom(const os::PortOwners &owners,
                                const std::function<std::string(os::Pid)> &describe) {
    policy::PortFacts facts;
    facts.readable = owners.ok;
    if (!owners.ok) return facts;
    std::vector<std::pair<os::Pid, std::string>> named; // one look-up per pid (v4 + v6 alike)
    for (const os::PortListener &l : owners.listeners) {
        policy::Listener out;
        out.pid = l.pid;
        out.family = l.ipv6 ? policy::Family::V6 : policy::Family::V4;
        out.wildcard = l.wildcard;
        if (l.pid > 0) {
            const auto it = std::find_if(named.begin(), named.end(),
                                         [&](const auto &n) { return n.first == l.pid; });
            if (it != named.end()) {
                out.owner = it->second;
            } else {
                out.owner = describe(l.pid);
                named.emplace_back(l.pid, out.owner);
            }
        }
        facts.listeners.push_back(std::move(out));
    }
    return facts;
}

os::Lookup OsProcessTable::inspect(os::Pid pid) {
    return os::inspect(pid);
}

policy::PortFacts OsProcessTable::portFacts(int port) {
    if (port <= 0 || port > 65535) return {}; // no such port: unreadable, never "free"
    return portFactsFrom(os::listeningPortOwners(static_cast<std::uint16_t>(port)),
                         [](os::Pid pid) { return ownerLabel(pid, os::inspect(pid)); });
}

std::uint64_t OsProcessTable::startTimeNow() {
    return os::startTimeNow();
}

void OsProcessTable::pause(Ms ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(clampedMs(ms)));
}

Ms OsProcessTable::clockMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::vector<os::ProcessInfo> OsProcessTable::snapshot() {
    return os::snapshot();
}

std::vector<os::ProcessInfo> OsProcessTable::groupMembers(os::Pid pgid) {
    return os::groupMembers(pgid);
}

bool OsProcessTable::signal(const os::Identity &id, os::Signal sig, std::string *error) {
    return os::signalIdentity(id, sig, error);
}

bool OsProcessTable::signalGroup(os::Pid pgid, os::Signal sig, std::string *error) {
    if (!os::maySignalGroup(pgid)) {
        if (error) *error = "guard: refusing to signal process group " + std::to_string(pgid);
        return false;
    }
    return os::signalGroup(pgid, sig, error);
}

bool OsProcessTable::waitGone(const os::Identity &id, Ms timeoutMs) {
    return os::waitGone(id, clampedMs(timeoutMs));
}

bool OsProcessTable::waitGroupEmpty(os::Pid pgid, Ms timeoutMs) {
    const auto deadline = std::chrono::steady_clock::now() + clampedMs(timeoutMs);
    auto pause = std::chrono::milliseconds(1);
    for (;;) {
        if (os::groupMembers(pgid).empty()) return true;
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline) return false;
        std::this_thread::sleep_for(
            std::min<std::chrono::steady_clock::duration>(pause, deadline - now));
        pause = std::min(pause * 2, std::chrono::milliseconds(10));
    }
}

os::Pid OsProcessTable::selfPid() {
    return os::currentPid();
}

os::Pid OsProcessTable::selfGroup() {
    return os::currentProcessGroup();
}

} // namespace tether::supervision
