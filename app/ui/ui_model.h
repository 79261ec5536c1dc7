// The one model every window reads: the Supervisor's status, the health history and the
// event log, reached through accessors so no widget keeps its own copy of the truth. Tests
// point these at plain values; the tray points them at the Runtime.
#pragma once

#include "service/health_history.h"
#include "service/status.h"

#include <QDateTime>
#include <QStringList>
#include <functional>

namespace tether::ui {

struct UiModel {
    std::function<const ServiceStatus &()> status;
    std::function<const HealthHistory &()> health;
    std::function<const QStringList &()> events;
    std::function<QDateTime()> now = [] { return QDateTime::currentDateTime(); };
};

} // namespace tether::ui
