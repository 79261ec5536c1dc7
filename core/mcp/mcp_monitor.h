// The Qt shell of the MCP side: on the probe cadence it asks the service for its MCP status
// and config, matches the service's descendants, keeps the ledger, and publishes the rows; when
// the service dies it sweeps what it left behind; on launch it scans for orphans.
#pragma once

#include "mcp/ledger.h"
#include "mcp/matching.h"
#include "mcp/refresh_gate.h"
#include "mcp/sweeper.h"
#include "policy/resource_watch.h"
#include "service/exit_notifier.h"
#include "service/managed_registration.h"
#include "service/supervisor.h"

#include <QHash>
#include <QObject>
#include <deque>
#include <map>
#include <memory>
#include <utility>

namespace tether::mcp {

class McpMonitor : public QObject {
    Q_OBJECT
public:
    explicit McpMonitor(Supervisor *supervisor, QObject *parent = nullptr);
    ~McpMonitor() override;

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
    // is called back on this thread. onlyPids empty: every ledger/job orphan; possible orphans
    // only with confirmation.
    void cleanup(bool dryRun, const QList<qint64> &onlyPids, bool possibleConfirmed,
                 std::function<void(const CleanupSummary &)> done);

    const Ledger &ledger() const { return *ledger_; }

signals:
    void logLine(const QString &line);

private:
    bool launchOffer_ = false;
    void refresh(bool now = false); // now: an MCP process exited, do not wait for the cadence
    void onStatusBody(quint64 generation, const QByteArray &body);
    void readConfigFiles(const QString &directory);
    void publishRows(const std::vector<McpServerStatus> &servers);
    // Each MCP process shown is watched for its exit (the kernel tells, as for an adopted
    // service): its row changes at once, not at the next refresh.
    void watchExits(const std::vector<McpProcessTree> &trees);
    void onMcpExited(const os::Identity &id);
    struct Watched;
    // Feeds one child's sample to the resource watch; fills the row's trend; notifies on a rise.
    void watchRow(McpChildStatus &row, const McpProcessTree &tree, double cpuPercent, qint64 mono,
                  const policy::ResourceLimits &limits, QHash<qint64, Watched> &next);
    void onServiceDied(const os::Identity &service, std::function<void()> done);
    // The ledger belongs to one worker at a time: sweeps queue up behind each other, and
    // refresh() leaves the ledger alone while one runs.
    void runSweep(std::function<void()> work, std::function<void()> then);
    void startNextSweep();
    void publishOrphans(const std::vector<policy::Orphan> &orphans);
    std::vector<std::vector<std::string>> commandList() const;
    // The service(s) that may run now: what started after them is theirs (policy/orphans.h).
    std::vector<os::Identity> knownServices() const;
    void loadCommandCache();
    void saveCommandCache();

    Supervisor *sup_;
    std::unique_ptr<Ledger> ledger_;
    std::vector<McpCommand> commands_; // from the service's config (cached across launches)
    bool configFresh_ = false;         // fetched for the current service
    // opencode 2.x: the config files the commands were read from, as they were then.
    QString configDirectory_;
    std::vector<FileStamp> configStamps_;
    QByteArray configContent_;
    bool commandsUnsaved_ = false; // their cache file could not be written (a full disk)
    quint64 generation_ = 0;       // bumps with every new service
    RefreshGate refresh_;
    bool sweeping_ = false;
    struct SweepJob {
        std::function<void()> work; // on the worker thread
        std::function<void()> then; // back on this thread
    };
    std::deque<SweepJob> sweeps_;
    qint64 lastRefreshMs_ = 0;
    struct CpuSample {
        std::uint64_t cpuMs = 0;
        qint64 atMs = 0;
    };
    QHash<qint64, CpuSample> cpu_; // per root pid
    struct Watched {
        std::uint64_t startTime = 0; // the root's identity with its pid: a reused pid starts over
        policy::ResourceHistory history;
    };
    QHash<qint64, Watched> watch_;             // per root pid: the resource watch
    std::vector<McpServerStatus> lastServers_; // the service's last answer, for a re-publish
    struct ExitWatched {
        QString name;
        std::unique_ptr<ExitNotifier> notifier;
    };
    std::map<os::Pid, ExitWatched> exitWatches_;           // per root process shown in a row
    std::vector<std::pair<QString, os::Identity>> exited_; // seen, not yet re-published
    bool exitFallbackLogged_ = false; // "no exit notification" once per service
};

} // namespace tether::mcp
