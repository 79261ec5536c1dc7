// The client side of the control socket, for `tether <verb>` and second launches.
#pragma once

#include "control/control_protocol.h"

#include <QJsonObject>
#include <QLocalSocket>
#include <optional>

namespace tether::control {

struct Reply {
    enum class Status {
        Ok,
        Error,        // Tether answered with an error
        NotRunning,   // no control socket, or nobody listens on it
        NotAnswering, // a Tether holds the socket but did not answer in time
        NoAnswer,     // the connection broke, or the answer was unreadable
    } status = Status::NoAnswer;
    QJsonObject body;
    QString error;
};

Reply call(const Request &request, int timeoutMs = 10000);

// Pure: what a failed connect says. Only "no such socket" and "refused" mean nobody is there; a
// timeout means a listener that does not accept in time: some Tether, busy.
Reply::Status connectFailure(QLocalSocket::LocalSocketError error);
// With what the single-instance lock says (nullopt: unknown), which wins when it is known: held
// is a Tether that does not answer (5), free is none (4), whatever the socket said.
Reply::Status connectFailure(QLocalSocket::LocalSocketError error, std::optional<bool> locked);

} // namespace tether::control
