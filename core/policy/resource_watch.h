// The MCP resource watch, as pure functions over plain data: per MCP child, resident memory and
// CPU samples taken on the probe cadence -> a trend (memory now and a while ago, growth per
// minute, average CPU) and two flags: "memory over [mcp] memoryWarnMiB" and "a core busy for
// [mcp] cpuBusyMinutes". Flags only inform a person; nothing here (or anywhere) kills a child
// for them. Times are milliseconds on a monotonic clock the caller injects.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tether::policy {

using Ms = std::int64_t;

struct ResourceLimits {
    std::uint64_t memoryWarnKiB = 1024ull * 1024; // [mcp] memoryWarnMiB
    Ms cpuBusyMs = 10 * 60000;                    // [mcp] cpuBusyMinutes
    double busyPercent = 90; // "a core busy": at least this much of one core per interval
    Ms trendMs = 5 * 60000;  // how far back "a while ago" reaches
    // Memory must fall this far below the threshold to clear its flag: no flapping notices.
    double memoryClearFraction = 0.9;
};

ResourceLimits resourceLimits(int memoryWarnMiB, int cpuBusyMinutes);

struct ResourceSample {
    Ms at = 0;
    std::uint64_t rssKiB = 0;
    double cpuPercent = -1; // over the interval that ends at `at`; < 0: not known yet
};

// What is kept per child: a few samples spread over the trend span (bounded however short
// the probe interval), the newest sample, and since when a core has been busy.
struct ResourceHistory {
    std::vector<ResourceSample> kept; // oldest first, at least trendMs / kKeptSamples apart
    ResourceSample latest;
    bool hasLatest = false;
    Ms busySince = -1; // start of the current unbroken busy stretch; -1: not busy
    bool memoryFlag = false;
    bool cpuFlag = false;
};

constexpr int kKeptSamples = 32;

ResourceHistory addSample(ResourceHistory h, const ResourceSample &s, const ResourceLimits &l);

struct ResourceTrend {
    std::uint64_t rssKiB = 0;       // now
    std::uint64_t rssKiBBefore = 0; // at the oldest sample inside the trend span
    Ms spanMs = 0;                  // between those two samples
    double growthKiBPerMin = 0;     // (now - before) per minute; 0 over an empty span
    double cpuAvgPercent = 0;       // average over the known samples inside the span
    Ms cpuBusyMs = 0;               // length of the current busy stretch
    bool memoryFlag = false;
    bool cpuFlag = false;
    std::string why; // empty when not flagged; else one line for a person
};

ResourceTrend trendOf(const ResourceHistory &h, const ResourceLimits &l);

// True when the flags of `after` include one that `before` did not have: notify once per rise.
bool newlyFlagged(const ResourceHistory &before, const ResourceHistory &after);

} // namespace tether::policy
