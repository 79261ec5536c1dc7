#include "policy/recovery.h"

#include <optional>

#include <algorithm>
#include <cctype>

namespace tether::policy {

Ms startupProbeDelay(int attempt) {
    Ms delay = 25;
    for (int i = 0; i < attempt && delay < 500; ++i)
        delay *= 2;
    return std::min<Ms>(delay, 500);
}

RecoveryWindow windowOpenedAt(Ms now) {
    return RecoveryWindow{now, false, now, std::nullopt};
}

RecoveryWindow onProbeAnswered(RecoveryWindow w, Ms now) {
    return RecoveryWindow{now, false, now, w.lifeSign};
}

RecoveryWindow onLifeSign(RecoveryWindow w, Ms now, const Timings &t) {
    // Past one window after the last answer a life sign earns nothing: the window runs from
    // the last sign that came within it.
    if (now > w.answered + t.windowMs || now <= w.anchor) return w;
    return RecoveryWindow{now, false, w.answered, now};
}

RecoveryWindow onProbeMissed(RecoveryWindow w, Ms probeSentAt) {
    if (probeSentAt >= w.anchor) w.freshMiss = true;
    return w;
}

RecoveryWindow onTimeGap(RecoveryWindow, Ms now) {
    return RecoveryWindow{now, false, now, std::nullopt}; // signs from before it prove nothing now
}

WindowDecision decideWindow(const RecoveryWindow &w, Ms now, const Timings &t) {
    const Ms elapsed = std::max<Ms>(0, now - w.anchor);
    if (elapsed >= t.windowMs && w.freshMiss) return WindowDecision{true, 0};
    return WindowDecision{false, std::max<Ms>(0, t.windowMs - elapsed)};
}

Ms streamQuietMs(const Timings &t) {
    // Half a window, less a probe's timeout: opencode 1.x's heartbeat (10 s) fits the default
    // 13 s; 2.x's (15 s) does not, and its probes come every heartbeat instead.
    return std::max(t.probeIntervalMs, t.windowMs / 2 - t.probeTimeoutMs);
}

Ms relaxedProbeIntervalMs(const Timings &t) {
    // Five intervals (25 s by default), within the window less a timeout: an answer at least
    // that often keeps the version, the MCP view and the life signs' credit fresh.
    return std::max(t.probeIntervalMs,
                    std::min(5 * t.probeIntervalMs, t.windowMs - t.probeTimeoutMs));
}

Ms nextProbeAt(const RecoveryWindow &w, Ms sentAt, const Timings &t) {
    const Ms base = sentAt + t.probeIntervalMs;
    if (!w.lifeSign) return base;
    return std::max(base,
                    std::min(*w.lifeSign + streamQuietMs(t), sentAt + relaxedProbeIntervalMs(t)));
}

bool isTimeGap(Ms dueAt, Ms firedAt, const Timings &t) {
    // Generous: a busy event loop is late by milliseconds, a sleeping machine by seconds.
    const Ms threshold = std::max<Ms>(1000, 2 * t.probeIntervalMs);
    // Far earlier than due can only be a clock that went backwards: a gap too, or every
    // deadline measured from before it would be postponed by the jump.
    return firedAt - dueAt > threshold || dueAt - firedAt > threshold;
}

KillVerdict decideKill(Liveness identity, PortHolder port, bool startedByUs) {
    switch (identity) {
    case Liveness::Unknown:
        return KillVerdict::Refuse;
    case Liveness::Gone:
    case Liveness::Different:
        return KillVerdict::DropStale;
    case Liveness::Alive:
        break;
    }
    // Our own running child is identified by the launcher; the port adds nothing to that.
    if (startedByUs) return KillVerdict::Proceed;
    switch (port) {
    case PortHolder::Service:
        return KillVerdict::Proceed;
    case PortHolder::Invisible:
    case PortHolder::Unknown:
        return KillVerdict::Refuse;
    case PortHolder::Free:
    case PortHolder::Other:
        return KillVerdict::DropStale; // alive, but not the service (rule 3): never signalled
    }
    return KillVerdict::Refuse;
}

static std::vector<Ms> withinBurstWindow(std::vector<Ms> failures, Ms now, const Timings &t) {
    failures.erase(std::remove_if(failures.begin(), failures.end(),
                                  [&](Ms at) { return now - at >= t.burstWindowMs; }),
                   failures.end());
    return failures;
}

RestartBudget recordFailure(RestartBudget b, Ms now, const Timings &t) {
    b.failures = withinBurstWindow(std::move(b.failures), now, t);
    b.failures.push_back(now);
    ++b.consecutive;
    return b;
}

RestartDecision decideRestart(const RestartBudget &b, Ms now, const Timings &t) {
    const auto recent = withinBurstWindow(b.failures, now, t);
    if (static_cast<int>(recent.size()) >= t.burst) return RestartDecision{true, 0};
    Ms delay = t.backoffInitialMs;
    for (int i = 1; i < b.consecutive && delay < t.backoffMaxMs; ++i)
        delay *= 2;
    return RestartDecision{false, std::min(delay, t.backoffMaxMs)};
}

RestartBudget onHealthy(RestartBudget b, Ms healthySince, Ms now, const Timings &t) {
    if (now - healthySince >= t.stableResetMs) return RestartBudget{};
    return b;
}

static std::string normalizedVersion(const std::string &v) {
    std::string out;
    for (char c : v)
        if (!std::isspace(static_cast<unsigned char>(c))) out.push_back(c);
    if (!out.empty() && (out[0] == 'v' || out[0] == 'V')) out.erase(0, 1);
    return out;
}

bool sameVersion(const std::string &a, const std::string &b) {
    return normalizedVersion(a) == normalizedVersion(b);
}

namespace {

struct ParsedVersion {
    std::vector<long long> numbers; // 2.0.17 -> 2, 0, 17
    std::string pre;                // after '-' (a pre-release sorts before its release)
};

std::optional<ParsedVersion> parseVersion(const std::string &text) {
    const std::string v = normalizedVersion(text);
    ParsedVersion out;
    std::size_t i = 0;
    while (i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]))) {
        long long n = 0;
        for (int digits = 0; i < v.size() && std::isdigit(static_cast<unsigned char>(v[i]));
             ++i, ++digits) {
            if (digits >= 15) return std::nullopt;
            n = n * 10 + (v[i] - '0');
        }
        out.numbers.push_back(n);
        if (i < v.size() && v[i] == '.') ++i;
    }
    if (out.numbers.empty()) return std::nullopt;
    if (i < v.size() && v[i] == '-')
        out.pre = v.substr(i + 1);
    else if (i < v.size() && v[i] != '+')
        return std::nullopt;
    return out;
}

} // namespace

std::optional<int> compareVersions(const std::string &a, const std::string &b) {
    const auto pa = parseVersion(a), pb = parseVersion(b);
    if (!pa || !pb) return std::nullopt;
    const std::size_t n = std::max(pa->numbers.size(), pb->numbers.size());
    for (std::size_t i = 0; i < n; ++i) {
        const long long x = i < pa->numbers.size() ? pa->numbers[i] : 0;
        const long long y = i < pb->numbers.size() ? pb->numbers[i] : 0;
        if (x != y) return x < y ? -1 : 1;
    }
    if (pa->pre == pb->pre) return 0;
    if (pa->pre.empty() != pb->pre.empty()) return pa->pre.empty() ? 1 : -1;
    return std::nullopt; // two pre-releases of one version: no order Tether can trust
}

VersionAction decideVersion(const std::string &reported, const std::string &installed,
                            bool autoReplace) {
    if (normalizedVersion(reported).empty() || normalizedVersion(installed).empty() ||
        sameVersion(reported, installed))
        return VersionAction::None;
    // Only ever upwards: a service newer than what is installed was started by a newer client
    // (opencode's desktop app, say), and replacing it back would make the two take turns.
    const std::optional<int> order = compareVersions(installed, reported);
    return autoReplace && order && *order > 0 ? VersionAction::Replace
                                              : VersionAction::ShowMismatch;
}

} // namespace tether::policy
