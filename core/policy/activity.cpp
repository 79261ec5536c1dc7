#include "policy/activity.h"

#include <algorithm>

namespace tether::policy {

namespace {

std::vector<BusySession>::iterator findSession(Activity &a, const std::string &id) {
    return std::find_if(a.sessions.begin(), a.sessions.end(),
                        [&](const BusySession &s) { return s.id == id; });
}

void markBusy(Activity &a, const std::string &id, Ms now, const ActivityLimits &limits) {
    if (id.empty() || findSession(a, id) != a.sessions.end()) return;
    if (a.sessions.size() >= limits.maxSessions) {
        ++a.dropped;
        return;
    }
    a.sessions.push_back(BusySession{id, now});
}

void endTool(Activity &a, const std::string &part) {
    a.tools.erase(std::remove_if(a.tools.begin(), a.tools.end(),
                                 [&](const RunningTool &t) { return t.part == part; }),
                  a.tools.end());
}

// Seconds, rounded down: "for 45 s" is what a person reads; milliseconds are for --json.
std::string seconds(Ms ms) {
    return std::to_string(std::max<Ms>(0, ms) / 1000) + " s";
}

std::string plural(std::size_t n, const char *word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

bool contains(const std::vector<std::string> &v, const std::string &x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

// While a snapshot is on its way: note what the stream says, which is newer than it.
void noteForCatchUp(Activity &a, const ActivityEvent &e, const ActivityLimits &limits) {
    if (!a.catchingUp) return;
    const auto note = [&](std::vector<std::string> &v, const std::string &x, std::size_t cap) {
        if (x.empty() || contains(v, x)) return;
        if (v.size() >= cap)
            a.seenOverflow = true;
        else
            v.push_back(x);
    };
    switch (e.kind) {
    case ActivityEventKind::SessionIdle:
        note(a.idleSessions, e.session, 4 * limits.maxSessions);
        break;
    case ActivityEventKind::ToolPending:
    case ActivityEventKind::ToolRunning:
    case ActivityEventKind::ToolEnded:
        note(a.seenParts, e.part, 4 * limits.maxTools);
        break;
    default:
        break;
    }
}

} // namespace

Activity applyActivityEvent(Activity a, const ActivityEvent &e, Ms now,
                            const ActivityLimits &limits) {
    a.lastEventAt = now;
    noteForCatchUp(a, e, limits);
    switch (e.kind) {
    case ActivityEventKind::Connected:
    case ActivityEventKind::Other:
        break;
    case ActivityEventKind::Heartbeat:
        a.lastHeartbeatAt = now;
        break;
    case ActivityEventKind::SessionBusy:
        markBusy(a, e.session, now, limits);
        break;
    case ActivityEventKind::SessionIdle: {
        // An idle session runs no tool: a part it left "running" (the service dropped it)
        // must not hold a stop hostage.
        if (auto it = findSession(a, e.session); it != a.sessions.end()) a.sessions.erase(it);
        a.tools.erase(std::remove_if(a.tools.begin(), a.tools.end(),
                                     [&](const RunningTool &t) { return t.session == e.session; }),
                      a.tools.end());
        break;
    }
    case ActivityEventKind::ToolPending:
    case ActivityEventKind::ToolRunning: {
        if (e.part.empty()) break;
        auto it = std::find_if(a.tools.begin(), a.tools.end(),
                               [&](const RunningTool &t) { return t.part == e.part; });
        // Its real start when the service says it, else the first sighting.
        const Ms since = e.runningMs >= 0 ? now - e.runningMs : now;
        if (it != a.tools.end()) {
            if (!e.tool.empty()) it->tool = e.tool;
            it->since = std::min(it->since, since); // the call did not restart
            break;
        }
        if (a.tools.size() >= limits.maxTools) {
            ++a.dropped;
            break;
        }
        a.tools.push_back(RunningTool{e.session, e.tool, e.part, since});
        markBusy(a, e.session, now, limits);
        break;
    }
    case ActivityEventKind::ToolEnded:
        endTool(a, e.part);
        break;
    }
    return a;
}

Activity onStreamReconnected(Activity a) {
    Activity fresh;
    fresh.identity = a.identity;
    fresh.catchingUp = true;
    return fresh;
}

Activity applyActivitySnapshot(Activity a, const ActivitySnapshot &s, Ms now,
                               const ActivityLimits &limits) {
    if (!a.catchingUp) return a; // a late answer to an older connection
    if (!a.seenOverflow) {
        const auto busy = [&](const std::string &session) {
            return contains(s.busySessions, session) && !contains(a.idleSessions, session);
        };
        for (const ActivitySnapshotTool &t : s.tools) {
            if (t.part.empty() || !busy(t.session)) continue;
            // One the stream already shows: the service's start dates it (a re-sent running
            // part may come without its start, and was then timed from its sighting).
            const auto known = std::find_if(a.tools.begin(), a.tools.end(),
                                            [&](const RunningTool &r) { return r.part == t.part; });
            if (known != a.tools.end()) {
                if (t.runningMs > 0) known->since = std::min(known->since, now - t.runningMs);
                continue;
            }
            if (contains(a.seenParts, t.part)) continue; // the stream ended it since
            if (a.tools.size() >= limits.maxTools) {
                ++a.dropped;
                continue;
            }
            // Its age by the service's clock: "for 45 s" stays true across a Tether restart.
            a.tools.push_back(
                RunningTool{t.session, t.tool, t.part, now - std::max<Ms>(0, t.runningMs)});
        }
        for (const std::string &session : s.busySessions) {
            if (!busy(session)) continue;
            Ms since = now;
            for (const RunningTool &r : a.tools)
                if (r.session == session) since = std::min(since, r.since);
            markBusy(a, session, since, limits);
        }
    }
    a.catchingUp = false;
    a.seenOverflow = false;
    a.seenParts.clear();
    a.idleSessions.clear();
    return a;
}

Activity onServiceIdentity(Activity a, const std::string &identity) {
    if (a.identity == identity) return a;
    Activity fresh;
    fresh.identity = identity;
    return fresh;
}

bool isBusy(const Activity &a) {
    return !a.sessions.empty() || !a.tools.empty();
}

bool runsToolCalls(const Activity &a) {
    return !a.tools.empty();
}

bool needsConsent(PersonAction action, bool quitStopsService, const Activity &a) {
    const bool stops = action != PersonAction::Quit || quitStopsService;
    return stops && runsToolCalls(a);
}

Interruption interruptionOf(const Activity &a, Ms now) {
    return Interruption{a.sessions, a.tools, now};
}

bool interruptsWork(State from, State to) {
    const auto serving = [](State s) { return s == State::Healthy || s == State::NotResponding; };
    return serving(from) && !serving(to);
}

std::size_t busySessionCount(const Activity &a) {
    std::size_t n = a.sessions.size();
    for (std::size_t i = 0; i < a.tools.size(); ++i) {
        const std::string &s = a.tools[i].session;
        const bool listed = std::any_of(a.sessions.begin(), a.sessions.end(),
                                        [&](const BusySession &b) { return b.id == s; });
        const bool seenBefore =
            std::any_of(a.tools.begin(), a.tools.begin() + static_cast<std::ptrdiff_t>(i),
                        [&](const RunningTool &t) { return t.session == s; });
        if (!listed && !seenBefore) ++n; // a capped session list still counts its tools' ones
    }
    return n;
}

std::string describeTools(const std::vector<RunningTool> &tools, Ms now) {
    std::string out;
    for (const RunningTool &t : tools) {
        if (!out.empty()) out += ", ";
        out += "tool " + (t.tool.empty() ? std::string("(unnamed)") : t.tool);
        if (now >= 0) out += " for " + seconds(now - t.since);
    }
    return out;
}

std::string describeActivity(const Activity &a, Ms now) {
    if (!isBusy(a)) return "idle";
    std::string out = "busy: " + plural(busySessionCount(a), "session");
    if (!a.tools.empty()) out += ", " + describeTools(a.tools, now);
    return out;
}

std::string describeUnseenActivity() {
    return "activity unknown: this service has no event stream";
}

std::string describeInterruption(const Interruption &i) {
    if (i.sessions.empty() && i.tools.empty()) return {};
    std::string out = "interrupted: ";
    if (!i.tools.empty()) {
        for (std::size_t k = 0; k < i.tools.size(); ++k) {
            if (k) out += ", ";
            const RunningTool &t = i.tools[k];
            out += "tool " + (t.tool.empty() ? std::string("(unnamed)") : t.tool) + " (session " +
                   t.session + ")";
        }
        out += "; ";
    }
    out += plural(i.sessions.size(), "busy session");
    return out;
}

} // namespace tether::policy
