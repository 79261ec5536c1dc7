// What a click on the tray icon does, decided per platform. Pure, so a test can ask the macOS
// question on Linux.
#pragma once

#include <QSystemTrayIcon>

namespace tether {

enum class TrayPlatform { MacOS, Other };
enum class TrayClick { Nothing, OpenStatusWindow };

// The platform this binary was built for.
TrayPlatform currentTrayPlatform();

// On macOS Qt 6.4 already pops the context menu on a click and then emits Trigger (DoubleClick
// for a second click): opening the status window too would show two things for one click. A Mac
// menu-bar item shows its menu and nothing else; the menu has "Status window". Elsewhere a
// click (or double click) opens the status window and the menu is the right button's.
TrayClick trayClickAction(TrayPlatform platform, QSystemTrayIcon::ActivationReason reason);

} // namespace tether
