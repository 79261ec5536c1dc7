// Which start-at-login mechanism this OS reads, and where.
#include "settings/autostart.h"
#include "settings/autostart_entries.h"

#include <QCoreApplication>
#include <QDir>
#include <QStandardPaths>

namespace tether {

std::unique_ptr<Autostart> platformAutostart(const QString &program) {
    const QString self = program.isEmpty() ? QCoreApplication::applicationFilePath() : program;
#if defined(Q_OS_WIN)
    return makeRunKeyAutostart(QLatin1String(autostart::kRunKey), QSettings::NativeFormat,
                               QDir::toNativeSeparators(self));
#elif defined(Q_OS_MACOS)
    return makeLaunchAgentAutostart(QDir::homePath() + QStringLiteral("/Library/LaunchAgents"),
                                    self);
#else
    // GenericConfigLocation honours XDG_CONFIG_HOME and falls back to ~/.config.
    return makeXdgAutostart(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation),
                            self);
#endif
}

QString autostartDescription(const AutostartStatus &status) {
    switch (status.state) {
    case AutostartStatus::State::On:
        return QCoreApplication::translate("tether", "Starts at login (%1)").arg(status.location);
    case AutostartStatus::State::Off:
        return QCoreApplication::translate("tether", "Does not start at login");
    case AutostartStatus::State::Foreign:
        return QCoreApplication::translate("tether",
                                           "%1 starts another program (%2); Tether leaves it alone")
            .arg(status.location, status.foreignProgram);
    case AutostartStatus::State::Error:
        return QCoreApplication::translate("tether", "Start at login unknown: %1")
            .arg(status.error);
    }
    return QString();
}

} // namespace tether
