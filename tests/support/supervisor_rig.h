// The Supervisor fixture the integration suites share: a real Supervisor (optionally with its
// MCP monitor) on the demo service, with a private data dir and every log line collected.
// Its own library (tether-testsupervisor): suites that do not drive a Supervisor stay free of
// core/service and core/mcp.
#pragma once

#include "mcp/mcp_monitor.h"
#include "service/supervisor.h"
#include "settings/settings.h"

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace tether::test {

// The demo service on `port`, nothing else set: each suite adds its own timings.
Settings demoSettings(int port);

// The demo with the short timings of the recovery tests: probes every 100 ms (250 ms timeout),
// an 8 s start-up deadline, a 1.5 s recovery window, a 0.5 s stop grace. The back-off is the
// suite's own (20/40 ms to reach Failed fast, 50/400 ms to watch a restart): passed, not shared.
Settings shortTimings(int port, int backoffInitialMs, int backoffMaxMs);

struct SupervisorRig {
    std::unique_ptr<QTemporaryDir> dataDir; // TETHER_DATA_DIR; the service log is written here
    std::unique_ptr<Supervisor> sup;
    std::unique_ptr<mcp::McpMonitor> mcp; // declared after sup: destroyed before it
    QStringList log;                      // the supervisor's and the monitor's lines, in order

    enum class Mcp { None, Monitor };

    // Each test's init(): a fresh data dir that TETHER_DATA_DIR names, an empty log.
    void reset();
    // A Supervisor for `s`, its profile resolved against the tether under test, its service
    // log in the data dir; with Mcp::Monitor an McpMonitor on it. Replaces the previous ones.
    Supervisor *make(const Settings &s, Mcp withMcp = Mcp::None);
    // Destroys the monitor, then the supervisor it watches (a quit that leaves the service).
    void drop();

    policy::State state() const { return sup->status().state; }
    bool logHas(const QString &text) const;
    // What a failed wait prints: state, last error, failure cause, MCP rows, the whole log.
    QString dump() const;
};

} // namespace tether::test
