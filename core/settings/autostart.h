// Start at login, per user, behind one small interface. Each OS has one implementation:
// Windows the HKCU Run key, macOS a LaunchAgent plist, Linux an XDG autostart .desktop file.
// All three are plain files / QSettings, so every one of them is built and tested on every OS;
// platformAutostart() picks the one this OS reads at login.
//
// The state is always read back from the OS (the file or the registry value), never cached.
// An entry that launches another program is never overwritten or removed: it is reported.
#pragma once

#include <QByteArray>
#include <QSettings>
#include <QString>
#include <memory>
#include <optional>

namespace tether {

// One id for the desktop entry, the AppStream component and the macOS bundle / LaunchAgent
// label. resources/ (tether.desktop, metainfo, Info.plist) uses the same string.
inline constexpr char kAppId[] = "dev.tether.Tether";

struct AutostartStatus {
    enum class State {
        Off,     // no entry, or our entry disabled (XDG Hidden=true)
        On,      // an entry that starts this program with --autostart
        Foreign, // an entry of the same name that starts another program: left alone
        Error,   // could not read it: shown as unknown, never overwritten
        // Our entry is there but the OS's own startup settings skip it: on Windows the user
        // turned it off in Task Manager or Settings > Apps > Startup (StartupApproved\Run).
        // enable() turns it back on.
        DisabledBySystem,
    };
    State state = State::Off;
    QString location;       // the file, or the registry key and value name
    QString foreignProgram; // State::Foreign: what that entry starts
    QString error;          // State::Error: why
    // State::Off: the entry starts an older copy of Tether (macOS: the DMG, a translocated or
    // renamed copy); enable() points it at this one.
    QString staleProgram;
    // What the person should do first (macOS: move Tether to Applications); empty when nothing.
    QString advice;
};

class Autostart {
public:
    virtual ~Autostart() = default;
    virtual AutostartStatus status() const = 0;
    // Writes (or repairs) our entry. Refuses when the entry belongs to another program.
    virtual bool enable(QString *error) = 0;
    // Removes our entry. Refuses when it belongs to another program; no entry is success.
    virtual bool disable(QString *error) = 0;
};

// Windows keeps a flag per Run value under Explorer\StartupApproved\Run, written when the
// user switches a startup app off or on in Task Manager or Settings. The registry on Windows;
// any store elsewhere (the tests use a QSettings file).
class StartupApprovalStore {
public:
    struct Read {
        bool ok = false;                 // false: could not be read (error says why)
        std::optional<QByteArray> bytes; // nullopt: no flag, which Windows counts as enabled
        QString error;
    };
    virtual ~StartupApprovalStore() = default;
    virtual QString location() const = 0; // the key and value name, for messages
    virtual Read read() const = 0;
    // Removes the flag (Windows then runs the entry again). No flag is success.
    virtual bool clear(QString *error) = 0;
};
// The flag named `name` in a QSettings file (tests, and other systems).
std::unique_ptr<StartupApprovalStore> makeSettingsStartupApproval(const QString &file,
                                                                  const QString &name);
#if defined(Q_OS_WIN)
// HKCU\...\Explorer\StartupApproved\Run, value `name`, through os/registry.h.
std::unique_ptr<StartupApprovalStore> makeRegistryStartupApproval(const QString &name);
#endif

// Linux/BSD: <configDir>/autostart/<kAppId>.desktop (configDir: $XDG_CONFIG_HOME or ~/.config).
std::unique_ptr<Autostart> makeXdgAutostart(const QString &configDir, const QString &program);
// macOS: <agentsDir>/<kAppId>.plist (agentsDir: ~/Library/LaunchAgents).
std::unique_ptr<Autostart> makeLaunchAgentAutostart(const QString &agentsDir,
                                                    const QString &program);
#if defined(Q_OS_MACOS)
// macOS 13+: the app as a login item (SMAppService.mainApp), the state macOS reports (switched
// off in Login Items: DisabledBySystem); the LaunchAgent in agentsDir before 13 or when
// registering fails. Objective-C++ (autostart_macos.mm), written against Apple's docs.
std::unique_ptr<Autostart> makeLoginItemAutostart(const QString &agentsDir, const QString &program);
#endif
// Windows: value "Tether" under the Run key, read through QSettings. `store` is the registry
// path with NativeFormat on Windows; any QSettings file elsewhere (the tests use an INI file).
// `approval` (may be null: no such flags) is the StartupApproved flag of that value.
std::unique_ptr<Autostart>
makeRunKeyAutostart(const QString &store, QSettings::Format format, const QString &program,
                    std::unique_ptr<StartupApprovalStore> approval = nullptr);

// The implementation this OS uses at login, for `program` (default: this executable; on
// Windows the tray tether.exe beside it when this is the console tether-cli.exe).
std::unique_ptr<Autostart> platformAutostart(const QString &program = QString());

// "On", "Off", ... plus the detail a person needs (the foreign program, the error).
QString autostartDescription(const AutostartStatus &status);
// The state as a word for `tether status --json`: on, off, foreign, error, disabledBySystem.
QString autostartStateName(AutostartStatus::State state);

} // namespace tether
