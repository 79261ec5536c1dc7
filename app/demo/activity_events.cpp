#include "demo/activity_events.h"

#include <QJsonArray>
#include <algorithm>

namespace tether::demo {

namespace {
QJsonObject envelope(const QString &directory, const QJsonObject &payload) {
    // opencode says "global" as the project of a directory that is not a git repository.
    return QJsonObject{{"directory", directory}, {"project", "global"}, {"payload", payload}};
}
QJsonObject payload(const QString &id, const QString &type, const QJsonObject &properties) {
    return QJsonObject{{"id", id}, {"type", type}, {"properties", properties}};
}
} // namespace

QJsonObject globalEvent(const QString &id, const QString &type) {
    return QJsonObject{{"payload", payload(id, type, QJsonObject{})}};
}

StreamFraming opencode1StreamFraming() {
    return {[](const QString &id) { return sseFrame(globalEvent(id, "server.connected")); },
            [](const QString &id) { return sseFrame(globalEvent(id, "server.heartbeat")); },
            {{"X-Accel-Buffering", "no"}}};
}

QJsonObject sessionStatusEvent(const QString &id, const QString &directory,
                               const QString &sessionId, bool busy) {
    return envelope(
        directory, payload(id, QStringLiteral("session.status"),
                           QJsonObject{{"sessionID", sessionId},
                                       {"status", QJsonObject{{"type", busy ? "busy" : "idle"}}}}));
}

QJsonObject sessionIdleEvent(const QString &id, const QString &directory,
                             const QString &sessionId) {
    return envelope(directory, payload(id, QStringLiteral("session.idle"),
                                       QJsonObject{{"sessionID", sessionId}}));
}

QJsonObject toolPart(const DemoToolCall &call, ToolState state) {
    const QJsonObject input{{"duration", call.seconds}};
    QJsonObject st;
    switch (state) {
    case ToolState::Pending: // as opencode: the arguments are not parsed yet
        st = QJsonObject{{"status", "pending"}, {"input", QJsonObject{}}, {"raw", ""}};
        break;
    case ToolState::Running:
        st = QJsonObject{{"status", "running"},
                         {"input", input},
                         {"time", QJsonObject{{"start", call.startMs}}}};
        break;
    case ToolState::Completed:
        st = QJsonObject{{"status", "completed"},
                         {"input", input},
                         {"output", QStringLiteral("Demo tool ran for %1 s.").arg(call.seconds)},
                         {"metadata", QJsonObject{{"truncated", false}}},
                         {"title", ""},
                         {"time", QJsonObject{{"start", call.startMs}, {"end", call.endMs}}}};
        break;
    }
    return QJsonObject{
        {"id", call.partId}, {"messageID", call.messageId}, {"sessionID", call.sessionId},
        {"type", "tool"},    {"tool", call.tool},           {"callID", call.callId},
        {"state", st}};
}

QJsonObject toolPartEvent(const QString &id, const DemoToolCall &call, ToolState state,
                          qint64 nowMs) {
    return envelope(call.directory, payload(id, QStringLiteral("message.part.updated"),
                                            QJsonObject{{"sessionID", call.sessionId},
                                                        {"part", toolPart(call, state)},
                                                        {"time", nowMs}}));
}

QJsonArray sessionMessagesBody(const DemoToolCall &call) {
    QJsonObject time{{"created", call.startMs}};
    if (call.endMs > 0) time.insert("completed", call.endMs);
    const QJsonObject info{{"id", call.messageId},
                           {"sessionID", call.sessionId},
                           {"role", "assistant"},
                           {"time", time}};
    return QJsonArray{QJsonObject{
        {"info", info},
        {"parts",
         QJsonArray{toolPart(call, call.endMs > 0 ? ToolState::Completed : ToolState::Running)}}}};
}

QJsonArray sessionListBody(const QList<DemoToolCall> &calls) {
    QList<DemoToolCall> sorted = calls;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const DemoToolCall &a, const DemoToolCall &b) {
                         return std::max(a.startMs, a.endMs) > std::max(b.startMs, b.endMs);
                     });
    QJsonArray out;
    for (const DemoToolCall &c : sorted)
        out.append(QJsonObject{{"id", c.sessionId},
                               {"directory", c.directory},
                               {"projectID", "global"},
                               {"time", QJsonObject{{"created", c.startMs},
                                                    {"updated", std::max(c.startMs, c.endMs)}}}});
    return out;
}

QJsonObject sessionStatusBody(const QStringList &busySessionIds) {
    QJsonObject body;
    for (const QString &id : busySessionIds)
        body.insert(id, QJsonObject{{"type", "busy"}});
    return body;
}

} // namespace tether::demo
