// The opencode2 profile against the v2 stand-in (`tether demo-service --protocol v2`, built from
// docs/opencode2-protocol.md alone), real processes, short timings: adopt with MCP rows whose
// commands come from opencode's config files, the event stream's tool calls, a busy owner kept,
// a frozen one replaced, a slow boot waited out, a failed boot given up on, another client's
// replacement followed, its clean stop respected, a service it starts while Tether has stopped
// followed, terminals handed over and shut down, a forged registration left alone, and MCP
// orphans in their own groups swept after a SIGKILL.
#include "mcp/mcp_monitor.h"
#include "os/process.h"
#include "service/http_client.h"
#include "service/managed_registration.h"
#include "service/supervisor.h"
#include "ensure_client.h"
#include "testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QUuid>
#include <QtTest>

#include <csignal>
#include <memory>

using namespace tether;
using policy::State;

namespace {

constexpr int kLong = 30000;

} // namespace

class TestOpencode2 : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<Supervisor> sup_;
    std::unique_ptr<mcp::McpMonitor> mcp_;
    std::vector<QProcess *> services_;           // started by the test (other clients)
    std::unique_ptr<test::EnsureClient> ensure_; // another opencode client's ensure()
    QStringList log_;
    QStringList notices_;
    int port_ = 0;
    QByteArray savedHome_, savedState_, savedConfig_;

    QString stateDir() const { return dir_->filePath(QStringLiteral("state/opencode")); }
    QString statePath() const { return stateDir() + QStringLiteral("/service.json"); }
    QString configDir() const { return dir_->filePath(QStringLiteral("config/opencode")); }
    QString serviceLog() const { return dir_->filePath(QStringLiteral("service.log")); }

    static bool write(const QString &path, const QByteArray &text) {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
    }
    // opencode's service config: the port every service of the channel takes (record R14).
    void servicePort(int port) {
        QVERIFY(write(configDir() + QStringLiteral("/service.json"),
                      QStringLiteral("{\"port\": %1}").arg(port).toUtf8()));
    }
    // opencode's own config with local MCP servers: `tether demo-mcp` children (record R59).
    void mcpServers(const QStringList &names, const QStringList &extra = {}) {
        QJsonObject servers;
        for (const QString &name : names) {
            QJsonArray command{test::tetherBin(), QStringLiteral("demo-mcp"),
                               QStringLiteral("--name"), name};
            for (const QString &e : extra)
                command.append(e);
            servers.insert(name, QJsonObject{{"type", "local"}, {"command", command}});
        }
        QVERIFY(write(
            configDir() + QStringLiteral("/opencode.jsonc"),
            "// written by the test\n" +
                QJsonDocument(QJsonObject{{"mcp", QJsonObject{{"servers", servers}}}}).toJson()));
    }

    QStringList demoArgs(const QStringList &extra) const {
        return QStringList{
                   QStringLiteral("demo-service"), QStringLiteral("--protocol"),
                   QStringLiteral("v2"),           QStringLiteral("--heartbeat-ms"),
                   QStringLiteral("300"),          QStringLiteral("--registration-check-ms"),
                   QStringLiteral("300")} +
               extra;
    }

    Settings settings(const QStringList &launchExtra = {}) const {
        Settings s;
        s.profile = policy::Dialect::Opencode2;
        s.program = test::tetherBin(); // a wrapper: exactly these arguments
        s.arguments = demoArgs(launchExtra);
        s.timings.probeIntervalMs = 200;
        s.timings.probeTimeoutMs = 400;
        s.timings.windowMs = 2000;
        s.timings.graceMs = 500;
        s.timings.startupDeadlineMs = 15000;
        s.timings.backoffInitialMs = 200;
        s.orphanGraceMs = 300;
        return s;
    }

    void make(const Settings &s, bool withMcp = false) {
        const ProfileResolution r = resolveProfile(s, {}, test::tetherBin());
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        Supervisor::Config c;
        c.settings = s;
        c.profile = r.profile;
        c.registrationPath = dir_->filePath(QStringLiteral("tether-registration.json"));
        c.serviceLogPath = serviceLog();
        sup_ = std::make_unique<Supervisor>(c);
        connect(sup_.get(), &Supervisor::logLine, this, [this](const QString &l) { log_ << l; });
        connect(sup_.get(), &Supervisor::notice, this,
                [this](policy::NoticeKind, const QString &m) { notices_ << m; });
        if (withMcp) {
            mcp_ = std::make_unique<mcp::McpMonitor>(sup_.get());
            connect(mcp_.get(), &mcp::McpMonitor::logLine, this,
                    [this](const QString &l) { log_ << l; });
        }
    }

    // Another client starts a v2 service; returns once it is registered (in `file`, else
    // service.json).
    QProcess *startService(const QStringList &extra, const QString &file = {}) {
        auto *p = new QProcess;
        p->setProgram(test::tetherBin());
        p->setArguments(demoArgs(extra));
        p->setProcessChannelMode(QProcess::MergedChannels);
        p->start();
        services_.push_back(p);
        if (!p->waitForStarted(kLong)) return nullptr;
        QDeadlineTimer deadline(kLong);
        while (!deadline.hasExpired()) {
            const ManagedRegistrationRead r =
                readManagedRegistration(file.isEmpty() ? statePath() : file);
            if (r.status == ManagedRegistrationRead::Status::Ok &&
                r.registration.pid == p->processId())
                return p;
            QTest::qWait(20);
        }
        return nullptr;
    }

    ManagedRegistration registered() const {
        return readManagedRegistration(statePath()).registration;
    }
    QByteArray serviceOutput() const {
        QFile f(serviceLog());
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    QString dump() const {
        return QStringLiteral("state=%1 pid=%2 lastError=%3\n%4")
            .arg(QLatin1String(policy::toString(sup_->status().state)))
            .arg(sup_->status().pid)
            .arg(sup_->status().lastError, log_.join(QLatin1Char('\n')));
    }
    bool logHas(const QString &what) const {
        return std::any_of(log_.begin(), log_.end(),
                           [&](const QString &l) { return l.contains(what); });
    }
    bool is(State s) const { return sup_->status().state == s; }

    // The test's own request to the registered service, as another client would send it.
    QByteArray post(const QString &path) {
        QNetworkAccessManager nam;
        const ManagedRegistration reg = registered();
        QNetworkRequest req(reg.url.resolved(QUrl(path)));
        req.setRawHeader("Authorization", basicAuth(QStringLiteral("opencode"), reg.password));
        QNetworkReply *reply = nam.post(req, QByteArray());
        QSignalSpy done(reply, &QNetworkReply::finished);
        if (!done.wait(kLong)) return {};
        const QByteArray body = reply->readAll();
        reply->deleteLater();
        return body;
    }

    // Another opencode client (the TUI, the desktop app) as opencode's Service.ensure() behaves,
    // its contender the same v2 stand-in Tether launches; it may signal only `maySignal`.
    test::EnsureResult ensureService(const QStringList &extra = {}, const QString &version = {},
                                     std::function<bool(qint64)> maySignal = {}) {
        test::EnsureOptions o;
        o.file = statePath();
        o.command = QStringList{test::tetherBin()} + demoArgs(extra);
        o.version = version;
        o.maySignal = std::move(maySignal);
        ensure_ = std::make_unique<test::EnsureClient>(o);
        return ensure_->ensure();
    }

private slots:
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        QVERIFY(dir_->isValid());
        savedHome_ = qgetenv("HOME");
        savedState_ = qgetenv("XDG_STATE_HOME");
        savedConfig_ = qgetenv("XDG_CONFIG_HOME");
        // opencode's places, for Tether and for every stand-in it or the test starts.
        qputenv("HOME", dir_->filePath(QStringLiteral("home")).toUtf8());
        QDir().mkpath(dir_->filePath(QStringLiteral("home")));
        qputenv("XDG_STATE_HOME", dir_->filePath(QStringLiteral("state")).toUtf8());
        qputenv("XDG_CONFIG_HOME", dir_->filePath(QStringLiteral("config")).toUtf8());
        qputenv("TETHER_DATA_DIR", dir_->filePath(QStringLiteral("data")).toUtf8());
        port_ = test::freeLoopbackPort();
        servicePort(port_);
        log_.clear();
        notices_.clear();
    }

    void cleanup() {
        if (sup_) { // before the monitor goes: the stop runs its crash cleanup
            sup_->stop();
            QTRY_VERIFY_WITH_TIMEOUT(is(State::Stopped) || is(State::Failed), kLong);
        }
        mcp_.reset();
        sup_.reset();
        ensure_.reset(); // its contenders: the test's children, ended with it
        for (QProcess *p : services_) {
            if (p->state() != QProcess::NotRunning) {
                p->terminate(); // the test's own child, not yet reaped
                if (!test::awaitExit(*p, 5000)) {
                    p->kill();
                    test::awaitExit(*p, 5000);
                }
            }
            delete p;
        }
        services_.clear();
        qputenv("HOME", savedHome_);
        qputenv("XDG_STATE_HOME", savedState_);
        qputenv("XDG_CONFIG_HOME", savedConfig_);
    }

    // MCP rows come from the {location, data} envelope, their pids from the commands in
    // opencode.jsonc; the event stream is followed; nothing is restarted or rewritten.
    void adoptsARunningServiceWithItsMcpServersAndItsStream() {
        mcpServers({QStringLiteral("alpha"), QStringLiteral("beta")});
        QProcess *other = startService({});
        QVERIFY(other);
        const ManagedRegistration reg = registered();
        make(settings(), true);
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy), qPrintable(dump()), kLong);
        QCOMPARE(sup_->status().pid, other->processId());
        QVERIFY(sup_->status().external);
        QCOMPARE(sup_->status().port, quint16(port_));
        QCOMPARE(sup_->authorization(), basicAuth(QStringLiteral("opencode"), reg.password));
        const auto rowsMatched = [this] {
            const auto &rows = sup_->status().mcp;
            return rows.size() == 2 && std::all_of(rows.begin(), rows.end(), [](const auto &r) {
                       return r.status == QLatin1String("connected") && r.pid > 0;
                   });
        };
        QTRY_VERIFY2_WITH_TIMEOUT(rowsMatched(), qPrintable(dump()), kLong);
        QTRY_COMPARE_WITH_TIMEOUT(mcp_->ledger().entries().size(), std::size_t(2), kLong);
        QTRY_VERIFY2_WITH_TIMEOUT(sup_->status().activity.followed, qPrintable(dump()), kLong);
        QCOMPARE(sup_->status().activity.summary, QStringLiteral("idle"));
        // The heartbeat comment (every 300 ms here) is seen as life.
        QTRY_VERIFY_WITH_TIMEOUT(sup_->activity().lastHeartbeatAt >= 0, kLong);
        const qint64 first = sup_->activity().lastHeartbeatAt;
        QTRY_VERIFY_WITH_TIMEOUT(sup_->activity().lastHeartbeatAt > first, kLong);
        QCOMPARE(other->state(), QProcess::Running);
        QCOMPARE(registered().id, reg.id); // never rewritten
        QVERIFY2(!logHas(QStringLiteral("launching")) && !logHas(QStringLiteral("terminating")),
                 qPrintable(dump()));
        sup_->leaveRunning();
        mcp_.reset(); // it holds the supervisor
        sup_.reset();
        QCOMPARE(other->state(), QProcess::Running);
    }

    // A tool call started through the service shows with its name; it ends and is gone.
    void aToolCallShowsThroughTheEventStream() {
        QProcess *other = startService({});
        QVERIFY(other);
        make(settings());
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy) && sup_->status().activity.followed,
                                  qPrintable(dump()), kLong);
        QVERIFY(!post(QStringLiteral("/demo/tool-call?tool=slow_tool&seconds=2")).isEmpty());
        QTRY_VERIFY2_WITH_TIMEOUT(policy::runsToolCalls(sup_->activity()), qPrintable(dump()),
                                  kLong);
        QVERIFY2(sup_->status().activity.summary.contains(QStringLiteral("slow_tool")),
                 qPrintable(sup_->status().activity.summary));
        QCOMPARE(sup_->status().activity.runningTools.size(), 1);
        QTRY_VERIFY2_WITH_TIMEOUT(!policy::runsToolCalls(sup_->activity()), qPrintable(dump()),
                                  kLong);
        sup_->leaveRunning();
    }

    void busyOwnerIsKeptThroughTheWindow() {
        QProcess *other = startService({QStringLiteral("--busy-after"), QStringLiteral("1500"),
                                        QStringLiteral("--busy-for"), QStringLiteral("1600")});
        QVERIFY(other);
        Settings s = settings();
        s.timings.windowMs = 2500;
        make(s);
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::NotResponding), qPrintable(dump()), kLong);
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy), qPrintable(dump()), kLong);
        QCOMPARE(sup_->status().pid, other->processId());
        QCOMPARE(other->state(), QProcess::Running);
        QVERIFY2(!logHas(QStringLiteral("terminating")) && !logHas(QStringLiteral("launching")),
                 qPrintable(dump()));
        sup_->leaveRunning();
    }

    void frozenOwnerIsReplacedAndTheNewRegistrationReported() {
        QProcess *frozen = startService({QStringLiteral("--freeze-after"), QStringLiteral("1000")});
        QVERIFY(frozen);
        const qint64 frozenPid = frozen->processId();
        make(settings());
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy) && sup_->status().external, qPrintable(dump()),
                                  kLong);
        QTRY_VERIFY2_WITH_TIMEOUT(frozen->state() == QProcess::NotRunning, qPrintable(dump()),
                                  kLong);
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy) && sup_->status().pid != frozenPid,
                                  qPrintable(dump()), kLong);
        const ManagedRegistration reg = registered();
        QCOMPARE(sup_->status().pid, reg.pid);
        QVERIFY(!sup_->status().external); // Tether started this one
        QCOMPARE(sup_->authorization(), basicAuth(QStringLiteral("opencode"), reg.password));
        QVERIFY2(logHas(QStringLiteral("terminating pid %1").arg(frozenPid)), qPrintable(dump()));
        // A frozen service is not asked anything before the signal (ensure()'s eviction).
        QVERIFY2(!logHas(QStringLiteral("persistent terminals")), qPrintable(dump()));
    }

    // 503 for longer than [probe] startupDeadlineMs: waited out, as opencode's clients wait.
    void aSlowBootIsWaitedForNotKilled() {
        Settings s = settings({QStringLiteral("--boot-ms"), QStringLiteral("3000")});
        s.timings.startupDeadlineMs = 1000;
        make(s);
        QElapsedTimer t;
        t.start();
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy), qPrintable(dump()), kLong);
        QVERIFY2(t.elapsed() >= 3000, qPrintable(dump())); // it did boot for 3 s
        QVERIFY2(!logHas(QStringLiteral("terminating")), qPrintable(dump()));
        QCOMPARE(sup_->status().restarts, 0);
        QVERIFY2(logHas(QStringLiteral("HTTP 503")) || sup_->status().lastError.isEmpty(),
                 qPrintable(dump()));
    }

    // 500: its boot failed and it stays alive. Stopped, counted, and Failed after the burst.
    void aFailedBootIsGivenUpOnWithItsCause() {
        Settings s = settings({QStringLiteral("--boot-fails")});
        s.timings.burst = 2;
        make(s);
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Failed), qPrintable(dump()), kLong);
        QVERIFY2(sup_->status().lastError.contains(QStringLiteral("start failed")),
                 qPrintable(dump()));
        QVERIFY2(sup_->status().failure.cause.contains(QStringLiteral("start failed")),
                 qPrintable(sup_->status().failure.cause));
        // Each failed service was stopped: none is left running.
        QCOMPARE(QStringList(log_).filter(QStringLiteral("terminating pid")).size(), 2);
        QVERIFY2(serviceOutput().count("background service boot failed") == 2,
                 serviceOutput().constData());
    }

    void followsAnotherClientsReplacementWithoutSignalling() {
        QProcess *first = startService({});
        QVERIFY(first);
        make(settings());
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy), qPrintable(dump()), kLong);
        QCOMPARE(sup_->status().pid, first->processId());

        // A newer client's contender on another port takes the registration over.
        const int port2 = test::freeLoopbackPort();
        QProcess *second = startService({QStringLiteral("--port"), QString::number(port2),
                                         QStringLiteral("--version"), QStringLiteral("2.0.18")});
        QVERIFY(second);
        QTRY_VERIFY2_WITH_TIMEOUT(sup_->status().pid == second->processId() && is(State::Healthy),
                                  qPrintable(dump()), kLong);
        QCOMPARE(sup_->status().port, quint16(port2));
        QVERIFY(sup_->status().external);
        // The first service reads the file, sees it is no longer named, and leaves by itself.
        QVERIFY2(test::awaitExit(*first, kLong), qPrintable(dump()));
        QCOMPARE(first->exitStatus(), QProcess::NormalExit);
        QCOMPARE(first->exitCode(), 0);
        QCOMPARE(registered().pid, second->processId());
        QVERIFY2(!logHas(QStringLiteral("terminating")), qPrintable(dump()));
        QCOMPARE(sup_->status().restarts, 0);
        sup_->leaveRunning();
    }

    // Another client's clean stop (`opencode service stop`: TERM, and the service unregisters):
    // Tether says so and does not start it again behind that client's back.
    void aCleanStopByAnotherProgramIsRespected() {
        QProcess *other = startService({});
        QVERIFY(other);
        make(settings());
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy), qPrintable(dump()), kLong);
        ::kill(pid_t(other->processId()), SIGTERM); // the test's own child
        QVERIFY(test::awaitExit(*other, kLong));
        QVERIFY(!QFile::exists(statePath()));
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Stopped), qPrintable(dump()), kLong);
        QVERIFY2(logHas(QStringLiteral("stopped by another program")), qPrintable(dump()));
        QVERIFY2(!logHas(QStringLiteral("launching")), qPrintable(dump()));
        QVERIFY(!notices_.filter(QStringLiteral("leaves it stopped")).isEmpty());
        QCOMPARE(sup_->status().restarts, 0);
    }

    // Found by the model (issue 24): a service already runs when Tether starts, and the
    // person's first click is Stop. Tether looked at service.json only on its cadence, so the
    // Stop found nothing, and a moment later Tether followed the service as "started by another
    // program", against the person's Stop. Its first look now comes before the click.
    void aStopAskedRightAfterTetherStartsStopsTheServiceAlreadyRunning() {
        QProcess *other = startService({});
        QVERIFY(other);
        make(settings());
        // The click as the event loop delivers it: after what Tether queued when it started.
        QMetaObject::invokeMethod(
            sup_.get(), [this] { sup_->stop(); }, Qt::QueuedConnection);
        QVERIFY2(test::awaitExit(*other, kLong), qPrintable(dump()));
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Stopped), qPrintable(dump()), kLong);
    }

    // The TUI's ensure() starts a service while Tether shows it stopped: it is followed.
    void aServiceAnotherClientStartsWhileStoppedIsFollowed() {
        make(settings());
        QTRY_VERIFY(is(State::Stopped));
        QProcess *other = startService({});
        QVERIFY(other);
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy) && sup_->status().pid == other->processId(),
                                  qPrintable(dump()), kLong);
        QVERIFY(sup_->status().external);
        QVERIFY(!notices_.filter(QStringLiteral("watches over it")).isEmpty());
        sup_->leaveRunning();
    }

    // Restart hands the persistent terminals to the next service; Stop has them shut down.
    void restartHandsTerminalsOverAndStopShutsThemDown() {
        make(settings());
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy), qPrintable(dump()), kLong);
        const qint64 firstPid = sup_->status().pid;
        sup_->restart();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy) && sup_->status().pid != firstPid,
                                  qPrintable(dump()), kLong);
        const QByteArray out = serviceOutput();
        const QRegularExpressionMatch ticket =
            QRegularExpression(QStringLiteral("pty handoff ticket (\\S+)"))
                .match(QString::fromUtf8(out));
        QVERIFY2(ticket.hasMatch(), out.constData());
        // The new service was given exactly the ticket the old one handed out.
        QVERIFY2(out.contains("pty adopted " + ticket.captured(1).toUtf8()), out.constData());
        QVERIFY2(logHas(QStringLiteral("handed over to the next service")), qPrintable(dump()));
        QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(statePath() + QStringLiteral(".pty-handoff")),
                                 kLong); // done
        sup_->stop();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Stopped), qPrintable(dump()), kLong);
        QVERIFY2(serviceOutput().contains("pty shutdown"), serviceOutput().constData());
        QVERIFY(!QFile::exists(statePath())); // no registration of a stopped service is left
    }

    void forgedRegistrationIsStaleAndItsProcessUntouched() {
        // A live unrelated process, named by a registration written before it started.
        const QString signalsFile = dir_->filePath(QStringLiteral("decoy-signals"));
        QProcess decoy;
        decoy.start(test::testprocBin(), {QStringLiteral("decoy"), signalsFile});
        QVERIFY(decoy.waitForReadyRead(kLong));
        ManagedRegistration forged;
        forged.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
        forged.pid = decoy.processId();
        forged.url = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port_));
        forged.password = QStringLiteral("forged");
        forged.version = QStringLiteral("2.0.0");
        QVERIFY(write(statePath(), serializeManagedRegistration(forged)));
        QFile f(statePath());
        QVERIFY(f.open(QIODevice::ReadWrite));
        // Written an hour before the decoy started: the decoy cannot be its writer.
        QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(-3600),
                              QFileDevice::FileModificationTime));
        f.close();

        make(settings());
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy), qPrintable(dump()), kLong);
        QVERIFY(sup_->status().pid != decoy.processId());
        QCOMPARE(sup_->status().pid, registered().pid);
        QVERIFY2(logHas(QStringLiteral("not signalled")), qPrintable(dump()));
        // The fence: after "pong", every signal ever sent to the decoy is in its file.
        decoy.readAll();
        decoy.write("ping\n");
        QVERIFY(decoy.waitForReadyRead(kLong));
        QCOMPARE(decoy.state(), QProcess::Running);
        QFile record(signalsFile);
        QVERIFY(!record.exists() ||
                (record.open(QIODevice::ReadOnly) && record.readAll().isEmpty()));
        decoy.kill();
        decoy.waitForFinished(5000);
    }

    void sigkilledServiceLeavesNoOrphansInTheirOwnGroups() {
        mcpServers({QStringLiteral("s1"), QStringLiteral("s2"), QStringLiteral("s3")},
                   {QStringLiteral("--stubborn")});
        make(settings(), true);
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy) && !sup_->status().external,
                                  qPrintable(dump()), kLong);
        // The ledger knows all three children, each leading its own process group (matched
        // through the commands in opencode.jsonc).
        auto ownGroups = [this] {
            const auto &entries = mcp_->ledger().entries();
            return entries.size() == 3 &&
                   std::all_of(entries.begin(), entries.end(),
                               [](const auto &e) { return e.pgid == e.process.pid; });
        };
        QTRY_VERIFY2_WITH_TIMEOUT(ownGroups(), qPrintable(dump()), kLong);
        const auto service = sup_->serviceIdentity();
        QVERIFY(service);
        std::vector<os::Pid> children;
        for (const auto &e : mcp_->ledger().entries()) {
            QVERIFY(e.service == *service);
            children.push_back(e.process.pid);
        }
        // SIGKILL the service: identified by the test as the pid the registration names and
        // Tether launched (its start time is checked by signalIdentity).
        QCOMPARE(registered().pid, qint64(service->pid));
        QElapsedTimer t;
        QVERIFY(os::signalIdentity(*service, os::Signal::Kill));
        t.start();
        QTRY_VERIFY2_WITH_TIMEOUT(
            std::all_of(children.begin(), children.end(), test::absentOrZombie), qPrintable(dump()),
            kLong);
        qInfo("orphans of the SIGKILLed v2 service gone %lld ms after the kill",
              static_cast<long long>(t.elapsed()));
        // And the service comes back on its own registration.
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy) && sup_->status().pid != service->pid,
                                  qPrintable(dump()), kLong);
        QCOMPARE(sup_->status().pid, registered().pid);
    }

    // A preview channel registers in a file of its own; the channel names it.
    void aChannelRegistersInItsOwnFile() {
        QProcess *other = startService({QStringLiteral("--channel"), QStringLiteral("local"),
                                        QStringLiteral("--port"), QString::number(port_)},
                                       stateDir() + QStringLiteral("/service-local.json"));
        QVERIFY(other);
        QVERIFY(!QFile::exists(statePath()));
        Settings s = settings();
        s.channel = QStringLiteral("local");
        make(s);
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy), qPrintable(dump()), kLong);
        QCOMPARE(qint64(sup_->status().pid), other->processId());
        QVERIFY(sup_->status().external);
        sup_->leaveRunning();
    }
    // Tether runs the service: another client's ensure() finds it ready and starts none.
    void ensureFindsTethersServiceAndStartsNoSecond() {
        make(settings());
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy), qPrintable(dump()), kLong);
        const qint64 pid = sup_->status().pid;
        const test::EnsureResult r = ensureService();
        QVERIFY2(r.ok, qPrintable(r.error + r.log.join('\n')));
        QCOMPARE(r.pid, pid);
        QCOMPARE(r.contendersSpawned, 0);
        QVERIFY(r.started.isEmpty());
        QCOMPARE(sup_->status().pid, pid);
        QVERIFY(is(State::Healthy));
        QVERIFY2(!logHas(QStringLiteral("started by another program")), qPrintable(dump()));
    }

    // After a Stop in Tether, the next ensure() starts a service again: Tether says another
    // program started it and follows it, instead of claiming Stopped.
    void afterTethersStopEnsureStartsOneAndTetherFollowsIt() {
        make(settings());
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy), qPrintable(dump()), kLong);
        const qint64 first = sup_->status().pid;
        sup_->stop();
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Stopped), qPrintable(dump()), kLong);
        QVERIFY(!QFile::exists(statePath()));
        const test::EnsureResult r = ensureService();
        QVERIFY2(r.ok, qPrintable(r.error + r.log.join('\n')));
        QCOMPARE(r.started, QStringLiteral("missing"));
        QCOMPARE(r.contendersSpawned, 1);
        QVERIFY(r.pid != first);
        QCOMPARE(r.pid, ensure_->contenders().front()->processId());
        QTRY_VERIFY2_WITH_TIMEOUT(is(State::Healthy) && sup_->status().pid == r.pid,
                                  qPrintable(dump()), kLong);
        QVERIFY(sup_->status().external);
        QVERIFY2(logHas(QStringLiteral("started by another program")), qPrintable(dump()));
        sup_->leaveRunning();
    }

    // ensure()'s own rules, without Tether: a registered service that stops answering is
    // evicted after five consecutive probe timeouts and a contender takes its place.
    void ensureEvictsAHungServiceAfterFiveTimeouts() {
        QProcess *hung = startService({QStringLiteral("--freeze-after"), QStringLiteral("300")});
        QVERIFY(hung);
        const qint64 hungPid = hung->processId();
        QTest::qWait(600); // frozen: its event loop no longer runs
        test::EnsureOptions o;
        o.file = statePath();
        o.command = QStringList{test::tetherBin()} + demoArgs({});
        o.timing.requestTimeoutMs = 200;
        o.maySignal = [hungPid](qint64 pid) { return pid == hungPid; }; // the test's own child
        ensure_ = std::make_unique<test::EnsureClient>(o);
        const test::EnsureResult r = ensure_->ensure();
        QVERIFY2(r.ok, qPrintable(r.error + '\n' + r.log.join('\n')));
        QCOMPARE(r.evictions, 1);
        QVERIFY(r.log.contains(QStringLiteral(
            "Background service is unresponsive; recovery cannot preserve persistent terminals")));
        QVERIFY(test::awaitExit(*hung, kLong));
        QVERIFY(r.pid != hungPid);
        QCOMPARE(registered().pid, r.pid);
    }

    // A client that needs another version replaces the running service; one that refuses to
    // signal an unverified pid replaces nothing.
    void ensureReplacesAnotherVersion() {
        QProcess *old = startService({QStringLiteral("--version"), QStringLiteral("2.0.16")});
        QVERIFY(old);
        const qint64 oldPid = old->processId();
        const test::EnsureResult refused = ensureService(
            {QStringLiteral("--version"), QStringLiteral("2.0.17")}, QStringLiteral("2.0.17"));
        QVERIFY(!refused.ok);
        QCOMPARE(old->state(), QProcess::Running);
        QVERIFY2(refused.log.join('\n').contains(QStringLiteral("refused to signal pid")),
                 qPrintable(refused.log.join('\n')));
        const test::EnsureResult r =
            ensureService({QStringLiteral("--version"), QStringLiteral("2.0.17")},
                          QStringLiteral("2.0.17"), [oldPid](qint64 pid) { return pid == oldPid; });
        QVERIFY2(r.ok, qPrintable(r.error + '\n' + r.log.join('\n')));
        QCOMPARE(r.started, QStringLiteral("version-mismatch"));
        QCOMPARE(r.previousVersion, QStringLiteral("2.0.16"));
        QVERIFY(test::awaitExit(*old, kLong));
        QCOMPARE(registered().version, QStringLiteral("2.0.17"));
        QCOMPARE(registered().pid, r.pid);
    }
};

QTEST_GUILESS_MAIN(TestOpencode2)
#include "tst_opencode2.moc"
