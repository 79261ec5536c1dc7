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

// How program paths compare. Windows: `\` and `/` are one separator, case does not matter, and
// a configured `node` (or `npx`) is the `node.exe` (`npx.cmd`) that runs; the process table
// shows `C:\...\node.exe` where the configuration says `C:/.../node` or just `node`.
enum class PathStyle { Posix, Windows };
#if defined(_WIN32)
inline constexpr PathStyle kNativePathStyle = PathStyle::Windows;
#else
inline constexpr PathStyle kNativePathStyle = PathStyle::Posix;
#endif

ArgvMatch matchArgv(const std::vector<std::string> &argv, const std::vector<std::string> &command,
                    PathStyle style = kNativePathStyle);
inline bool argvMatchesCommand(const std::vector<std::string> &argv,
                               const std::vector<std::string> &command,
                               PathStyle style = kNativePathStyle) {
    return matchArgv(argv, command, style) != ArgvMatch::None;
}

} // namespace tether::policy
