#include "supervision/managed_watch.h"

#include <algorithm>

namespace tether::supervision {

policy::Ms managedWatchEvery(const policy::SupervisionState &s, bool selfRegistering,
                             policy::Ms probeIntervalMs) {
    const bool tracking =
        s.svc && (s.phase == policy::Phase::Starting || s.phase == policy::Phase::Running);
    const bool idle = s.phase == policy::Phase::Idle && !s.quitting;
    if (!selfRegistering || !(tracking || idle)) return 0;
    if (tracking && s.svc->managedId.empty() && s.svc->ourChild) return 50;
    return std::min<policy::Ms>(probeIntervalMs, tracking ? 500 : 5000);
}

bool ManagedWatch::needsJudging(const std::string &stamp) const {
    return !settled_ || stamp != stamp_;
}

void ManagedWatch::judged(const std::string &stamp, policy::ManagedFacts::Verdict verdict) {
    stamp_ = stamp;
    settled_ = verdict != policy::ManagedFacts::Verdict::Unknown;
}

void ManagedWatch::forget() {
    stamp_.clear();
    settled_ = false;
}

} // namespace tether::supervision
