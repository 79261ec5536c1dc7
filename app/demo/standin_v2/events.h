// opencode 2.x's /api/event payloads (pure): the first event, and the envelope of every other
// one {id, type, created (epoch ms), data, location?, durable?} [R38] [R41].
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace tether::standin_v2 {

// {id, type:"server.connected", data:{}}: sent first on every stream, no envelope [R38].
QJsonObject connectedEvent(const QString &id);

// The SSE comment a stream sends every 15 s [R38].
inline constexpr char kHeartbeatFrame[] = ": heartbeat\n\n";

// A durable event's place in its aggregate's log; session events use the session id [R41] [R44].
struct Durable {
    QString aggregateID;
    int seq = 0;
    int version = 1;
};

QJsonObject eventEnvelope(const QString &id, const QString &type, qint64 createdMs,
                          const QJsonObject &data, const QString &directory,
                          const Durable *durable = nullptr);

} // namespace tether::standin_v2
