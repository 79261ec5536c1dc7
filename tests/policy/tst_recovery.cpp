// The bounded-recovery rules, exhaustively, with a fake clock (plain numbers).
#include "policy/recovery.h"
#include "policy/state.h"
#include "policy/supervision.h"

#include <QtTest>

using namespace tether::policy;

class TestRecovery : public QObject {
    Q_OBJECT
private slots:
    void startupProbingDoublesTo500() {
        const Ms expected[] = {25, 50, 100, 200, 400, 500, 500, 500};
        for (int i = 0; i < 8; ++i)
            QCOMPARE(startupProbeDelay(i), expected[i]);
    }

    void busyOwnerIsKeptForTheWholeWindowEdgeExactly() {
        Timings t;
        t.windowMs = 30000;
        RecoveryWindow w = onProbeAnswered(windowOpenedAt(0), 1000); // last answer at 1000
        // Three (and more) missed probes inside the window: never recover.
        for (Ms sent : {6000, 11000, 16000, 21000, 26000})
            w = onProbeMissed(w, sent);
        QVERIFY(w.freshMiss);
        QCOMPARE(decideWindow(w, 1000 + 29999, t).recover, false);
        QCOMPARE(decideWindow(w, 1000 + 29999, t).remainingMs, Ms(1));
        QCOMPARE(decideWindow(w, 1000 + 30000, t).recover, true);
    }

    void theAgeOfTheLastAnswerAloneIsNoEvidence() {
        Timings t;
        const RecoveryWindow w = onProbeAnswered(windowOpenedAt(0), 1000);
        QCOMPARE(decideWindow(w, 1000 + 10 * t.windowMs, t).recover, false);
    }

    void aMissOfAProbeSentBeforeTheAnchorIsNoEvidence() {
        Timings t;
        RecoveryWindow w = onProbeAnswered(windowOpenedAt(0), 5000);
        w = onProbeMissed(w, 4000); // sent before the last answer: stale
        QVERIFY(!w.freshMiss);
        QCOMPARE(decideWindow(w, 5000 + t.windowMs, t).recover, false);
    }

    // Issue 15: a heartbeat restarts the window as an answer does, within one window of the
    // last answer; later ones earn nothing, so a silent health route is replaced after two.
    void aLifeSignRestartsTheWindowWithinOneWindowOfTheLastAnswer() {
        Timings t;
        RecoveryWindow w = onProbeAnswered(windowOpenedAt(0), 1000);
        w = onProbeMissed(w, 6000);
        w = onLifeSign(w, 10000, t);
        QCOMPARE(w.anchor, Ms(10000));
        QVERIFY(!w.freshMiss); // the miss before the heartbeat is no longer fresh
        QCOMPARE(decideWindow(w, 31000, t).recover, false);
        w = onLifeSign(w, 30000, t); // 29 s after the answer: still credited
        QCOMPARE(w.anchor, Ms(30000));
        const RecoveryWindow late = onLifeSign(w, 31001, t); // past it: nothing
        QCOMPARE(late.anchor, Ms(30000));
        w = onProbeMissed(late, 35000);
        QCOMPARE(decideWindow(w, 59999, t).recover, false);
        QCOMPARE(decideWindow(w, 60000, t).recover, true); // two windows after the answer
        // An answer renews the credit.
        w = onProbeAnswered(w, 61000);
        QCOMPARE(onLifeSign(w, 90000, t).anchor, Ms(90000));
    }

    void anAnswerClosesTheWindow() {
        Timings t;
        RecoveryWindow w = onProbeMissed(windowOpenedAt(0), 0);
        w = onProbeAnswered(w, 29000);
        QCOMPARE(decideWindow(w, 31000, t).recover, false);
        QCOMPARE(decideWindow(w, 31000, t).remainingMs, Ms(28000));
    }

    void aTimeGapRestartsTheWindowFromNow() {
        Timings t;
        RecoveryWindow w = onProbeMissed(onProbeAnswered(windowOpenedAt(0), 0), 5000);
        // Eight hours of sleep later: the window starts again, and the old miss is not evidence.
        const Ms wake = 8 * 3600 * 1000;
        w = onTimeGap(w, wake);
        QCOMPARE(decideWindow(w, wake + 1, t).recover, false);
        QCOMPARE(decideWindow(w, wake + t.windowMs, t).recover, false); // no fresh miss yet
        w = onProbeMissed(w, wake + 10);
        QCOMPARE(decideWindow(w, wake + t.windowMs - 1, t).recover, false);
        QCOMPARE(decideWindow(w, wake + t.windowMs, t).recover, true);
    }

    void timeGapDetection() {
        Timings t;
        t.probeIntervalMs = 5000;
        QVERIFY(!isTimeGap(1000, 1000, t));
        QVERIFY(!isTimeGap(1000, 1000 + 10000, t)); // 2 x interval: still a slow loop
        QVERIFY(isTimeGap(1000, 1000 + 10001, t));
        t.probeIntervalMs = 100; // short test timings: never below one second
        QVERIFY(!isTimeGap(0, 1000, t));
        QVERIFY(isTimeGap(0, 1001, t));
    }

    void killVerdicts_data() {
        QTest::addColumn<int>("identity");
        QTest::addColumn<int>("port");
        QTest::addColumn<bool>("ours");
        QTest::addColumn<int>("verdict");
        using I = Liveness;
        using P = PortHolder;
        using K = KillVerdict;
        struct Row {
            const char *name;
            I i;
            P p;
            bool ours;
            K k;
        };
        const Row rows[] = {
            {"verified owner of the port", I::Alive, P::Service, false, K::Proceed},
            {"our child, port free", I::Alive, P::Free, true, K::Proceed},
            {"adopted, not listening: not the service", I::Alive, P::Free, false, K::DropStale},
            {"adopted, other owns port: not the service", I::Alive, P::Other, false, K::DropStale},
            {"port table unreadable, our child", I::Alive, P::Unknown, true, K::Proceed},
            {"port table unreadable, adopted", I::Alive, P::Unknown, false, K::Refuse},
            {"port owner invisible (another user's), adopted", I::Alive, P::Invisible, false,
             K::Refuse},
            {"pid gone", I::Gone, P::Free, true, K::DropStale},
            {"pid reused", I::Different, P::Other, false, K::DropStale},
            {"pid reused, ours", I::Different, P::Service, true, K::DropStale},
            {"identity unknown", I::Unknown, P::Service, true, K::Refuse},
            {"identity unknown, port free", I::Unknown, P::Free, false, K::Refuse},
        };
        for (const Row &r : rows)
            QTest::newRow(r.name) << int(r.i) << int(r.p) << r.ours << int(r.k);
    }
    void killVerdicts() {
        QFETCH(int, identity);
        QFETCH(int, port);
        QFETCH(bool, ours);
        QFETCH(int, verdict);
        QCOMPARE(int(decideKill(Liveness(identity), PortHolder(port), ours)), verdict);
    }

    void backoffDoublesToTheMaximum() {
        Timings t;
        t.burst = 100; // not giving up here
        RestartBudget b;
        const Ms expected[] = {1000, 2000, 4000, 8000, 16000, 30000, 30000};
        Ms now = 0;
        for (Ms e : expected) {
            b = recordFailure(b, now, t);
            const RestartDecision d = decideRestart(b, now, t);
            QVERIFY(!d.giveUp);
            QCOMPARE(d.delayMs, e);
            now += 1000;
        }
    }

    void givesUpAfterTheBurstWithinTheWindow() {
        Timings t; // 5 within 10 minutes
        RestartBudget b;
        for (int i = 0; i < 4; ++i) {
            b = recordFailure(b, i * 1000, t);
            QVERIFY(!decideRestart(b, i * 1000, t).giveUp);
        }
        b = recordFailure(b, 4000, t);
        QVERIFY(decideRestart(b, 4000, t).giveUp);
    }

    void failuresOlderThanTheBurstWindowDoNotCount() {
        Timings t;
        RestartBudget b;
        for (int i = 0; i < 4; ++i)
            b = recordFailure(b, i * 1000, t);
        // The fifth failure comes just after the first one left the 10-minute window.
        b = recordFailure(b, t.burstWindowMs + 0, t);
        QVERIFY(!decideRestart(b, t.burstWindowMs, t).giveUp);
        QCOMPARE(int(b.failures.size()), 4);
        // ...and exactly at the edge the first one still counted? 599999 ms old: yes.
        RestartBudget c;
        for (int i = 0; i < 4; ++i)
            c = recordFailure(c, 1, t);
        c = recordFailure(c, t.burstWindowMs, t);
        QVERIFY(decideRestart(c, t.burstWindowMs, t).giveUp);
    }

    void tenMinutesHealthyResetsTheBudget() {
        Timings t;
        RestartBudget b;
        for (int i = 0; i < 4; ++i)
            b = recordFailure(b, 0, t);
        QCOMPARE(onHealthy(b, 100, 100 + t.stableResetMs - 1, t).consecutive, 4);
        const RestartBudget reset = onHealthy(b, 100, 100 + t.stableResetMs, t);
        QCOMPARE(reset.consecutive, 0);
        QVERIFY(reset.failures.empty());
        QCOMPARE(decideRestart(recordFailure(reset, 0, t), 0, t).delayMs, t.backoffInitialMs);
    }

    void versionMismatch() {
        QCOMPARE(decideVersion("1.18.33", "1.18.33", false), VersionAction::None);
        QCOMPARE(decideVersion("v1.18.33", "1.18.33 ", false), VersionAction::None);
        QCOMPARE(decideVersion("1.18.33", "1.19.0", false), VersionAction::ShowMismatch);
        QCOMPARE(decideVersion("1.18.33", "1.19.0", true), VersionAction::Replace);
        QCOMPARE(decideVersion("", "1.19.0", true), VersionAction::None);  // unknown: no claim
        QCOMPARE(decideVersion("1.18.33", "", true), VersionAction::None); // installed unknown
        // Only upwards: a newer service was started by a newer client (opencode's desktop
        // app); replacing it back would make the two replace each other in turn, forever.
        QCOMPARE(decideVersion("2.0.17", "2.0.9", true), VersionAction::ShowMismatch);
        QCOMPARE(decideVersion("2.0.9", "2.0.17", true), VersionAction::Replace);
        QCOMPARE(decideVersion("1.18.33-demo", "1.18.33", true), VersionAction::Replace);
        QCOMPARE(decideVersion("local", "2.0.17", true), VersionAction::ShowMismatch); // no order
    }

    void versionOrder() {
        QCOMPARE(compareVersions("2.0.17", "2.0.9"), std::optional<int>(1));
        QCOMPARE(compareVersions("v2.0", "2.0.0"), std::optional<int>(0));
        QCOMPARE(compareVersions("2.0.0-beta", "2.0.0"), std::optional<int>(-1));
        QCOMPARE(compareVersions("2.0.0-beta", "2.0.0-rc"), std::nullopt);
        QCOMPARE(compareVersions("0.0.0-dev-202611", "0.0.0-dev-202611"), std::optional<int>(0));
        QCOMPARE(compareVersions("local", "2.0.0"), std::nullopt);
        QCOMPARE(compareVersions("99999999999999999999", "1"), std::nullopt);
    }

    // The countdown a person reads ("replaced in 18 s") is the Window timer's own decision.
    void nextStepsCountDownToTheReplacementAndTheRestart() {
        SupervisionState s;
        s.config.timings.windowMs = 30000;
        s.phase = Phase::Running;
        s.responding = false;
        s.window = onProbeMissed(onProbeAnswered(windowOpenedAt(0), 1000), 6000);
        QCOMPARE(nextSteps(s, 13000).replaceInMs, std::optional<Ms>(18000));
        QVERIFY(!nextSteps(s, 13000).restartInMs);
        QCOMPARE(nextSteps(s, 31000).replaceInMs, std::optional<Ms>(0));
        QVERIFY(decideWindow(s.window, 31000, s.config.timings).recover);
        s.responding = true; // healthy: nothing planned
        QVERIFY(!nextSteps(s, 13000).replaceInMs);
        s.phase = Phase::BackingOff;
        s.due[int(Timer::Restart)] = 20000;
        QCOMPARE(nextSteps(s, 16000).restartInMs, std::optional<Ms>(4000));
        QCOMPARE(nextSteps(s, 25000).restartInMs, std::optional<Ms>(0));
        QVERIFY(!nextSteps(s, 16000).replaceInMs);
        QVERIFY(!nextSteps(s, 16000).startupDeadlineInMs);
    }

    // Issue 27: the menu's "Starting" says until when it waits: the start-up deadline the
    // probes check (set at Launched), not a second one. None once it answered, none adopted.
    void nextStepsCountDownToTheStartupDeadline() {
        SupervisionState s;
        s.config.timings.startupDeadlineMs = 30000;
        s.want = Want::Running;
        s.phase = Phase::Launching;
        s = step(s, Launched{{4242, 1}, 4242, "pw"}, 5000).state;
        QCOMPARE(s.phase, Phase::Starting);
        QCOMPARE(s.startupDeadline, std::optional<Ms>(35000));
        QCOMPARE(nextSteps(s, 5000).startupDeadlineInMs, std::optional<Ms>(30000));
        QCOMPARE(nextSteps(s, 17200).startupDeadlineInMs, std::optional<Ms>(17800));
        QCOMPARE(nextSteps(s, 40000).startupDeadlineInMs, std::optional<Ms>(0));
        QVERIFY(!nextSteps(s, 5000).replaceInMs);
        s.startupDeadline.reset(); // adopted: the window rules, no start-up deadline
        QVERIFY(!nextSteps(s, 5000).startupDeadlineInMs);
        s.startupDeadline = 35000;
        s.phase = Phase::Running; // it answered
        QVERIFY(!nextSteps(s, 5000).startupDeadlineInMs);
    }

    void stateNamesRoundTrip() {
        for (State s : {State::Stopped, State::Starting, State::Healthy, State::NotResponding,
                        State::Recovering, State::Restarting, State::Failed}) {
            State back = State::Stopped;
            QVERIFY(fromString(toString(s), &back));
            QCOMPARE(back, s);
        }
        State ignored;
        QVERIFY(!fromString("zombie", &ignored));
        QCOMPARE(QByteArray(toString(State::NotResponding)), QByteArray("not-responding"));
    }
};

QTEST_APPLESS_MAIN(TestRecovery)
#include "tst_recovery.moc"
