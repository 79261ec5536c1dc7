#include "control/control_server.h"

#include <QPointer>

#include <QLocalSocket>

#ifdef Q_OS_LINUX
#include <sys/socket.h>
#include <unistd.h>
#endif

namespace tether::control {

namespace {
// Defence in depth beside the socket's 0700 directory: only our own user may talk to us.
bool peerIsSameUser(QLocalSocket *socket) {
#ifdef Q_OS_LINUX
    struct ucred cred {};
    socklen_t len = sizeof(cred);
    if (::getsockopt(int(socket->socketDescriptor()), SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0)
        return false;
    return cred.uid == ::getuid();
#else
    Q_UNUSED(socket);
    return true; // the OS enforces UserAccessOption on the pipe / socket
#endif
}
} // namespace

ControlServer::ControlServer(Handler handler, QObject *parent)
    : QObject(parent)
    , handler_(std::move(handler)) {
    server_.setSocketOptions(QLocalServer::UserAccessOption);
    connect(&server_, &QLocalServer::newConnection, this, &ControlServer::onConnection);
}

ControlServer::Listen ControlServer::listen(QString *error) {
    const QString name = serverName();
    {
        QLocalSocket probe;
        probe.connectToServer(name);
        if (probe.waitForConnected(500)) return Listen::AnotherInstance;
    }
    QLocalServer::removeServer(name); // a stale endpoint left by a Tether that died
    if (!server_.listen(name)) {
        if (error)
            *error = QStringLiteral("cannot open the control socket %1: %2")
                         .arg(name, server_.errorString());
        return Listen::Error;
    }
    return Listen::Ok;
}

void ControlServer::onConnection() {
    while (QLocalSocket *socket = server_.nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        if (!peerIsSameUser(socket)) {
            socket->write(errorReply(QStringLiteral("refused: not the same user")));
            socket->disconnectFromServer();
            continue;
        }
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
            // Lines beyond the cap are refused and the connection closed: a flood costs nothing.
            const auto tooLong = [socket] {
                socket->write(errorReply(QStringLiteral("request too long")));
                socket->disconnectFromServer();
            };
            for (;;) {
                if (socket->state() != QLocalSocket::ConnectedState)
                    return; // refused already: what else arrives is not read
                if (!socket->canReadLine()) {
                    if (socket->bytesAvailable() > kMaxLineBytes)
                        tooLong(); // no newline within the cap
                    return;
                }
                const QByteArray raw = socket->readLine();
                if (raw.size() > kMaxLineBytes + 1) {
                    tooLong();
                    return;
                }
                const QByteArray line = raw.trimmed();
                if (line.isEmpty()) continue;
                const ParsedRequest parsed = parseRequest(line);
                if (!parsed.ok) {
                    socket->write(errorReply(parsed.error));
                    continue;
                }
                QPointer<QLocalSocket> alive(socket); // the client may hang up before the reply
                handler_(parsed.request, [alive](const QByteArray &reply) {
                    if (alive) alive->write(reply);
                });
            }
        });
    }
}

} // namespace tether::control
