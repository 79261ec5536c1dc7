// At most one notification per kind per interval, so a flapping service cannot flood the
// desktop. Pure: the caller passes the (monotonic) time.
#pragma once

#include "policy/notice.h"

#include <QtGlobal>
#include <map>

namespace tether {

class NoticeLimiter {
public:
    explicit NoticeLimiter(qint64 intervalMs = 60000)
        : intervalMs_(intervalMs) {}

    // True, and remembered, when no notice of this kind was allowed within the interval.
    bool allow(policy::NoticeKind kind, qint64 nowMs);

private:
    qint64 intervalMs_;
    std::map<policy::NoticeKind, qint64> lastAllowed_;
};

} // namespace tether
