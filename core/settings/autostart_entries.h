// The text of each OS's start-at-login entry, and which program an existing entry starts.
// Pure functions, so the Windows value and the macOS plist are tested as text on every OS.
#pragma once

#include "settings/autostart.h"

#include <QByteArray>
#include <QString>
#include <optional>

namespace tether::autostart {

inline constexpr char kAutostartFlag[] = "--autostart";
inline constexpr char kRunKey[] =
    "HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Run";
inline constexpr char kRunValueName[] = "Tether";
// Beside the Run key (under HKCU): one REG_BINARY per Run value, of the same name.
inline constexpr char kStartupApprovedKey[] =
    "Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\StartupApproved\\Run";
// The Windows executables: the tray (what login starts) and its console twin for the verbs.
inline constexpr char kTrayExecutable[] = "tether.exe";
inline constexpr char kConsoleExecutable[] = "tether-cli.exe";

// Windows Run value: the quoted native path, then --autostart: "C:\Apps\tether.exe" --autostart
QString windowsRunValue(const QString &program);
// The program a Run value starts: quoted or up to the first space. Empty when there is none.
QString programOfWindowsRunValue(const QString &value);
// A StartupApproved flag: 12 bytes, a flag byte then the FILETIME of the change. The flag is
// even (0x02, 0x06) when enabled and odd (0x03, 0x07) when the user switched the entry off.
// Empty data says nothing: enabled, as Windows runs an entry that has no flag.
bool startupApprovedDisables(const QByteArray &flag);
// Start at login on Windows from what the registry holds: the Run value (nullopt: none), the
// StartupApproved flag (nullopt: none), for `program`. Location is left to the caller.
AutostartStatus windowsRunStatus(const std::optional<QString> &runValue,
                                 const std::optional<QByteArray> &approvedFlag,
                                 const QString &program);

// macOS LaunchAgent: Label, ProgramArguments [program, --autostart], RunAtLoad true and no
// KeepAlive, so a Quit from the tray is respected until the next login.
QByteArray launchAgentPlist(const QString &label, const QString &program);
// The first ProgramArguments string (or Program) of a plist. Empty when unreadable.
QString programOfLaunchAgent(const QByteArray &plist);

// Where a macOS copy of Tether runs from. A LaunchAgent (or login item) written while it runs
// from the mounted disk image or from Gatekeeper's translocated copy breaks at the next login
// (the image is gone, the translocation path is random per launch).
enum class LaunchLocation {
    Stable,       // /Applications, ~/Applications, anywhere that stays
    DiskImage,    // /Volumes/...: a mounted DMG (or a removable disk)
    Translocated, // .../AppTranslocation/<uuid>/d/Tether.app: opened in place from Downloads
};
LaunchLocation classifyLaunchLocation(const QString &program);
// Empty for a stable location; else what to tell the person: move Tether to Applications.
QString moveToApplicationsAdvice(LaunchLocation location);

// Whose a LaunchAgent entry of our label is: this copy's, an older (or other) copy of Tether
// itself, which enabling repairs, or another program's, which is left alone.
enum class EntryOwner { Ours, OlderCopy, Foreign };
// An entry's program is a copy of Tether when it is a bundle's tether executable:
// <...>/<name>.app/Contents/MacOS/tether, any case (Tether.app/Contents/MacOS/Tether now; the
// DMG, a translocation, an old tether.app).
EntryOwner launchAgentOwner(const QString &entryProgram, const QString &program);

// XDG autostart entry (Desktop Entry Specification 1.5) starting `program --autostart`.
QByteArray xdgAutostartEntry(const QString &program);
struct DesktopEntryInfo {
    QString program;     // Exec's first argument, unquoted and unescaped; empty when none
    bool hidden = false; // Hidden=true or X-GNOME-Autostart-enabled=false: the user turned it off
};
DesktopEntryInfo parseDesktopEntry(const QByteArray &text);

// Does an entry's program name this program? Case-insensitive and separator-blind on Windows.
bool samePath(const QString &a, const QString &b, bool windows);

} // namespace tether::autostart
