#include "control/control_client.h"

#include "control/instance_lock.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QLocalSocket>

namespace tether::control {

Reply::Status connectFailure(QLocalSocket::LocalSocketError error) {
    switch (error) {
    case QLocalSocket::ServerNotFoundError:
    case QLocalSocket::ConnectionRefusedError:
        return Reply::Status::NotRunning;
    case QLocalSocket::SocketTimeoutError:
        return Reply::Status::NotAnswering;
    default:
        // Access denied, a resource error, ...: something is there that we cannot reach.
        return Reply::Status::NoAnswer;
    }
}

Reply::Status connectFailure(QLocalSocket::LocalSocketError error, std::optional<bool> locked) {
    // The lock is the truth (control/instance_lock.h): a Tether that holds it is running, however
    // its socket fails (stalled with a full backlog, out of descriptors, its endpoint closed).
    if (locked) return *locked ? Reply::Status::NotAnswering : Reply::Status::NotRunning;
    return connectFailure(error);
}

Reply call(const Request &request, int timeoutMs) {
    Reply reply;
    QLocalSocket socket;
    socket.connectToServer(serverName());
    if (!socket.waitForConnected(qMin(timeoutMs, 2000))) {
        reply.status = connectFailure(socket.error(), InstanceLock::isHeld());
        reply.error = reply.status == Reply::Status::NotRunning
                          ? QStringLiteral("Tether is not running")
                          : QStringLiteral("a Tether runs (it holds its lock) but its control "
                                           "socket did not take the connection within %1 ms (%2)")
                                .arg(qMin(timeoutMs, 2000))
                                .arg(socket.errorString());
        return reply;
    }
    socket.write(serializeRequest(request));
    socket.flush();
    QDeadlineTimer deadline(timeoutMs);
    QByteArray line;
    while (!socket.canReadLine()) {
        if (deadline.hasExpired() ||
            !socket.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime())))) {
            // Closed without a word: it went away. Still connected: it is there, and busy.
            const bool open = socket.state() == QLocalSocket::ConnectedState;
            reply.status = open ? Reply::Status::NotAnswering : Reply::Status::NoAnswer;
            reply.error = open ? QStringLiteral("Tether did not answer within %1 ms").arg(timeoutMs)
                               : QStringLiteral("Tether closed the connection without an answer");
            return reply;
        }
        if (socket.bytesAvailable() > kMaxLineBytes * 64) break;
    }
    line = socket.readLine();
    const QJsonDocument doc = QJsonDocument::fromJson(line);
    if (!doc.isObject()) {
        reply.error = QStringLiteral("Tether sent an unreadable answer");
        return reply;
    }
    reply.body = doc.object();
    if (reply.body.value(QLatin1String("ok")).toBool()) {
        reply.status = Reply::Status::Ok;
    } else {
        reply.status = Reply::Status::Error;
        reply.error = reply.body.value(QLatin1String("error")).toString();
    }
    return reply;
}

} // namespace tether::control
