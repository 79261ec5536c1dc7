// opencode 2.x's event stream (GET /api/event) and its catch-up answer, as the policy's
// activity events. Shapes from opencode's own source (docs/opencode2-protocol.md, Events and
// Sessions): every data line is {id, type, created (epoch ms), data, location?}; the stream
// also sends the comment ": heartbeat" every 15 s, which the SSE reader turns into Heartbeat.
#pragma once

#include "policy/activity.h"

#include <QByteArray>
#include <QStringList>
#include <optional>

namespace tether {

// One data line as the policy's event; empty for what is not a JSON event. Tool calls are
// keyed by data.callID; the pending event (session.tool.input.started) names the tool, the
// later ones may not. The SDK's older names (session.next.tool.*, data.tool) are read too.
// wallNowMs (epoch ms, default now) dates a call against the event's `created`.
std::optional<policy::ActivityEvent> parseActivityEventV2(const QByteArray &data,
                                                          qint64 wallNowMs = -1);

// GET /api/session/active: {data: {<sessionID>: {type: "running"}}}: the sessions at work.
QStringList parseActiveSessionsV2(const QByteArray &body);

} // namespace tether
