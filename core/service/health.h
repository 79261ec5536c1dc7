// Pure judgement of a health answer: HTTP status and body in, healthy / version / why out.
#pragma once

#include "policy/dialect.h"
#include "policy/supervision.h"

#include <QByteArray>
#include <QString>

namespace tether {

struct HealthVerdict {
    bool healthy = false;
    QString version;                         // empty when the body has none
    qint64 reportedPid = 0;                  // opencode2 /api/info reports its pid
    QString error;                           // why not healthy
    policy::Boot boot = policy::Boot::Ready; // opencode2: 503 starting, 500 its start failed
};

// The dialect selects the body shape: Opencode2 -> /api/info (200 ready, 503 starting or
// stopping, 500 its boot failed; its pid must be expectedPid when that is known, or another
// process answers on the registered port), else {"healthy":..,"version":..}.
HealthVerdict judgeHealth(policy::Dialect dialect, int httpStatus, const QByteArray &body,
                          qint64 expectedPid = 0);

} // namespace tether
