// One Tether per user, decided by a lock a stall cannot fake, and verbs whose exit codes say
// what README promises: a Tether stopped (SIGSTOP) behind a full listen backlog is not taken
// for dead by a second one, and `tether status` says 5 (running, not answering), not 1 or 4;
// a Tether whose control socket Qt closed (accept() failed: out of descriptors) is still
// running for `status` (5), and listens again once it can. And one Tether after another: a
// service the first left while it was still starting is the next one's to wait for.
#include "tether_rig.h"

#include <QDir>
#include <QLocalSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/resource.h>

using namespace tether;

namespace {

int openDescriptors(qint64 pid) {
    return int(QDir(QStringLiteral("/proc/%1/fd").arg(pid))
                   .entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot)
                   .size());
}

} // namespace

class TestSingleInstance : public QObject {
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> root_;
    std::unique_ptr<test::TetherRig> rig_;
    int port_ = 0;

private slots:
    void init() {
        root_ = std::make_unique<QTemporaryDir>();
        QVERIFY(root_->isValid());
        rig_ = std::make_unique<test::TetherRig>(root_->path());
        port_ = test::freeLoopbackPort();
    }
    void cleanup() { rig_.reset(); }

    // Two Tethers once supervised the same service: the newcomer found the stalled one's backlog
    // full, deleted its socket and adopted its service.
    void aStalledTetherBehindAFullBacklogIsNotTakenForDead() {
        const QString ini = rig_->writeIni(test::TetherRig::demoSettings(port_));
        test::TetherRig::Instance *first = rig_->start(ini);
        QCOMPARE(rig_->waitForState({QStringLiteral("healthy")}), QStringLiteral("healthy"));
        const qint64 service = rig_->status().value(QLatin1String("pid")).toInteger();
        const os::Identity tether{first->pid(), os::identityOf(first->pid())->startTime};
        QVERIFY(os::signalIdentity(tether, os::Signal::Stop)); // our own child
        std::vector<std::unique_ptr<QLocalSocket>> crowd;      // until the backlog refuses
        for (int i = 0; i < 200; ++i) {
            auto s = std::make_unique<QLocalSocket>();
            s->connectToServer(rig_->dataPath(QStringLiteral("control.sock")));
            const bool in = s->waitForConnected(50);
            crowd.push_back(std::move(s));
            if (!in) break;
        }

        const test::CliRun status = rig_->cli({QStringLiteral("status")});
        test::TetherRig::Instance *second = rig_->start(ini);
        const bool secondEnded = test::awaitExit(*second->process, 15000);
        const QStringList secondLog = rig_->lines(second);
        QVERIFY(os::signalIdentity(tether, os::Signal::Continue));
        crowd.clear();

        QVERIFY2(secondEnded, qPrintable(QStringLiteral("a second Tether runs beside the stalled "
                                                        "one:\n%1")
                                             .arg(secondLog.join(QLatin1Char('\n')))));
        QCOMPARE(second->process->exitCode(), 1);
        QVERIFY2(status.exitCode == 5,
                 qPrintable(QStringLiteral("status of a stalled Tether: exit %1, %2")
                                .arg(status.exitCode)
                                .arg(QString::fromUtf8(status.err))));
        QCOMPARE(test::demoServicesOnPort(port_), QList<qint64>{service});
        const test::CliRun after =
            rig_->cli({QStringLiteral("status"), QStringLiteral("--details")});
        QVERIFY2(after.exitCode == 0, after.err.constData()); // the first one is still reached
        QVERIFY(after.out.contains(QByteArray::number(service)));
    }

    // Qt's QLocalServer closes its endpoint for good (and deletes the socket file) when accept()
    // fails; `status` then said "not running" (4) while Tether ran.
    void aClosedEndpointIsRunningNotAnswering() {
        const QString ini = rig_->writeIni(test::TetherRig::demoSettings(port_));
        test::TetherRig::Instance *t = rig_->start(ini);
        QCOMPARE(rig_->waitForState({QStringLiteral("healthy")}), QStringLiteral("healthy"));
        const pid_t pid = pid_t(t->pid());
        struct rlimit before {};
        QVERIFY(::prlimit(pid, RLIMIT_NOFILE, nullptr, &before) == 0);
        struct rlimit tight = before;
        tight.rlim_cur = rlim_t(openDescriptors(pid) + 1); // one more connection fits, not two
        QVERIFY(::prlimit(pid, RLIMIT_NOFILE, &tight, nullptr) == 0);
        std::vector<std::unique_ptr<QLocalSocket>> clients;
        const QString sock = rig_->dataPath(QStringLiteral("control.sock"));
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         auto s = std::make_unique<QLocalSocket>();
                         s->connectToServer(sock);
                         s->waitForConnected(100);
                         clients.push_back(std::move(s));
                         return !QFileInfo::exists(sock);
                     },
                     10000),
                 "Qt's server did not close at EMFILE: nothing to test");
        // Held still while `status` looks: Tether listens again on its next probe, which on a
        // loaded machine came before the CLI had started (exit 0, nothing to see).
        QVERIFY(::kill(pid, SIGSTOP) == 0);
        const test::CliRun closed = rig_->cli({QStringLiteral("status")});
        QVERIFY(::kill(pid, SIGCONT) == 0);
        clients.clear();
        QVERIFY(::prlimit(pid, RLIMIT_NOFILE, &before, nullptr) == 0);
        QVERIFY2(closed.exitCode == 5,
                 qPrintable(QStringLiteral("status with the endpoint closed: exit %1, %2")
                                .arg(closed.exitCode)
                                .arg(QString::fromUtf8(closed.err))));
        QVERIFY2(rig_->waitForLine(t, QStringLiteral("listening again"), 10000),
                 qPrintable(rig_->dump(t)));
        QCOMPARE(rig_->cli({QStringLiteral("status")}).exitCode, 0);
    }

    // Quit (or killed) while its own service starts: the next Tether dropped the registration
    // ("does not listen on port"), launched a second service that lost the port and ended
    // Failed "port held by tether (pid <its own>)"; the first was never managed again.
    void aServiceLeftWhileStartingIsAdoptedNotDuplicated_data() {
        QTest::addColumn<bool>("killed");
        QTest::newRow("quit") << false;
        QTest::newRow("killed") << true;
    }
    void aServiceLeftWhileStartingIsAdoptedNotDuplicated() {
        QFETCH(bool, killed);
        test::TetherRig::Values v = test::TetherRig::demoSettings(port_);
        v.insert(QStringLiteral("service/arguments"),
                 QStringList{QStringLiteral("--slow-start"), QStringLiteral("2500")});
        v.insert(QStringLiteral("probe/intervalMs"), 300);
        const QString ini = rig_->writeIni(v);
        test::TetherRig::Instance *first = rig_->start(ini);
        QVERIFY(rig_->waitForLine(first, QStringLiteral("started pid"), 10000));
        QCOMPARE(rig_->status().value(QLatin1String("state")).toString(),
                 QStringLiteral("starting"));
        const qint64 service = rig_->status().value(QLatin1String("pid")).toInteger();
        if (killed) {
            const os::Identity t{first->pid(), os::identityOf(first->pid())->startTime};
            QVERIFY(os::signalIdentity(t, os::Signal::Kill)); // our own child
            QVERIFY(test::awaitExit(*first->process, 5000));
        } else {
            QVERIFY(rig_->quit(first));
            QVERIFY2(
                !rig_->lines(first).join(QLatin1Char('\n')).contains(QStringLiteral("-> healthy")),
                qPrintable(rig_->lines(first).join(QLatin1Char('\n'))));
        }
        test::TetherRig::Instance *next = rig_->start(ini);
        QCOMPARE(rig_->waitForState({QStringLiteral("healthy"), QStringLiteral("failed")}, 20000),
                 QStringLiteral("healthy"));
        QCOMPARE(rig_->status().value(QLatin1String("pid")).toInteger(), service);
        QCOMPARE(test::demoServicesOnPort(port_), QList<qint64>{service});
        QVERIFY2(!rig_->lines(next)
                      .join(QLatin1Char('\n'))
                      .contains(QStringLiteral("registration dropped")),
                 qPrintable(rig_->dump(next)));
    }
};

QTEST_GUILESS_MAIN(TestSingleInstance)
#include "tst_single_instance.moc"
