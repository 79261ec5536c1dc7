// Issue 25 e, the rule: one MCP refresh at a time, ended only by its own answer. A refresh
// abandoned when its service died must not end the refresh begun for the next service.
#include "mcp/refresh_gate.h"

#include <QtTest>

using tether::mcp::RefreshGate;

class TestRefreshGate : public QObject {
    Q_OBJECT
private slots:
    void oneAtATime() {
        RefreshGate g;
        const auto first = g.begin();
        QVERIFY(first);
        QVERIFY(!g.begin()); // busy
        QVERIFY(g.end(*first));
        QVERIFY(g.begin());
    }

    // The defect's sequence: a config question in flight, the service dies, the next one's
    // refresh begins, then the old answer arrives: it must not end the new refresh.
    void aStaleAnswerDoesNotEndTheNewerRefresh() {
        RefreshGate g;
        const auto old = g.begin();
        g.abandon(); // the service died
        const auto fresh = g.begin();
        QVERIFY(fresh && *fresh != *old);
        QVERIFY(!g.current(*old));
        QVERIFY(!g.end(*old)); // the stale answer
        QVERIFY(g.busy());     // the newer one still runs...
        QVERIFY(!g.begin());   // ...so no third one starts beside it
        QVERIFY(g.end(*fresh));
        QVERIFY(!g.busy());
    }
};

QTEST_GUILESS_MAIN(TestRefreshGate)
#include "tst_refresh_gate.moc"
