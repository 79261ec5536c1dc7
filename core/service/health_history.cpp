#include "service/health_history.h"

#include <algorithm>

namespace tether {

HealthHistory::HealthHistory(std::size_t capacity)
    : ring_(std::max<std::size_t>(capacity, 1)) {
}

void HealthHistory::add(HealthSample sample) {
    if (count_ > 0) {
        const HealthSample &newest = ring_[(head_ + ring_.size() - 1) % ring_.size()];
        sample.atMs = std::max(sample.atMs, newest.atMs);
    }
    ring_[head_] = sample;
    head_ = (head_ + 1) % ring_.size();
    count_ = std::min(count_ + 1, ring_.size());
}

std::vector<HealthSample> HealthHistory::lastHour(qint64 nowMs) const {
    std::vector<HealthSample> out;
    out.reserve(count_);
    const std::size_t first = (head_ + ring_.size() - count_) % ring_.size();
    for (std::size_t i = 0; i < count_; ++i) {
        const HealthSample &s = ring_[(first + i) % ring_.size()];
        if (s.atMs >= nowMs - kSpanMs) out.push_back(s);
    }
    return out;
}

} // namespace tether
