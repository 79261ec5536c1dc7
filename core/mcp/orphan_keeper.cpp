#include "mcp/orphan_keeper.h"

#include "policy/notice.h"
#include "os/process.h"
#include "policy/orphan_mode.h"
#include "supervision/os_process_table.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QThread>
#include <algorithm>

namespace tether::mcp {

namespace {

OrphanStatus toStatus(const policy::Orphan &o, const std::vector<LedgerEntry> &ledger) {
    OrphanStatus s;
    s.pid = o.process.pid;
    for (const std::string &a : o.process.argv)
        s.argv << QString::fromStdString(a);
    s.kind = QString::fromLatin1(policy::toString(o.kind));
    s.rssKiB = o.process.rssKiB;
    for (const LedgerEntry &e : ledger)
        if (e.process.pid == o.process.pid && e.process.startTime == o.process.startTime)
            s.ageMs = std::max<qint64>(0, QDateTime::currentMSecsSinceEpoch() - e.firstSeenMs);
    // The OS's own start, where it says: the age of a possible orphan too.
    if (const std::int64_t osAge = os::ageMs(o.process.startTime); osAge >= 0) s.ageMs = osAge;
    s.startedAt = QDateTime::fromMSecsSinceEpoch(QDateTime::currentMSecsSinceEpoch() - s.ageMs);
    return s;
}

} // namespace

OrphanKeeper::OrphanKeeper(Supervisor *supervisor, Ledger *ledger,
                           std::function<McpCommands()> commands,
                           std::function<std::vector<os::Identity>()> services, QObject *parent)
    : QObject(parent)
    , sup_(supervisor)
    , ledger_(ledger)
    , commands_(std::move(commands))
    , services_(std::move(services)) {
    recheck_.setTimerType(Qt::CoarseTimer);
    connect(&recheck_, &QTimer::timeout, this, &OrphanKeeper::dropEnded);
}

OrphanKeeper::~OrphanKeeper() {
    for (QThread *t : findChildren<QThread *>())
        t->wait();
}

// ---- When the service dies --------------------------------------------------------------------

void OrphanKeeper::sweepAfterDeath(const os::Identity &service, std::function<void()> done) {
    const Settings &s = sup_->config().settings;
    if (s.orphansWhileRunning == policy::OrphanMode::Ignore) {
        done();
        return;
    }
    const bool clean = s.orphansWhileRunning == policy::OrphanMode::Clean;
    // The service's own group is the stop plan's (core/supervision/stop_plan): this is what
    // left the group, from the ledger, as core/supervision/orphan_cleanup.h decides it.
    struct Outcome {
        CleanupResult result;
        QElapsedTimer timer;
    };
    auto outcome = std::make_shared<Outcome>();
    outcome->timer.start();
    Ledger *ledger = ledger_;
    const auto commands = commands_();
    const SweepConfig config{std::chrono::milliseconds(s.orphanGraceMs),
                             std::chrono::milliseconds(2000)};
    const std::vector<os::Identity> services = services_();
    const policy::OrphanMode mode = s.orphansWhileRunning;
    runSweep(
        [=] {
            LedgerFileStore store(*ledger);
            supervision::OsProcessTable table;
            outcome->result =
                supervision::sweepAfterCrash(mode, store, commands, services, config, table).result;
        },
        [this, outcome, service, clean, done] {
            const SweepReport &report = outcome->result.report;
            if (clean) {
                const int removed = report.count(os::TerminateOutcome::Killed) +
                                    report.count(os::TerminateOutcome::ExitedOnTerm);
                emit logLine(QStringLiteral("service pid %1 ended: %2 orphaned MCP process(es) "
                                            "outside its group removed in %3 ms")
                                 .arg(service.pid)
                                 .arg(removed)
                                 .arg(outcome->timer.elapsed()));
                for (const SweepResult &r : report.results)
                    if (r.outcome == os::TerminateOutcome::Refused ||
                        r.outcome == os::TerminateOutcome::Unknown)
                        emit logLine(QStringLiteral("  pid %1: %2 (%3)")
                                         .arg(r.target.id.pid)
                                         .arg(QLatin1String(os::toString(r.outcome)),
                                              QString::fromStdString(r.detail)));
                // What it kept (a possible orphan waits for a person's yes) stays listed.
                const std::vector<os::Identity> gone = report.gone();
                std::vector<policy::Orphan> kept;
                for (const policy::Orphan &o : outcome->result.scan.orphans)
                    if (std::find(gone.begin(), gone.end(),
                                  os::Identity{o.process.pid, o.process.startTime}) == gone.end())
                        kept.push_back(o);
                publishOrphans(kept);
            } else {
                publishOrphans(outcome->result.scan.orphans);
                if (!outcome->result.scan.orphans.empty())
                    emit sup_->notice(policy::NoticeKind::OrphansFound,
                                      QStringLiteral("The service left %1 running.")
                                          .arg(QString::fromStdString(policy::countOf(
                                              qint64(outcome->result.scan.orphans.size()),
                                              "MCP process", "MCP processes"))));
            }
            done();
        });
}

void OrphanKeeper::runSweep(std::function<void()> work, std::function<void()> then) {
    sweeps_.push_back({std::move(work), std::move(then)});
    if (!sweeping_) startNextSweep();
}

void OrphanKeeper::startNextSweep() {
    if (sweeps_.empty()) {
        sweeping_ = false;
        return;
    }
    SweepJob job = std::move(sweeps_.front());
    sweeps_.pop_front();
    sweeping_ = true;
    QThread *worker = QThread::create(std::move(job.work));
    worker->setParent(this);
    connect(worker, &QThread::finished, this, [this, worker, then = std::move(job.then)] {
        worker->deleteLater();
        then();
        startNextSweep();
    });
    worker->start();
}

void OrphanKeeper::publishOrphans(const std::vector<policy::Orphan> &orphans) {
    QList<OrphanStatus> list;
    listed_.clear();
    for (const policy::Orphan &o : orphans) {
        list << toStatus(o, ledger_->entries());
        listed_.push_back({o.process.pid, o.process.startTime});
    }
    sup_->setOrphans(list);
    if (listed_.empty()) {
        recheck_.stop();
        return;
    }
    // The probe cadence: a person sees an orphan that ended as soon as a probe would notice.
    recheck_.start(
        int(std::clamp<qint64>(sup_->config().settings.timings.probeIntervalMs, 100, 5000)));
}

void OrphanKeeper::dropEnded() {
    QList<OrphanStatus> list = sup_->status().orphans;
    std::vector<os::Identity> still;
    bool dropped = false;
    for (const os::Identity &id : listed_) {
        // Only a positive "gone" drops it: a look-up that failed keeps it listed.
        if (os::alive(id) == os::Liveness::Gone) {
            dropped = true;
            list.erase(std::remove_if(list.begin(), list.end(),
                                      [&id](const OrphanStatus &o) { return o.pid == id.pid; }),
                       list.end());
            emit logLine(
                QStringLiteral("orphaned MCP process pid %1 ended outside Tether").arg(id.pid));
        } else {
            still.push_back(id);
        }
    }
    listed_ = std::move(still);
    if (listed_.empty()) recheck_.stop();
    if (dropped) sup_->setOrphans(list);
}

// ---- On launch and on request ---------------------------------------------------------------

void OrphanKeeper::scanOnLaunch() {
    const policy::OrphanMode mode = sup_->config().settings.orphansOnLaunch;
    if (mode == policy::OrphanMode::Ignore) return;
    const ScanResult r = scan(*ledger_, commands_(), services_());
    emit logLine(QStringLiteral("launch scan: %1 orphan(s) among %2 processes in %3 ms")
                     .arg(r.orphans.size())
                     .arg(r.snapshot.size())
                     .arg(r.elapsedMs));
    switch (policy::onLaunchOrphans(mode, !r.orphans.empty())) {
    case policy::LaunchOrphans::Nothing:
        return;
    case policy::LaunchOrphans::Clean:
        cleanup(false, {}, false, [this](const CleanupSummary &summary) {
            for (const QString &line : summary.lines)
                emit logLine(line);
        });
        return;
    case policy::LaunchOrphans::Offer:
        break;
    }
    publishOrphans(r.orphans);
    launchOffer_ = true;
    emit sup_->notice(policy::NoticeKind::OrphansFound,
                      QStringLiteral("%1 from an earlier run still running.")
                          .arg(QString::fromStdString(policy::countOf(
                              qint64(r.orphans.size()), "MCP process is", "MCP processes are"))));
}

namespace {

QString describeSweep(const SweepResult &r) {
    const std::string &name =
        r.target.name.empty() && !r.target.argv.empty() ? r.target.argv.front() : r.target.name;
    return QStringLiteral("pid %1 (%2): %3%4")
        .arg(r.target.id.pid)
        .arg(QString::fromStdString(name), QLatin1String(os::toString(r.outcome)))
        .arg(r.detail.empty() ? QString()
                              : QStringLiteral(" (%1)").arg(QString::fromStdString(r.detail)));
}

} // namespace

void OrphanKeeper::cleanup(bool dryRun, const QList<qint64> &onlyPids, bool possibleConfirmed,
                           std::function<void(const CleanupSummary &)> done) {
    auto job = std::make_shared<supervision::ListedCleanup>();
    Ledger *ledger = ledger_;
    const auto commands = commands_();
    const std::vector<os::Identity> services = services_();
    const SweepConfig config{std::chrono::milliseconds(sup_->config().settings.orphanGraceMs),
                             std::chrono::milliseconds(2000)};
    std::vector<os::Pid> listed;
    for (qint64 pid : onlyPids)
        listed.push_back(pid);
    runSweep(
        [=] {
            LedgerFileStore store(*ledger);
            supervision::OsProcessTable table;
            *job = supervision::cleanupListed(store, commands, services, listed, possibleConfirmed,
                                              dryRun, config, table);
        },
        [this, job, dryRun, possibleConfirmed, done] {
            CleanupSummary out;
            for (const policy::Orphan &o : job->found.orphans)
                out.found << toStatus(o, job->entries);
            if (dryRun) {
                for (const OrphanStatus &o : out.found)
                    out.lines << QStringLiteral("pid %1 (%2): would be removed%3")
                                     .arg(o.pid)
                                     .arg(o.argv.join(QLatin1Char(' ')).left(120))
                                     .arg(o.kind == QLatin1String("possible")
                                              ? QStringLiteral(" after confirmation")
                                              : QString());
                done(out);
                return;
            }
            for (const SweepResult &r : job->report.results) {
                switch (r.outcome) {
                case os::TerminateOutcome::Killed:
                    ++out.killed;
                    break;
                case os::TerminateOutcome::ExitedOnTerm:
                    ++out.exitedOnTerm;
                    break;
                case os::TerminateOutcome::AlreadyGone:
                    ++out.alreadyGone;
                    break;
                case os::TerminateOutcome::Refused:
                    ++out.refused;
                    break;
                case os::TerminateOutcome::Unknown:
                    ++out.unknown;
                    break;
                }
                if (r.outcome == os::TerminateOutcome::Refused ||
                    r.outcome == os::TerminateOutcome::Unknown)
                    out.notEnded << (r.detail.empty() ? QString::fromLatin1(os::toString(r.outcome))
                                                      : QString::fromStdString(r.detail));
                out.lines << describeSweep(r);
            }
            // Listed, never killed without a person's yes: say so, and how to give it.
            if (!possibleConfirmed)
                for (const OrphanStatus &o : out.found)
                    if (o.kind == QLatin1String("possible"))
                        out.lines << QStringLiteral("pid %1 (%2): possible orphan (its command "
                                                    "matches, its parent is gone): kept; "
                                                    "`tether cleanup --yes` removes it")
                                         .arg(o.pid)
                                         .arg(o.argv.join(QLatin1Char(' ')).left(120));
            publishOrphans(job->after.orphans);
            done(out);
        });
}

} // namespace tether::mcp
