// Issue 25 a: a damaged MCP ledger is set aside when the monitor starts, and that is said
// where a person can read it. It was reported from the constructor, before anyone had connected
// to hear it, so the orphans it named became "possible" without a word.
#include "supervisor_rig.h"
#include "testsupport.h"

#include <QFile>
#include <QtTest>

using namespace tether;

class TestMcpLedgerDamage : public QObject {
    Q_OBJECT
    test::SupervisorRig rig_;

private slots:
    void init() { rig_.reset(); }
    void cleanup() { rig_.drop(); }

    void aDamagedLedgerIsReportedToWhoeverListens() {
        const QString path = rig_.dataDir->filePath(QStringLiteral("mcp-ledger.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"entries\": [ {\"pid\": 12"); // cut short
        f.close();
        // As the Runtime does: make it, then connect to its log.
        rig_.make(test::demoSettings(test::freeLoopbackPort()), test::SupervisorRig::Mcp::Monitor);
        QTRY_VERIFY2(rig_.logHas(QStringLiteral("mcp ledger:")), qPrintable(rig_.dump()));
        QVERIFY2(rig_.logHas(QStringLiteral("moved aside")) &&
                     rig_.logHas(QStringLiteral("possible orphans")),
                 qPrintable(rig_.dump()));
        QVERIFY(QFile::exists(path + QStringLiteral(".bad"))); // kept, not lost
    }
};

QTEST_GUILESS_MAIN(TestMcpLedgerDamage)
#include "tst_mcp_ledger_damage.moc"
