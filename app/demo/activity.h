// The demo service's sessions and tool calls: what `--busy-tool` and POST /demo/tool-call
// start, reported on /global/event and /session/status the way opencode 1.x reports them.
#pragma once

#include "demo/activity_events.h"

#include <QList>
#include <QObject>
#include <QStringList>

namespace tether::demo {

class EventStream;

class DemoActivity : public QObject {
public:
    explicit DemoActivity(EventStream &events, QObject *parent = nullptr);

    // A new session in `directory` runs `tool` for `seconds`: session.status busy, the tool
    // part pending then running; at the end completed, session.status idle, session.idle.
    DemoToolCall startToolCall(const QString &directory, const QString &tool, int seconds);

    QStringList busySessions(const QString &directory) const;
    const QList<DemoToolCall> &running() const { return running_; }
    const QList<DemoToolCall> &finished() const { return finished_; }
    // The call of a session, running or among the last kKeptFinished; nullptr if unknown.
    const DemoToolCall *find(const QString &sessionId) const;

    static constexpr int kKeptFinished = 100; // bounded: a long test run starts many

private:
    void finish(const QString &partId);

    EventStream &events_;
    int counter_ = 0;
    QList<DemoToolCall> running_;
    QList<DemoToolCall> finished_;
};

} // namespace tether::demo
