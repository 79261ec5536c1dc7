// The stand-in's sessions: a tool call a test starts runs for some seconds, reported on
// /api/event as opencode 2.x reports a session's run and its tool [R43] [R44], listed by
// /api/session/active while it runs, and ended early by an interrupt.
#pragma once

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QStringList>

namespace tether::demo {
class EventStream;
}

namespace tether::standin_v2 {

struct ToolCall {
    QString sessionID;
    QString assistantMessageID;
    QString callID;
    QString tool;
    QString directory;
    int seconds = 0;
    qint64 startMs = 0; // the `created` of its session.tool.input.started
};

class Sessions : public QObject {
public:
    explicit Sessions(demo::EventStream &events, QObject *parent = nullptr);

    // A new session in `directory` runs `tool` for `seconds`: session.status busy,
    // session.execution.started, session.tool.input.started, session.tool.called; at the end
    // session.tool.success, session.execution.succeeded, session.status idle.
    ToolCall startToolCall(const QString &directory, const QString &tool, int seconds);

    // Ends the session's running call: session.tool.failed, session.execution.interrupted
    // (reason user), session.status idle. False for a session this service never had.
    bool interrupt(const QString &sessionID);

    // {<sessionID>: {type:"running"}} for every session with a call under way [R43] [SDK:2229].
    QJsonObject active() const;

    static constexpr int kKeptSessions = 1000; // ended ones beyond are forgotten

private:
    struct Session {
        ToolCall call;
        bool running = false;
        int seq = 0; // the next durable sequence number of its events
    };
    void publish(Session &s, const QString &type, const QJsonObject &data, bool durable);
    void end(const QString &sessionID, bool interrupted);

    demo::EventStream &events_;
    int counter_ = 0;
    QHash<QString, Session> sessions_;
};

} // namespace tether::standin_v2
