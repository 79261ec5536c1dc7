// Windows: the system announces a resume with WM_POWERBROADCAST / PBT_APMRESUMEAUTOMATIC (sent
// on every resume, whether or not a person is at the machine). Compiled only on Windows; not
// compiled on the Linux build machines: written against the documented Win32 and Qt APIs.
#pragma once

#include <QAbstractNativeEventFilter>
#include <QObject>

namespace tether {

class WindowsWakeSource : public QObject, public QAbstractNativeEventFilter {
    Q_OBJECT
public:
    explicit WindowsWakeSource(QObject *parent = nullptr);
    ~WindowsWakeSource() override;

    bool nativeEventFilter(const QByteArray &eventType, void *message, qintptr *result) override;

signals:
    void resumed();

private:
    void *notification_ = nullptr; // HPOWERNOTIFY from RegisterSuspendResumeNotification
};

} // namespace tether
