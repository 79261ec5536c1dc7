// Pure judgement of a health answer: HTTP status and body in, healthy / version / why out.
#pragma once

#include "policy/dialect.h"

#include <QByteArray>
#include <QString>

namespace tether {

struct HealthVerdict {
    bool healthy = false;
    QString version;        // empty when the body has none
    qint64 reportedPid = 0; // opencode2 /api/info reports its pid
    QString error;          // why not healthy
};

// The dialect selects the body shape: Opencode2 -> /api/info, else {"healthy":..,"version":..}.
HealthVerdict judgeHealth(policy::Dialect dialect, int httpStatus, const QByteArray &body);

} // namespace tether
