#include "mcp/mcp_monitor.h"

#include "mcp/opencode_config.h"
#include "policy/notice.h"
#include "service/managed_registration.h"
#include "service/registration.h"
#include "settings/storage.h"

#include <QDateTime>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QThread>
#include <QTimer>
#include <algorithm>

namespace tether::mcp {

namespace {

QStringList toQt(const std::vector<std::string> &v) {
    QStringList out;
    for (const std::string &s : v)
        out << QString::fromStdString(s);
    return out;
}

QString cachePath() {
    return storage::dataPath(QStringLiteral("mcp-commands.json"));
}

} // namespace

McpMonitor::McpMonitor(Supervisor *supervisor, QObject *parent)
    : QObject(parent)
    , sup_(supervisor)
    , ledger_(std::make_unique<Ledger>()) {
    if (!ledger_->load()) {
        // Said once whoever made us has connected (issue 25 a: it went to nobody): what it
        // named can now only be found as possible orphans, and a person should know why.
        QMetaObject::invokeMethod(
            this,
            [this, error = ledger_->error()] {
                emit logLine(QStringLiteral("mcp ledger: %1; the MCP processes it named can "
                                            "only be found as possible orphans now")
                                 .arg(error));
            },
            Qt::QueuedConnection);
    }
    orphans_ = std::make_unique<OrphanKeeper>(
        sup_, ledger_.get(), [this] { return commandList(); }, [this] { return knownServices(); });
    connect(orphans_.get(), &OrphanKeeper::logLine, this, &McpMonitor::logLine);
    loadCommandCache();
    connect(sup_, &Supervisor::serviceStarted, this, [this] {
        ++generation_;
        configFresh_ = false;
        resources_.clear();
        lastServers_.clear();
        exitWatches_.clear();
        exited_.clear();
        exitFallbackLogged_ = false;
    });
    // Another service (settings): what was read from the old one's config is not its own. The
    // command cache stays: the old service's orphans are still matched by it.
    connect(sup_, &Supervisor::settingsApplied, this, [this](bool service) {
        if (!service) return;
        ++generation_;
        configFresh_ = false;
        configDirectory_.clear();
        configStamps_.clear();
        configContent_.clear();
        lastServers_.clear();
    });
    connect(sup_, &Supervisor::probed, this, [this](const ProbeSample &p) {
        if (p.healthy) refresh();
    });
    sup_->setCrashCleanup([this](const os::Identity &service, std::function<void()> done) {
        onServiceDied(service, std::move(done));
    });
}

McpMonitor::~McpMonitor() {
    for (QThread *t : findChildren<QThread *>())
        t->wait();
    sup_->setCrashCleanup({}); // the Supervisor may outlive us: no call into a dead monitor
}

std::vector<std::vector<std::string>> McpMonitor::commandList() const {
    std::vector<std::vector<std::string>> out;
    for (const McpCommand &c : commands_)
        out.push_back(c.command);
    return out;
}

std::vector<os::Identity> McpMonitor::knownServices() const {
    if (const auto tracked = sup_->serviceIdentity()) return {*tracked};
    // No Tether tracks one (a one-shot `tether cleanup`): the one its registration names.
    const RegistrationRead r = readRegistration(sup_->config().registrationPath);
    if (r.status != RegistrationRead::Status::Ok) return {};
    return {os::Identity{r.registration.pid, r.registration.startTime}};
}

void McpMonitor::loadCommandCache() {
    QByteArray bytes;
    if (storage::readSmallFile(cachePath(), 1024 * 1024, &bytes, nullptr) !=
        storage::ReadStatus::Ok)
        return;
    const ConfigParse parsed = parseConfig(bytes);
    if (parsed.ok) commands_ = localCommands(parsed.entries);
}

void McpMonitor::saveCommandCache() {
    QJsonObject mcp;
    for (const McpCommand &c : commands_)
        mcp.insert(
            QString::fromStdString(c.name),
            QJsonObject{{QStringLiteral("type"), QStringLiteral("local")},
                        {QStringLiteral("command"), QJsonArray::fromStringList(toQt(c.command))}});
    QString error; // reported by storage's write observer
    commandsUnsaved_ = !storage::writePrivateFile(
        cachePath(), QJsonDocument(QJsonObject{{QStringLiteral("mcp"), mcp}}).toJson(), &error);
}

// ---- While the service runs -----------------------------------------------------------------

void McpMonitor::refresh(bool now) {
    const Profile &profile = sup_->config().profile;
    const qint64 interval = sup_->config().settings.timings.probeIntervalMs;
    // On the probe cadence, never faster (start-up probing is quicker than that).
    // Monotonic: a wall clock set back an hour must not pause the refresh for an hour.
    const qint64 clock = sup_->config().clock();
    if (refresh_.busy() || orphans_->busy() || profile.mcpStatusPath.isEmpty() ||
        (!now && lastRefreshMs_ && clock - lastRefreshMs_ < interval * 9 / 10))
        return;
    const std::uint64_t token = *refresh_.begin();
    lastRefreshMs_ = clock;
    if (commandsUnsaved_) saveCommandCache(); // a full disk kept it out: again, once there is room
    const quint64 generation = generation_;
    auto get = [this](const QString &path, std::function<void(const HttpResult &)> done) {
        HttpCall call;
        call.url = sup_->baseUrl().resolved(QUrl(path.mid(1)));
        call.authorization = sup_->authorization();
        call.timeoutMs = int(sup_->config().settings.timings.probeTimeoutMs) + 1000;
        call.maxBodyBytes = 1024 * 1024;
        sendHttp(call, this, std::move(done));
    };
    auto afterConfig = [this, token, generation, get, profile] {
        get(profile.mcpStatusPath, [this, token, generation](const HttpResult &r) {
            if (!refresh_.end(token)) return; // abandoned: a newer refresh owns the gate
            if (generation != generation_ || !r.transportOk || r.status != 200) return;
            onStatusBody(generation, r.body);
        });
    };
    if (configFresh_ || profile.configPath.isEmpty()) {
        afterConfig();
        return;
    }
    get(profile.configPath, [this, token, generation, afterConfig](const HttpResult &r) {
        if (!refresh_.current(token)) return; // abandoned while it was asked
        if (generation != generation_) {
            refresh_.end(token);
            return;
        }
        if (r.transportOk && r.status == 200) {
            const ConfigParse parsed = parseConfig(r.body);
            if (parsed.ok) {
                commands_ = localCommands(parsed.entries);
                configFresh_ = true;
                saveCommandCache();
            } else {
                emit logLine(QStringLiteral("mcp config unreadable: %1")
                                 .arg(QString::fromStdString(parsed.error)));
            }
        }
        afterConfig();
    });
}

// opencode 2.x: the commands are in its config files for the location the list is for.
// Re-read only when a file changed: this runs on the probe cadence.
void McpMonitor::readConfigFiles(const QString &directory) {
    const OpencodeConfigEnvironment env = opencodeConfigEnvironment();
    std::vector<FileStamp> stamps;
    for (const QString &file : opencodeConfigFiles(env, directory))
        stamps.push_back(stampOf(file));
    if (configFresh_ && directory == configDirectory_ && stamps == configStamps_ &&
        env.content == configContent_)
        return;
    const OpencodeMcpConfig config = readOpencodeMcpConfig(env, directory);
    for (const std::string &w : config.warnings)
        emit logLine(QStringLiteral("mcp config: %1").arg(QString::fromStdString(w)));
    commands_ = localCommands(config.entries);
    configFresh_ = true;
    configDirectory_ = directory;
    configStamps_ = std::move(stamps);
    configContent_ = env.content;
    saveCommandCache();
}

void McpMonitor::onStatusBody(quint64 generation, const QByteArray &body) {
    if (generation != generation_) return;
    const bool v2 = sup_->config().profile.dialect == policy::Dialect::Opencode2;
    const StatusParse parsed = v2 ? parseStatusV2(body) : parseStatusV1(body);
    if (!parsed.ok) {
        emit logLine(
            QStringLiteral("mcp status unreadable: %1").arg(QString::fromStdString(parsed.error)));
        return;
    }
    if (sup_->config().profile.mcpCommandsFromConfigFiles)
        readConfigFiles(QString::fromStdString(parsed.directory));
    publishRows(parsed.servers);
}

void McpMonitor::publishRows(const std::vector<McpServerStatus> &servers) {
    const auto service = sup_->serviceIdentity();
    if (!service || orphans_->busy()) return; // a sweep holds the ledger: the next refresh will do
    if (&servers != &lastServers_) lastServers_ = servers;

    // Only the service's subtree: the probe cadence must stay cheap (a full snapshot is not).
    const std::vector<os::ProcessInfo> snap = os::snapshotTree(service->pid);
    const std::vector<McpProcessTree> trees = matchMcpProcesses(service->pid, snap, commands_);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (ledger_->record(observedChildren(*service, trees, snap, now)) &&
        !ledger_->error().isEmpty())
        emit logLine(QStringLiteral("mcp ledger: %1").arg(ledger_->error()));
    // Children of this service that exited drop out; entries of earlier services wait for a
    // scan (they may be orphans a person has not decided on yet).
    // Hundreds of MCP servers at the field's worst: one index, no pass over the tree per entry.
    QHash<qint64, std::uint64_t> liveInTree; // pid -> start time
    liveInTree.reserve(qsizetype(snap.size()));
    for (const os::ProcessInfo &p : snap)
        if (p.state != os::RunState::Zombie) liveInTree.insert(p.pid, p.startTime);
    std::vector<os::Identity> exited;
    for (const LedgerEntry &e : ledger_->entries()) {
        if (!(e.service == *service)) continue;
        const auto it = liveInTree.constFind(e.process.pid);
        const bool inTree = it != liveInTree.constEnd() && *it == e.process.startTime;
        if (!inTree && os::alive(e.process) == os::Liveness::Gone) exited.push_back(e.process);
    }
    ledger_->remove(exited);
    QHash<qint64, const LedgerEntry *> known; // pid -> its entry, for the rows' uptime
    known.reserve(qsizetype(ledger_->entries().size()));
    for (const LedgerEntry &e : ledger_->entries())
        known.insert(e.process.pid, &e);

    QList<McpChildStatus> rows;
    QHash<QString, qsizetype> rowIndex;
    auto rowFor = [&](const std::string &name) -> McpChildStatus & {
        const QString n = QString::fromStdString(name);
        if (const auto it = rowIndex.constFind(n); it != rowIndex.constEnd()) return rows[*it];
        rowIndex.insert(n, rows.size());
        rows.append(McpChildStatus{});
        rows.last().name = n;
        rows.last().status = QString::fromLatin1(status::Unknown);
        return rows.last();
    };
    for (const McpServerStatus &s : servers) {
        McpChildStatus &row = rowFor(s.name);
        row.status = QString::fromStdString(s.status);
        row.error = QString::fromStdString(s.error);
    }
    const qint64 mono = sup_->config().clock(); // CPU rates and trends: never the wall clock
    const Settings &settings = sup_->config().settings;
    const policy::ResourceLimits limits =
        policy::resourceLimits(settings.memoryWarnMiB, settings.cpuBusyMinutes);
    resources_.begin();
    for (const McpProcessTree &t : trees) {
        if (t.rootPid == 0) continue;
        McpChildStatus &row = rowFor(t.name);
        row.pid = t.rootPid;
        row.rssKiB = t.rssKiB;
        // Its age by the OS: one first seen late (a new ledger, an adopted service) has still
        // run since its start; the ledger's first sighting where the OS cannot tell.
        std::optional<qint64> age;
        if (const std::int64_t osAge = os::ageMs(t.rootStartTime); osAge >= 0)
            age = osAge;
        else if (const LedgerEntry *e = known.value(t.rootPid);
                 e && e->process.startTime == t.rootStartTime)
            age = std::max<qint64>(0, now - e->firstSeenMs);
        if (age) { // a server started this very millisecond has an age too
            row.uptimeMs = *age;
            row.startedAtMs = mono - *age;
        }
        if (resources_.sample(row, t, mono, limits)) {
            // Only a person restarts it: a leaking tool may be mid-call on something they care
            // about.
            const QString message =
                QStringLiteral("%1: %2. Restart it from the tray menu (MCP servers) when it "
                               "suits you.")
                    .arg(row.name, row.flagReason);
            emit logLine(QStringLiteral("mcp resources: pid %1 ").arg(t.rootPid) + message);
            emit sup_->notice(policy::NoticeKind::McpResources, message);
        }
    }
    resources_.end(); // children that are gone drop out
    watchExits(trees);
    std::sort(rows.begin(), rows.end(),
              [](const McpChildStatus &a, const McpChildStatus &b) { return a.name < b.name; });
    sup_->setMcp(rows);
}

void McpMonitor::watchExits(const std::vector<McpProcessTree> &trees) {
    std::map<os::Pid, ExitWatched> next;
    int opened = 0;
    for (const McpProcessTree &t : trees) {
        if (t.rootPid == 0) continue;
        const os::Identity id{t.rootPid, t.rootStartTime};
        auto it = exitWatches_.find(id.pid);
        if (next.count(id.pid)) continue; // one root, one watch
        if (it != exitWatches_.end() && it->second.notifier->identity() == id) {
            next.emplace(id.pid, std::move(it->second));
            continue;
        }
        std::string why;
        std::unique_ptr<ExitNotifier> n = ExitNotifier::open(id, &why);
        if (n) {
            connect(n.get(), &ExitNotifier::exited, this, &McpMonitor::onMcpExited);
            next.emplace(id.pid, ExitWatched{QString::fromStdString(t.name), std::move(n)});
            ++opened;
        } else if (os::alive(id) != os::Liveness::Gone && !exitFallbackLogged_) {
            // Gone already: the next refresh drops it. Otherwise the kernel gives no watch here.
            exitFallbackLogged_ = true;
            emit logLine(QStringLiteral("no exit notification for MCP pid %1 (%2): MCP exits "
                                        "show at the next refresh, every %3 ms")
                             .arg(id.pid)
                             .arg(QString::fromStdString(why))
                             .arg(sup_->config().settings.timings.probeIntervalMs));
        }
    }
    exitWatches_ = std::move(next); // processes no longer shown are no longer watched
    if (opened > 0)
        emit logLine(QStringLiteral("watching %1 new MCP process(es) for their exit (kernel "
                                    "notification), %2 in all")
                         .arg(opened)
                         .arg(exitWatches_.size()));
}

void McpMonitor::onMcpExited(const os::Identity &id) {
    const auto it = exitWatches_.find(id.pid);
    exited_.emplace_back(it != exitWatches_.end() ? it->second.name : QString(), id);
    if (exited_.size() > 1) return; // a re-publish is queued already
    // Deferred: we are inside the notifier's signal, and a crash ends many at once. Only the
    // rows of those that exited change here (hundreds of rows: no new look at the whole tree);
    // the service's own status of them follows from a refresh now.
    QTimer::singleShot(0, this, [this] {
        if (exited_.empty() || !sup_->serviceIdentity()) return; // a new service, or none
        QStringList names;
        std::vector<os::Identity> gone;
        QSet<qint64> pids;
        for (const auto &[who, gid] : exited_) {
            names << QStringLiteral("%1 (pid %2)").arg(who).arg(gid.pid);
            gone.push_back(gid);
            pids.insert(gid.pid);
        }
        exited_.clear();
        emit logLine(
            QStringLiteral("MCP process exited: %1").arg(names.join(QStringLiteral(", "))));
        if (!orphans_->busy())
            ledger_->remove(gone); // a sweep holds the ledger: it prunes them itself
        QList<McpChildStatus> rows = sup_->status().mcp;
        for (McpChildStatus &r : rows)
            if (pids.contains(r.pid)) {
                r.pid = 0;
                r.uptimeMs = 0;
                r.startedAtMs.reset();
                r.rssKiB = 0;
                r.cpuPercent = 0;
            }
        sup_->setMcp(rows);
        refresh(true);
    });
}

// ---- When the service dies --------------------------------------------------------------------

void McpMonitor::onServiceDied(const os::Identity &service, std::function<void()> done) {
    ++generation_;
    refresh_.abandon();   // its answers, if any come, describe a dead service
    exitWatches_.clear(); // the keeper's sweep takes over what is left
    exited_.clear();
    orphans_->sweepAfterDeath(service, std::move(done));
}

} // namespace tether::mcp
