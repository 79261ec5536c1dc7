// What a dead service of Tether's own left, when Tether saw it gone before its launcher reported
// the exit: the clean-up first leaves its process group out (the id might have been free, and
// reused, since), and takes it once the exit is reported.
#include "machine_driver.h"

#include <QtTest>

using namespace tether::policy;
using tether::test::MachineDriver;

namespace {

SupervisionConfig config() {
    SupervisionConfig c;
    c.port = 4096;
    c.cleanOrphans = true; // [orphans] whileRunning=clean, the default
    return c;
}

// Tether's own child (pid 5000, leading group 5000), healthy, then asked to restart after it
// died: the verification finds it gone before the launcher told.
MachineDriver goneBeforeItsExitIsReported(const SupervisionConfig &c) {
    MachineDriver d(c);
    d.feed(StartRequested{});
    StartupFacts f;
    f.launchPort = 4096;
    f.configuredPort.readable = true;
    d.feed(f);
    d.feed(Launched{{5000, 900}, 5000, "pw"});
    d.answer(true);
    d.feed(RestartRequested{});
    d.take<Verify>();
    d.feed(Verified{1, Liveness::Gone, false, PortFacts{true, {}}, {}, std::nullopt});
    return d;
}

} // namespace

class TestCleanupAfterExit : public QObject {
    Q_OBJECT
private slots:
    // Found by the model (seed 240155): an MCP server in the group that no ledger names stayed
    // running, because the exit reported during the clean-up was not used.
    void theGroupGoesOnceTheExitIsReported() {
        MachineDriver d = goneBeforeItsExitIsReported(config());
        std::vector<RunStopPlan> plans = d.take<RunStopPlan>();
        QCOMPARE(plans.size(), std::size_t(1));
        QVERIFY(!plans[0].plan.group);
        d.feed(Exited{{5000, 900}, "pid 5000 was killed"}); // the launcher reaps it now
        d.feed(StopPlanDone{});
        plans = d.take<RunStopPlan>();
        QCOMPARE(plans.size(), std::size_t(1));
        QVERIFY(plans[0].plan.group);
        QCOMPARE(plans[0].plan.pgid, 5000);
        QVERIFY(!plans[0].plan.terminate);
        d.feed(StopPlanDone{});
        QVERIFY(!d.take<GatherStartupFacts>().empty()); // the restart goes on
        QVERIFY(d.take<RunStopPlan>().empty());
    }

    // With no exit reported, the group stays out: its id may belong to someone else by now.
    void withoutTheExitTheGroupStaysOut() {
        MachineDriver d = goneBeforeItsExitIsReported(config());
        QCOMPARE(d.take<RunStopPlan>().size(), std::size_t(1));
        d.feed(StopPlanDone{});
        QVERIFY(d.take<RunStopPlan>().empty());
        QVERIFY(!d.take<GatherStartupFacts>().empty());
    }

    // [orphans] whileRunning other than clean: a group is never swept after a death.
    void notWhenOrphansAreNotCleaned() {
        SupervisionConfig c = config();
        c.cleanOrphans = false;
        MachineDriver d = goneBeforeItsExitIsReported(c);
        QCOMPARE(d.take<RunStopPlan>().size(), std::size_t(1));
        d.feed(Exited{{5000, 900}, "pid 5000 was killed"});
        d.feed(StopPlanDone{});
        QVERIFY(d.take<RunStopPlan>().empty());
    }
};

QTEST_GUILESS_MAIN(TestCleanupAfterExit)
#include "tst_cleanup_after_exit.moc"
