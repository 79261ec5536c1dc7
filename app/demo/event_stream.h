// GET /global/event of the demo service: a Server-Sent Events stream per subscriber, framed
// as opencode 1.18.33 frames it (chunked, `data:` lines only), with a heartbeat per connection.
// Bounded: a fixed number of subscribers, and a subscriber that does not read is dropped
// before its unsent bytes pass a limit, so a slow reader never grows the service's memory.
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QSet>

class QTcpSocket;

namespace tether::demo {

class EventStream : public QObject {
public:
    explicit EventStream(int heartbeatMs, QObject *parent = nullptr);

    // Takes over an accepted connection whose request was an authorized GET /global/event:
    // answers 200 and sends server.connected, or 503 when there are already kMaxSubscribers.
    void subscribe(QTcpSocket *socket);

    // Sends one event to every subscriber.
    void publish(const QJsonObject &envelope);

    // opencode's event ids are "evt_" + a monotonic hex time + random; unique is what matters.
    QString nextEventId();

    int subscriberCount() const { return static_cast<int>(subscribers_.size()); }

    static constexpr int kMaxSubscribers = 64;
    static constexpr qint64 kMaxUnsentBytes = 256 * 1024;
    static constexpr int kKernelSendBuffer = 64 * 1024;

private:
    void send(QTcpSocket *socket, const QByteArray &frame);

    int heartbeatMs_;
    quint64 sequence_ = 0;
    QSet<QTcpSocket *> subscribers_;
};

} // namespace tether::demo
