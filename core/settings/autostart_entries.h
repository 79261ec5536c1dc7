// The text of each OS's start-at-login entry, and which program an existing entry starts.
// Pure functions, so the Windows value and the macOS plist are tested as text on every OS.
#pragma once

#include <QByteArray>
#include <QString>

namespace tether::autostart {

inline constexpr char kAutostartFlag[] = "--autostart";
inline constexpr char kRunKey[] =
    "HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Run";
inline constexpr char kRunValueName[] = "Tether";

// Windows Run value: the quoted native path, then --autostart: "C:\Apps\tether.exe" --autostart
QString windowsRunValue(const QString &program);
// The program a Run value starts: quoted or up to the first space. Empty when there is none.
QString programOfWindowsRunValue(const QString &value);

// macOS LaunchAgent: Label, ProgramArguments [program, --autostart], RunAtLoad true and no
// KeepAlive, so a Quit from the tray is respected until the next login.
QByteArray launchAgentPlist(const QString &label, const QString &program);
// The first ProgramArguments string (or Program) of a plist. Empty when unreadable.
QString programOfLaunchAgent(const QByteArray &plist);

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
