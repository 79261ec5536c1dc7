#include "service/health_history.h"

#include <algorithm>

namespace tether {

HealthHistory::HealthHistory(std::size_t capacity)
    : capacity_(std::max<std::size_t>(capacity, 1)) {
}

void HealthHistory::add(HealthSample sample) {
    if (!samples_.empty()) sample.atMs = std::max(sample.atMs, samples_.back().atMs);
    samples_.push_back(sample);
    // What no timeline can show any more: older than an hour before the newest, or over the cap.
    while (samples_.size() > capacity_ || samples_.front().atMs < sample.atMs - kSpanMs)
        samples_.pop_front();
}

std::vector<HealthSample> HealthHistory::lastHour(qint64 nowMs) const {
    std::vector<HealthSample> out;
    out.reserve(samples_.size());
    for (const HealthSample &s : samples_)
        if (s.atMs >= nowMs - kSpanMs) out.push_back(s);
    return out;
}

} // namespace tether
