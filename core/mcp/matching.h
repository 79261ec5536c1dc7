// Which of the service's processes is which MCP server: pure, over a plain process snapshot.
// Shapes seen with opencode 1.18.33 (DESIGN.md "Matching"):
//   exact        argv == command                      ["/abs/tether","demo-mcp","--name","d1"]
//   interpreter  a shebang script runs as interpreter + script path
//                ["node","/x/bin/mcp-server-fs","/tmp"] for ["/x/bin/mcp-server-fs","/tmp"];
//                a bare program name matches by basename (it was resolved through PATH)
//   launcher     `npx -y pkg args` is a subtree: "npm exec pkg args" -> sh -c -> node /.../bin
// The entry is matched to a DIRECT child of the service; that child's whole subtree is the server.
#pragma once

#include "mcp/mcp_config.h"
#include "os/process.h"
#include "policy/argv_match.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tether::mcp {

// How one process's argv relates to one configured command: a pure decision, in core/policy
// (the orphan policy uses it too).
using policy::ArgvMatch;
using policy::argvMatchesCommand;
using policy::matchArgv;

struct McpCommand {
    std::string name;
    std::vector<std::string> command;
};

// The local entries that can have a process (remote ones cannot), enabled or not.
std::vector<McpCommand> localCommands(const std::vector<McpEntry> &entries);

struct McpProcessTree {
    std::string name;
    os::Pid rootPid = 0; // 0: no process found for this entry
    std::uint64_t rootStartTime = 0;
    std::vector<os::Pid> pids; // root first, then its live descendants
    std::uint64_t rssKiB = 0;  // summed over pids
    std::uint64_t cpuTimeMs = 0;
};

// One result per command, in the order given. `snapshot` must contain the service's
// descendants (a full process snapshot is fine). Zombies are never matched or counted.
std::vector<McpProcessTree> matchMcpProcesses(os::Pid servicePid,
                                              const std::vector<os::ProcessInfo> &snapshot,
                                              const std::vector<McpCommand> &commands);

} // namespace tether::mcp
