#include "service/port_doctor.h"

#include "os/process.h"

#include <QFileInfo>
#include <QHostAddress>
#include <QProcess>
#include <QTcpServer>

namespace tether {

policy::BindResult tryBindLoopback(quint16 port) {
    QTcpServer server;
    if (server.listen(QHostAddress::LocalHost, port)) return policy::BindResult::Ok;
    switch (server.serverError()) {
    case QAbstractSocket::AddressInUseError:
        return policy::BindResult::InUse;
    case QAbstractSocket::SocketAccessError: // WSAEACCES: an excluded range on Windows
        return policy::BindResult::AccessDenied;
    default:
        return policy::BindResult::Other;
    }
}

std::vector<policy::PortRange> excludedPortRanges() {
#ifdef Q_OS_WIN
    QProcess netsh;
    netsh.start(QStringLiteral("netsh"),
                {QStringLiteral("interface"), QStringLiteral("ipv4"), QStringLiteral("show"),
                 QStringLiteral("excludedportrange"), QStringLiteral("protocol=tcp")});
    if (!netsh.waitForFinished(3000)) {
        netsh.kill(); // our own child, just started: nothing else is signalled
        netsh.waitForFinished(1000);
        return {};
    }
    return policy::parseExcludedPortRanges(netsh.readAllStandardOutput().toStdString());
#else
    return {};
#endif
}

QString programName(qint64 pid) {
    const os::Lookup l = os::inspect(os::Pid(pid));
    if (l.status != os::Lookup::Status::Found) return {};
    const std::string &exe =
        l.info.executable.empty() && !l.info.argv.empty() ? l.info.argv.front() : l.info.executable;
    return QFileInfo(QString::fromStdString(exe)).fileName();
}

PortExamination examinePort(quint16 port, qint64 servicePid) {
    policy::PortFactsForDoctor f;
    f.port = port;
    f.servicePid = servicePid;
    const os::PortOwners owners = os::listeningPortOwners(port);
    f.tablesRead = owners.ok;
    f.listening = owners.listening;
    for (const os::PortListener &l : owners.listeners)
        f.holders.push_back({l.pid, l.pid > 0 ? programName(l.pid).toStdString() : std::string()});
    f.bind = tryBindLoopback(port);
    // netsh only when a bind is refused with nobody listening: it takes a moment to run.
    if (f.bind == policy::BindResult::AccessDenied) f.excluded = excludedPortRanges();
    PortExamination out;
    out.diagnosis = policy::diagnosePort(f);
    if (out.diagnosis.isCause) {
        // The bind itself refuses an excluded port: netsh is not needed to pick one.
        out.freePort = policy::pickFreePort(port, f.excluded, [](std::uint16_t p) {
            return tryBindLoopback(p) == policy::BindResult::Ok &&
                   !os::listeningPortOwners(p).listening;
        });
    }
    return out;
}

} // namespace tether
