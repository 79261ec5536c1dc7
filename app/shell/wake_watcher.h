// The OS's "the machine woke up" notifications, gathered in one object: Linux logind
// PrepareForSleep(false) over D-Bus (when Qt6::DBus was there at build time), Windows
// WM_POWERBROADCAST / PBT_APMRESUMEAUTOMATIC, macOS NSWorkspaceDidWakeNotification. The
// Supervisor also notices sleep by itself (a timer that fires far too late); these only make
// it notice at once, before the first late timer.
#pragma once

#include <QObject>
#include <QStringList>

namespace tether {

class WakeWatcher : public QObject {
    Q_OBJECT
public:
    explicit WakeWatcher(QObject *parent = nullptr);
    ~WakeWatcher() override;

    // The sources that are listening now, e.g. "logind"; empty where the OS offers none
    // (or, on Linux, when there is no system bus).
    QStringList activeSources() const { return active_; }

signals:
    void systemResumed(const QString &source);

private:
    QStringList active_;
};

} // namespace tether
