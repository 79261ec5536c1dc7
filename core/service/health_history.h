// The last hour of the service's health, for the status window's timeline: probe answers
// (latency or a miss) and state changes. Memory follows what the hour holds (a sample older than
// the newest by more than an hour is dropped), up to a cap so a fast probe interval cannot grow
// it further. Pure data: the caller supplies every timestamp.
#pragma once

#include "policy/state.h"

#include <QtGlobal>
#include <deque>
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
    std::size_t size() const { return samples_.size(); }
    std::size_t capacity() const { return capacity_; }

private:
    std::deque<HealthSample> samples_; // oldest first
    std::size_t capacity_;
};

} // namespace tether
