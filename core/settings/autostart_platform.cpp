// Which start-at-login mechanism this OS reads, and where.
#include "settings/autostart.h"
#include "settings/autostart_entries.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#if defined(Q_OS_WIN)
#include "os/registry.h"
#endif

namespace tether {

#if defined(Q_OS_WIN)
namespace {

class RegistryStartupApproval : public StartupApprovalStore {
public:
    explicit RegistryStartupApproval(QString name)
        : name_(std::move(name)) {}
    QString location() const override {
        return QStringLiteral("HKEY_CURRENT_USER\\") +
               QLatin1String(autostart::kStartupApprovedKey) + QLatin1Char('\\') + name_;
    }
    Read read() const override {
        const os::registry::BinaryRead r = os::registry::readUserValue(key(), name_.toStdWString());
        Read out;
        out.ok = r.result != os::registry::BinaryRead::Result::Error;
        out.error = QString::fromStdString(r.error);
        if (r.result == os::registry::BinaryRead::Result::Ok)
            out.bytes = QByteArray(reinterpret_cast<const char *>(r.bytes.data()),
                                   qsizetype(r.bytes.size()));
        return out;
    }
    bool clear(QString *error) override {
        std::string why;
        if (os::registry::deleteUserValue(key(), name_.toStdWString(), &why)) return true;
        if (error) *error = QStringLiteral("%1: %2").arg(location(), QString::fromStdString(why));
        return false;
    }

private:
    static std::wstring key() {
        return QString::fromLatin1(autostart::kStartupApprovedKey).toStdWString();
    }
    QString name_;
};

} // namespace

std::unique_ptr<StartupApprovalStore> makeRegistryStartupApproval(const QString &name) {
    return std::make_unique<RegistryStartupApproval>(name);
}
#endif

std::unique_ptr<Autostart> platformAutostart(const QString &program) {
    const QString self = program.isEmpty() ? QCoreApplication::applicationFilePath() : program;
#if defined(Q_OS_WIN)
    // Login starts the tray, never the console twin (it would open a console window).
    QString tray = self;
    const QFileInfo info(self);
    if (info.fileName().compare(QLatin1String(autostart::kConsoleExecutable),
                                Qt::CaseInsensitive) == 0)
        tray = info.absolutePath() + QLatin1Char('/') + QLatin1String(autostart::kTrayExecutable);
    return makeRunKeyAutostart(
        QLatin1String(autostart::kRunKey), QSettings::NativeFormat, QDir::toNativeSeparators(tray),
        makeRegistryStartupApproval(QLatin1String(autostart::kRunValueName)));
#elif defined(Q_OS_MACOS)
    return makeLoginItemAutostart(QDir::homePath() + QStringLiteral("/Library/LaunchAgents"), self);
#else
    // GenericConfigLocation honours XDG_CONFIG_HOME and falls back to ~/.config.
    return makeXdgAutostart(QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation),
                            self);
#endif
}

namespace {

QString describeState(const AutostartStatus &status) {
    switch (status.state) {
    case AutostartStatus::State::On:
        return QCoreApplication::translate("tether", "Starts at login (%1)").arg(status.location);
    case AutostartStatus::State::Off:
        if (!status.staleProgram.isEmpty())
            return QCoreApplication::translate("tether",
                                               "Does not start at login: %1 starts another copy "
                                               "of Tether (%2); turn it on to start this one")
                .arg(status.location, status.staleProgram);
        return QCoreApplication::translate("tether", "Does not start at login");
    case AutostartStatus::State::Foreign:
        return QCoreApplication::translate("tether",
                                           "%1 starts another program (%2); Tether leaves it alone")
            .arg(status.location, status.foreignProgram);
    case AutostartStatus::State::Error:
        return QCoreApplication::translate("tether", "Start at login unknown: %1")
            .arg(status.error);
    case AutostartStatus::State::DisabledBySystem:
#if defined(Q_OS_MACOS)
        return QCoreApplication::translate(
                   "tether", "Turned off in System Settings > General > Login Items (Allow in "
                             "the Background): Tether does not start at login until it is "
                             "allowed there (%1)")
            .arg(status.location);
#else
        return QCoreApplication::translate(
                   "tether", "Disabled in Windows Settings (Startup apps or Task Manager): "
                             "Tether does not start at login. Turn it on here to start again (%1)")
            .arg(status.location);
#endif
    }
    return QString();
}

} // namespace

QString autostartDescription(const AutostartStatus &status) {
    const QString state = describeState(status);
    return status.advice.isEmpty() ? state : state + QStringLiteral(". ") + status.advice;
}

QString autostartStateName(AutostartStatus::State state) {
    switch (state) {
    case AutostartStatus::State::On:
        return QStringLiteral("on");
    case AutostartStatus::State::Off:
        return QStringLiteral("off");
    case AutostartStatus::State::Foreign:
        return QStringLiteral("foreign");
    case AutostartStatus::State::Error:
        return QStringLiteral("error");
    case AutostartStatus::State::DisabledBySystem:
        return QStringLiteral("disabledBySystem");
    }
    return QString();
}

} // namespace tether
