// The activity model: what `tether status` and the consent dialogs say the service is doing,
// folded from stream events on a fake clock (plain numbers).
#include "policy/activity.h"

#include <QtTest>

using namespace tether::policy;

namespace {
ActivityEvent ev(ActivityEventKind k, std::string session = {}, std::string part = {},
                 std::string tool = {}) {
    return ActivityEvent{k, std::move(session), std::move(part), std::move(tool), {}, -1};
}
const std::string kTool = "everything_trigger-long-running-operation";
} // namespace

class TestActivity : public QObject {
    Q_OBJECT
private slots:
    // One rule for the tray's question and the CLI's --force: a running tool call must be
    // confirmed before a stop or restart cuts it, and before a quit only when the quit stops
    // the service; a busy session with no tool call running loses nothing.
    void consentIsAskedOnlyWhenWorkWouldBeLost() {
        Activity idle = onStreamReconnected(onServiceIdentity({}, "pid1"));
        idle = applyActivityEvent(idle, ev(ActivityEventKind::Connected), 900);
        ActivitySnapshot s;
        s.busySessions = {"ses_1"};
        Activity thinking = applyActivitySnapshot(idle, s, 1000);
        s.tools = {{"ses_1", "prt_1", kTool, 500}};
        Activity working = applyActivitySnapshot(idle, s, 1000);
        for (const PersonAction act :
             {PersonAction::Stop, PersonAction::Restart, PersonAction::Quit}) {
            QVERIFY(!needsConsent(act, true, idle));
            QVERIFY(!needsConsent(act, true, thinking));
            QVERIFY(needsConsent(act, true, working));
        }
        QVERIFY(needsConsent(PersonAction::Stop, false, working));
        QVERIFY(!needsConsent(PersonAction::Quit, false, working)); // it keeps running
    }

    // A tool call already running when the stream connected (a Tether restart) is learnt from
    // the snapshot, with its age by the service's clock, so a stop asks for consent at once.
    void aSnapshotAddsWhatRanBeforeTheConnect() {
        Activity a = onStreamReconnected(onServiceIdentity({}, "pid1"));
        a = applyActivityEvent(a, ev(ActivityEventKind::Connected), 100000);
        QVERIFY(a.catchingUp);
        QVERIFY(!runsToolCalls(a)); // the stream alone knows nothing yet
        ActivitySnapshot s;
        s.busySessions = {"ses_1"};
        s.tools = {{"ses_1", "prt_1", kTool, 45000}};
        a = applyActivitySnapshot(a, s, 100050);
        QVERIFY(!a.catchingUp);
        QVERIFY(runsToolCalls(a));
        QCOMPARE(describeActivity(a, 100050),
                 std::string("busy: 1 session, tool " + kTool + " for 45 s"));
        QCOMPARE(a.sessions.at(0).since, Ms(100050 - 45000));
        // The stream then reports its end as for any other call.
        a = applyActivityEvent(a, ev(ActivityEventKind::ToolEnded, "ses_1", "prt_1", kTool),
                               110000);
        a = applyActivityEvent(a, ev(ActivityEventKind::SessionIdle, "ses_1"), 110001);
        QCOMPARE(describeActivity(a, 110001), std::string("idle"));
    }

    // A call first seen mid-way (a Tether restart, then an update of its part) is timed from
    // the start the service gives, not from the sighting.
    void aToolPartsOwnStartDatesIt() {
        Activity a;
        ActivityEvent running = ev(ActivityEventKind::ToolRunning, "ses_1", "prt_1", kTool);
        running.runningMs = 45000;
        a = applyActivityEvent(a, running, 100000);
        QCOMPARE(describeActivity(a, 100000),
                 std::string("busy: 1 session, tool " + kTool + " for 45 s"));
        // Seen first without its start (pending), then with it: the earlier start wins.
        Activity b;
        b = applyActivityEvent(b, ev(ActivityEventKind::ToolPending, "ses_1", "prt_1", kTool),
                               100000);
        b = applyActivityEvent(b, running, 100500);
        QCOMPARE(b.tools.at(0).since, Ms(100500 - 45000));
    }

    // What the stream said after the connect is newer than the snapshot's answers.
    void theStreamsWordSinceTheConnectWins() {
        Activity a = onStreamReconnected({});
        a = applyActivityEvent(a, ev(ActivityEventKind::Connected), 0);
        // ended and idle while the snapshot was on its way
        a = applyActivityEvent(a, ev(ActivityEventKind::ToolEnded, "ses_1", "prt_1", kTool), 10);
        a = applyActivityEvent(a, ev(ActivityEventKind::SessionIdle, "ses_2"), 11);
        // a new call the stream saw start: its `since` is the stream's
        a = applyActivityEvent(a, ev(ActivityEventKind::ToolRunning, "ses_3", "prt_3", "bash"), 12);
        ActivitySnapshot s;
        s.busySessions = {"ses_1", "ses_2", "ses_3"};
        s.tools = {{"ses_1", "prt_1", kTool, 5000},
                   {"ses_2", "prt_2", "read", 5000},
                   {"ses_3", "prt_3", "bash", 9000}};
        a = applyActivitySnapshot(a, s, 20);
        QCOMPARE(a.tools.size(), std::size_t(1));
        QCOMPARE(a.tools[0].part, std::string("prt_3"));
        // Still running, and the service says since when: its start, not the sighting.
        QCOMPARE(a.tools[0].since, Ms(20 - 9000));
        // ses_1 is still busy by the snapshot (its tool ended, the turn goes on); ses_2 is idle
        QCOMPARE(busySessionCount(a), std::size_t(2));
    }

    // After a kill opencode keeps the part "running" forever; only a busy session's count.
    void aRunningPartOfAnIdleSessionIsNotWork() {
        Activity a = onStreamReconnected({});
        ActivitySnapshot s;
        s.tools = {{"ses_dead", "prt_1", kTool, 600000}};
        a = applyActivitySnapshot(a, s, 0);
        QVERIFY(!isBusy(a));
        QVERIFY(!a.catchingUp);
    }

    // A late answer (to a connection since dropped and replaced by a caught-up one) and a
    // second answer change nothing; a failed catch-up (empty snapshot) just ends it.
    void onlyTheFirstAnswerOfAConnectionCounts() {
        Activity a = onStreamReconnected({});
        a = applyActivitySnapshot(a, {}, 0);
        QVERIFY(!a.catchingUp);
        QVERIFY(!isBusy(a));
        ActivitySnapshot late;
        late.busySessions = {"ses_1"};
        late.tools = {{"ses_1", "prt_1", kTool, 1000}};
        a = applyActivitySnapshot(a, late, 10);
        QVERIFY(!isBusy(a));
    }

    // Seeded random interleavings: stream events between the connect and the snapshot, then
    // the snapshot. Invariants: the caps hold, no part twice, nothing the stream ended or
    // idled since the connect comes back, and every snapshot part of a busy, untouched
    // session is shown.
    void randomInterleavingsKeepTheInvariants() {
        const quint32 seed = qEnvironmentVariableIsSet("TETHER_MODEL_SEED")
                                 ? quint32(qEnvironmentVariableIntValue("TETHER_MODEL_SEED"))
                                 : 20261201u;
        ActivityLimits limits;
        limits.maxSessions = 6;
        limits.maxTools = 8;
        for (quint32 round = 0; round < 2000; ++round) {
            QRandomGenerator rng(seed + round);
            const auto id = [&](const char *p) { return p + std::to_string(rng.bounded(10)); };
            Activity a = onStreamReconnected({});
            std::vector<std::string> ended, idled;
            Ms t = 0;
            const int events = int(rng.bounded(12));
            for (int i = 0; i < events; ++i) {
                const std::string session = id("ses_"), part = id("prt_");
                const auto kind = ActivityEventKind(rng.bounded(8));
                a = applyActivityEvent(a, ev(kind, session, part, "t"), t += 5, limits);
                if (kind == ActivityEventKind::ToolEnded) ended.push_back(part);
                if (kind == ActivityEventKind::SessionIdle) idled.push_back(session);
                if (kind == ActivityEventKind::ToolPending ||
                    kind == ActivityEventKind::ToolRunning) {
                    ended.erase(std::remove(ended.begin(), ended.end(), part), ended.end());
                    idled.erase(std::remove(idled.begin(), idled.end(), session), idled.end());
                }
            }
            const Activity before = a;
            ActivitySnapshot s;
            for (int i = int(rng.bounded(8)); i > 0; --i)
                s.busySessions.push_back(id("ses_"));
            for (int i = int(rng.bounded(12)); i > 0; --i)
                s.tools.push_back({id("ses_"), id("prt_"), "t", Ms(rng.bounded(100000))});
            a = applyActivitySnapshot(a, s, t += 5, limits);
            const QString where = QStringLiteral("seed %1").arg(seed + round);
            QVERIFY2(!a.catchingUp, qPrintable(where));
            QVERIFY2(a.sessions.size() <= limits.maxSessions && a.tools.size() <= limits.maxTools,
                     qPrintable(where));
            for (std::size_t i = 0; i < a.tools.size(); ++i) {
                for (std::size_t j = i + 1; j < a.tools.size(); ++j)
                    QVERIFY2(a.tools[i].part != a.tools[j].part, qPrintable(where));
                const bool fromSnapshot =
                    std::none_of(before.tools.begin(), before.tools.end(),
                                 [&](const RunningTool &r) { return r.part == a.tools[i].part; });
                if (!fromSnapshot) continue;
                QVERIFY2(std::find(ended.begin(), ended.end(), a.tools[i].part) == ended.end(),
                         qPrintable(where + " ended part came back"));
                QVERIFY2(std::find(idled.begin(), idled.end(), a.tools[i].session) == idled.end(),
                         qPrintable(where + " idle session's part came back"));
                QVERIFY2(a.tools[i].since <= t, qPrintable(where));
            }
            if (before.seenOverflow) continue;
            for (const ActivitySnapshotTool &st : s.tools) {
                const bool busy = std::find(s.busySessions.begin(), s.busySessions.end(),
                                            st.session) != s.busySessions.end();
                const bool touched =
                    std::find(before.seenParts.begin(), before.seenParts.end(), st.part) !=
                        before.seenParts.end() ||
                    std::find(before.idleSessions.begin(), before.idleSessions.end(), st.session) !=
                        before.idleSessions.end();
                const bool shown =
                    std::any_of(a.tools.begin(), a.tools.end(),
                                [&](const RunningTool &r) { return r.part == st.part; });
                if (busy && !touched && a.dropped == before.dropped)
                    QVERIFY2(shown, qPrintable(where + " a running part was not shown"));
            }
        }
    }

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
