#include "policy/resource_watch.h"

#include <algorithm>
#include <cstdio>

namespace tether::policy {

ResourceLimits resourceLimits(int memoryWarnMiB, int cpuBusyMinutes) {
    ResourceLimits l;
    l.memoryWarnKiB = std::uint64_t(std::max(1, memoryWarnMiB)) * 1024;
    l.cpuBusyMs = Ms(std::max(1, cpuBusyMinutes)) * 60000;
    return l;
}

ResourceHistory addSample(ResourceHistory h, const ResourceSample &s, const ResourceLimits &l) {
    // Keep the previous newest sample when it is far enough from the last kept one: a bounded,
    // evenly spread history whatever the probe interval.
    const Ms spacing = std::max<Ms>(1, l.trendMs / kKeptSamples);
    if (h.hasLatest && (h.kept.empty() || h.latest.at - h.kept.back().at >= spacing))
        h.kept.push_back(h.latest);
    h.kept.erase(std::remove_if(h.kept.begin(), h.kept.end(),
                                [&](const ResourceSample &k) { return s.at - k.at > l.trendMs; }),
                 h.kept.end());

    // A busy stretch starts where its first busy interval began, and any known idle interval
    // ends it; an unknown interval (first sample of a child) neither starts nor ends it.
    if (s.cpuPercent >= l.busyPercent) {
        if (h.busySince < 0) h.busySince = h.hasLatest ? h.latest.at : s.at;
    } else if (s.cpuPercent >= 0) {
        h.busySince = -1;
    }
    h.latest = s;
    h.hasLatest = true;

    if (s.rssKiB >= l.memoryWarnKiB)
        h.memoryFlag = true;
    else if (double(s.rssKiB) < double(l.memoryWarnKiB) * l.memoryClearFraction)
        h.memoryFlag = false;
    h.cpuFlag = h.busySince >= 0 && s.at - h.busySince >= l.cpuBusyMs;
    return h;
}

ResourceTrend trendOf(const ResourceHistory &h, const ResourceLimits &l) {
    ResourceTrend t;
    if (!h.hasLatest) return t;
    t.rssKiB = h.latest.rssKiB;
    const ResourceSample &before = h.kept.empty() ? h.latest : h.kept.front();
    t.rssKiBBefore = before.rssKiB;
    t.spanMs = h.latest.at - before.at;
    if (t.spanMs > 0)
        t.growthKiBPerMin =
            (double(t.rssKiB) - double(t.rssKiBBefore)) * 60000.0 / double(t.spanMs);
    double sum = 0;
    int known = 0;
    for (const ResourceSample &k : h.kept)
        if (k.cpuPercent >= 0) {
            sum += k.cpuPercent;
            ++known;
        }
    if (h.latest.cpuPercent >= 0) {
        sum += h.latest.cpuPercent;
        ++known;
    }
    t.cpuAvgPercent = known ? sum / known : 0;
    t.cpuBusyMs = h.busySince >= 0 ? h.latest.at - h.busySince : 0;
    t.memoryFlag = h.memoryFlag;
    t.cpuFlag = h.cpuFlag;
    char line[160];
    if (t.memoryFlag) {
        std::snprintf(line, sizeof line, "memory %llu MiB is over %llu MiB (%+.0f MiB/min)",
                      static_cast<unsigned long long>(t.rssKiB / 1024),
                      static_cast<unsigned long long>(l.memoryWarnKiB / 1024),
                      t.growthKiBPerMin / 1024.0);
        t.why = line;
    }
    if (t.cpuFlag) {
        std::snprintf(line, sizeof line, "a core busy for %lld min",
                      static_cast<long long>(t.cpuBusyMs / 60000));
        t.why += (t.why.empty() ? "" : "; ") + std::string(line);
    }
    return t;
}

bool newlyFlagged(const ResourceHistory &before, const ResourceHistory &after) {
    return (after.memoryFlag && !before.memoryFlag) || (after.cpuFlag && !before.cpuFlag);
}

} // namespace tether::policy
