#include "demo/standin_v2/sessions.h"

#include "demo/common/event_stream.h"
#include "demo/standin_v2/events.h"

#include <QDateTime>
#include <QJsonArray>
#include <QTimer>

namespace tether::standin_v2 {

namespace {
QJsonObject status(const QString &sessionID, const char *type) {
    return QJsonObject{{"sessionID", sessionID}, {"status", QJsonObject{{"type", type}}}};
}
QJsonObject toolData(const ToolCall &c) {
    return QJsonObject{{"sessionID", c.sessionID},
                       {"assistantMessageID", c.assistantMessageID},
                       {"callID", c.callID}};
}
QJsonObject with(QJsonObject o, const QJsonObject &more) {
    for (auto it = more.begin(); it != more.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}
} // namespace

Sessions::Sessions(demo::EventStream &events, QObject *parent)
    : QObject(parent)
    , events_(events) {
}

void Sessions::publish(Session &s, const QString &type, const QJsonObject &data, bool durable) {
    const Durable d{s.call.sessionID, s.seq, 1};
    if (durable) ++s.seq;
    events_.publish(eventEnvelope(events_.nextEventId(), type, QDateTime::currentMSecsSinceEpoch(),
                                  data, s.call.directory, durable ? &d : nullptr));
}

ToolCall Sessions::startToolCall(const QString &directory, const QString &tool, int seconds) {
    if (sessions_.size() >= kKeptSessions) // bounded: drop an ended one
        for (auto it = sessions_.begin(); it != sessions_.end(); ++it)
            if (!it->running) {
                sessions_.erase(it);
                break;
            }
    const QString n = QStringLiteral("%1").arg(++counter_, 8, 10, QLatin1Char('0'));
    Session &s = sessions_[QStringLiteral("ses_standin") + n];
    s.call = ToolCall{QStringLiteral("ses_standin") + n,
                      QStringLiteral("msg_standin") + n,
                      QStringLiteral("call_standin") + n,
                      tool,
                      directory,
                      seconds,
                      QDateTime::currentMSecsSinceEpoch()};
    s.running = true;
    const ToolCall &c = s.call;
    // Ephemeral: session.status [R43]; durable: the run and the tool's events [R44].
    publish(s, QStringLiteral("session.status"), status(c.sessionID, "busy"), false);
    publish(s, QStringLiteral("session.execution.started"), {{"sessionID", c.sessionID}}, true);
    publish(s, QStringLiteral("session.tool.input.started"), with(toolData(c), {{"name", c.tool}}),
            true);
    publish(s, QStringLiteral("session.tool.called"),
            with(toolData(c), {{"input", QJsonObject{{"seconds", seconds}}}, {"executed", false}}),
            true);
    // A timer, not a sleep: the event loop keeps answering during the call, as opencode's.
    QTimer::singleShot(seconds * 1000, Qt::PreciseTimer, this,
                       [this, id = c.sessionID] { end(id, false); });
    return c;
}

bool Sessions::interrupt(const QString &sessionID) {
    if (!sessions_.contains(sessionID)) return false;
    end(sessionID, true);
    return true;
}

void Sessions::end(const QString &sessionID, bool interrupted) {
    const auto it = sessions_.find(sessionID);
    if (it == sessions_.end() || !it->running) return; // already ended
    Session &s = *it;
    s.running = false;
    const ToolCall &c = s.call;
    if (interrupted) {
        // error: Session.StructuredError {type, message, status?} [R62].
        publish(s, QStringLiteral("session.tool.failed"),
                with(toolData(c), {{"error", QJsonObject{{"type", "interrupted"},
                                                         {"message", "Tool call interrupted"}}},
                                   {"executed", false}}),
                true);
        publish(s, QStringLiteral("session.execution.interrupted"),
                {{"sessionID", c.sessionID}, {"reason", "user"}}, true);
    } else {
        const QString text = QStringLiteral("Stand-in tool ran for %1 s.").arg(c.seconds);
        publish(s, QStringLiteral("session.tool.success"),
                with(toolData(c),
                     {{"structured", QJsonObject{}},
                      {"content", QJsonArray{QJsonObject{{"type", "text"}, {"text", text}}}},
                      {"executed", false}}),
                true);
        publish(s, QStringLiteral("session.execution.succeeded"), {{"sessionID", c.sessionID}},
                true);
    }
    publish(s, QStringLiteral("session.status"), status(c.sessionID, "idle"), false);
}

QJsonObject Sessions::active() const {
    QJsonObject out;
    for (auto it = sessions_.cbegin(); it != sessions_.cend(); ++it)
        if (it->running) out.insert(it.key(), QJsonObject{{"type", "running"}});
    return out;
}

} // namespace tether::standin_v2
