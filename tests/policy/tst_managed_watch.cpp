// The watch on opencode 2.x's service.json that the shell and the model share
// (core/supervision/managed_watch): when it runs, and when a look judges the file again.
#include "supervision/managed_watch.h"

#include <QtTest>

using namespace tether;
using policy::ManagedFacts;
using policy::Phase;
using supervision::ManagedWatch;
using supervision::managedWatchEvery;

class TestManagedWatch : public QObject {
    Q_OBJECT
private slots:
    // Found by the model (issue 24, seed 241): another client's service registered while the
    // process table could not be read; the look judged it Unknown and kept the file's content
    // as seen, so the same file was never judged again and Tether said "Stopped" while that
    // service ran. An unknown verdict is judged again at the next look.
    void anUnknownVerdictIsJudgedAgainThoughTheFileIsUnchanged() {
        ManagedWatch w;
        QVERIFY(w.needsJudging("{pid: 7000}"));
        w.judged("{pid: 7000}", ManagedFacts::Verdict::Unknown);
        QVERIFY(w.needsJudging("{pid: 7000}"));
        w.judged("{pid: 7000}", ManagedFacts::Verdict::Adopt);
        QVERIFY(!w.needsJudging("{pid: 7000}")); // settled: an unchanged file is not judged
        QVERIFY(w.needsJudging("{pid: 7001}"));  // a changed one is
        w.forget();
        QVERIFY(w.needsJudging("{pid: 7000}")); // a phase that is not watched forgets
    }

    void itRunsWhileTrackingOrStoppedAndOftenUntilTheLaunchRegisters() {
        policy::SupervisionState s;
        s.phase = Phase::Idle;
        QCOMPARE(managedWatchEvery(s, true, 5000), policy::Ms(5000));
        QCOMPARE(managedWatchEvery(s, true, 150), policy::Ms(150));
        QCOMPARE(managedWatchEvery(s, false, 5000), policy::Ms(0)); // 1.x: no file
        s.quitting = true;
        QCOMPARE(managedWatchEvery(s, true, 5000), policy::Ms(0));
        s.quitting = false;
        s.svc = policy::TrackedService{};
        s.svc->ourChild = true;
        s.phase = Phase::Starting;
        QCOMPARE(managedWatchEvery(s, true, 5000), policy::Ms(50)); // until it registers
        s.svc->managedId = "r1";
        QCOMPARE(managedWatchEvery(s, true, 5000), policy::Ms(500));
        s.phase = Phase::Stopping;
        QCOMPARE(managedWatchEvery(s, true, 5000), policy::Ms(0));
    }
};

QTEST_GUILESS_MAIN(TestManagedWatch)
#include "tst_managed_watch.moc"
