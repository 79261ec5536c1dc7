// What a notification says and how loud it is, decided in policy/notice.h: plain titles without
// pids, counts a person reads ("1 process"), a warning for a crash Tether is mending, critical
// only when it gave up, and one quiet "running again" only after a crash notice was shown.
#include "policy/notice.h"

#include <QtTest>

using namespace tether::policy;

namespace {
constexpr NoticeKind kAll[] = {
    NoticeKind::Crashed,     NoticeKind::Restarted,    NoticeKind::Recovered,
    NoticeKind::GaveUp,      NoticeKind::PortHeld,     NoticeKind::VersionMismatch,
    NoticeKind::Stale,       NoticeKind::OrphansFound, NoticeKind::McpResources,
    NoticeKind::Interrupted, NoticeKind::StateNotSaved};
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
        QCOMPARE(critical, 2);
    }

    void runningAgainOnlyAfterAShownCrash() {
        NoticeHistory h;
        // A recovery nobody was told about needs no notification.
        QVERIFY(!mayNotify(h, NoticeKind::Restarted));
        QVERIFY(!mayNotify(h, NoticeKind::Recovered));
        QVERIFY(mayNotify(h, NoticeKind::Crashed));
        h = afterShown(h, NoticeKind::Crashed);
        QVERIFY(mayNotify(h, NoticeKind::Restarted));
        h = afterShown(h, NoticeKind::Restarted);
        // At most one "running again" per crash told.
        QVERIFY(!mayNotify(h, NoticeKind::Restarted));
        QVERIFY(!mayNotify(h, NoticeKind::Recovered));

        // Giving up overtakes the crash: no "running again" is owed after it.
        h = afterShown(NoticeHistory{}, NoticeKind::Crashed);
        h = afterShown(h, NoticeKind::GaveUp);
        QVERIFY(!mayNotify(h, NoticeKind::Restarted));

        // Other notices neither owe nor cancel one.
        h = afterShown(NoticeHistory{}, NoticeKind::Crashed);
        h = afterShown(h, NoticeKind::OrphansFound);
        QVERIFY(mayNotify(h, NoticeKind::Restarted));
        QVERIFY(mayNotify(NoticeHistory{}, NoticeKind::OrphansFound));
    }
};

QTEST_APPLESS_MAIN(TstNotice)
#include "tst_notice.moc"
