#include "policy/failure.h"

#include "policy/words.h"

#include <algorithm>
#include <cctype>
#include <cstddef>

namespace tether::policy {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

std::string trimmed(const std::string &s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
        --e;
    return s.substr(b, e - b);
}

// How a signal ended it, whole: "ended by " and a name would be a fragment to a translator.
const char *endedBySignal(int sig) {
    switch (sig) {
    case 1:
        return TETHER_WORDS("Tether", "ended by SIGHUP");
    case 2:
        return TETHER_WORDS("Tether", "ended by SIGINT");
    case 3:
        return TETHER_WORDS("Tether", "ended by SIGQUIT");
    case 4:
        return TETHER_WORDS("Tether", "ended by SIGILL");
    case 6:
        return TETHER_WORDS("Tether", "ended by SIGABRT");
    case 7:
        return TETHER_WORDS("Tether", "ended by SIGBUS");
    case 8:
        return TETHER_WORDS("Tether", "ended by SIGFPE");
    case 9:
        return TETHER_WORDS("Tether", "killed (SIGKILL; out of memory?)");
    case 11:
        return TETHER_WORDS("Tether", "ended by SIGSEGV");
    case 13:
        return TETHER_WORDS("Tether", "ended by SIGPIPE");
    case 15:
        return TETHER_WORDS("Tether", "ended by SIGTERM");
    default:
        return nullptr;
    }
}

} // namespace

std::string exitCodeMeaning(int code) {
    // Windows NTSTATUS codes come as negative ints (0xC0000005 does not fit an int).
    switch (static_cast<unsigned int>(code)) {
    case 0xC0000005u:
        return TETHER_WORDS("Tether", "access violation (the program crashed)");
    case 0xC0000135u:
        return TETHER_WORDS("Tether", "a DLL it needs was not found");
    case 0xC0000139u:
        return TETHER_WORDS("Tether", "an entry point was not found in a DLL (wrong DLL version)");
    case 0xC000013Au:
        return TETHER_WORDS("Tether", "ended by Ctrl+C or Ctrl+Break");
    case 0xC00000FDu:
        return TETHER_WORDS("Tether", "stack overflow");
    case 0xC0000409u:
        return TETHER_WORDS("Tether", "stack buffer overrun (the program aborted)");
    case 0xC0000142u:
        return TETHER_WORDS("Tether",
                            "the program could not initialise (DLL initialisation failed)");
    default:
        break;
    }
    switch (code) {
    case 1:
        return TETHER_WORDS("Tether", "general error");
    case 2:
    case 64: // EX_USAGE
        return TETHER_WORDS("Tether", "bad arguments");
    case 78:
        return TETHER_WORDS("Tether", "configuration error");
    case 126:
        return TETHER_WORDS("Tether", "the program cannot be executed");
    case 127:
    case 9009: // cmd.exe
        return TETHER_WORDS("Tether", "command not found");
    default:
        break;
    }
    if (code > 128 && code < 160) {
        if (const char *ended = endedBySignal(code - 128)) return ended;
    }
    return {};
}

std::string describeExit(const ExitFacts &e) {
    if (e.crashed) return "killed or crashed";
    // 0 from a service is no error of its own, but it ended: a person should know that much.
    const std::string meaning =
        e.code == 0 ? std::string(TETHER_WORDS("Tether", "it ended by itself, without an error"))
                    : exitCodeMeaning(e.code);
    return "exit code " + std::to_string(e.code) + (meaning.empty() ? "" : ": " + meaning);
}

std::vector<std::string> lastLines(const std::vector<std::string> &lines, std::size_t max) {
    std::vector<std::string> out;
    for (auto it = lines.rbegin(); it != lines.rend() && out.size() < max; ++it) {
        std::string t = *it;
        while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back())))
            t.pop_back();
        if (!trimmed(t).empty()) out.push_back(t);
    }
    std::reverse(out.begin(), out.end());
    return out;
}

namespace {

bool readsLikeAnError(const std::string &line) {
    static const char *const kWords[] = {"unknown option", "unrecognized option",
                                         "invalid",        "error",
                                         "cannot",         "can't",
                                         "failed",         "not found",
                                         "denied",         "eaddrinuse",
                                         "eacces",         "missing",
                                         "fatal",          "panic",
                                         "exception",      "must be"};
    const std::string l = lower(line);
    for (const char *w : kWords)
        if (l.find(w) != std::string::npos) return true;
    return false;
}

bool isUsageLine(const std::string &line) {
    return lower(trimmed(line)).rfind("usage:", 0) == 0;
}

// Where the error line is: index into lines, or npos. Help text after a "Usage:" line lists
// options, not errors: only the lines before the first usage line are searched when one is.
std::size_t errorLineIndex(const std::vector<std::string> &lines) {
    std::size_t end = lines.size();
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (isUsageLine(lines[i])) {
            end = i;
            break;
        }
    for (std::size_t i = end; i-- > 0;)
        if (readsLikeAnError(lines[i])) return i;
    return std::string::npos;
}

} // namespace

std::string errorLine(const std::vector<std::string> &lines) {
    const std::size_t at = errorLineIndex(lines);
    if (at == std::string::npos) {
        const std::vector<std::string> last = lastLines(lines, 1);
        return last.empty() ? std::string() : trimmed(last.front());
    }
    const std::string t = trimmed(lines[at]);
    // "tether demo-service: Unknown option" -> the service's words, not its name.
    const std::size_t colon = t.find(": ");
    const bool prefixed =
        colon != std::string::npos && colon < 40 && !readsLikeAnError(t.substr(0, colon));
    return prefixed ? t.substr(colon + 2) : t;
}

std::vector<std::string> relevantLines(const std::vector<std::string> &lines, std::size_t max) {
    const std::size_t at = errorLineIndex(lines);
    if (at == std::string::npos) return lastLines(lines, max);
    return lastLines(
        std::vector<std::string>(lines.begin(), lines.begin() + std::ptrdiff_t(at) + 1), max);
}

const char *toString(FixFirst f) {
    switch (f) {
    case FixFirst::Arguments:
        return "arguments";
    case FixFirst::Program:
        return "program";
    case FixFirst::Nothing:
        break;
    }
    return "";
}

FixFirst fixFirst(const ExitFacts &e) {
    if (e.crashed || e.ranMs < 0 || e.ranMs >= kStoppedAtOnceMs) return FixFirst::Nothing;
    switch (static_cast<unsigned int>(e.code)) {
    case 0xC0000135u: // a DLL it needs was not found
    case 0xC0000139u: // an entry point was not found in a DLL
        return FixFirst::Program;
    default:
        break;
    }
    switch (e.code) {
    case 2:  // bad arguments (getopt, QCommandLineParser, Python's argparse)
    case 64: // EX_USAGE
    case 78: // EX_CONFIG
        return FixFirst::Arguments;
    case 126:  // found but cannot be executed
    case 127:  // command not found (a shell or a wrapper script said so)
    case 9009: // cmd.exe: "is not recognized as an internal or external command"
        return FixFirst::Program;
    default:
        return FixFirst::Nothing;
    }
}

std::string describeFailure(const FailureFacts &f) {
    if (!f.portCause.empty()) return f.portCause;
    const std::string line = errorLine(f.log);
    if (f.exit) {
        const std::string exit = describeExit(*f.exit);
        const bool atOnce = f.exit->ranMs >= 0 && f.exit->ranMs < kStoppedAtOnceMs;
        const std::string what = atOnce ? "the service stopped at once" : "the service stopped";
        return what + (line.empty() ? "" : ": " + line) + " (" + exit + ")";
    }
    if (!line.empty() && !f.reason.empty()) return f.reason + ": " + line;
    return f.reason.empty() ? line : f.reason;
}

} // namespace tether::policy
