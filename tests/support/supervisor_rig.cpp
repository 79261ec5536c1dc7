#include "supervisor_rig.h"

#include "service/registration.h"
#include "testsupport.h"

namespace tether::test {

Settings demoSettings(int port) {
    Settings s;
    s.profile = policy::Dialect::Demo;
    s.port = port;
    return s;
}

Settings shortTimings(int port, int backoffInitialMs, int backoffMaxMs) {
    Settings s = demoSettings(port);
    s.timings.probeIntervalMs = 100;
    s.timings.probeTimeoutMs = 250;
    s.timings.startupDeadlineMs = 8000;
    s.timings.windowMs = 1500;
    s.timings.graceMs = 500;
    s.timings.backoffInitialMs = backoffInitialMs;
    s.timings.backoffMaxMs = backoffMaxMs;
    return s;
}

void SupervisorRig::reset() {
    dataDir = std::make_unique<QTemporaryDir>();
    qputenv("TETHER_DATA_DIR", dataDir->path().toUtf8());
    log.clear();
}

Supervisor *SupervisorRig::make(const Settings &s, Mcp withMcp) {
    mcp.reset();
    const ProfileResolution r = resolveProfile(s, {}, tetherBin());
    Supervisor::Config c;
    c.settings = s;
    c.profile = r.profile;
    c.profileError = r.error;
    c.registrationPath = registrationPath();
    c.serviceLogPath = dataDir->filePath(QStringLiteral("service.log"));
    sup = std::make_unique<Supervisor>(c);
    // The supervisor is the connections' context: no line arrives after it is gone.
    QObject::connect(sup.get(), &Supervisor::logLine, sup.get(),
                     [this](const QString &l) { log << l; });
    if (withMcp == Mcp::Monitor) {
        mcp = std::make_unique<mcp::McpMonitor>(sup.get());
        QObject::connect(mcp.get(), &mcp::McpMonitor::logLine, mcp.get(),
                         [this](const QString &l) { log << l; });
    }
    return sup.get();
}

void SupervisorRig::drop() {
    mcp.reset();
    sup.reset();
}

bool SupervisorRig::logHas(const QString &text) const {
    return log.join(QLatin1Char('\n')).contains(text);
}

QString SupervisorRig::dump() const {
    const ServiceStatus &st = sup->status();
    QString head = QStringLiteral("state=%1 lastError=%2")
                       .arg(QLatin1String(policy::toString(st.state)), st.lastError);
    if (!st.failure.cause.isEmpty()) head += QStringLiteral(" cause=%1").arg(st.failure.cause);
    if (mcp) {
        QStringList rows;
        for (const McpChildStatus &r : st.mcp)
            rows << QStringLiteral("%1 %2 pid %3").arg(r.name, r.status).arg(r.pid);
        head += QStringLiteral(" mcp=[%1]").arg(rows.join(QStringLiteral(", ")));
    }
    return head + QLatin1Char('\n') + log.join(QLatin1Char('\n'));
}

} // namespace tether::test
