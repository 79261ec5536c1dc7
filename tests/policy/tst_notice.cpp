// What a notification says and how loud it is, decided in policy/notice.h: plain titles without
// pids, counts a person reads ("1 process"), a warning for a crash Tether is mending, critical
// only when it cannot go on, and one notice per incident (a crash and its quick restart are one;
// what a person just confirmed is not told back).
#include "policy/notice.h"

#include <QtTest>

using namespace tether::policy;

namespace {
constexpr NoticeKind kAll[] = {NoticeKind::Crashed,
                               NoticeKind::Restarted,
                               NoticeKind::Recovered,
                               NoticeKind::GaveUp,
                               NoticeKind::PortHeld,
                               NoticeKind::VersionMismatch,
                               NoticeKind::Stale,
                               NoticeKind::OrphansFound,
                               NoticeKind::McpResources,
                               NoticeKind::Interrupted,
                               NoticeKind::MustFix,
                               NoticeKind::StartedElsewhere,
                               NoticeKind::StoppedElsewhere,
                               NoticeKind::StateNotSaved};
}

class TstNotice : public QObject {
    Q_OBJECT
private slots:
    void titlesArePlainWords() {
        QCOMPARE(noticeTitle(NoticeKind::Crashed, Dialect::Opencode1),
                 std::string("opencode stopped unexpectedly; restarting it"));
        QCOMPARE(noticeTitle(NoticeKind::Restarted, Dialect::Opencode2),
                 std::string("opencode is running again"));
        QCOMPARE(noticeTitle(NoticeKind::Crashed, Dialect::Demo),
                 std::string("The demo service stopped unexpectedly; restarting it"));
        QCOMPARE(noticeTitle(NoticeKind::GaveUp, std::nullopt),
                 std::string("The service keeps failing; Tether stopped restarting it"));
        for (NoticeKind k : kAll)
            for (const std::optional<Dialect> &p :
                 {std::optional<Dialect>{}, std::optional<Dialect>{Dialect::Opencode1},
                  std::optional<Dialect>{Dialect::Custom}}) {
                const std::string t = noticeTitle(k, p);
                QVERIFY2(!t.empty(), toString(k));
                // No pid, no log words, no "(es)".
                QVERIFY2(t.find_first_of("0123456789") == std::string::npos, t.c_str());
                QVERIFY2(t.find("pid") == std::string::npos, t.c_str());
                QVERIFY2(t.find("(es)") == std::string::npos, t.c_str());
                QVERIFY2(t.find(toString(k)) == std::string::npos || k == NoticeKind::Stale,
                         t.c_str());
            }
    }

    void crashTextHasNoPid() {
        QCOMPARE(crashText("pid 3832 was killed or crashed"),
                 std::string("It was killed or crashed."));
        QCOMPARE(crashText("pid 12 exited with code 1"), std::string("It exited with code 1."));
        QCOMPARE(crashText("the service's port closed"), std::string("The service's port closed."));
        QCOMPARE(crashText(""), std::string("It stopped without saying why."));
    }

    void interruptionsNameToolsNotSessions() {
        QCOMPARE(interruptedText({"bash"}, 1),
                 std::string("Stopped mid-call: bash. The agent may need to be asked again."));
        QCOMPARE(interruptedText({"bash", "read"}, 1),
                 std::string("Stopped mid-call: bash and read. The agent may need to be asked "
                             "again."));
        QCOMPARE(
            interruptedText({"a", "b", "c"}, 2),
            std::string("Stopped mid-call: a, b and c. The agent may need to be asked again."));
        QCOMPARE(interruptedText({"a", "b", "c", "d", "e"}, 2),
                 std::string("Stopped mid-call: a, b and 3 more. The agent may need to be asked "
                             "again."));
        QCOMPARE(interruptedText({}, 2),
                 std::string("2 sessions were busy. The agent may need to be asked again."));
    }

    void countsReadAsWords() {
        QCOMPARE(countOf(1, "process", "processes"), std::string("1 process"));
        QCOMPARE(countOf(3, "process", "processes"), std::string("3 processes"));
        QCOMPARE(countOf(0, "process", "processes"), std::string("0 processes"));
        QCOMPARE(durationWords(45000), std::string("45 s"));
        QCOMPARE(durationWords(600000), std::string("10 min"));
        QCOMPARE(durationWords(3 * 3600000), std::string("3 h"));
    }

    void onlyGivingUpIsCritical() {
        QCOMPARE(severityOf(NoticeKind::Crashed), NoticeSeverity::Warning); // being handled
        QCOMPARE(severityOf(NoticeKind::GaveUp), NoticeSeverity::Critical);
        QCOMPARE(severityOf(NoticeKind::PortHeld), NoticeSeverity::Critical);
        QCOMPARE(severityOf(NoticeKind::Restarted), NoticeSeverity::Information);
        QCOMPARE(severityOf(NoticeKind::Recovered), NoticeSeverity::Information);
        int critical = 0;
        for (NoticeKind k : kAll)
            critical += severityOf(k) == NoticeSeverity::Critical ? 1 : 0;
        QCOMPARE(critical, 3); // gave up, port held, a setting to fix
    }

    // Issue 27 (8): a crash gave two balloons 2 s apart ("restarting it", "running again").
    // One incident, one notice: a crash waits for how it ends; a quick restart is told with it.
    void aCrashAndItsQuickRestartAreOneNotice() {
        NoticeStep st = onNotice({}, NoticeKind::Crashed, 1000);
        QVERIFY(!st.show);
        QVERIFY(st.wakeAt && *st.wakeAt == 1000 + kIncidentMs);
        st = onNotice(st.history, NoticeKind::Restarted, 3000);
        QVERIFY(st.show && *st.show == NoticeKind::Restarted);
        QVERIFY(st.afterCrash);
        // Nothing more is owed: the timer finds nothing to tell, a later recovery is quiet.
        QVERIFY(!onNoticeTimer(st.history, 1000 + kIncidentMs).show);
        QVERIFY(!onNotice(st.history, NoticeKind::Recovered, 20000).show);
    }

    // Issue 27 (8): an outdated service record removed at launch is no balloon beside the
    // orphans dialog; the events list has it.
    void aRemovedRecordIsNoBalloon() {
        QVERIFY(!onNotice({}, NoticeKind::Stale, 1000).show);
        QVERIFY(onNotice({}, NoticeKind::OrphansFound, 1000).show);
    }

    void aSlowRestartIsToldAsItStandsThenItsEnd() {
        NoticeStep st = onNotice({}, NoticeKind::Crashed, 0);
        QVERIFY(!onNoticeTimer(st.history, kIncidentMs - 1).show); // not yet
        st = onNoticeTimer(st.history, kIncidentMs);
        QVERIFY(st.show && *st.show == NoticeKind::Crashed);
        QVERIFY(!st.afterCrash);
        st = onNotice(st.history, NoticeKind::Restarted, kIncidentMs + 20000);
        QVERIFY(st.show && *st.show == NoticeKind::Restarted); // the end of what was told
        QVERIFY(!st.afterCrash);
        QVERIFY(!onNotice(st.history, NoticeKind::Restarted, kIncidentMs + 30000).show);
    }

    void givingUpOvertakesTheCrash() {
        NoticeStep st = onNotice({}, NoticeKind::Crashed, 0);
        st = onNotice(st.history, NoticeKind::GaveUp, 4000);
        QVERIFY(st.show && *st.show == NoticeKind::GaveUp);
        QVERIFY(!onNoticeTimer(st.history, kIncidentMs).show); // the crash is not told after it
        QVERIFY(!onNotice(st.history, NoticeKind::Restarted, 60000).show);
        // A recovery nobody was told about needs no notice at all.
        QVERIFY(!onNotice({}, NoticeKind::Recovered, 0).show);
    }

    // Issue 27 (8): a stop the person just confirmed was followed by "tool calls were cut short".
    void whatAPersonConfirmedIsNotToldBack() {
        const NoticeHistory confirmed = onConfirmedInterruption({}, 5000);
        QVERIFY(!onNotice(confirmed, NoticeKind::Interrupted, 5200).show);
        QVERIFY(!onNotice(confirmed, NoticeKind::Interrupted, 5000 + kConfirmedMs).show);
        // Later, or unasked, it is told.
        QVERIFY(onNotice(confirmed, NoticeKind::Interrupted, 5001 + kConfirmedMs).show);
        QVERIFY(onNotice({}, NoticeKind::Interrupted, 0).show);
        // Cut short by a crash: said in the crash's one notice, not in one of its own.
        NoticeStep st = onNotice({}, NoticeKind::Crashed, 0);
        st = onNotice(st.history, NoticeKind::Interrupted, 10);
        QVERIFY(!st.show);
        st = onNotice(st.history, NoticeKind::Restarted, 2000);
        QVERIFY(st.show && st.afterCrash && st.cutShort);
    }
};

QTEST_APPLESS_MAIN(TstNotice)
#include "tst_notice.moc"
