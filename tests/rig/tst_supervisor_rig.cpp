// The Supervisor's rules on the in-process rig (support/world_rig.h): the real Supervisor, its
// executor and status model, over the simulated world on a virtual clock. The cases are
// tst_supervisor's rules (busy, frozen, crashed, crash-looping, another version, a forged
// registration, a foreign port holder) without its real seconds of waiting; tst_supervisor
// keeps them against real processes and signals. Every step is checked against the world's
// invariants too (never signal an unverified process, the recovery window, the budget).
#include "world_rig.h"

#include <QRegularExpression>
#include <QtTest>

#include <algorithm>

using namespace tether;
using policy::Ms;
using policy::State;

namespace {

// The model's scenario world (the rig collects its log itself).
sim::WorldOptions rigOptions() {
    return sim::scenarioOptions();
}

// Signals the world delivered to processes of `role`.
int signalsTo(const sim::World &w, sim::Role role, os::Signal sig) {
    const auto &log = w.signalLog();
    return int(std::count_if(log.begin(), log.end(), [&](const sim::SignalRecord &r) {
        return r.delivered && r.role == role && r.sig == sig;
    }));
}

// The back-off of the last restart the Supervisor announced ("restarting in 200 ms").
Ms lastBackoff(const test::WorldRig &rig) {
    static const QRegularExpression re(QStringLiteral("restarting in (\\d+) ms"));
    for (auto it = rig.log.crbegin(); it != rig.log.crend(); ++it) {
        const QRegularExpressionMatch m = re.match(*it);
        if (m.hasMatch()) return m.captured(1).toLongLong();
    }
    return -1;
}

// The back-off of the restart under way, once it has passed (-1: none within 5 s).
Ms nextBackoff(test::WorldRig &rig) {
    if (!rig.advanceUntil([&] { return rig.state() == State::Restarting; }, 5000)) return -1;
    if (!rig.advanceUntil([&] { return rig.state() != State::Restarting; }, 5000)) return -1;
    return lastBackoff(rig);
}

QString toText(const QList<Ms> &values) {
    QStringList out;
    for (const Ms v : values)
        out << QString::number(v);
    return out.join(QStringLiteral(", "));
}

bool noticed(const test::WorldRig &rig, policy::NoticeKind kind) {
    return std::any_of(rig.notices.begin(), rig.notices.end(),
                       [kind](const test::WorldRig::Notice &n) { return n.kind == kind; });
}

} // namespace

class TestSupervisorRig : public QObject {
    Q_OBJECT

    // Tether launched in the world and asked to start; true once it shows Healthy.
    static bool startHealthy(test::WorldRig &rig) {
        rig.launch().start();
        return rig.advanceUntil([&] { return rig.state() == State::Healthy; }, 5000);
    }

private slots:
    void startsTheServiceAndShowsItHealthy() {
        test::WorldRig rig(rigOptions());
        QVERIFY2(startHealthy(rig), qPrintable(rig.dump()));
        const int s = rig.world.currentService();
        QVERIFY(s >= 0);
        QCOMPARE(rig.sup()->status().pid, qint64(rig.world.services()[std::size_t(s)].id.pid));
        QCOMPARE(rig.sup()->status().restarts, 0);
        QCOMPARE(rig.states.front(), State::Starting);
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // Slow answers for most of the recovery window: "not responding", then healthy again; the
    // same process, never signalled, never a second one.
    void aBusyOwnerSurvivesMissedProbesWithinTheWindow() {
        test::WorldRig rig(rigOptions());
        QVERIFY2(startHealthy(rig), qPrintable(rig.dump()));
        const Ms window = rig.world.config().timings.windowMs;
        const qint64 owner = rig.sup()->status().pid;
        rig.world.apply({sim::Act::Busy, window * 7 / 10});
        QVERIFY2(rig.advanceUntil([&] { return rig.state() == State::NotResponding; }, window),
                 qPrintable(rig.dump()));
        QVERIFY2(rig.advanceUntil([&] { return rig.state() == State::Healthy; }, window),
                 qPrintable(rig.dump()));
        QCOMPARE(rig.sup()->status().pid, owner);
        QCOMPARE(rig.sup()->status().restarts, 0);
        QCOMPARE(rig.world.launches(), 1);
        QCOMPARE(signalsTo(rig.world, sim::Role::Service, os::Signal::Terminate), 0);
        QCOMPARE(signalsTo(rig.world, sim::Role::Service, os::Signal::Kill), 0);
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // SIGSTOPped: kept through the whole window (on the rig's clock), then stopped and replaced
    // on the same port.
    void aFrozenOwnerIsReplacedOnTheSamePortOnlyAfterTheWindow() {
        test::WorldRig rig(rigOptions());
        QVERIFY2(startHealthy(rig), qPrintable(rig.dump()));
        const Ms window = rig.world.config().timings.windowMs;
        const qint64 frozen = rig.sup()->status().pid;
        const Ms frozeAt = rig.world.now();
        rig.world.apply({sim::Act::Freeze});
        QVERIFY(rig.advanceUntil([&] { return rig.state() == State::NotResponding; }, window));
        rig.advanceUntil([] { return false; }, frozeAt + window - 50 - rig.world.now());
        QCOMPARE(rig.sup()->status().pid, frozen); // inside the window: kept
        QCOMPARE(signalsTo(rig.world, sim::Role::Service, os::Signal::Kill), 0);
        QVERIFY2(
            rig.advanceUntil(
                [&] { return rig.state() == State::Healthy && rig.sup()->status().pid != frozen; },
                4 * window),
            qPrintable(rig.dump()));
        // Stopped (TERM, CONT so that a frozen process can act on it, then KILL if needed).
        QVERIFY(signalsTo(rig.world, sim::Role::Service, os::Signal::Terminate) >= 1);
        const sim::Proc *old = rig.world.proc(os::Pid(frozen));
        QVERIFY(!old || !old->alive() || old->role != sim::Role::Service);
        QCOMPARE(int(rig.sup()->status().port), rig.world.config().port);
        QVERIFY(rig.sup()->status().restarts >= 1);
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    void aCrashIsRestartedAndAnnounced() {
        test::WorldRig rig(rigOptions());
        QVERIFY2(startHealthy(rig), qPrintable(rig.dump()));
        const qint64 first = rig.sup()->status().pid;
        rig.world.apply({sim::Act::Crash});
        QVERIFY(rig.advanceUntil([&] { return rig.state() != State::Healthy; }, 1000));
        QVERIFY2(
            rig.advanceUntil(
                [&] { return rig.state() == State::Healthy && rig.sup()->status().pid != first; },
                5000),
            qPrintable(rig.dump()));
        QVERIFY(noticed(rig, policy::NoticeKind::Crashed));
        QVERIFY(noticed(rig, policy::NoticeKind::Restarted));
        QCOMPARE(rig.sup()->status().restarts, 1);
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // Every start crashes: Failed after the burst, saying it gave up, and it stays so.
    void aCrashLoopGivesUpAfterTheBurst() {
        test::WorldRig rig(rigOptions());
        rig.launch().start();
        const int burst = rig.world.config().timings.burst;
        for (int i = 0; i < burst + 2; ++i) {
            rig.advanceUntil(
                [&] { return rig.state() == State::Healthy || rig.state() == State::Failed; },
                5000);
            if (rig.state() != State::Healthy) break;
            rig.world.apply({sim::Act::Crash});
            rig.advanceUntil([&] { return rig.state() != State::Healthy; }, 1000);
        }
        QVERIFY2(rig.advanceUntil([&] { return rig.state() == State::Failed; }, 5000),
                 qPrintable(rig.dump()));
        QCOMPARE(rig.world.launches(), burst);
        QVERIFY2(rig.sup()->status().lastError.contains(QLatin1String("gave up")),
                 qPrintable(rig.dump()));
        QVERIFY(!rig.sup()->status().failure.cause.isEmpty());
        rig.advanceUntil([] { return false; }, rig.world.config().timings.burstWindowMs);
        QCOMPARE(rig.state(), State::Failed);
        QCOMPARE(rig.world.launches(), burst);
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // Another version than the installed one: shown and announced, not replaced (not opted in).
    void anotherVersionIsFlaggedNotReplaced() {
        test::WorldRig rig(rigOptions());
        rig.world.binaryVersion = "0.9";
        QVERIFY2(startHealthy(rig), qPrintable(rig.dump()));
        QVERIFY(rig.advanceUntil([&] { return rig.sup()->status().versionMismatch; }, 1000));
        QCOMPARE(rig.sup()->status().version, QStringLiteral("0.9"));
        QVERIFY(noticed(rig, policy::NoticeKind::VersionMismatch));
        const qint64 pid = rig.sup()->status().pid;
        rig.advanceUntil([] { return false; }, 10 * rig.world.config().timings.windowMs);
        QCOMPARE(rig.sup()->status().pid, pid);
        QCOMPARE(rig.world.launches(), 1);
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // The registration names a live process that is not the service: it receives nothing.
    void aForgedRegistrationIsNeverSignalled() {
        test::WorldRig rig(rigOptions());
        rig.world.apply({sim::Act::Decoy, 0});    // a plain process, not listening
        rig.world.apply({sim::Act::ForgeReg, 2}); // the registration names it exactly
        QVERIFY(rig.world.registrationFile().read == supervision::OwnRegistration::Read::Ok);
        const os::Pid decoy = rig.world.registrationFile().id.pid;
        QVERIFY2(startHealthy(rig), qPrintable(rig.dump()));
        QVERIFY(rig.sup()->status().pid != qint64(decoy));
        QCOMPARE(signalsTo(rig.world, sim::Role::Decoy, os::Signal::Terminate) +
                     signalsTo(rig.world, sim::Role::Decoy, os::Signal::Kill),
                 0);
        QVERIFY(rig.world.proc(decoy) && rig.world.proc(decoy)->alive());
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // Another program holds the port: Failed at once, saying so; the holder is left alone.
    void aForeignPortHolderGivesFailedAndIsLeftAlone() {
        test::WorldRig rig(rigOptions());
        rig.world.apply({sim::Act::Decoy, 4}); // listens on the service's port (IPv4, HTTP)
        rig.launch().start();
        QVERIFY2(rig.advanceUntil([&] { return rig.state() == State::Failed; }, 5000),
                 qPrintable(rig.dump()));
        QVERIFY(noticed(rig, policy::NoticeKind::PortHeld));
        QVERIFY2(rig.sup()->status().lastError.contains(QLatin1String("[service] port")),
                 qPrintable(rig.dump()));
        QCOMPARE(rig.world.launches(), 0);
        QCOMPARE(signalsTo(rig.world, sim::Role::Foreign, os::Signal::Terminate) +
                     signalsTo(rig.world, sim::Role::Foreign, os::Signal::Kill),
                 0);
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // --- Issue 13's regressions a, g and k (tst_regressions kept them with real waits) ---------

    // a. Opted in to updates, and the service always reports another version than the
    // installed one: one replacement, then it is kept (and still flagged), never a loop.
    void anUpdateReplacesOnceThenFlags() {
        test::WorldRig rig(rigOptions());
        rig.world.config().autoReplaceOnVersionChange = true;
        rig.world.config().installedVersion = "1.0";
        rig.world.binaryVersion = "0.9"; // what runs is not what is installed, even after
        QVERIFY2(startHealthy(rig), qPrintable(rig.dump()));
        rig.advanceUntil([] { return false; }, 8 * rig.world.config().timings.windowMs);
        QCOMPARE(rig.world.launches(), 2); // the first one and its one replacement
        QCOMPARE(rig.state(), State::Healthy);
        QVERIFY(rig.sup()->status().versionMismatch);
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // g. Busy spells (missed probes, then answers) are no failure and do not restart the
    // "stable" clock: after stableResetMs of a running service the back-off is back to its
    // initial value, though a busy spell ended less than stableResetMs ago.
    void busySpellsKeepTheStableClock() {
        test::WorldRig rig(rigOptions());
        const policy::Timings &t = rig.world.config().timings;
        rig.launch().start();
        Ms grown = 0;
        for (int i = 0; i < 2; ++i) { // two crashes: the back-off grows
            QVERIFY2(rig.advanceUntil([&] { return rig.state() == State::Healthy; }, 4000),
                     qPrintable(rig.dump()));
            rig.world.apply({sim::Act::Crash});
            grown = nextBackoff(rig);
        }
        QVERIFY2(grown > t.backoffInitialMs, qPrintable(rig.dump())); // the control
        QVERIFY(rig.advanceUntil([&] { return rig.state() == State::Healthy; }, 4000));
        const Ms until = rig.world.now() + t.stableResetMs + t.windowMs;
        while (rig.world.now() < until) { // busy spells shorter than the window, again and again
            rig.world.apply({sim::Act::Busy, t.windowMs * 4 / 10});
            rig.advanceUntil([] { return false; }, t.windowMs * 3 / 2);
        }
        QCOMPARE(rig.state(), State::Healthy);
        QVERIFY(rig.logHas(QStringLiteral("-> not-responding"))); // the spells were seen
        rig.world.apply({sim::Act::Crash});
        QCOMPARE(nextBackoff(rig), t.backoffInitialMs);
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // k. A service that freezes soon after every start: each recovery replacement counts
    // against the restart budget, with a growing back-off, and Tether gives up after `burst`.
    void recoveriesCountAgainstTheBudget() {
        test::WorldRig rig(rigOptions());
        const int burst = rig.world.config().timings.burst;
        rig.launch().start();
        QList<Ms> backoffs;
        for (int i = 0; i < burst + 2; ++i) {
            rig.advanceUntil(
                [&] { return rig.state() == State::Healthy || rig.state() == State::Failed; },
                5000);
            if (rig.state() != State::Healthy) break;
            rig.world.apply({sim::Act::Freeze});
            const Ms backoff = nextBackoff(rig);
            if (backoff >= 0) backoffs << backoff;
        }
        QVERIFY2(rig.advanceUntil([&] { return rig.state() == State::Failed; }, 5000),
                 qPrintable(rig.dump()));
        QCOMPARE(rig.world.launches(), burst);
        QVERIFY2(rig.sup()->status().lastError.contains(QLatin1String("gave up")),
                 qPrintable(rig.dump()));
        QCOMPARE(backoffs.size(), burst - 1);
        for (int i = 1; i < backoffs.size(); ++i)
            QVERIFY2(backoffs[i] > backoffs[i - 1],
                     qPrintable(QStringLiteral("back-offs %1").arg(toText(backoffs))));
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // --- A laptop: Tether stalled, the machine asleep, clocks set (tst_laptop's rules) ---------

    // Tether stopped for twice the window while the service runs on: the gap is no evidence
    // against it, and it is kept, as healthy, for more than a window after.
    void tetherStalledLongerThanTheWindowLeavesAHealthyServiceAlone() {
        test::WorldRig rig(rigOptions());
        QVERIFY2(startHealthy(rig), qPrintable(rig.dump()));
        const Ms window = rig.world.config().timings.windowMs;
        const qint64 pid = rig.sup()->status().pid;
        rig.world.stall(2 * window);
        QVERIFY2(rig.advanceUntil([&] { return rig.logHas(QStringLiteral("time gap")); }, window),
                 qPrintable(rig.dump()));
        rig.advanceUntil([] { return false; }, 2 * window);
        QCOMPARE(rig.state(), State::Healthy);
        QCOMPARE(rig.sup()->status().pid, pid);
        QCOMPARE(rig.sup()->status().restarts, 0);
        QVERIFY2(!rig.logHas(QStringLiteral("terminating")), qPrintable(rig.dump()));
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // The same stall, and the service slow to answer right after it (for less than a window):
    // not responding for a while, then healthy; the last answer's age before the stall is no
    // evidence either.
    void tetherStalledThenTheServiceAnswersSlowlyRightAfterTheGap() {
        test::WorldRig rig(rigOptions());
        QVERIFY2(startHealthy(rig), qPrintable(rig.dump()));
        const Ms window = rig.world.config().timings.windowMs;
        const qint64 pid = rig.sup()->status().pid;
        rig.world.stall(2 * window);
        rig.world.apply({sim::Act::Busy, window * 7 / 10});
        QVERIFY2(rig.advanceUntil([&] { return rig.state() == State::NotResponding; }, window),
                 qPrintable(rig.dump()));
        QVERIFY2(rig.advanceUntil([&] { return rig.state() == State::Healthy; }, 2 * window),
                 qPrintable(rig.dump()));
        QCOMPARE(rig.sup()->status().pid, pid);
        QVERIFY2(!rig.logHas(QStringLiteral("terminating")), qPrintable(rig.dump()));
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // A frozen service, and `event` half-way into its window: how long after the event the
    // Supervisor decides to stop it, on the rig's clock (-1: never within 10 windows).
    static Ms terminationDelayAfter(test::WorldRig &rig, const std::function<void()> &event) {
        const Ms window = rig.world.config().timings.windowMs;
        rig.world.apply({sim::Act::Freeze});
        rig.advanceUntil([] { return false; }, window / 2);
        event();
        const Ms at = rig.world.now();
        if (!rig.advanceUntil([&] { return rig.logHas(QStringLiteral("terminating")); },
                              10 * window))
            return -1;
        return rig.world.now() - at;
    }

    // A wake (the OS says the machine resumed) restarts the window from now: the stop comes no
    // sooner than a whole window after it, and the frozen service is still replaced in the end.
    void aWakeEventRestartsTheWindowFromNow() {
        test::WorldRig rig(rigOptions());
        QVERIFY2(startHealthy(rig), qPrintable(rig.dump()));
        const Ms window = rig.world.config().timings.windowMs;
        const Ms delay = terminationDelayAfter(
            rig, [&] { rig.sup()->noteTimeGap(QStringLiteral("system resumed (test)")); });
        QVERIFY2(delay >= window,
                 qPrintable(QString::number(delay) + QLatin1Char('\n') + rig.dump()));
        QVERIFY(rig.logHas(QStringLiteral("time gap (system resumed (test))")));
        QVERIFY2(rig.advanceUntil([&] { return rig.sup()->status().restarts >= 1; }, 4 * window),
                 qPrintable(rig.dump()));
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // Tether's clock jumps an hour ahead inside the window: a gap, not an hour of silence.
    void aClockJumpForwardIsAGapNotElapsedTime() {
        test::WorldRig rig(rigOptions());
        QVERIFY2(startHealthy(rig), qPrintable(rig.dump()));
        const policy::Timings &t = rig.world.config().timings;
        const Ms delay = terminationDelayAfter(rig, [&] { rig.world.jump(3600 * 1000); });
        QVERIFY2(delay >= t.windowMs - t.probeIntervalMs,
                 qPrintable(QString::number(delay) + QLatin1Char('\n') + rig.dump()));
        QVERIFY(rig.logHas(QStringLiteral("time gap")));
        QVERIFY2(
            rig.advanceUntil([&] { return rig.sup()->status().restarts >= 1; }, 4 * t.windowMs),
            qPrintable(rig.dump()));
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // Days forward and back while it answers: healthy throughout, the same process.
    void aHealthyServiceIsUntouchedByClockJumps() {
        test::WorldRig rig(rigOptions());
        QVERIFY2(startHealthy(rig), qPrintable(rig.dump()));
        const qint64 pid = rig.sup()->status().pid;
        for (const Ms jump : {24 * 3600 * 1000LL, 7 * 24 * 3600 * 1000LL}) {
            rig.world.jump(jump);
            rig.advanceUntil([] { return false; }, rig.world.config().timings.windowMs);
            QVERIFY2(rig.state() == State::Healthy, qPrintable(rig.dump()));
            QCOMPARE(rig.sup()->status().pid, pid);
        }
        QVERIFY2(!rig.logHas(QStringLiteral("terminating")), qPrintable(rig.dump()));
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }

    // A person's stop ends the service and its MCP children; a restart gives a new process.
    void aStopAndARestartFromThePerson() {
        test::WorldRig rig(rigOptions());
        QVERIFY2(startHealthy(rig), qPrintable(rig.dump()));
        const qint64 first = rig.sup()->status().pid;
        rig.sup()->restart();
        QVERIFY2(
            rig.advanceUntil(
                [&] { return rig.state() == State::Healthy && rig.sup()->status().pid != first; },
                5000),
            qPrintable(rig.dump()));
        rig.sup()->stop();
        QVERIFY2(rig.advanceUntil([&] { return rig.state() == State::Stopped; }, 5000),
                 qPrintable(rig.dump()));
        rig.advanceUntil([] { return false; }, 1000);
        for (const sim::Proc &p : rig.world.procs())
            QVERIFY2(!p.alive() || (p.role != sim::Role::Service && p.role != sim::Role::Mcp),
                     qPrintable(QStringLiteral("pid %1 (%2) still runs")
                                    .arg(p.pid)
                                    .arg(QLatin1String(sim::toString(p.role)))));
        QCOMPARE(rig.sup()->status().pid, qint64(0));
        QVERIFY2(rig.clean(), qPrintable(rig.dump()));
    }
};

QTEST_GUILESS_MAIN(TestSupervisorRig)
#include "tst_supervisor_rig.moc"
