#include "policy/notice.h"

#include <cstring>

namespace tether::policy {

namespace {
struct Name {
    NoticeKind kind;
    const char *name;
};
constexpr Name kNames[] = {
    {NoticeKind::Crashed, "crashed"},
    {NoticeKind::Restarted, "restarted"},
    {NoticeKind::Recovered, "recovered"},
    {NoticeKind::GaveUp, "gave-up"},
    {NoticeKind::PortHeld, "port-held"},
    {NoticeKind::MustFix, "must-fix"},
    {NoticeKind::VersionMismatch, "version-mismatch"},
    {NoticeKind::Stale, "stale"},
    {NoticeKind::OrphansFound, "orphans-found"},
    {NoticeKind::McpResources, "mcp-resources"},
    {NoticeKind::Interrupted, "interrupted"},
};

bool isGoodNews(NoticeKind k) {
    return k == NoticeKind::Restarted || k == NoticeKind::Recovered;
}
} // namespace

const char *toString(NoticeKind k) {
    for (const Name &n : kNames)
        if (n.kind == k) return n.name;
    return "crashed";
}

bool fromString(const char *name, NoticeKind *out) {
    for (const Name &n : kNames)
        if (std::strcmp(n.name, name) == 0) {
            *out = n.kind;
            return true;
        }
    return false;
}

NoticeSeverity severityOf(NoticeKind k) {
    switch (k) {
    case NoticeKind::GaveUp:
    case NoticeKind::PortHeld:
    case NoticeKind::MustFix:
        return NoticeSeverity::Critical;
    case NoticeKind::Crashed:
    case NoticeKind::VersionMismatch:
    case NoticeKind::OrphansFound:
    case NoticeKind::McpResources:
    case NoticeKind::Interrupted:
        return NoticeSeverity::Warning;
    case NoticeKind::Restarted:
    case NoticeKind::Recovered:
    case NoticeKind::Stale:
        break;
    }
    return NoticeSeverity::Information;
}

std::string serviceName(const std::optional<Dialect> &profile) {
    if (!profile) return "The service";
    switch (*profile) {
    case Dialect::Opencode1:
    case Dialect::Opencode2:
        return "opencode"; // its own spelling, lower case even first in a sentence
    case Dialect::Demo:
        return "The demo service";
    case Dialect::Custom:
        break;
    }
    return "The service";
}

std::string noticeTitle(NoticeKind k, const std::optional<Dialect> &profile) {
    const std::string s = serviceName(profile);
    switch (k) {
    case NoticeKind::Crashed:
        return s + " stopped unexpectedly; restarting it";
    case NoticeKind::Restarted:
    case NoticeKind::Recovered:
        return s + " is running again";
    case NoticeKind::GaveUp:
        return s + " keeps failing; Tether stopped restarting it";
    case NoticeKind::PortHeld:
        return s + " cannot start: another program uses its port";
    case NoticeKind::MustFix:
        return s + " cannot start with these settings";
    case NoticeKind::VersionMismatch:
        return s + " runs another version than the one installed";
    case NoticeKind::Stale:
        return "Tether removed an outdated service record";
    case NoticeKind::OrphansFound:
        return "MCP servers were left running";
    case NoticeKind::McpResources:
        return "An MCP server uses a lot of resources";
    case NoticeKind::Interrupted:
        return "Running tool calls were cut short";
    }
    return s;
}

std::string crashText(const std::string &why) {
    std::string rest = why;
    if (rest.rfind("pid ", 0) == 0) {
        std::size_t i = 4;
        while (i < rest.size() && rest[i] >= '0' && rest[i] <= '9')
            ++i;
        if (i > 4 && i < rest.size() && rest[i] == ' ') rest = "It" + rest.substr(i);
    }
    if (rest.empty()) return "It stopped without saying why.";
    if (rest[0] >= 'a' && rest[0] <= 'z') rest[0] = char(rest[0] - 'a' + 'A');
    return rest.back() == '.' ? rest : rest + ".";
}

std::string durationWords(long long ms) {
    const long long s = ms / 1000;
    if (s < 120) return std::to_string(s) + " s";
    if (s < 120 * 60) return std::to_string(s / 60) + " min";
    return std::to_string(s / 3600) + " h";
}

std::string interruptedText(const std::vector<std::string> &tools, long long busySessions) {
    const std::string again = " The agent may need to be asked again.";
    if (tools.empty())
        return countOf(busySessions, "session was", "sessions were") + " busy." + again;
    std::string names;
    const std::size_t shown = tools.size() > 3 ? 2 : tools.size();
    for (std::size_t i = 0; i < shown; ++i)
        names += (i == 0                  ? ""
                  : i + 1 == tools.size() ? " and "
                                          : ", ") +
                 (tools[i].empty() ? std::string("a tool") : tools[i]);
    if (shown < tools.size()) names += " and " + std::to_string(tools.size() - shown) + " more";
    return "Stopped mid-call: " + names + "." + again;
}

std::string countOf(long long n, const char *one, const char *many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

bool mayNotify(const NoticeHistory &h, NoticeKind k) {
    return !isGoodNews(k) || h.troubleShown;
}

NoticeHistory afterShown(NoticeHistory h, NoticeKind k) {
    if (k == NoticeKind::Crashed) h.troubleShown = true;
    // Told, or overtaken by worse news: either way no "running again" is owed any more.
    if (isGoodNews(k) || k == NoticeKind::GaveUp || k == NoticeKind::PortHeld ||
        k == NoticeKind::MustFix)
        h.troubleShown = false;
    return h;
}

} // namespace tether::policy
