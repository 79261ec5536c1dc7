// The activity model: what `tether status` and the consent dialogs say the service is doing,
// folded from stream events on a fake clock (plain numbers).
#include "policy/activity.h"

#include <QtTest>

using namespace tether::policy;

namespace {
ActivityEvent ev(ActivityEventKind k, std::string session = {}, std::string part = {},
                 std::string tool = {}) {
    return ActivityEvent{k, std::move(session), std::move(part), std::move(tool)};
}
const std::string kTool = "everything_trigger-long-running-operation";
} // namespace

class TestActivity : public QObject {
    Q_OBJECT
private slots:
    void aToolCallIsShownFromPendingUntilCompleted() {
        Activity a = onServiceIdentity({}, "pid1@100");
        QCOMPARE(describeActivity(a, 0), std::string("idle"));
        a = applyActivityEvent(a, ev(ActivityEventKind::SessionBusy, "ses_1"), 1000);
        a = applyActivityEvent(a, ev(ActivityEventKind::ToolPending, "ses_1", "prt_1", kTool),
                               2000);
        a = applyActivityEvent(a, ev(ActivityEventKind::ToolRunning, "ses_1", "prt_1", kTool),
                               2500);
        QVERIFY(runsToolCalls(a));
        // `since` is the first sighting (pending), not the last update.
        QCOMPARE(describeActivity(a, 47000),
                 std::string("busy: 1 session, tool " + kTool + " for 45 s"));
        a = applyActivityEvent(a, ev(ActivityEventKind::ToolEnded, "ses_1", "prt_1", kTool), 48000);
        QVERIFY(!runsToolCalls(a));
        QVERIFY(isBusy(a)); // the session still works (writing its answer)
        QCOMPARE(describeActivity(a, 48000), std::string("busy: 1 session"));
        a = applyActivityEvent(a, ev(ActivityEventKind::SessionIdle, "ses_1"), 49000);
        QVERIFY(!isBusy(a));
        QCOMPARE(describeActivity(a, 49000), std::string("idle"));
    }

    void anIdleSessionReleasesToolsItLeftRunning() {
        Activity a;
        a = applyActivityEvent(a, ev(ActivityEventKind::ToolRunning, "ses_1", "prt_1", "bash"), 0);
        a = applyActivityEvent(a, ev(ActivityEventKind::ToolRunning, "ses_2", "prt_2", "read"), 0);
        QCOMPARE(busySessionCount(a), std::size_t(2)); // a running tool makes its session busy
        a = applyActivityEvent(a, ev(ActivityEventKind::SessionIdle, "ses_1"), 10);
        QCOMPARE(a.tools.size(), std::size_t(1));
        QCOMPARE(a.tools[0].tool, std::string("read"));
    }

    void heartbeatsAndEventsAreTimestamped() {
        Activity a;
        QCOMPARE(a.lastEventAt, Ms(-1));
        a = applyActivityEvent(a, ev(ActivityEventKind::Heartbeat), 10000);
        QCOMPARE(a.lastHeartbeatAt, Ms(10000));
        a = applyActivityEvent(a, ev(ActivityEventKind::Other), 12000);
        QCOMPARE(a.lastEventAt, Ms(12000));
        QCOMPARE(a.lastHeartbeatAt, Ms(10000));
        QVERIFY(!isBusy(a));
    }

    void aFloodOfSessionsAndToolsIsCapped() {
        ActivityLimits lim;
        lim.maxSessions = 3;
        lim.maxTools = 2;
        Activity a;
        for (int i = 0; i < 1000; ++i) {
            const std::string s = "ses_" + std::to_string(i);
            a = applyActivityEvent(a, ev(ActivityEventKind::SessionBusy, s), i, lim);
            a = applyActivityEvent(a, ev(ActivityEventKind::ToolRunning, s, "p" + s, "t"), i, lim);
        }
        QCOMPARE(a.sessions.size(), std::size_t(3));
        QCOMPARE(a.tools.size(), std::size_t(2));
        QVERIFY(a.dropped > 0);
        QCOMPARE(a.sessions.front().id, std::string("ses_0")); // the oldest are kept
    }

    void aReconnectForgetsWhatTheMissedEventsMayHaveEnded() {
        Activity a = onServiceIdentity({}, "A");
        a = applyActivityEvent(a, ev(ActivityEventKind::ToolRunning, "s", "p", "bash"), 0);
        a = onStreamReconnected(a);
        QVERIFY(!isBusy(a));
        QCOMPARE(a.identity, std::string("A"));
        QCOMPARE(a.lastEventAt, Ms(-1));
    }

    void aNewServiceStartsIdleTheSameOneKeepsItsState() {
        Activity a = onServiceIdentity({}, "A");
        a = applyActivityEvent(a, ev(ActivityEventKind::ToolRunning, "s", "p", "bash"), 0);
        QVERIFY(runsToolCalls(onServiceIdentity(a, "A")));
        const Activity b = onServiceIdentity(a, "B");
        QVERIFY(!isBusy(b));
        QCOMPARE(b.identity, std::string("B"));
    }

    void anInterruptionNamesWhatWasRunning() {
        Activity a;
        a = applyActivityEvent(a, ev(ActivityEventKind::ToolRunning, "ses_9", "p", kTool), 0);
        const Interruption i = interruptionOf(a, 5000);
        QCOMPARE(i.at, Ms(5000));
        QCOMPARE(describeInterruption(i),
                 std::string("interrupted: tool " + kTool + " (session ses_9); 1 busy session"));
        QCOMPARE(describeInterruption(interruptionOf(Activity{}, 0)), std::string());
    }

    void eventsWithoutAPartIdAreIgnored() {
        Activity a;
        a = applyActivityEvent(a, ev(ActivityEventKind::ToolRunning, "s", "", "bash"), 0);
        QVERIFY(!runsToolCalls(a));
    }
};

QTEST_APPLESS_MAIN(TestActivity)
#include "tst_activity.moc"
