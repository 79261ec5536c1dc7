// Not built on the Linux build machines (Qt for Windows is not installed there; test.sh only
// syntax-checks it with MinGW-w64 against Qt's headers): written against the documented APIs --
// WM_POWERBROADCAST, PBT_APMRESUMEAUTOMATIC,
// RegisterSuspendResumeNotification(DEVICE_NOTIFY_CALLBACK) and QAbstractNativeEventFilter.
#include "shell/wake_windows.h"

#include <QCoreApplication>
#include <QMetaObject>

#include <windows.h>

namespace tether {

namespace {

// DEVICE_NOTIFY_SUBSCRIBE_PARAMETERS (powrprof.h, Windows 8+) and DEVICE_NOTIFY_CALLBACK
// (winuser.h), declared here with the same layout and value: MinGW-w64's headers lack both.
struct SuspendResumeSubscription {
    ULONG(CALLBACK *callback)(PVOID context, ULONG type, PVOID setting);
    PVOID context;
};
constexpr DWORD kDeviceNotifyCallback = 2;

// Runs on a system thread: hand over to the owner's thread.
ULONG CALLBACK onPowerSetting(PVOID context, ULONG type, PVOID) {
    if (type == PBT_APMRESUMEAUTOMATIC)
        QMetaObject::invokeMethod(static_cast<WindowsWakeSource *>(context), "resumed",
                                  Qt::QueuedConnection);
    return ERROR_SUCCESS;
}

} // namespace

WindowsWakeSource::WindowsWakeSource(QObject *parent)
    : QObject(parent) {
    // WM_POWERBROADCAST reaches only top-level windows, and Qt hands sent messages of its own
    // windows to native event filters: this covers the tray build whenever Qt has a window.
    QCoreApplication::instance()->installNativeEventFilter(this);
    // Headless Tether has no window at all: the callback form (Windows 8+) needs none.
    static SuspendResumeSubscription subscription;
    subscription.callback = onPowerSetting;
    subscription.context = this;
    notification_ = RegisterSuspendResumeNotification(static_cast<HANDLE>(&subscription),
                                                      kDeviceNotifyCallback);
}

WindowsWakeSource::~WindowsWakeSource() {
    if (notification_)
        UnregisterSuspendResumeNotification(static_cast<HPOWERNOTIFY>(notification_));
    if (QCoreApplication::instance()) QCoreApplication::instance()->removeNativeEventFilter(this);
}

bool WindowsWakeSource::nativeEventFilter(const QByteArray &eventType, void *message, qintptr *) {
    if (eventType != "windows_generic_MSG") return false;
    const MSG *msg = static_cast<const MSG *>(message);
    // Both paths may report one resume: a second noteTimeGap only restarts the window again.
    if (msg->message == WM_POWERBROADCAST && msg->wParam == PBT_APMRESUMEAUTOMATIC) emit resumed();
    return false; // others may want it too
}

} // namespace tether
