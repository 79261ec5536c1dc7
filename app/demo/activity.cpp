#include "demo/activity.h"

#include "demo/common/event_stream.h"

#include <QDateTime>
#include <QTimer>

namespace tether::demo {

DemoActivity::DemoActivity(EventStream &events, QObject *parent)
    : QObject(parent)
    , events_(events) {
}

DemoToolCall DemoActivity::startToolCall(const QString &directory, const QString &tool,
                                         int seconds) {
    ++counter_;
    const QString n = QString::number(counter_);
    DemoToolCall call;
    call.directory = directory;
    call.sessionId = QStringLiteral("ses_demo") + n;
    call.messageId = QStringLiteral("msg_demo") + n;
    call.partId = QStringLiteral("prt_demo") + n;
    call.callId = QStringLiteral("call_demo_") + n;
    call.tool = tool;
    call.seconds = seconds;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    call.startMs = now;
    running_.append(call);
    events_.publish(sessionStatusEvent(events_.nextEventId(), directory, call.sessionId, true));
    events_.publish(toolPartEvent(events_.nextEventId(), call, ToolState::Pending, now));
    events_.publish(toolPartEvent(events_.nextEventId(), call, ToolState::Running, now));
    // A timer, not a sleep: the event loop (health, heartbeats) keeps running during the call,
    // as opencode's does; a frozen or busy-blocked process delays the end with everything else.
    // Precise: a coarse timer ends a 2 s call up to 5 % early.
    QTimer::singleShot(seconds * 1000, Qt::PreciseTimer, this,
                       [this, id = call.partId] { finish(id); });
    return call;
}

void DemoActivity::finish(const QString &partId) {
    for (qsizetype i = 0; i < running_.size(); ++i) {
        if (running_[i].partId != partId) continue;
        DemoToolCall call = running_.takeAt(i);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        call.endMs = now;
        finished_.append(call);
        if (finished_.size() > kKeptFinished) finished_.removeFirst();
        events_.publish(toolPartEvent(events_.nextEventId(), call, ToolState::Completed, now));
        events_.publish(
            sessionStatusEvent(events_.nextEventId(), call.directory, call.sessionId, false));
        events_.publish(sessionIdleEvent(events_.nextEventId(), call.directory, call.sessionId));
        return;
    }
}

const DemoToolCall *DemoActivity::find(const QString &sessionId) const {
    for (const QList<DemoToolCall> *list : {&running_, &finished_})
        for (const DemoToolCall &call : *list)
            if (call.sessionId == sessionId) return &call;
    return nullptr;
}

QStringList DemoActivity::busySessions(const QString &directory) const {
    QStringList ids;
    for (const DemoToolCall &call : running_)
        if (call.directory == directory) ids << call.sessionId;
    return ids;
}

} // namespace tether::demo
