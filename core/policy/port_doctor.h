// The port doctor: is the service's port the reason it cannot run, and which port would do?
// Pure: the shell gathers who listens (core/os), whether a bind works, and (Windows) the
// ranges Hyper-V/WSL exclude; this decides what to tell a person and what to offer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tether::policy {

enum class BindResult {
    Ok,           // a loopback bind on the port worked: nothing stands in the way
    InUse,        // EADDRINUSE / WSAEADDRINUSE
    AccessDenied, // EACCES / WSAEACCES: on Windows an excluded range, elsewhere a privileged port
    Other,        // any other error, or not tried
};

struct PortRange {
    std::uint16_t first = 0, last = 0;
    bool contains(std::uint16_t p) const { return p >= first && p <= last; }
};
bool operator==(const PortRange &a, const PortRange &b);

struct PortHolderFacts {
    long long pid = 0; // 0: a listener whose owner cannot be read
    std::string name;  // program name, empty when unknown
};

struct PortFactsForDoctor {
    std::uint16_t port = 0;
    bool tablesRead = false; // the listener tables could be read
    std::vector<PortHolderFacts> holders;
    bool listening = false; // some listener is there, even if its owner is unreadable
    BindResult bind = BindResult::Other;
    std::vector<PortRange> excluded; // Windows: netsh's excludedportrange (empty elsewhere)
    long long servicePid = 0;        // the service's own pid: holding the port is not a fault
};

// How the port stands in the way, for the words a person reads (the UI's, translated).
enum class PortBlock {
    None,
    Held,      // programs listen there: holderNames
    Invisible, // something listens whose owner Tether cannot read (another user's?)
    Reserved,  // Windows keeps the range for itself (Hyper-V, WSL, Docker): excludedRange
    Denied,    // a bind is refused though nothing listens (a privileged port, a firewall)
};

struct PortDiagnosis {
    bool isCause = false; // the port is why the service cannot run
    PortBlock block = PortBlock::None;
    std::vector<std::string> holderNames; // Held: "python3", "node" (no pids: those are details)
    std::string holder; // "python3 (pid 1234)", "a process Tether cannot see", "Windows (...)"
    std::string cause;  // one line for a person; empty when the port is fine
    std::optional<PortRange> excludedRange;
};

PortDiagnosis diagnosePort(const PortFactsForDoctor &f);

// `netsh interface ipv4 show excludedportrange protocol=tcp`: the rows of two numbers (start,
// end; a trailing "*" marks an administered exclusion) under the dashed line. Anything else
// (headers, the legend, another language's words) is skipped.
std::vector<PortRange> parseExcludedPortRanges(const std::string &netshOutput);

// The first port after `from` (wrapping within [lowest, highest]) that is not excluded and
// for which usable(port) says yes; 0 when none within `tries`. `usable` is the shell's bind.
template <typename Usable>
std::uint16_t pickFreePort(std::uint16_t from, const std::vector<PortRange> &excluded,
                           Usable usable, int tries = 200, std::uint16_t lowest = 1024,
                           std::uint16_t highest = 65535) {
    int p = from;
    for (int i = 0; i < tries; ++i) {
        p = p >= highest ? lowest : p + 1;
        bool out = false;
        for (const PortRange &r : excluded)
            out = out || r.contains(std::uint16_t(p));
        if (!out && usable(std::uint16_t(p))) return std::uint16_t(p);
    }
    return 0;
}

} // namespace tether::policy
