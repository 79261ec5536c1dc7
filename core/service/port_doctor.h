// The port doctor's eyes: who listens on the service's port, whether a loopback bind works,
// and (Windows) which ranges Hyper-V/WSL exclude. policy/port_doctor.h decides what it means.
#pragma once

#include "policy/port_doctor.h"

#include <QString>
#include <QtGlobal>

namespace tether {

// A bind on 127.0.0.1:port, closed at once.
policy::BindResult tryBindLoopback(quint16 port);
// Windows: `netsh interface ipv4 show excludedportrange protocol=tcp`, parsed (bounded by a
// 3 s timeout); empty elsewhere or when netsh cannot be run.
std::vector<policy::PortRange> excludedPortRanges();
// "python3" for a pid: the executable's file name, else argv[0]'s; empty when unreadable.
QString programName(qint64 pid);

struct PortExamination {
    policy::PortDiagnosis diagnosis;
    quint16 freePort = 0; // a port a bind works on now, not excluded: the offer; 0 = none
};
// Looks now. servicePid: the service's own pid (0 when none runs), which is no fault.
PortExamination examinePort(quint16 port, qint64 servicePid);

} // namespace tether
