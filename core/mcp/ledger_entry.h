// One MCP process a service was seen to spawn: plain data shared by the ledger (which persists
// it) and the orphan policy (which decides over it).
#pragma once

#include "os/process.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tether::mcp {

struct LedgerEntry {
    os::Identity process; // pid + start time: the pid alone may be reused
    os::Pid pgid = 0;
    std::vector<std::string> argv;
    std::string name;             // the MCP entry it belongs to
    os::Identity service;         // the service that spawned it
    std::int64_t firstSeenMs = 0; // wall clock, display only
};

} // namespace tether::mcp
