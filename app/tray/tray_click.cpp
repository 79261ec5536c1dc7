#include "tray/tray_click.h"

namespace tether {

TrayPlatform currentTrayPlatform() {
#ifdef Q_OS_MACOS
    return TrayPlatform::MacOS;
#else
    return TrayPlatform::Other;
#endif
}

TrayClick trayClickAction(TrayPlatform platform, QSystemTrayIcon::ActivationReason reason) {
    if (platform == TrayPlatform::MacOS) return TrayClick::Nothing; // the menu is already open
    if (reason == QSystemTrayIcon::Trigger || reason == QSystemTrayIcon::DoubleClick)
        return TrayClick::OpenStatusWindow;
    return TrayClick::Nothing;
}

} // namespace tether
