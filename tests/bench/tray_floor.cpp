// The floor of the idle-footprint benchmark: the least a Qt tray program can be, one
// QSystemTrayIcon with a menu and an icon, and an event loop. Built only for bench_footprint.
#include <QApplication>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
#include <QSystemTrayIcon>

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    app.setApplicationName(QStringLiteral("tether-floor"));
    QPixmap pm(32, 32);
    pm.fill(Qt::transparent);
    QPainter(&pm).fillRect(4, 4, 24, 24, Qt::darkGreen);
    QMenu menu;
    menu.addAction(QStringLiteral("Quit"), &app, &QApplication::quit);
    QSystemTrayIcon icon{QIcon(pm)};
    icon.setContextMenu(&menu);
    icon.setToolTip(QStringLiteral("floor"));
    icon.show();
    return app.exec();
}
