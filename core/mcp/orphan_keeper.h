// The orphaned MCP processes, as Tether's Qt side keeps them: the launch scan, the sweep after
// a service died, and the cleanup a person or `tether cleanup` asks for, each run by
// core/supervision/orphan_cleanup on a worker thread, one at a time (the ledger belongs to one
// worker at a time), with what is found published in the Supervisor's status.
#pragma once

#include "mcp/ledger.h"
#include "mcp/sweeper.h"
#include "service/supervisor.h"

#include <QObject>
#include <QStringList>
#include <QTimer>
#include <deque>
#include <functional>
#include <utility>
#include <vector>

namespace tether::mcp {

class OrphanKeeper : public QObject {
    Q_OBJECT
public:
    using McpCommands = std::vector<std::vector<std::string>>;
    // commands: the configured MCP commands now; services: the service(s) that may run now.
    OrphanKeeper(Supervisor *supervisor, Ledger *ledger, std::function<McpCommands()> commands,
                 std::function<std::vector<os::Identity>()> services, QObject *parent = nullptr);
    ~OrphanKeeper() override;

    // Looks for orphans now (launch): publishes them, then acts per [orphans] onLaunch.
    void scanOnLaunch();
    // The launch scan found orphans to offer a person (policy::onLaunchOrphans), not offered
    // yet: true once, for the tray's orphan dialog.
    bool takeLaunchOffer() { return std::exchange(launchOffer_, false); }

    struct CleanupSummary {
        int killed = 0, exitedOnTerm = 0, alreadyGone = 0, refused = 0, unknown = 0;
        QStringList lines;    // one per process: "pid 123 (name): killed"
        QStringList notEnded; // why each refused or surviving process was not ended
        QList<OrphanStatus> found;
    };
    // `tether cleanup`, the orphan dialog, the launch clean: the scan and the sweep run on a
    // worker thread (the sweep waits out the grace period; probes go on meanwhile), and done()
    // is called back on this thread. onlyPids empty: every ledger orphan; possible orphans
    // only with confirmation.
    void cleanup(bool dryRun, const QList<qint64> &onlyPids, bool possibleConfirmed,
                 std::function<void(const CleanupSummary &)> done);
    // The service died: what it left, as [orphans] whileRunning says; done() once it is over.
    void sweepAfterDeath(const os::Identity &service, std::function<void()> done);
    // A sweep holds the ledger now: others leave it alone.
    bool busy() const { return sweeping_; }

signals:
    void logLine(const QString &line);

private:
    void runSweep(std::function<void()> work, std::function<void()> then);
    void startNextSweep();
    void publishOrphans(const std::vector<policy::Orphan> &orphans);
    // Drops the listed orphans that ended since (killed by someone else, or exited; a zombie
    // counts as ended): re-checked by identity on the probe cadence while any is listed.
    void dropEnded();

    Supervisor *sup_;
    Ledger *ledger_;
    std::function<McpCommands()> commands_;
    std::function<std::vector<os::Identity>()> services_;
    bool launchOffer_ = false;
    bool sweeping_ = false;
    struct SweepJob {
        std::function<void()> work; // on the worker thread
        std::function<void()> then; // back on this thread
    };
    std::deque<SweepJob> sweeps_;
    std::vector<os::Identity> listed_; // what publishOrphans() last put in the status
    QTimer recheck_;
};

} // namespace tether::mcp
