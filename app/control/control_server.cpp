#include "control/control_server.h"

#include <QLocalSocket>
#include <QPointer>
#include <QTimer>

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

// Per client: answers waiting for it to read them (status ~5 KiB, diagnostics ~50 KiB): past
// this a client is dropped, it does not read what it asked for; and answers still being worked
// out (a cleanup sweeps first): at these many, its next request waits.
constexpr qint64 kQueuedBytes = 1024 * 1024;
constexpr int kPendingAnswers = 4;
constexpr int kClients = 64; // descriptors are finite: the service and its MCP servers need them
} // namespace

ControlServer::ControlServer(Handler handler, QObject *parent)
    : QObject(parent)
    , handler_(std::move(handler)) {
    server_.setSocketOptions(QLocalServer::UserAccessOption);
    connect(&server_, &QLocalServer::newConnection, this, &ControlServer::onConnection);
}

ControlServer::Listen ControlServer::listen(QString *error) {
    switch (lock_.acquire(error)) {
    case InstanceLock::Result::HeldByAnother:
        return Listen::AnotherInstance;
    case InstanceLock::Result::Error:
        return Listen::Error;
    case InstanceLock::Result::Acquired:
        break;
    }
    const QString name = serverName();
    QLocalServer::removeServer(name); // ours alone now: whatever is there is stale
    if (!server_.listen(name)) {
        if (error)
            *error = QStringLiteral("cannot open the control socket %1: %2")
                         .arg(name, server_.errorString());
        return Listen::Error;
    }
    return Listen::Ok;
}

QString ControlServer::keepListening() {
    if (!lock_.held() || server_.isListening()) return {};
    const QString why = server_.errorString();
    const QString name = serverName();
    QLocalServer::removeServer(name);
    if (server_.listen(name))
        return QStringLiteral("control socket closed (%1): listening again").arg(why);
    return QStringLiteral("control socket closed (%1) and cannot listen again: %2")
        .arg(why, server_.errorString());
}

void ControlServer::drop(QLocalSocket *socket, const QString &why) {
    emit clientDropped(why);
    socket->abort();
    socket->deleteLater();
}

void ControlServer::onConnection() {
    while (QLocalSocket *socket = server_.nextPendingConnection()) {
        ++clients_;
        connect(socket, &QObject::destroyed, this, [this, socket] {
            --clients_;
            pending_.remove(socket);
        });
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        if (!peerIsSameUser(socket)) {
            socket->write(errorReply(QStringLiteral("refused: not the same user")));
            socket->disconnectFromServer();
            continue;
        }
        if (clients_ > kClients) {
            socket->write(errorReply(
                QStringLiteral("refused: %1 clients are connected already").arg(kClients)));
            socket->disconnectFromServer();
            continue;
        }
        // Qt stops reading from the socket once a line's worth waits: a flood costs nothing.
        socket->setReadBufferSize(kMaxLineBytes + 2);
        pending_.insert(socket, 0);
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] { serve(socket); });
    }
}

void ControlServer::serve(QLocalSocket *socket) {
    if (socket->state() != QLocalSocket::ConnectedState)
        return; // refused already, or gone: what else arrives is not read
    const int pending = pending_.value(socket);
    if (socket->bytesToWrite() > kQueuedBytes) {
        drop(socket, QStringLiteral("a control client that does not read its answers (%1 bytes "
                                    "queued) was dropped")
                         .arg(socket->bytesToWrite()));
        return;
    }
    if (pending >= kPendingAnswers) return; // resumed when a pending answer is sent
    if (!socket->canReadLine()) {
        if (socket->bytesAvailable() > kMaxLineBytes) { // no newline within the cap
            socket->write(errorReply(QStringLiteral("request too long")));
            socket->disconnectFromServer();
        }
        return;
    }
    const QByteArray line = socket->readLine().trimmed();
    if (!line.isEmpty()) {
        const ParsedRequest parsed = parseRequest(line);
        if (!parsed.ok) {
            socket->write(errorReply(parsed.error));
        } else {
            QPointer<QLocalSocket> alive(socket); // the client may hang up before the reply
            pending_[socket] = pending + 1;
            handler_(parsed.request, [this, alive](const QByteArray &reply) {
                if (!alive) return;
                pending_[alive.data()] -= 1;
                alive->write(reply);
                QTimer::singleShot(0, this, [this, alive] {
                    if (alive) serve(alive);
                });
            });
            return; // the reply (now or later) serves the next request
        }
    }
    // The next request in the next turn: other clients, probes and a hang-up come first.
    QPointer<QLocalSocket> alive(socket);
    QTimer::singleShot(0, this, [this, alive] {
        if (alive) serve(alive);
    });
}

} // namespace tether::control
