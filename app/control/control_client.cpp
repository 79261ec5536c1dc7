#include "control/control_client.h"

#include <QDeadlineTimer>
#include <QJsonDocument>
#include <QLocalSocket>

namespace tether::control {

Reply call(const Request &request, int timeoutMs) {
    Reply reply;
    QLocalSocket socket;
    socket.connectToServer(serverName());
    if (!socket.waitForConnected(qMin(timeoutMs, 2000))) {
        reply.status = Reply::Status::NotRunning;
        reply.error = QStringLiteral("Tether is not running");
        return reply;
    }
    socket.write(serializeRequest(request));
    socket.flush();
    QDeadlineTimer deadline(timeoutMs);
    QByteArray line;
    while (!socket.canReadLine()) {
        if (deadline.hasExpired() ||
            !socket.waitForReadyRead(int(qMax<qint64>(1, deadline.remainingTime())))) {
            reply.error = QStringLiteral("Tether did not answer within %1 ms").arg(timeoutMs);
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
