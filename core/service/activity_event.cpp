#include "service/activity_event.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace tether {

namespace {

std::string str(const QJsonValue &v) {
    return v.toString().toStdString();
}

} // namespace

std::optional<policy::ActivityEvent> parseActivityEvent(const QByteArray &data, qint64 wallNowMs) {
    using K = policy::ActivityEventKind;
    const QJsonDocument doc = QJsonDocument::fromJson(data);
    if (!doc.isObject()) return std::nullopt;
    const QJsonObject root = doc.object();
    // opencode 1.18.33 wraps every event in {payload: ...}; a bare event is accepted as well.
    const QJsonObject ev = root.value(QLatin1String("payload")).isObject()
                               ? root.value(QLatin1String("payload")).toObject()
                               : root;
    const QString type = ev.value(QLatin1String("type")).toString();
    if (type.isEmpty()) return std::nullopt;
    const QJsonObject props = ev.value(QLatin1String("properties")).toObject();

    policy::ActivityEvent out;
    out.session = str(props.value(QLatin1String("sessionID")));
    out.directory = str(root.value(QLatin1String("directory")));
    if (type == QLatin1String("server.connected")) {
        out.kind = K::Connected;
    } else if (type == QLatin1String("server.heartbeat")) {
        out.kind = K::Heartbeat;
    } else if (type == QLatin1String("session.status")) {
        const QString status =
            props.value(QLatin1String("status")).toObject().value(QLatin1String("type")).toString();
        // "retry" is opencode's: the session waits to try the model again; it still works.
        out.kind = status == QLatin1String("idle") ? K::SessionIdle : K::SessionBusy;
    } else if (type == QLatin1String("session.idle")) {
        out.kind = K::SessionIdle;
    } else if (type == QLatin1String("message.part.updated")) {
        const QJsonObject part = props.value(QLatin1String("part")).toObject();
        if (part.value(QLatin1String("type")).toString() != QLatin1String("tool")) {
            out.kind = K::Other;
            return out;
        }
        const QString status =
            part.value(QLatin1String("state")).toObject().value(QLatin1String("status")).toString();
        out.part = str(part.value(QLatin1String("id")));
        out.tool = str(part.value(QLatin1String("tool")));
        if (out.session.empty()) out.session = str(part.value(QLatin1String("sessionID")));
        const double start = part.value(QLatin1String("state"))
                                 .toObject()
                                 .value(QLatin1String("time"))
                                 .toObject()
                                 .value(QLatin1String("start"))
                                 .toDouble(-1);
        if (start > 0) {
            const qint64 wall = wallNowMs >= 0 ? wallNowMs : QDateTime::currentMSecsSinceEpoch();
            out.runningMs = std::max<qint64>(0, wall - qint64(start)); // clocks apart: just now
        }
        if (status == QLatin1String("pending"))
            out.kind = K::ToolPending;
        else if (status == QLatin1String("running"))
            out.kind = K::ToolRunning;
        else // completed, error, and whatever a later version adds: no longer runs
            out.kind = K::ToolEnded;
    } else {
        out.kind = K::Other; // includes "sync", the duplicate of every directory event
    }
    return out;
}

} // namespace tether
