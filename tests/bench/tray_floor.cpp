// The floors of the idle-footprint benchmark, one source for two programs:
// - bench_tray_floor: the least a Qt tray program can be, one QSystemTrayIcon with a menu and an
//   icon, and an event loop.
// - bench_tray_floor_net (TRAY_FLOOR_NET): the same, probing a service the way Tether does, with
//   QtNetwork: every 5 s a QTcpSocket GETs /global/health, then /mcp, from 127.0.0.1:PORT (its
//   argument). Linking QtNetwork loads its own libraries (Kerberos/GSSAPI, libproxy, which
//   starts libstdc++'s iostreams): the least a Qt tray that supervises over HTTP can be.
// Built only for bench_footprint.
#include <QApplication>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
#include <QSystemTrayIcon>

#ifdef TRAY_FLOOR_NET
#include <QHostAddress>
#include <QTcpSocket>
#include <QTimer>

#include <functional>

namespace {

// GETs path, then calls next (if any) once the server has answered and closed.
void get(quint16 port, const QByteArray &path, std::function<void()> next) {
    auto *socket = new QTcpSocket;
    QObject::connect(socket, &QTcpSocket::connected, socket, [socket, path] {
        socket->write("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    });
    QObject::connect(socket, &QTcpSocket::readyRead, socket, [socket] { socket->readAll(); });
    QObject::connect(socket, &QAbstractSocket::disconnected, socket, [socket, next] {
        socket->deleteLater();
        if (next) next();
    });
    QObject::connect(socket, &QAbstractSocket::errorOccurred, socket, [socket] {
        if (socket->state() == QAbstractSocket::UnconnectedState) socket->deleteLater();
    });
    socket->connectToHost(QHostAddress::LocalHost, port);
}

} // namespace
#endif

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
#ifdef TRAY_FLOOR_NET
    const quint16 port = argc > 1 ? quint16(QByteArray(argv[1]).toUInt()) : 0;
    QTimer every5s;
    QObject::connect(&every5s, &QTimer::timeout,
                     [port] { get(port, "/global/health", [port] { get(port, "/mcp", {}); }); });
    every5s.start(5000);
#else
    Q_UNUSED(argc)
#endif
    return app.exec();
}
