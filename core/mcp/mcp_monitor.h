// The Qt shell of the MCP side: on the probe cadence it asks the service for its MCP status
// and config, matches the service's descendants, keeps the ledger, watches each server's
// resources and exit, and publishes the rows. What a dead service left behind is its
// OrphanKeeper's (mcp/orphan_keeper.h), over the same ledger.
#pragma once

#include "mcp/ledger.h"
#include "mcp/matching.h"
#include "mcp/orphan_keeper.h"
#include "mcp/resource_watch.h"
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

    // The orphans: the launch scan, the cleanup verb and dialog, the launch offer.
    OrphanKeeper &orphans() { return *orphans_; }
    using CleanupSummary = OrphanKeeper::CleanupSummary;
    void scanOnLaunch() { orphans_->scanOnLaunch(); }
    bool takeLaunchOffer() { return orphans_->takeLaunchOffer(); }
    void cleanup(bool dryRun, const QList<qint64> &onlyPids, bool possibleConfirmed,
                 std::function<void(const CleanupSummary &)> done) {
        orphans_->cleanup(dryRun, onlyPids, possibleConfirmed, std::move(done));
    }

    const Ledger &ledger() const { return *ledger_; }

signals:
    void logLine(const QString &line);

private:
    void refresh(bool now = false); // now: an MCP process exited, do not wait for the cadence
    void onStatusBody(quint64 generation, const QByteArray &body);
    void readConfigFiles(const QString &directory);
    void publishRows(const std::vector<McpServerStatus> &servers);
    // Each MCP process shown is watched for its exit (the kernel tells, as for an adopted
    // service): its row changes at once, not at the next refresh.
    void watchExits(const std::vector<McpProcessTree> &trees);
    void onMcpExited(const os::Identity &id);
    void onServiceDied(const os::Identity &service, std::function<void()> done);
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
    std::unique_ptr<OrphanKeeper> orphans_; // over ledger_; refresh() waits while it sweeps
    qint64 lastRefreshMs_ = 0;
    ResourceWatch resources_;                  // per server: its CPU rate and memory trend
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
