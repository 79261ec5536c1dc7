// At most one notification per kind per interval, so a flapping service cannot flood the
// desktop. Pure: the caller passes the (monotonic) time.
#pragma once

#include <QHash>
#include <QString>

namespace tether {

class NoticeLimiter {
public:
    explicit NoticeLimiter(qint64 intervalMs = 60000)
        : intervalMs_(intervalMs) {}

    // True, and remembered, when no notice of this kind was allowed within the interval.
    bool allow(const QString &kind, qint64 nowMs);

private:
    qint64 intervalMs_;
    QHash<QString, qint64> lastAllowed_;
};

} // namespace tether
