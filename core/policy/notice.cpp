#include "policy/notice.h"

#include "policy/enum_names.h"
#include "policy/words.h"

namespace tether::policy {

namespace {
constexpr EnumName<NoticeKind> kNoticeNames[] = {
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
    {NoticeKind::StartedElsewhere, "started-elsewhere"},
    {NoticeKind::StoppedElsewhere, "stopped-elsewhere"},
    {NoticeKind::StateNotSaved, "state-not-saved"},
};
} // namespace

const char *toString(NoticeKind k) {
    return nameIn(kNoticeNames, k, "crashed");
}

bool fromString(const char *name, NoticeKind *out) {
    return valueIn(kNoticeNames, name, out);
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
    case NoticeKind::StateNotSaved:
        return NoticeSeverity::Warning;
    case NoticeKind::Restarted:
    case NoticeKind::Recovered:
    case NoticeKind::Stale:
    case NoticeKind::StartedElsewhere:
    case NoticeKind::StoppedElsewhere:
        break;
    }
    return NoticeSeverity::Information;
}

const char *serviceName(const std::optional<Dialect> &profile) {
    if (!profile) return TETHER_WORDS("Tether", "The service");
    switch (*profile) {
    case Dialect::Opencode1:
    case Dialect::Opencode2:
        return "opencode"; // its own spelling, lower case even first in a sentence
    case Dialect::Demo:
        return TETHER_WORDS("Tether", "The demo service");
    case Dialect::Custom:
        break;
    }
    return TETHER_WORDS("Tether", "The service");
}

const char *noticeTitleWords(NoticeKind k) {
    switch (k) {
    case NoticeKind::Crashed:
        return TETHER_WORDS("Tether", "%1 stopped unexpectedly; restarting it");
    case NoticeKind::Restarted:
    case NoticeKind::Recovered:
        return TETHER_WORDS("Tether", "%1 is running again");
    case NoticeKind::GaveUp:
        return TETHER_WORDS("Tether", "%1 keeps failing; Tether stopped restarting it");
    case NoticeKind::PortHeld:
        return TETHER_WORDS("Tether", "%1 cannot start: another program uses its port");
    case NoticeKind::MustFix:
        return TETHER_WORDS("Tether", "%1 cannot start with these settings");
    case NoticeKind::VersionMismatch:
        return TETHER_WORDS("Tether", "%1 runs another version than the one installed");
    case NoticeKind::Stale:
        return TETHER_WORDS("Tether", "Tether removed an outdated service record");
    case NoticeKind::OrphansFound:
        return TETHER_WORDS("Tether", "MCP servers were left running");
    case NoticeKind::McpResources:
        return TETHER_WORDS("Tether", "An MCP server uses a lot of resources");
    case NoticeKind::Interrupted:
        return TETHER_WORDS("Tether", "Running tool calls were cut short");
    case NoticeKind::StartedElsewhere:
        return TETHER_WORDS("Tether", "%1 was started by another program");
    case NoticeKind::StoppedElsewhere:
        return TETHER_WORDS("Tether", "%1 was stopped by another program");
    case NoticeKind::StateNotSaved:
        return TETHER_WORDS("Tether", "Tether cannot save its records");
    }
    return "%1";
}

std::string noticeTitle(NoticeKind k, const std::optional<Dialect> &profile) {
    std::string title = noticeTitleWords(k);
    const std::size_t at = title.find("%1");
    if (at != std::string::npos) title.replace(at, 2, serviceName(profile));
    return title;
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

NoticeStep onNotice(NoticeHistory h, NoticeKind k, NoticeMs now) {
    NoticeStep out;
    switch (k) {
    case NoticeKind::Crashed:
        // Held: how it ends decides what is told. A second crash of the same incident adds
        // nothing while the first is held.
        if (!h.crashHeldAt) h.crashHeldAt = now;
        out.wakeAt = *h.crashHeldAt + kIncidentMs;
        break;
    case NoticeKind::Restarted:
    case NoticeKind::Recovered:
        if (h.crashHeldAt) {
            out.show = k;
            out.afterCrash = true;
            out.cutShort = h.cutShort;
        } else if (h.troubleShown) {
            out.show = k;
        }
        h.troubleShown = false;
        h.crashHeldAt.reset();
        h.cutShort = false;
        break;
    case NoticeKind::GaveUp:
    case NoticeKind::PortHeld:
    case NoticeKind::MustFix:
        // Overtakes a crash told or held: nothing more is owed for it.
        out.show = k;
        h.troubleShown = false;
        h.crashHeldAt.reset();
        h.cutShort = false;
        break;
    case NoticeKind::Interrupted:
        if (h.confirmedAt && now - *h.confirmedAt <= kConfirmedMs) break; // they said yes
        if (h.crashHeldAt) { // told with the crash, in its one notice
            h.cutShort = true;
            out.wakeAt = *h.crashHeldAt + kIncidentMs;
            break;
        }
        out.show = k;
        break;
    case NoticeKind::Stale:
        // Housekeeping a person need not act on (a record of a service that is gone): the
        // events list says it. As a balloon it came with the orphans dialog at launch.
        break;
    case NoticeKind::VersionMismatch:
    case NoticeKind::OrphansFound:
    case NoticeKind::McpResources:
    case NoticeKind::StartedElsewhere:
    case NoticeKind::StoppedElsewhere:
    case NoticeKind::StateNotSaved:
        out.show = k;
        if (h.crashHeldAt) out.wakeAt = *h.crashHeldAt + kIncidentMs;
        break;
    }
    out.history = h;
    return out;
}

NoticeStep onNoticeTimer(NoticeHistory h, NoticeMs now) {
    NoticeStep out;
    if (h.crashHeldAt && now >= *h.crashHeldAt + kIncidentMs) {
        out.show = NoticeKind::Crashed;
        out.cutShort = h.cutShort;
        h.crashHeldAt.reset();
        h.cutShort = false;
        h.troubleShown = true; // its end is owed
    } else if (h.crashHeldAt) {
        out.wakeAt = *h.crashHeldAt + kIncidentMs;
    }
    out.history = h;
    return out;
}

NoticeHistory onConfirmedInterruption(NoticeHistory h, NoticeMs now) {
    h.confirmedAt = now;
    return h;
}

} // namespace tether::policy
