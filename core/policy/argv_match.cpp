#include "policy/argv_match.h"

#include <algorithm>
#include <iterator>
#include <string_view>

namespace tether::policy {

namespace {

// Interpreter plus at most this many options before the script (`python3 -u -X dev script`).
constexpr std::size_t kMaxInterpreterWords = 4;

// Programs that fetch a package and run its binary in a child process tree.
const char *const kLaunchers[] = {"npx",  "bunx", "pnpx", "uvx", "pipx", "npm",
                                  "pnpm", "bun",  "yarn", "uv",  "deno"};
// Sub-verbs of those launchers that come before the package name (`pnpm dlx pkg`).
const char *const kLauncherVerbs[] = {"exec", "dlx", "x", "run", "tool", "--"};

// Views, not copies: the MCP refresh matches every command against every child of the
// service on the probe cadence (2,500 pairs for 50 servers).
std::string_view basename(std::string_view path) {
    const auto slash = path.find_last_of("/\\");
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool contains(const char *const *begin, const char *const *end, std::string_view s) {
    return std::any_of(begin, end, [&](const char *x) { return s == x; });
}

// Windows: one separator, ASCII case folded (NTFS names compare case-insensitively).
std::string folded(const std::string &path, PathStyle style) {
    if (style == PathStyle::Posix) return path;
    std::string out = path;
    for (char &c : out) {
        if (c == '\\') c = '/';
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    }
    return out;
}

// Windows runs `node` as node.exe and `npx` as npx.cmd: the name without what PATHEXT adds.
std::string withoutRunExtension(const std::string &name, PathStyle style) {
    if (style == PathStyle::Posix) return name;
    for (const char *ext : {".exe", ".cmd", ".bat", ".com"}) {
        const std::size_t n = std::char_traits<char>::length(ext);
        if (name.size() > n && name.compare(name.size() - n, n, ext) == 0)
            return name.substr(0, name.size() - n);
    }
    return name;
}

// A configured program is an absolute/relative path (compare whole) or a bare name that the
// service resolved through PATH (compare the basename of what actually runs).
bool programMatches(const std::string &actualPath, const std::string &configuredPath,
                    PathStyle style) {
    if (style == PathStyle::Posix) // nothing folded, no extension added
        return configuredPath.find_first_of("/\\") != std::string::npos
                   ? actualPath == configuredPath
                   : basename(actualPath) == configuredPath;
    const std::string actual = folded(actualPath, style);
    const std::string configured = folded(configuredPath, style);
    if (configured.find_first_of("/\\") != std::string::npos)
        return actual == configured ||
               withoutRunExtension(actual, style) == withoutRunExtension(configured, style);
    const std::string name(basename(actual));
    return name == configured ||
           withoutRunExtension(name, style) == withoutRunExtension(configured, style);
}

// argv[from..] == command[1..], with argv[from] matching the program.
bool matchesAt(const std::vector<std::string> &argv, std::size_t from,
               const std::vector<std::string> &command, PathStyle style) {
    // The arguments first: comparing them is cheaper than the program's path.
    return argv.size() - from == command.size() &&
           std::equal(command.begin() + 1, command.end(), argv.begin() + from + 1) &&
           programMatches(argv[from], command[0], style);
}

// A process may rewrite its title ("npm exec pkg /tmp" as one string): compare words.
std::vector<std::string> words(const std::vector<std::string> &argv) {
    std::vector<std::string> out;
    for (const std::string &arg : argv) {
        std::size_t i = 0;
        while (i < arg.size()) {
            const std::size_t end = std::min(arg.find(' ', i), arg.size());
            if (end > i) out.push_back(arg.substr(i, end - i));
            i = end + 1;
        }
    }
    return out;
}

// `npx -y pkg a b`: the launcher runs as "npm exec pkg a b" (or node .../npx-cli.js -y pkg a b):
// the package name must appear after the first word and the arguments must end the argv.
bool launcherMatches(const std::vector<std::string> &argv, const std::vector<std::string> &command,
                     PathStyle style) {
    const bool launcher =
        style == PathStyle::Posix
            ? contains(std::begin(kLaunchers), std::end(kLaunchers), basename(command[0]))
            : contains(
                  std::begin(kLaunchers), std::end(kLaunchers),
                  withoutRunExtension(std::string(basename(folded(command[0], style))), style));
    if (!launcher) return false;
    std::size_t pkg = 1;
    while (pkg < command.size() &&
           (command[pkg].rfind('-', 0) == 0 ||
            contains(std::begin(kLauncherVerbs), std::end(kLauncherVerbs), command[pkg])))
        ++pkg;
    if (pkg >= command.size()) return false;
    const std::vector<std::string> w = words(argv);
    const std::size_t tail = command.size() - pkg - 1; // arguments after the package
    if (w.size() < tail + 2) return false;
    if (!std::equal(command.end() - static_cast<std::ptrdiff_t>(tail), command.end(),
                    w.end() - static_cast<std::ptrdiff_t>(tail)))
        return false;
    const auto pkgEnd = w.end() - static_cast<std::ptrdiff_t>(tail);
    return std::find(w.begin() + 1, pkgEnd, command[pkg]) != pkgEnd;
}

} // namespace

ArgvMatch matchArgv(const std::vector<std::string> &argv, const std::vector<std::string> &command,
                    PathStyle style) {
    if (argv.empty() || command.empty() || command[0].empty()) return ArgvMatch::None;
    if (matchesAt(argv, 0, command, style)) return ArgvMatch::Exact;
    if (argv.size() > command.size() && argv.size() - command.size() <= kMaxInterpreterWords &&
        matchesAt(argv, argv.size() - command.size(), command, style))
        return ArgvMatch::Interpreter;
    if (launcherMatches(argv, command, style)) return ArgvMatch::Launcher;
    return ArgvMatch::None;
}

} // namespace tether::policy
