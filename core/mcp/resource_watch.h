// The MCP servers' memory and CPU over time: one sample per server's process tree at each
// refresh, a history per root process (policy/resource_watch.h), each row's trend filled in,
// and which servers the limits flag for the first time. Plain data; it announces nothing
// itself (McpMonitor says what it returns).
#pragma once

#include "mcp/matching.h"
#include "policy/resource_watch.h"
#include "service/status.h"

#include <QHash>
#include <QString>

namespace tether::mcp {

class ResourceWatch {
public:
    // One refresh: begin(), then sample() for each server's tree with a process, then end().
    void begin();
    // The row's CPU rate (against this process's previous sample; unknown on the first) and
    // trend, from this sample. True when the limits flag it for the first time. `mono`: a
    // monotonic clock, never the wall clock.
    bool sample(McpChildStatus &row, const McpProcessTree &tree, qint64 mono,
                const policy::ResourceLimits &limits);
    void end();   // servers not sampled since begin() drop out
    void clear(); // another service: nothing carries over

private:
    struct Watched {
        std::uint64_t startTime = 0; // the root's identity with its pid: a reused pid starts over
        std::uint64_t cpuMs = 0;     // its CPU time at the last sample ...
        qint64 atMs = -1;            // ... taken then (-1: never)
        policy::ResourceHistory history;
    };
    QHash<qint64, Watched> watched_; // per root pid
    QHash<qint64, Watched> next_;    // this refresh's
};

} // namespace tether::mcp
