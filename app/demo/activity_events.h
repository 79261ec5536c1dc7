// The opencode 1.x /global/event wire format, as measured on 1.18.33 (see
// /work/prompts/opencode-events.md): one `data: <one-line JSON>` per event, each an envelope
// {"directory", "project", "payload": {"id", "type", "properties"}}. Pure functions.
#pragma once

#include "demo/common/event_stream.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace tether::demo {

inline constexpr int kMaxToolCallSeconds = 24 * 3600; // a day: a typo, not a test, beyond

// One demo tool call, the part opencode reports in message.part.updated.
struct DemoToolCall {
    QString directory;
    QString sessionId; // ses_...
    QString messageId; // msg_...
    QString partId;    // prt_...
    QString callId;
    QString tool;
    int seconds = 0;
    qint64 startMs = 0; // epoch ms when it went running
    qint64 endMs = 0;   // epoch ms when it completed; 0 while it runs
};

enum class ToolState { Pending, Running, Completed };

// Events without a directory (server.connected, server.heartbeat).
QJsonObject globalEvent(const QString &id, const QString &type);
// GET /global/event: server.connected first, a server.heartbeat event every period.
StreamFraming opencode1StreamFraming();
// Events of one directory's session.
QJsonObject sessionStatusEvent(const QString &id, const QString &directory,
                               const QString &sessionId, bool busy);
QJsonObject sessionIdleEvent(const QString &id, const QString &directory, const QString &sessionId);
// The tool part itself, as in the event and in GET /session/{id}/message.
QJsonObject toolPart(const DemoToolCall &call, ToolState state);
QJsonObject toolPartEvent(const QString &id, const DemoToolCall &call, ToolState state,
                          qint64 nowMs);
// GET /session/{id}/message: the assistant message holding the call's tool part.
QJsonArray sessionMessagesBody(const DemoToolCall &call);

// GET /session: one session per call given, as opencode lists them (id, directory, time),
// the most recently updated first.
QJsonArray sessionListBody(const QList<DemoToolCall> &calls);

// GET /session/status?directory=D for the busy sessions given: {"ses_...": {"type": "busy"}}.
QJsonObject sessionStatusBody(const QStringList &busySessionIds);

} // namespace tether::demo
