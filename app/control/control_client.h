// The client side of the control socket, for `tether <verb>` and second launches.
#pragma once

#include "control/control_protocol.h"

#include <QJsonObject>

namespace tether::control {

struct Reply {
    enum class Status { Ok, Error, NotRunning, NoAnswer } status = Status::NoAnswer;
    QJsonObject body;
    QString error;
};

Reply call(const Request &request, int timeoutMs = 10000);

} // namespace tether::control
