#include "shell/wake_logind.h"

#include <QDBusError>

namespace tether {

namespace {
const QString kService = QStringLiteral("org.freedesktop.login1");
const QString kPath = QStringLiteral("/org/freedesktop/login1");
const QString kInterface = QStringLiteral("org.freedesktop.login1.Manager");
} // namespace

LogindWakeSource::LogindWakeSource(QDBusConnection bus, QObject *parent)
    : QObject(parent)
    , bus_(std::move(bus)) {
    if (!bus_.isConnected()) {
        error_ = bus_.lastError().message();
        if (error_.isEmpty()) error_ = QStringLiteral("no system bus");
        return;
    }
    // Matches only signals from the name's owner: another program cannot fake a wake.
    listening_ = bus_.connect(kService, kPath, kInterface, QStringLiteral("PrepareForSleep"), this,
                              SLOT(onPrepareForSleep(bool)));
    if (!listening_) error_ = bus_.lastError().message();
}

void LogindWakeSource::onPrepareForSleep(bool goingToSleep) {
    if (!goingToSleep) emit resumed();
}

} // namespace tether
