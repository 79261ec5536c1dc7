#include "shell/wake_watcher.h"

#include <QLoggingCategory>

#ifdef TETHER_HAVE_DBUS
#include "shell/wake_logind.h"
#endif
#ifdef Q_OS_WIN
#include "shell/wake_windows.h"
#endif
#ifdef Q_OS_MACOS
#include "shell/wake_macos.h"
#endif

Q_LOGGING_CATEGORY(lcWake, "tether.wake")

namespace tether {

WakeWatcher::WakeWatcher(QObject *parent)
    : QObject(parent) {
    const auto relay = [this](const QString &source) { emit systemResumed(source); };
#ifdef TETHER_HAVE_DBUS
    auto *logind = new LogindWakeSource(QDBusConnection::systemBus(), this);
    if (logind->isListening()) {
        connect(logind, &LogindWakeSource::resumed, this,
                [relay] { relay(QStringLiteral("logind")); });
        active_ << QStringLiteral("logind");
    } else {
        // No system bus (containers, minimal sessions): the late-timer check still covers sleep.
        qCInfo(lcWake) << "logind not reachable:" << logind->error();
        delete logind;
    }
#endif
#ifdef Q_OS_WIN
    auto *power = new WindowsWakeSource(this);
    connect(power, &WindowsWakeSource::resumed, this,
            [relay] { relay(QStringLiteral("power-broadcast")); });
    active_ << QStringLiteral("power-broadcast");
#endif
#ifdef Q_OS_MACOS
    auto *workspace = new MacWakeSource(this);
    connect(workspace, &MacWakeSource::resumed, this,
            [relay] { relay(QStringLiteral("nsworkspace")); });
    active_ << QStringLiteral("nsworkspace");
#endif
    Q_UNUSED(relay);
}

WakeWatcher::~WakeWatcher() = default;

} // namespace tether
