#include "demo/standin_v2/events.h"

namespace tether::standin_v2 {

QJsonObject connectedEvent(const QString &id) {
    return QJsonObject{{"id", id}, {"type", "server.connected"}, {"data", QJsonObject{}}};
}

QJsonObject eventEnvelope(const QString &id, const QString &type, qint64 createdMs,
                          const QJsonObject &data, const QString &directory,
                          const Durable *durable) {
    QJsonObject e{{"id", id}, {"type", type}, {"created", createdMs}, {"data", data}};
    if (!directory.isEmpty()) e.insert("location", QJsonObject{{"directory", directory}});
    if (durable)
        e.insert("durable", QJsonObject{{"aggregateID", durable->aggregateID},
                                        {"seq", durable->seq},
                                        {"version", durable->version}});
    return e;
}

} // namespace tether::standin_v2
