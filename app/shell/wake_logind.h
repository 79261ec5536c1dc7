// Linux: systemd-logind announces sleep with PrepareForSleep(true) and the wake with
// PrepareForSleep(false) on org.freedesktop.login1.Manager. Compiled only when Qt6::DBus is
// available; at run time a missing system bus just means no listening (isListening false).
#pragma once

#include <QDBusConnection>
#include <QObject>

namespace tether {

class LogindWakeSource : public QObject {
    Q_OBJECT
public:
    // The bus is injected so tests can use a private bus that plays logind.
    explicit LogindWakeSource(QDBusConnection bus, QObject *parent = nullptr);

    bool isListening() const { return listening_; }
    QString error() const { return error_; }

signals:
    void resumed();

private slots:
    void onPrepareForSleep(bool goingToSleep);

private:
    QDBusConnection bus_;
    bool listening_ = false;
    QString error_;
};

} // namespace tether
