// Why the service failed, as the status shows it (FailureStatus): the machine's reason, how the
// last process ended and what it wrote, the restart budget Tether spent, and the port doctor's
// look at who holds the port. Built once when the machine enters Failed (Supervisor).
#pragma once

#include "policy/failure.h"
#include "policy/recovery.h"
#include "service/status.h"

#include <QString>
#include <optional>
#include <string>

namespace tether {

struct FailureInputs {
    std::string reason;                    // the machine's failure
    std::optional<policy::ExitFacts> exit; // how our last child ended, since the last start
    bool exitOurs = false;                 // ... because Tether's own stop ended it
    QString serviceLogPath;                // the service's stdout and stderr
    qint64 logOffset = 0;                  // where its last run began in that file
    policy::FixFirst fix = policy::FixFirst::Nothing;
    QString program;
    int failedStarts = 0; // the restart budget's failures
    policy::Timings timings;
    int launchPort = 0;         // the port a launch takes (0: unknown)
    quint16 configuredPort = 0; // [service] port
    bool offerFreePort = true;  // [service] port moves the service (not opencode 2.x's own)
    bool examinePort = true;    // the port doctor looks at the OS (not in a rig's world)
};

FailureStatus failureReport(const FailureInputs &in);

} // namespace tether
