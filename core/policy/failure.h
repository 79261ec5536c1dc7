// Why the service failed, in a person's words: what its exit code means, which line of its own
// output says what went wrong, and the one-line cause the tray, the status window and
// `tether status` show. Pure: the shell gathers the facts (exit, log tail, port doctor).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tether::policy {

// How the service's last process ended.
struct ExitFacts {
    int code = 0;
    bool crashed = false; // killed by a signal / crashed (POSIX: code is then meaningless)
    long long ranMs = -1; // how long it ran; -1 unknown
};

// "bad arguments", "command not found", "killed (SIGKILL; out of memory?)", "access violation";
// empty when the code says nothing in particular. POSIX shells report a signal N as 128+N.
std::string exitCodeMeaning(int code);
// "exit code 2: bad arguments", "exit code 7", "killed or crashed".
std::string describeExit(const ExitFacts &e);

// The line of the service's output that names the problem: the last one that reads like an
// error ("Unknown option", "error", "EADDRINUSE", ...), else the last non-empty line; without
// a prefix the service put before it ("tether demo-service: "). Empty when there is none.
std::string errorLine(const std::vector<std::string> &lines);

// The last `max` non-empty lines, trailing whitespace trimmed.
std::vector<std::string> lastLines(const std::vector<std::string> &lines, std::size_t max);
// The lines to show a person: up to `max` non-empty lines ending with the error line (a parser's
// help text after it says less), else the last `max`.
std::vector<std::string> relevantLines(const std::vector<std::string> &lines, std::size_t max);

// A run shorter than this is "stopped at once": its start, not its work, failed.
constexpr long long kStoppedAtOnceMs = 5000;

// What a person must change before any start can succeed. Starting again cannot mend it, so
// Tether does not retry: Failed at once, offering to edit that one setting.
enum class FixFirst {
    Nothing,   // a crash or a failure that a retry may get past
    Arguments, // [service] arguments: the program refused its command line
    Program,   // [service] program: missing, not executable, or a library it needs is not there
};
const char *toString(FixFirst f); // "" | "arguments" | "program" (status --json)

// An exit that blames the configuration: bad arguments (2, 64 EX_USAGE) or a configuration
// error (78 EX_CONFIG) -> Arguments; cannot execute (126), not found (127, cmd's 9009) or a DLL
// that is missing or the wrong one (Windows) -> Program. Only an exit at once and not by a
// signal: a service that ran for minutes and then exits 2 was not refused its command line.
FixFirst fixFirst(const ExitFacts &e);
// A program that could not be started at all (missing, not executable): always the program.
inline FixFirst fixFirstForLaunchFailure() {
    return FixFirst::Program;
}

struct FailureFacts {
    std::string reason;            // the machine's failure (Failed), e.g. "gave up after ..."
    std::optional<ExitFacts> exit; // the last process's end, when one was seen
    std::vector<std::string> log;  // the service's own last output lines (this run)
    std::string portCause;         // the port doctor's finding when the port is the cause
};

// One line for a person: "the service stopped at once: Unknown option 'bogus'. (exit code 2:
// bad arguments)", "port 4096 is held by python3 (pid 1234)", or the machine's reason.
std::string describeFailure(const FailureFacts &f);

} // namespace tether::policy
