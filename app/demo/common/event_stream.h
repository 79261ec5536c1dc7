// A Server-Sent Events endpoint of a demo service: one stream per subscriber (chunked, `data:`
// lines), a first frame and a heartbeat per connection, both shaped by the protocol spoken.
// Bounded: a fixed number of subscribers, and a subscriber that does not read is dropped
// before its unsent bytes pass a limit, so a slow reader never grows the service's memory.
#pragma once

#include "demo/common/http_request.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QObject>

#include <functional>

class QTcpSocket;

namespace tether::demo {

// The SSE frame of one event: "data: " + compact JSON + blank line.
QByteArray sseFrame(const QJsonObject &event);

// What differs between the protocols' streams; each frame function is given a fresh event id.
struct StreamFraming {
    std::function<QByteArray(const QString &id)> connected; // sent first on every stream
    std::function<QByteArray(const QString &id)> heartbeat; // sent every heartbeat period
    HttpHeaders extraHeaders; // sent after Content-Type and Cache-Control
};

class EventStream : public QObject {
public:
    EventStream(int heartbeatMs, StreamFraming framing, QObject *parent = nullptr);

    // Which published events a subscriber wants (all when empty).
    using Interest = std::function<bool(const QJsonObject &event)>;

    // Takes over an accepted connection whose request was an authorized GET of the stream:
    // answers 200 and sends the connected frame, or 503 when there are already kMaxSubscribers.
    void subscribe(QTcpSocket *socket, Interest interest = {});

    // Sends one event to every subscriber that wants it.
    void publish(const QJsonObject &event);

    // Closes every stream (a service that is stopping drops its connections).
    void closeAll();

    // Event ids are "evt_" + an ascending part; unique and ordered is what matters.
    QString nextEventId();

    int subscriberCount() const { return static_cast<int>(subscribers_.size()); }

    static constexpr int kMaxSubscribers = 64;
    static constexpr qint64 kMaxUnsentBytes = 256 * 1024;
    static constexpr int kKernelSendBuffer = 64 * 1024;

private:
    void send(QTcpSocket *socket, const QByteArray &frame);

    int heartbeatMs_;
    StreamFraming framing_;
    quint64 sequence_ = 0;
    QHash<QTcpSocket *, Interest> subscribers_;
};

} // namespace tether::demo
