#include "tray/panel_theme.h"

#include <QDir>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>

#ifdef Q_OS_WIN
#include "os/registry.h"

#include <windows.h>
#endif

namespace tether {

Panel panelFor(const QString &choice, std::optional<bool> systemPanelLight, Panel paletteTone) {
    if (choice == QLatin1String("light")) return Panel::Light;
    if (choice == QLatin1String("dark")) return Panel::Dark;
    if (systemPanelLight) return *systemPanelLight ? Panel::Light : Panel::Dark;
    return paletteTone;
}

std::optional<bool> systemPanelIsLight() {
#ifdef Q_OS_WIN
    const auto read = os::registry::readUserValue(
        L"Software\\Microsoft\\Windows\\CurrentVersion\\Themes\\Personalize",
        L"SystemUsesLightTheme");
    if (read.result == os::registry::BinaryRead::Result::Ok && !read.bytes.empty())
        return read.bytes.front() != 0;
    return std::nullopt; // Windows 10 before 1903: a dark taskbar, and no value to say so
#else
    return std::nullopt;
#endif
}

namespace {

bool askReducedMotion() {
#ifdef Q_OS_WIN
    BOOL animations = TRUE;
    if (SystemParametersInfoW(SPI_GETCLIENTAREAANIMATION, 0, &animations, 0)) return !animations;
    return false;
#elif defined(Q_OS_MACOS)
    // NSWorkspace's accessibilityDisplayShouldReduceMotion needs Objective-C: not asked yet.
    return false;
#else
    const QString config = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    const QSettings kde(config + QStringLiteral("/kdeglobals"), QSettings::IniFormat);
    if (kde.value(QStringLiteral("KDE/AnimationDurationFactor"), 1.0).toDouble() == 0.0)
        return true;
    const QSettings gtk(config + QStringLiteral("/gtk-3.0/settings.ini"), QSettings::IniFormat);
    if (gtk.value(QStringLiteral("Settings/gtk-enable-animations")).toString() ==
        QLatin1String("false"))
        return true;
    // GNOME keeps it in dconf: its own tool answers, where it is installed.
    const QString gsettings = QStandardPaths::findExecutable(QStringLiteral("gsettings"));
    if (gsettings.isEmpty()) return false;
    QProcess p;
    p.start(gsettings, {QStringLiteral("get"), QStringLiteral("org.gnome.desktop.interface"),
                        QStringLiteral("enable-animations")});
    if (!p.waitForFinished(1000)) {
        p.kill();
        p.waitForFinished();
        return false;
    }
    return p.readAllStandardOutput().trimmed() == "false";
#endif
}

} // namespace

bool reducedMotion() {
    // Asked of Tether itself (a desktop this cannot read, a test): 1 for less motion, 0 for it.
    if (qEnvironmentVariableIsSet("TETHER_REDUCED_MOTION"))
        return qEnvironmentVariableIntValue("TETHER_REDUCED_MOTION") != 0;
    static const bool reduced = askReducedMotion();
    return reduced;
}

} // namespace tether
