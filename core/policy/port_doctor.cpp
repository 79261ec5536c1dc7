#include "policy/port_doctor.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace tether::policy {

bool operator==(const PortRange &a, const PortRange &b) {
    return a.first == b.first && a.last == b.last;
}

PortDiagnosis diagnosePort(const PortFactsForDoctor &f) {
    PortDiagnosis d;
    const std::string port = "port " + std::to_string(f.port);
    std::string named;
    bool foreign = false;
    for (const PortHolderFacts &h : f.holders) {
        if (h.pid != 0 && h.pid == f.servicePid) continue; // the service itself: not a fault
        foreign = true;
        if (h.pid == 0) continue;
        const std::string one = (h.name.empty() ? std::string("a process") : h.name) + " (pid " +
                                std::to_string(h.pid) + ")";
        if (named.find(one) == std::string::npos) named += (named.empty() ? "" : ", ") + one;
        if (!h.name.empty() &&
            std::find(d.holderNames.begin(), d.holderNames.end(), h.name) == d.holderNames.end())
            d.holderNames.push_back(h.name);
    }
    const bool serviceHolds = f.servicePid != 0 && !foreign && !f.holders.empty();
    if (serviceHolds) return d;
    if (!named.empty()) {
        d.isCause = true;
        d.block = PortBlock::Held;
        d.holder = named;
        d.cause = port + " is held by " + named;
        return d;
    }
    if (foreign || (f.listening && f.holders.empty()) || f.bind == BindResult::InUse) {
        d.isCause = true;
        d.block = PortBlock::Invisible;
        d.holderNames.clear();
        d.holder = "a process Tether cannot see (another user's?)";
        d.cause = port + " is held by " + d.holder;
        return d;
    }
    if (f.bind == BindResult::AccessDenied) {
        d.isCause = true;
        for (const PortRange &r : f.excluded)
            if (r.contains(f.port)) d.excludedRange = r;
        d.block = d.excludedRange ? PortBlock::Reserved : PortBlock::Denied;
        if (d.excludedRange) {
            d.holder = "Windows";
            d.cause = port + " is reserved by Windows (excluded range " +
                      std::to_string(d.excludedRange->first) + "-" +
                      std::to_string(d.excludedRange->last) +
                      ", Hyper-V/WSL/Docker): nothing listens there, but no program may use it";
        } else {
            d.holder = "the system";
            d.cause = port + " may not be used (access denied" +
                      std::string(f.port < 1024 ? ": a privileged port"
                                                : ", though nothing "
                                                  "listens there") +
                      ")";
        }
        return d;
    }
    return d;
}

std::vector<PortRange> parseExcludedPortRanges(const std::string &text) {
    std::vector<PortRange> out;
    std::istringstream in(text);
    std::string line;
    bool table = false;
    while (std::getline(in, line)) {
        if (line.find("----") != std::string::npos) {
            table = true;
            continue;
        }
        if (!table) continue;
        std::istringstream row(line);
        long a = -1, b = -1;
        if (!(row >> a >> b)) continue;
        std::string rest;
        row >> rest;
        if (!rest.empty() && rest != "*") continue; // not a row of the table
        if (a < 1 || b < a || b > 65535) continue;
        out.push_back(PortRange{std::uint16_t(a), std::uint16_t(b)});
    }
    return out;
}

} // namespace tether::policy
