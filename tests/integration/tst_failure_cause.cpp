// Failed tells what went wrong, against real processes: the demo service started with an option
// it does not know exits 2 with "Unknown option" on stderr, and a real foreign listener holds
// the port. What a person reads (ServiceStatus::failure, status --json) names the cause.
#include "os/process.h"
#include "service/port_doctor.h"
#include "service/supervisor.h"
#include "supervisor_rig.h"
#include "testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QTcpServer>
#include <QtTest>

#include <memory>

using namespace tether;
using policy::State;

namespace {

constexpr int kLong = 30000;

// This suite's own back-off, 20 ms doubling to 40 ms: a bad start gives up fast.
Settings shortTimings(int port) {
    return test::shortTimings(port, /*backoffInitialMs=*/20, /*backoffMaxMs=*/40);
}

} // namespace

class TestFailureCause : public QObject {
    Q_OBJECT

    test::SupervisorRig rig_;

    // The demo started with an option it does not know: it exits 2 at once, every time.
    Supervisor *startWithABadOption() {
        Settings s = shortTimings(test::freeLoopbackPort());
        s.arguments = QStringList{QStringLiteral("--bogus")};
        Supervisor *sup = rig_.make(s);
        sup->start();
        return sup;
    }

private slots:
    void init() { rig_.reset(); }
    void cleanup() {
        if (rig_.sup) {
            rig_.sup->stop();
            QTRY_VERIFY_WITH_TIMEOUT(rig_.sup->status().state == State::Stopped ||
                                         rig_.sup->status().state == State::Failed,
                                     kLong);
        }
        rig_.drop();
    }

    void aBadOptionIsNamedWithItsExitCode() {
        Supervisor *sup = startWithABadOption();
        QTRY_VERIFY2_WITH_TIMEOUT(sup->status().state == State::Failed, qPrintable(rig_.dump()),
                                  kLong);
        const FailureStatus &f = sup->status().failure;
        QVERIFY2(f.cause.startsWith(QStringLiteral("the service stopped at once: ")),
                 qPrintable(f.cause));
        QVERIFY2(f.cause.contains(QStringLiteral("Unknown option 'bogus'")), qPrintable(f.cause));
        QVERIFY2(f.cause.contains(QStringLiteral("exit code 2: bad arguments")),
                 qPrintable(f.cause));
        QVERIFY(!f.portHeld);
        QVERIFY(f.serviceLog.size() >= 1 && f.serviceLog.size() <= 12);
        QVERIFY2(f.serviceLog.join(QLatin1Char('\n')).contains(QStringLiteral("Unknown option")),
                 qPrintable(f.serviceLog.join(QLatin1Char('\n'))));
        QCOMPARE(f.logPath, sup->config().serviceLogPath);
        // Issue 27 (3): refused arguments are not retried. One start, no restart, Failed with
        // the setting to change (it was five starts over ~20 s with default timings).
        QVERIFY(f.fix == policy::FixFirst::Arguments);
        QCOMPARE(sup->status().restarts, 0);
        QCOMPARE(rig_.log.filter(QStringLiteral("started pid")).size(), 1);
        QVERIFY2(sup->status().lastError.contains(QStringLiteral("(bad arguments)")),
                 qPrintable(sup->status().lastError));
        QVERIFY(f.exit && f.exit->code == 2);
        // status --json carries it.
        const QJsonObject json = sup->status().toJson().value(QLatin1String("failure")).toObject();
        QCOMPARE(json.value(QLatin1String("cause")).toString(), f.cause);
        QCOMPARE(json.value(QLatin1String("serviceLog")).toArray().size(), f.serviceLog.size());
        QCOMPARE(json.value(QLatin1String("fix")).toString(), QStringLiteral("arguments"));
    }

    void tryingAgainClearsTheFailure() {
        Supervisor *sup = startWithABadOption();
        QTRY_VERIFY2_WITH_TIMEOUT(sup->status().state == State::Failed, qPrintable(rig_.dump()),
                                  kLong);
        QVERIFY(!sup->status().failure.cause.isEmpty());
        sup->start(); // "Try again"
        QTRY_VERIFY2_WITH_TIMEOUT(sup->status().state != State::Failed, qPrintable(rig_.dump()),
                                  kLong);
        QVERIFY(sup->status().failure.isEmpty());
        QTRY_VERIFY2_WITH_TIMEOUT(sup->status().state == State::Failed, qPrintable(rig_.dump()),
                                  kLong);
        QVERIFY2(sup->status().failure.cause.contains(QStringLiteral("Unknown option")),
                 qPrintable(rig_.dump()));
    }

    void aForeignListenerIsNamedAndAFreePortOffered() {
        QTcpServer foreign; // a real listener that is not the service
        QVERIFY(foreign.listen(QHostAddress::LocalHost, 0));
        const quint16 port = foreign.serverPort();
        Supervisor *sup = rig_.make(shortTimings(port));
        sup->start();
        QTRY_VERIFY2_WITH_TIMEOUT(sup->status().state == State::Failed, qPrintable(rig_.dump()),
                                  kLong);
        const FailureStatus f = sup->status().failure; // a copy: sup goes before its last use
        QVERIFY(f.portHeld);
        QVERIFY2(f.cause.startsWith(QStringLiteral("port %1 is held by ").arg(port)),
                 qPrintable(f.cause));
#ifndef Q_OS_WIN // wine reports pid 0 as the owner of every listener
        QVERIFY2(f.portHolder.contains(QStringLiteral("(pid %1)").arg(os::currentPid())),
                 qPrintable(f.portHolder));
        QVERIFY2(f.portHolder.contains(QStringLiteral("tst_failure_cause")),
                 qPrintable(f.portHolder));
#endif
        QVERIFY(f.freePort != 0);
        QVERIFY(f.freePort != port);
        QCOMPARE(tryBindLoopback(f.freePort), policy::BindResult::Ok);

        // The offer works: the service runs on it while the foreign program keeps its port.
        rig_.drop();
        Supervisor *there = rig_.make(shortTimings(f.freePort));
        there->start();
        QTRY_VERIFY2_WITH_TIMEOUT(there->status().state == State::Healthy, qPrintable(rig_.dump()),
                                  kLong);
        QVERIFY(there->status().failure.isEmpty());
        QVERIFY(foreign.isListening());
    }

    void aMissingProgramIsNamed() {
        Settings s = shortTimings(test::freeLoopbackPort());
        s.profile = policy::Dialect::Custom;
        s.program = QDir(rig_.dataDir->path()).filePath(QStringLiteral("no-such-service"));
        Supervisor *sup = rig_.make(s);
        sup->start();
        QTRY_VERIFY2_WITH_TIMEOUT(sup->status().state == State::Failed, qPrintable(rig_.dump()),
                                  kLong);
        const FailureStatus &f = sup->status().failure;
        QVERIFY2(f.cause.contains(QStringLiteral("no-such-service")), qPrintable(f.cause));
        QVERIFY2(f.cause.contains(QStringLiteral("[service] program")), qPrintable(f.cause));
        QVERIFY(!f.portHeld);
        QVERIFY(f.fix == policy::FixFirst::Program); // not retried: the program must change
        QCOMPARE(sup->status().restarts, 0);
    }

    void thePortDoctorSeesABindInUse() {
        QTcpServer foreign;
        QVERIFY(foreign.listen(QHostAddress::LocalHost, 0));
        QCOMPARE(tryBindLoopback(foreign.serverPort()), policy::BindResult::InUse);
        QElapsedTimer took;
        took.start();
        const PortExamination e = examinePort(foreign.serverPort(), 0);
        // At Failed it runs on the GUI thread: what it costs is printed for the report.
        qInfo("examinePort of a held port, free port %u found: %lld ms", unsigned(e.freePort),
              took.elapsed());
        QVERIFY(e.diagnosis.isCause);
#ifndef Q_OS_WIN // wine names no owner: there, any listener is in the way
        // The service itself on its port is no fault.
        QVERIFY(!examinePort(foreign.serverPort(), os::currentPid()).diagnosis.isCause);
#endif
        const quint16 free = test::freeLoopbackPort();
        QVERIFY(!examinePort(free, 0).diagnosis.isCause);
    }
};

QTEST_GUILESS_MAIN(TestFailureCause)
#include "tst_failure_cause.moc"
