// Which of the icon's two sets the tray's panel wants, and whether the desktop asks for less
// motion. The panel is not the application: Windows 11's default is a dark taskbar beside light
// applications, so the application's palette would pick the set that reads at ~3:1 there.
#pragma once

#include "tray/tray_icons.h"

#include <QString>
#include <optional>

namespace tether {

// [app] trayIcon: "auto" (the OS says), "light" or "dark" (a panel the OS misjudges).
// systemPanelLight: what the OS says of its panel, when it says (Windows: the taskbar's theme);
// paletteTone: the application palette's, which desktops elsewhere set from their theme.
Panel panelFor(const QString &choice, std::optional<bool> systemPanelLight, Panel paletteTone);

// The OS's word on its panel: Windows, HKCU\...\Themes\Personalize SystemUsesLightTheme (the
// taskbar's, not AppsUseLightTheme); nothing elsewhere (macOS tints the template image itself).
std::optional<bool> systemPanelIsLight();

// The desktop asks for reduced motion: Windows' "Show animations in Windows" off
// (SPI_GETCLIENTAREAANIMATION); KDE's animation speed set to instant (kdeglobals
// AnimationDurationFactor=0); GNOME's or GTK's animations off; TETHER_REDUCED_MOTION=1 (or 0)
// says it for a desktop Tether cannot read. The desktop is asked once: its answer is kept.
bool reducedMotion();

} // namespace tether
