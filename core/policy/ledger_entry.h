// One MCP process a service was seen to spawn: plain data shared by the ledger (core/mcp, which
// persists it) and the orphan policy (which decides over it). The policy's type: the policy may
// not see core/mcp.
#pragma once

#include "os/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tether::policy {

struct LedgerEntry {
    os::Identity process; // pid + start time: the pid alone may be reused
    os::Pid pgid = 0;
    std::vector<std::string> argv;
    std::string name;             // the MCP entry it belongs to
    os::Identity service;         // the service that spawned it
    std::int64_t firstSeenMs = 0; // wall clock, display only
};

} // namespace tether::policy
