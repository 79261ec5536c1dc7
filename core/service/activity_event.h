// One event of the service's stream (opencode 1.x /global/event) as the policy's event: pure,
// for the stream's client (service/activity_monitor.h) and the fuzz target of the stream.
#pragma once

#include "policy/activity.h"

#include <QByteArray>
#include <optional>

namespace tether {

// One SSE event's data (opencode's envelope {directory?, payload: {type, properties}}) as the
// policy's event; empty for what is not JSON or not an event. Its `sync` copies are Other, or
// every change would count twice.
// wallNowMs (epoch ms, default now) dates a running tool part against its state.time.start.
std::optional<policy::ActivityEvent> parseActivityEvent(const QByteArray &data,
                                                        qint64 wallNowMs = -1);

} // namespace tether
