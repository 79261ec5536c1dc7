#include "demo/common/event_stream.h"

#include "demo/common/http_response.h"

#include <QJsonDocument>
#include <QTcpSocket>
#include <QTimer>

namespace tether::demo {

namespace {
// The head both opencode generations send (Transfer-Encoding: chunked, no Content-Length).
QByteArray streamHead(const HttpHeaders &extra) {
    QByteArray head = "HTTP/1.1 200 OK\r\n"
                      "Content-Type: text/event-stream\r\n"
                      "Cache-Control: no-cache, no-transform\r\n";
    for (const auto &[name, value] : extra)
        head += name + ": " + value + "\r\n";
    return head + "Transfer-Encoding: chunked\r\n\r\n";
}

QByteArray chunk(const QByteArray &data) {
    return QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
}
} // namespace

QByteArray sseFrame(const QJsonObject &event) {
    return "data: " + QJsonDocument(event).toJson(QJsonDocument::Compact) + "\n\n";
}

EventStream::EventStream(int heartbeatMs, StreamFraming framing, QObject *parent)
    : QObject(parent)
    , heartbeatMs_(heartbeatMs)
    , framing_(std::move(framing)) {
}

QString EventStream::nextEventId() {
    return QStringLiteral("evt_demo%1").arg(++sequence_, 12, 16, QLatin1Char('0'));
}

void EventStream::subscribe(QTcpSocket *socket, Interest interest) {
    if (subscribers_.size() >= kMaxSubscribers) {
        socket->write(serializeHttpResponse(HttpResponse::text(503, "too many event streams")));
        socket->disconnectFromHost();
        return;
    }
    subscribers_.insert(socket, std::move(interest));
    // A small kernel send buffer too: otherwise the kernel's autotuned megabytes hide a reader
    // that stopped reading from the bound below, and keep draining to it after it is dropped.
    socket->setSocketOption(QAbstractSocket::SendBufferSizeSocketOption, kKernelSendBuffer);
    connect(socket, &QObject::destroyed, this, [this, socket] { subscribers_.remove(socket); });
    connect(socket, &QTcpSocket::disconnected, this,
            [this, socket] { subscribers_.remove(socket); });
    // Nothing more is expected from the client: what it sends anyway is dropped, not kept.
    connect(socket, &QTcpSocket::readyRead, socket, [socket] { socket->readAll(); });
    socket->write(streamHead(framing_.extraHeaders));
    send(socket, framing_.connected(nextEventId()));
    // Per connection, counted from its start: a frozen process sends none.
    auto *heartbeat = new QTimer(socket);
    connect(heartbeat, &QTimer::timeout, this,
            [this, socket] { send(socket, framing_.heartbeat(nextEventId())); });
    heartbeat->start(heartbeatMs_);
}

void EventStream::publish(const QJsonObject &event) {
    const QByteArray frame = sseFrame(event);
    const auto all = subscribers_; // send() may drop one
    for (auto it = all.cbegin(); it != all.cend(); ++it)
        if (!it.value() || it.value()(event)) send(it.key(), frame);
}

void EventStream::closeAll() {
    const auto all = subscribers_.keys();
    subscribers_.clear();
    for (QTcpSocket *socket : all)
        socket->abort();
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
