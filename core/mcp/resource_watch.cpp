#include "mcp/resource_watch.h"

#include <algorithm>

namespace tether::mcp {

void ResourceWatch::begin() {
    next_.clear();
}

bool ResourceWatch::sample(McpChildStatus &row, const McpProcessTree &tree, qint64 mono,
                           const policy::ResourceLimits &limits) {
    Watched w = watched_.value(tree.rootPid);
    const bool same = w.startTime == tree.rootStartTime;
    double cpuPercent = -1; // unknown on the first sample
    if (same && w.atMs >= 0 && mono > w.atMs && tree.cpuTimeMs >= w.cpuMs)
        cpuPercent = 100.0 * double(tree.cpuTimeMs - w.cpuMs) / double(mono - w.atMs);
    if (!same) w = Watched{tree.rootStartTime, 0, -1, {}};
    w.cpuMs = tree.cpuTimeMs;
    w.atMs = mono;
    row.cpuPercent = std::max(0.0, cpuPercent);
    const policy::ResourceHistory before = w.history;
    w.history = policy::addSample(w.history, {mono, tree.rssKiB, cpuPercent}, limits);
    const policy::ResourceTrend trend = policy::trendOf(w.history, limits);
    row.rssKiBBefore = trend.rssKiBBefore;
    row.trendSpanMs = trend.spanMs;
    row.rssGrowthKiBPerMin = trend.growthKiBPerMin;
    row.cpuAvgPercent = trend.cpuAvgPercent;
    row.cpuBusyMs = trend.cpuBusyMs;
    row.flagged = trend.memoryFlag || trend.cpuFlag;
    row.flagReason = QString::fromStdString(trend.why);
    row.memoryOver = trend.memoryFlag;
    row.cpuBusy = trend.cpuFlag;
    row.memoryLimitKiB = limits.memoryWarnKiB;
    next_.insert(tree.rootPid, w);
    return policy::newlyFlagged(before, w.history);
}

void ResourceWatch::end() {
    watched_ = next_;
    next_.clear();
}

void ResourceWatch::clear() {
    watched_.clear();
    next_.clear();
}

} // namespace tether::mcp
