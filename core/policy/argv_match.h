// How one process's argv relates to one configured MCP command: pure, plain C++. Shapes seen
// with opencode 1.18.33 (DESIGN.md "Matching"): exact, interpreter (a shebang script runs as
// interpreter + script path; a bare program name matches by basename) and launcher (`npx -y
// pkg args` runs as "npm exec pkg args"). Used by the MCP matching (core/mcp/matching.h) and
// by the orphan policy (policy/orphans.h).
#pragma once

#include <string>
#include <vector>

namespace tether::policy {

enum class ArgvMatch { None, Launcher, Interpreter, Exact }; // weakest to strongest

ArgvMatch matchArgv(const std::vector<std::string> &argv, const std::vector<std::string> &command);
inline bool argvMatchesCommand(const std::vector<std::string> &argv,
                               const std::vector<std::string> &command) {
    return matchArgv(argv, command) != ArgvMatch::None;
}

} // namespace tether::policy
