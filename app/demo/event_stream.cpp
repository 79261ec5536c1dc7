#include "demo/event_stream.h"

#include "demo/activity_events.h"
#include "demo/http_response.h"

#include <QTcpSocket>
#include <QTimer>

namespace tether::demo {

namespace {
// The head opencode sends (Transfer-Encoding: chunked, no Content-Length).
constexpr char kStreamHead[] = "HTTP/1.1 200 OK\r\n"
                               "Content-Type: text/event-stream\r\n"
                               "Cache-Control: no-cache, no-transform\r\n"
                               "X-Accel-Buffering: no\r\n"
                               "Transfer-Encoding: chunked\r\n"
                               "\r\n";

QByteArray chunk(const QByteArray &data) {
    return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
}
} // namespace

EventStream::EventStream(int heartbeatMs, QObject *parent)
    : QObject(parent)
    , heartbeatMs_(heartbeatMs) {
}

QString EventStream::nextEventId() {
    return QStringLiteral("evt_demo%1").arg(++sequence_, 12, 16, QLatin1Char('0'));
}

void EventStream::subscribe(QTcpSocket *socket) {
    if (subscribers_.size() >= kMaxSubscribers) {
        socket->write(serializeHttpResponse(HttpResponse::text(503, "too many event streams")));
        socket->disconnectFromHost();
        return;
    }
    subscribers_.insert(socket);
    // A small kernel send buffer too: otherwise the kernel's autotuned megabytes hide a reader
    // that stopped reading from the bound below, and keep draining to it after it is dropped.
    socket->setSocketOption(QAbstractSocket::SendBufferSizeSocketOption, kKernelSendBuffer);
    connect(socket, &QObject::destroyed, this, [this, socket] { subscribers_.remove(socket); });
    connect(socket, &QTcpSocket::disconnected, this,
            [this, socket] { subscribers_.remove(socket); });
    // Nothing more is expected from the client: what it sends anyway is dropped, not kept.
    connect(socket, &QTcpSocket::readyRead, socket, [socket] { socket->readAll(); });
    socket->write(kStreamHead);
    send(socket, sseFrame(globalEvent(nextEventId(), QStringLiteral("server.connected"))));
    // Per connection, counted from its start, as opencode: a frozen process sends none.
    auto *heartbeat = new QTimer(socket);
    connect(heartbeat, &QTimer::timeout, this, [this, socket] {
        send(socket, sseFrame(globalEvent(nextEventId(), QStringLiteral("server.heartbeat"))));
    });
    heartbeat->start(heartbeatMs_);
}

void EventStream::publish(const QJsonObject &envelope) {
    const QByteArray frame = sseFrame(envelope);
    const QSet<QTcpSocket *> all = subscribers_; // send() may drop one
    for (QTcpSocket *socket : all)
        send(socket, frame);
}

void EventStream::send(QTcpSocket *socket, const QByteArray &frame) {
    if (socket->state() != QAbstractSocket::ConnectedState) return;
    if (socket->bytesToWrite() + frame.size() > kMaxUnsentBytes) {
        // A reader this far behind is gone in all but name: drop it, as a proxy would.
        subscribers_.remove(socket);
        socket->abort();
        return;
    }
    socket->write(chunk(frame));
}

} // namespace tether::demo
