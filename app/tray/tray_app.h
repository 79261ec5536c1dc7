// The tray face of a Runtime: icon, tooltip and menu, all read from the Supervisor's status.
#pragma once

#include <QMenu>
#include <QObject>
#include <QSystemTrayIcon>

namespace tether {

class Runtime;

class TrayApp : public QObject {
    Q_OBJECT
public:
    TrayApp(Runtime *runtime, bool autostart, QObject *parent = nullptr);
    void show();

private:
    void refresh();

    Runtime *runtime_;
    bool autostart_;
    QSystemTrayIcon icon_;
    QMenu menu_;
    QAction *statusLine_ = nullptr;
};

} // namespace tether
