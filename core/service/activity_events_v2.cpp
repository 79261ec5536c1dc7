#include "service/activity_events_v2.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace tether {

namespace {

using K = policy::ActivityEventKind;

// The tool-call events, with and without the SDK 1.19.3 "next." infix.
std::optional<K> toolKind(QString type) {
    type.replace(QLatin1String("session.next."), QLatin1String("session."));
    if (type == QLatin1String("session.tool.input.started")) return K::ToolPending;
    if (type == QLatin1String("session.tool.called") ||
        type == QLatin1String("session.tool.progress"))
        return K::ToolRunning;
    if (type == QLatin1String("session.tool.success") ||
        type == QLatin1String("session.tool.failed"))
        return K::ToolEnded;
    return std::nullopt;
}

} // namespace

std::optional<policy::ActivityEvent> parseActivityEventV2(const QByteArray &line,
                                                          qint64 wallNowMs) {
    const QJsonDocument doc = QJsonDocument::fromJson(line);
    if (!doc.isObject()) return std::nullopt;
    const QJsonObject ev = doc.object();
    const QString type = ev.value(QLatin1String("type")).toString();
    if (type.isEmpty()) return std::nullopt;
    const QJsonObject data = ev.value(QLatin1String("data")).toObject();

    policy::ActivityEvent out;
    out.session = data.value(QLatin1String("sessionID")).toString().toStdString();
    out.directory = ev.value(QLatin1String("location"))
                        .toObject()
                        .value(QLatin1String("directory"))
                        .toString()
                        .toStdString();
    if (type == QLatin1String("server.connected")) {
        out.kind = K::Connected;
    } else if (type == QLatin1String("session.status")) {
        // busy, retry (waits to try the model again) and waiting (for the person) all mean
        // the run is not over: a stop would cut it.
        const QString status =
            data.value(QLatin1String("status")).toObject().value(QLatin1String("type")).toString();
        out.kind = status == QLatin1String("idle") ? K::SessionIdle : K::SessionBusy;
    } else if (type == QLatin1String("session.idle") ||
               type == QLatin1String("session.execution.succeeded") ||
               type == QLatin1String("session.execution.failed") ||
               type == QLatin1String("session.execution.interrupted")) {
        out.kind = K::SessionIdle;
    } else if (type == QLatin1String("session.execution.started")) {
        out.kind = K::SessionBusy;
    } else if (const std::optional<K> tool = toolKind(type)) {
        out.kind = *tool;
        out.part = data.value(QLatin1String("callID")).toString().toStdString();
        const QJsonValue name = data.value(QLatin1String("name"));
        out.tool =
            (name.isString() ? name : data.value(QLatin1String("tool"))).toString().toStdString();
        if (out.part.empty()) out.kind = K::Other;
        // The event's own time dates the call: a call first seen mid-way keeps its real age.
        const double created = ev.value(QLatin1String("created")).toDouble(-1);
        if (created > 0 && *tool != K::ToolEnded) {
            const qint64 wall = wallNowMs >= 0 ? wallNowMs : QDateTime::currentMSecsSinceEpoch();
            out.runningMs = std::max<qint64>(0, wall - qint64(created));
        }
    } else {
        out.kind = K::Other;
    }
    return out;
}

QStringList parseActiveSessionsV2(const QByteArray &body) {
    const QJsonObject all =
        QJsonDocument::fromJson(body).object().value(QLatin1String("data")).toObject();
    QStringList out;
    for (auto it = all.begin(); it != all.end(); ++it)
        if (!it.key().isEmpty() && it.value().isObject()) out << it.key();
    return out;
}

} // namespace tether
