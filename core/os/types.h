// The OS boundary's plain data, and what can be worked out from it alone: processes and their
// identities, a snapshot's family tree, listening sockets, the outcome of a stop. No OS call
// is declared here: the policy (core/policy) sees only this, so no decision can reach the OS
// by itself (the build gives it no other header of this folder).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace tether::os {

using Pid = std::int64_t;

enum class RunState { Running, Stopped, Zombie, Unknown }; // Running includes sleeping / waiting

struct ProcessInfo {
    Pid pid = 0;
    Pid ppid = 0;
    Pid pgid = 0; // 0 where the OS has no process groups (Windows)
    RunState state = RunState::Unknown;
    // Exact, comparable start-time token. Linux: /proc/PID/stat field 22 (clock ticks since
    // boot); macOS: pbi_start_tvsec * 1e6 + usec; Windows: creation FILETIME (100 ns units).
    std::uint64_t startTime = 0;
    std::string executable; // empty when not readable
    std::vector<std::string> argv;
    std::uint64_t rssKiB = 0;
    std::uint64_t cpuTimeMs = 0; // user + system
};

// A process is (pid, start time): a pid alone may have been reused.
struct Identity {
    Pid pid = 0;
    std::uint64_t startTime = 0;
};
inline bool operator==(const Identity &a, const Identity &b) {
    return a.pid == b.pid && a.startTime == b.startTime;
}
inline bool operator!=(const Identity &a, const Identity &b) {
    return !(a == b);
}

enum class Liveness { Alive, Gone, Unknown };

struct Lookup {
    enum class Status { Found, NotFound, Error } status = Status::Error;
    ProcessInfo info;  // valid when Found
    std::string error; // set when Error
};

// The last component of a program's path, after either separator (a Windows path on any host).
std::string baseName(const std::string &path);

// All descendants of root (children, grandchildren, ...), from a snapshot. Pid reuse safe:
// a child counts only if it started no earlier than its parent.
std::vector<Pid> descendants(Pid root, const std::vector<ProcessInfo> &snap);
// The same look-up for many roots of one snapshot: its parent -> children index is built once
// (per root it would cost a pass over the whole snapshot: 300 MCP servers, 300 passes).
class ProcessForest {
public:
    explicit ProcessForest(const std::vector<ProcessInfo> &snap); // must outlive this
    std::vector<Pid> descendants(Pid root) const;

private:
    std::unordered_multimap<Pid, const ProcessInfo *> children_;
    std::unordered_map<Pid, const ProcessInfo *> byPid_;
};

// One LISTEN socket on a port, as one holder sees it. A socket several processes hold (a fork
// that kept the fd) is listed once per holder; one no visible process holds, once with pid 0.
struct PortListener {
    Pid pid = 0;           // 0: the owner could not be read (another user's process, wine)
    bool ipv6 = false;     // the IPv6 table (an IPv4-mapped address on a v6 socket is still v6)
    bool wildcard = false; // bound to 0.0.0.0 or :: (a v6 wildcard may take v4 too: dual stack)
};

struct PortOwners {
    bool ok = false;        // false: the tables could not be read (answer unknown)
    std::vector<Pid> pids;  // processes with a LISTEN socket on the port (IPv4 or IPv6)
    bool listening = false; // a listener exists (its owner may be unreadable: pid unknown)
    std::string error;
    std::vector<PortListener> listeners; // per LISTEN socket on the port, per family
};
enum class TerminateOutcome { ExitedOnTerm, Killed, AlreadyGone, Refused, Unknown };
struct TerminateResult {
    TerminateOutcome outcome = TerminateOutcome::Unknown;
    std::string detail;
};
const char *toString(TerminateOutcome o);

enum class Signal { Terminate, Kill, Continue, Stop };

} // namespace tether::os
