// The opencode2 profile against the v2 demo service (real processes, short timings): adopt,
// busy owner kept, frozen owner replaced, another client's replacement followed without a
// signal, a forged registration left alone, and MCP orphans in their own groups swept.
#include "mcp/mcp_monitor.h"
#include "os/process.h"
#include "service/managed_registration.h"
#include "service/supervisor.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
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
    std::vector<QProcess *> services_; // started by the test (other clients)
    QStringList log_;
    int port_ = 0;

    QString statePath() const { return dir_->filePath(QStringLiteral("state/service.json")); }
    QString stateDir() const { return dir_->filePath(QStringLiteral("state")); }

    QStringList demoArgs(int port, const QStringList &extra) const {
        return QStringList{QStringLiteral("demo-service"),
                           QStringLiteral("--protocol"),
                           QStringLiteral("v2"),
                           QStringLiteral("--state-dir"),
                           stateDir(),
                           QStringLiteral("--port"),
                           QString::number(port)} +
               extra;
    }

    Settings settings(const QStringList &launchExtra = {}) const {
        Settings s;
        s.profile = policy::Dialect::Opencode2;
        s.program = test::tetherBin();
        s.arguments = demoArgs(port_, launchExtra);
        s.port = port_;
        s.stateDir = stateDir();
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
        c.serviceLogPath = dir_->filePath(QStringLiteral("service.log"));
        sup_ = std::make_unique<Supervisor>(c);
        connect(sup_.get(), &Supervisor::logLine, this, [this](const QString &l) { log_ << l; });
        if (withMcp) {
            mcp_ = std::make_unique<mcp::McpMonitor>(sup_.get());
            connect(mcp_.get(), &mcp::McpMonitor::logLine, this,
                    [this](const QString &l) { log_ << l; });
        }
    }

    // Another client starts a v2 service; returns once it is registered.
    QProcess *startService(int port, const QStringList &extra) {
        auto *p = new QProcess;
        p->setProgram(test::tetherBin());
        p->setArguments(demoArgs(port, extra));
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p->start();
        services_.push_back(p);
        if (!p->waitForStarted(kLong)) return nullptr;
        QDeadlineTimer deadline(kLong);
        while (!deadline.hasExpired()) {
            const ManagedRegistrationRead r = readManagedRegistration(statePath());
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

private slots:
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        QVERIFY(dir_->isValid());
        qputenv("TETHER_DATA_DIR", dir_->filePath(QStringLiteral("data")).toUtf8());
        port_ = test::freeLoopbackPort();
        log_.clear();
    }

    void cleanup() {
        if (sup_) { // before the monitor goes: the stop runs its crash cleanup
            sup_->stop();
            QTRY_VERIFY_WITH_TIMEOUT(sup_->status().state == State::Stopped, kLong);
        }
        mcp_.reset();
        sup_.reset();
        for (QProcess *p : services_) {
            if (p->state() != QProcess::NotRunning) {
                p->terminate(); // the test's own child, not yet reaped
                if (!p->waitForFinished(5000)) {
                    p->kill();
                    p->waitForFinished(5000);
                }
            }
            delete p;
        }
        services_.clear();
    }

    void adoptsARunningServiceWithoutRestartingIt() {
        QProcess *other = startService(port_, {});
        QVERIFY(other);
        const ManagedRegistration reg = registered();
        make(settings());
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(sup_->status().state == State::Healthy, qPrintable(dump()),
                                  kLong);
        QCOMPARE(sup_->status().pid, other->processId());
        QVERIFY(sup_->status().external);
        QCOMPARE(sup_->status().port, quint16(port_));
        QCOMPARE(sup_->authorization(), basicAuth(QStringLiteral("opencode"), reg.password));
        // 2.x has no event stream: its work is said to be unknown, never shown as "idle".
        QVERIFY(!sup_->status().activity.followed);
        QCOMPARE(sup_->status().activity.summary,
                 QStringLiteral("activity unknown: this service has no event stream"));
        QSignalSpy probes(sup_.get(), &Supervisor::probed);
        QTRY_VERIFY_WITH_TIMEOUT(probes.size() >= 5, kLong);
        QCOMPARE(other->state(), QProcess::Running);
        QCOMPARE(registered().id, reg.id); // never rewritten
        QVERIFY2(!logHas(QStringLiteral("launching")) && !logHas(QStringLiteral("terminating")),
                 qPrintable(dump()));
        sup_->leaveRunning();
        sup_.reset();
        QCOMPARE(other->state(), QProcess::Running);
    }

    void busyOwnerIsKeptThroughTheWindow() {
        QProcess *other =
            startService(port_, {QStringLiteral("--busy-after"), QStringLiteral("1500"),
                                 QStringLiteral("--busy-for"), QStringLiteral("1600")});
        QVERIFY(other);
        Settings s = settings();
        s.timings.windowMs = 2500;
        make(s);
        QSignalSpy states(sup_.get(), &Supervisor::stateChanged);
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(sup_->status().state == State::NotResponding, qPrintable(dump()),
                                  kLong);
        QTRY_VERIFY2_WITH_TIMEOUT(sup_->status().state == State::Healthy, qPrintable(dump()),
                                  kLong);
        QCOMPARE(sup_->status().pid, other->processId());
        QCOMPARE(other->state(), QProcess::Running);
        QVERIFY2(!logHas(QStringLiteral("terminating")) && !logHas(QStringLiteral("launching")),
                 qPrintable(dump()));
        sup_->leaveRunning();
    }

    void frozenOwnerIsReplacedAndTheNewRegistrationReported() {
        QProcess *frozen =
            startService(port_, {QStringLiteral("--freeze-after"), QStringLiteral("1000")});
        QVERIFY(frozen);
        const qint64 frozenPid = frozen->processId();
        make(settings());
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(sup_->status().state == State::Healthy && sup_->status().external,
                                  qPrintable(dump()), kLong);
        QTRY_VERIFY2_WITH_TIMEOUT(frozen->state() == QProcess::NotRunning, qPrintable(dump()),
                                  kLong);
        QTRY_VERIFY2_WITH_TIMEOUT(sup_->status().state == State::Healthy &&
                                      sup_->status().pid != frozenPid,
                                  qPrintable(dump()), kLong);
        const ManagedRegistration reg = registered();
        QCOMPARE(sup_->status().pid, reg.pid);
        QVERIFY(!sup_->status().external); // Tether started this one
        QCOMPARE(sup_->authorization(), basicAuth(QStringLiteral("opencode"), reg.password));
        QVERIFY2(logHas(QStringLiteral("terminating pid %1").arg(frozenPid)), qPrintable(dump()));
    }

    void followsAnotherClientsReplacementWithoutSignalling() {
        QProcess *first = startService(
            port_, {QStringLiteral("--registration-check-ms"), QStringLiteral("1000")});
        QVERIFY(first);
        make(settings());
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(sup_->status().state == State::Healthy, qPrintable(dump()),
                                  kLong);
        QCOMPARE(sup_->status().pid, first->processId());

        const int port2 = test::freeLoopbackPort();
        QProcess *second = startService(port2, {});
        QVERIFY(second);
        QTRY_VERIFY2_WITH_TIMEOUT(sup_->status().pid == second->processId() &&
                                      sup_->status().state == State::Healthy,
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

    void forgedRegistrationIsStaleAndItsProcessUntouched() {
        // A live unrelated process, named by a registration written "before" it started.
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
        QDir().mkpath(stateDir());
        QFile f(statePath());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(serializeManagedRegistration(forged));
        QVERIFY(f.flush());
        // Written an hour before the decoy started: the decoy cannot be its writer.
        QVERIFY(f.setFileTime(QDateTime::currentDateTime().addSecs(-3600),
                              QFileDevice::FileModificationTime));
        f.close();

        make(settings());
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(sup_->status().state == State::Healthy, qPrintable(dump()),
                                  kLong);
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
        make(settings({QStringLiteral("--mcp"), QStringLiteral("3"), QStringLiteral("--stubborn")}),
             true);
        sup_->start();
        QTRY_VERIFY2_WITH_TIMEOUT(sup_->status().state == State::Healthy &&
                                      !sup_->status().external,
                                  qPrintable(dump()), kLong);
        // The ledger knows all three children, each leading its own process group.
        // (A child calls setsid after it starts: a first observation may predate it; the ledger
        // keeps what is true now, and the sweep reads the group from the live process.)
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
            QCOMPARE(qint64(e.pgid), qint64(e.process.pid));
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
        const qint64 ms = t.elapsed();
        qInfo("orphans of the SIGKILLed v2 service gone %lld ms after the kill",
              static_cast<long long>(ms));
        QVERIFY2(ms < 1000 * test::sanitizerSlowdown(),
                 qPrintable(QStringLiteral("%1 ms\n%2").arg(ms).arg(dump())));
        // And the service comes back on its own registration.
        QTRY_VERIFY2_WITH_TIMEOUT(sup_->status().state == State::Healthy &&
                                      sup_->status().pid != service->pid,
                                  qPrintable(dump()), kLong);
        QCOMPARE(sup_->status().pid, registered().pid);
    }
};

QTEST_GUILESS_MAIN(TestOpencode2)
#include "tst_opencode2.moc"
