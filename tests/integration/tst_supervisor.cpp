// The Supervisor against real processes: the bundled demo service with its fault switches,
// real SIGSTOP / SIGKILL, a real foreign port holder, a forged registration. Short timings.
// The rules alone (a busy owner kept through the window, a crash loop given up, another version
// flagged) are proven on the rig's virtual clock in tests/rig/tst_supervisor_rig; what stays
// here is what only real processes, sockets and signals can show.
#include "os/process.h"
#include "service/registration.h"
#include "service/supervisor.h"
#include "supervisor_rig.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QtTest>

#include <csignal>
#include <memory>

using namespace tether;
using policy::State;

namespace {

constexpr int kLong = 30000; // generous deadline for anything awaited

// This suite's own back-off: 50 ms, doubling to at most 400 ms.
Settings shortTimings(int port) {
    return test::shortTimings(port, /*backoffInitialMs=*/50, /*backoffMaxMs=*/400);
}

// Processes that are this port's demo service (a contender would be a second one).
int demoServicesOnPort(int port) {
    int n = 0;
    for (const os::ProcessInfo &p : os::snapshot()) {
        if (p.state == os::RunState::Zombie) continue;
        const auto &a = p.argv;
        for (size_t i = 0; i + 2 < a.size(); ++i)
            if (a[i] == "demo-service" && a[i + 1] == "--port" && a[i + 2] == std::to_string(port))
                ++n;
    }
    return n;
}

bool gone(const os::Identity &id) {
    return os::alive(id) == os::Liveness::Gone;
}

} // namespace

class TestSupervisor : public QObject {
    Q_OBJECT

    test::SupervisorRig rig_;
    int port_ = 0;

    os::Identity serviceIdentity() const {
        const auto id = rig_.sup->serviceIdentity();
        return id ? *id : os::Identity{};
    }
    void stopAndWait() {
        if (!rig_.sup) return;
        rig_.sup->stop();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Stopped || rig_.state() == State::Failed,
                                  qPrintable(rig_.dump()), kLong);
    }

private slots:
    void init() {
        rig_.reset();
        port_ = test::freeLoopbackPort();
    }
    void cleanup() {
        stopAndWait();
        rig_.drop();
        QCOMPARE(demoServicesOnPort(port_), 0);
    }

    void startsTheDemoAndReportsItHealthy() {
        Supervisor *s = rig_.make(shortTimings(port_));
        s->start();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy, qPrintable(rig_.dump()), kLong);
        const ServiceStatus &st = s->status();
        QVERIFY(st.pid > 1);
        QCOMPARE(st.version, QString::fromLatin1(kDemoServiceVersion));
        QVERIFY(!st.versionMismatch);
        QVERIFY(st.lastProbeMs >= 0);
        // Registration: our identity of the service, private, with the per-start password.
        const RegistrationRead reg = readRegistration(registrationPath());
        QCOMPARE(reg.status, RegistrationRead::Status::Ok);
        QCOMPARE(reg.registration.pid, st.pid);
        QCOMPARE(reg.registration.startTime, serviceIdentity().startTime);
        QVERIFY(reg.registration.password.size() >= 16);
        // The password went through the environment, not the command line.
        const os::Lookup l = os::inspect(st.pid);
        for (const std::string &arg : l.info.argv)
            QVERIFY(QString::fromStdString(arg).indexOf(reg.registration.password) < 0);
    }

    void stoppedOwnerIsReplacedOnTheSamePortAfterTheWindow() {
        Settings s = shortTimings(port_);
        s.timings.windowMs = 3000;
        Supervisor *sup = rig_.make(s);
        sup->start();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy, qPrintable(rig_.dump()), kLong);
        const os::Identity frozen = serviceIdentity();
        QVERIFY(os::signalIdentity(frozen, os::Signal::Stop));
        QElapsedTimer t;
        t.start();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::NotResponding, qPrintable(rig_.dump()),
                                  kLong);
        // Inside the window the frozen owner is kept.
        QTest::qWait(1000);
        QCOMPARE(os::alive(frozen), os::Liveness::Alive);
        QVERIFY(serviceIdentity() == frozen);
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy &&
                                      serviceIdentity().pid != frozen.pid,
                                  qPrintable(rig_.dump()), kLong);
        const qint64 replacedAfter = t.elapsed();
        QVERIFY2(replacedAfter >= s.timings.windowMs, qPrintable(QString::number(replacedAfter)));
        qInfo("freeze -> healthy replacement: %lld ms (windowMs=%lld)", replacedAfter,
              static_cast<long long>(s.timings.windowMs));
        QVERIFY(gone(frozen)); // SIGKILL works on a stopped process
        QCOMPARE(sup->status().port, quint16(port_));
        QCOMPARE(demoServicesOnPort(port_), 1);
        QVERIFY(sup->status().restarts >= 1);
    }

    void ownerThatIgnoresTermEndsInKill() {
        Settings s = shortTimings(port_);
        // Frozen and deaf to SIGTERM: only SIGKILL ends it.
        s.arguments = QStringList{QStringLiteral("--freeze-after"), QStringLiteral("400"),
                                  QStringLiteral("--ignore-term")};
        s.timings.startupDeadlineMs = 3000;
        Supervisor *sup = rig_.make(s);
        sup->start();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy, qPrintable(rig_.dump()), kLong);
        const os::Identity frozen = serviceIdentity();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.log.join(QLatin1Char('\n'))
                                      .contains(QStringLiteral("pid %1: killed").arg(frozen.pid)),
                                  qPrintable(rig_.dump()), kLong);
        QVERIFY(gone(frozen));
        sup->stop();
    }

    void crashIsRestartedAndMeasured() {
        Supervisor *sup = rig_.make(shortTimings(port_));
        sup->start();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy, qPrintable(rig_.dump()), kLong);
        const os::Identity first = serviceIdentity();
        QSignalSpy notices(sup, &Supervisor::notice);
        QElapsedTimer t;
        t.start();
        QVERIFY(os::signalIdentity(first, os::Signal::Kill));
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() != State::Healthy, qPrintable(rig_.dump()), kLong);
        const qint64 detected = t.elapsed();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy &&
                                      serviceIdentity().pid != first.pid,
                                  qPrintable(rig_.dump()), kLong);
        qInfo(
            "SIGKILL -> state change: %lld ms; -> healthy replacement: %lld ms (back-off %lld ms)",
            static_cast<long long>(detected), static_cast<long long>(t.elapsed()),
            static_cast<long long>(sup->config().settings.timings.backoffInitialMs));
        bool crashed = false, restarted = false;
        for (const auto &n : notices) {
            crashed |= n.at(0).value<policy::NoticeKind>() == policy::NoticeKind::Crashed;
            restarted |= n.at(0).value<policy::NoticeKind>() == policy::NoticeKind::Restarted;
        }
        QVERIFY(crashed);
        QVERIFY(restarted);
        QCOMPARE(sup->status().restarts, 1);
    }

    void forgedRegistrationIsNeverSignalled() {
        // A live unrelated process (the decoy) whose pid the registration names, with a
        // start time that is not its own: it must receive nothing.
        const QString record = rig_.dataDir->filePath(QStringLiteral("decoy.signals"));
        QProcess decoy;
        decoy.start(test::testprocBin(), {QStringLiteral("decoy"), record});
        QVERIFY(decoy.waitForReadyRead(10000));
        QVERIFY(decoy.readLine().startsWith("ready"));
        const auto decoyId = os::identityOf(decoy.processId());
        QVERIFY(decoyId);
        Registration forged;
        forged.pid = decoyId->pid;
        forged.startTime = decoyId->startTime + 12345;
        forged.port = port_;
        forged.password = QStringLiteral("x");
        forged.profile = QStringLiteral("demo");
        QString error;
        QVERIFY(writeRegistration(registrationPath(), forged, &error));

        Supervisor *sup = rig_.make(shortTimings(port_));
        sup->start();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy, qPrintable(rig_.dump()), kLong);
        QVERIFY(sup->status().pid != decoyId->pid);
        QCOMPARE(readRegistration(registrationPath()).registration.pid, sup->status().pid);
        // Fence: after "pong" every signal sent earlier is recorded.
        decoy.write("ping\n");
        QVERIFY(decoy.waitForReadyRead(10000));
        QFile f(record);
        QVERIFY(!f.exists() || (f.open(QIODevice::ReadOnly) && f.readAll().isEmpty()));
        QCOMPARE(os::alive(*decoyId), os::Liveness::Alive);
        decoy.kill();
        decoy.waitForFinished();
    }

    void foreignPortHolderGivesFailedNamingIt() {
        QProcess holder;
        holder.start(test::testprocBin(), {QStringLiteral("listen"), QStringLiteral("127.0.0.1"),
                                           QString::number(port_)});
        QVERIFY(holder.waitForReadyRead(10000));
        QVERIFY(holder.readLine().startsWith("listening"));
        Supervisor *sup = rig_.make(shortTimings(port_));
        QSignalSpy notices(sup, &Supervisor::notice);
        sup->start();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Failed, qPrintable(rig_.dump()), kLong);
        const QString error = sup->status().lastError;
        QVERIFY2(error.contains(QString::number(holder.processId())), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("[service] port")), qPrintable(error));
        QVERIFY(!notices.isEmpty());
        QCOMPARE(notices.last().at(0).value<policy::NoticeKind>(), policy::NoticeKind::PortHeld);
        QCOMPARE(holder.state(), QProcess::Running); // not signalled
        QCOMPARE(demoServicesOnPort(port_), 0);
        holder.kill();
        holder.waitForFinished();
    }

    void badHealthAnswersNeverLookHealthy_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::newRow("HTTP 500") << QStringList{QStringLiteral("--health-status"),
                                                 QStringLiteral("500")}
                                  << QStringLiteral("HTTP 500");
        QTest::newRow("garbage") << QStringList{QStringLiteral("--health-body"),
                                                QStringLiteral("garbage")}
                                 << QStringLiteral("not a JSON object");
        QTest::newRow("huge") << QStringList{QStringLiteral("--health-body"),
                                             QStringLiteral("huge")}
                              << QStringLiteral("larger than");
    }
    void badHealthAnswersNeverLookHealthy() {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        Settings s = shortTimings(port_);
        s.arguments = args;
        s.timings.startupDeadlineMs = 3000;
        s.timings.probeTimeoutMs = 1500; // long enough that the body cap, not the deadline, decides
        s.timings.burst = 2;
        Supervisor *sup = rig_.make(s);
        bool everHealthy = false;
        QObject scope; // the connection ends with this function: cleanup()'s stop changes state
        connect(sup, &Supervisor::stateChanged, &scope,
                [&everHealthy](State, State to) { everHealthy |= to == State::Healthy; });
        sup->start();
        QTRY_VERIFY2_WITH_TIMEOUT(sup->status().lastError.contains(expected),
                                  qPrintable(rig_.dump()), kLong);
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Failed, qPrintable(rig_.dump()), kLong);
        QVERIFY(!everHealthy);
        QVERIFY2(rig_.log.join(QLatin1Char('\n')).contains(expected), qPrintable(rig_.dump()));
    }

    void missingBinaryIsAClearError() {
        Settings s = shortTimings(port_);
        s.profile = policy::Dialect::Custom;
        s.program = rig_.dataDir->filePath(QStringLiteral("no-such-service"));
        Supervisor *sup = rig_.make(s);
        sup->start();
        QTRY_VERIFY_WITH_TIMEOUT(rig_.state() == State::Failed, kLong);
        QVERIFY2(sup->status().lastError.contains(QLatin1String("no-such-service")),
                 qPrintable(rig_.dump()));
        QVERIFY2(sup->status().lastError.contains(QLatin1String("[service] program")),
                 qPrintable(rig_.dump()));
    }

    void adoptsAcrossATetherRestart() {
        Supervisor *first = rig_.make(shortTimings(port_));
        first->start();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy, qPrintable(rig_.dump()), kLong);
        const os::Identity service = serviceIdentity();
        first->leaveRunning(); // Quit: the service keeps running
        rig_.drop();
        QCOMPARE(os::alive(service), os::Liveness::Alive);

        Supervisor *second = rig_.make(shortTimings(port_));
        second->start();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy, qPrintable(rig_.dump()), kLong);
        QVERIFY(serviceIdentity() == service);
        QCOMPARE(second->status().restarts, 0);
        QVERIFY(!second->status().external);
        QCOMPARE(demoServicesOnPort(port_), 1);
        // An adopted service that dies is noticed and replaced, too.
        QVERIFY(os::signalIdentity(service, os::Signal::Kill));
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy &&
                                      serviceIdentity().pid != service.pid,
                                  qPrintable(rig_.dump()), kLong);
    }

    // The death of an adopted service (not our child) comes from the kernel, not from a look:
    // with a 10 s probe interval the fallback would look every 2 s; the watch sees it at once.
    void adoptedServiceDeathIsSeenAtOnce() {
        Settings s = shortTimings(port_);
        s.timings.probeIntervalMs = 10000;
        s.timings.windowMs = 30000;
        Supervisor *first = rig_.make(s);
        first->start();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy, qPrintable(rig_.dump()), kLong);
        const os::Identity service = serviceIdentity();
        first->leaveRunning();
        rig_.drop();

        Supervisor *second = rig_.make(s);
        second->start();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy && serviceIdentity() == service,
                                  qPrintable(rig_.dump()), kLong);
        QVERIFY2(rig_.log.join(QLatin1Char('\n'))
                     .contains(QStringLiteral("watching pid %1 for its exit").arg(service.pid)),
                 qPrintable(rig_.dump()));
        QElapsedTimer t;
        qint64 seenAfter = -1;
        QObject scope; // the connection ends with this test, before t and seenAfter do
        connect(second, &Supervisor::stateChanged, &scope, [&](State from, State) {
            if (from == State::Healthy && seenAfter < 0) seenAfter = t.elapsed();
        });
        t.start();
        QVERIFY(os::signalIdentity(service, os::Signal::Kill));
        QTRY_VERIFY2_WITH_TIMEOUT(seenAfter >= 0, qPrintable(rig_.dump()), kLong);
        qInfo("adopted service SIGKILL -> state change: %lld ms",
              static_cast<long long>(seenAfter));
        // The target is 50 ms; asserted with room for a loaded CI machine, and still far below
        // the 2 s a look on the cadence would take.
        QVERIFY2(seenAfter < 250 * test::sanitizerSlowdown(), qPrintable(rig_.dump()));
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy &&
                                      serviceIdentity().pid != service.pid,
                                  qPrintable(rig_.dump()), kLong);
    }

    void explicitStopAndRestart() {
        Supervisor *sup = rig_.make(shortTimings(port_));
        sup->start();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy, qPrintable(rig_.dump()), kLong);
        const os::Identity first = serviceIdentity();
        sup->restart();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Healthy &&
                                      serviceIdentity().pid != first.pid,
                                  qPrintable(rig_.dump()), kLong);
        QVERIFY(gone(first));
        const os::Identity second = serviceIdentity();
        sup->stop();
        QTRY_VERIFY2_WITH_TIMEOUT(rig_.state() == State::Stopped, qPrintable(rig_.dump()), kLong);
        QVERIFY(gone(second));
        QCOMPARE(readRegistration(registrationPath()).status, RegistrationRead::Status::Missing);
        QTest::qWait(300); // stopped means stopped: nothing comes back
        QCOMPARE(demoServicesOnPort(port_), 0);
    }
};

QTEST_GUILESS_MAIN(TestSupervisor)
#include "tst_supervisor.moc"
