// The last hour of the service's health, for the status window's timeline: probe answers
// (latency or a miss) and state changes, kept in a fixed-size ring so a fast probe interval
// cannot grow memory. Pure data: the caller supplies every timestamp.
#pragma once

#include "policy/state.h"

#include <QtGlobal>
#include <vector>

namespace tether {

struct HealthSample {
    qint64 atMs = 0;       // wall clock, ms since the epoch (display only)
    qint64 latencyMs = -1; // probe latency; -1: unanswered, or not a probe
    bool probe = true;     // false: a state change without a probe
    policy::State state = policy::State::Stopped;
};

class HealthHistory {
public:
    static constexpr qint64 kSpanMs = 60 * 60 * 1000;
    // 5 s probes fill an hour with 720 samples; 200 ms test probes with 18000.
    explicit HealthHistory(std::size_t capacity = 20000);

    // Samples must arrive in time order; an earlier one (clock stepped back) is clamped.
    void add(HealthSample sample);
    // Oldest first, only those within kSpanMs before nowMs.
    std::vector<HealthSample> lastHour(qint64 nowMs) const;
    std::size_t size() const { return count_; }
    std::size_t capacity() const { return ring_.size(); }

private:
    std::vector<HealthSample> ring_;
    std::size_t head_ = 0; // next write position
    std::size_t count_ = 0;
};

} // namespace tether
