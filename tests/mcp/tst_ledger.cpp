// The MCP ledger: round trip, 0600, bad files kept aside, writes only on change.
#include "mcp/ledger.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#ifndef _WIN32
#include <sys/stat.h>
#endif

using namespace tether;
using namespace tether::mcp;

namespace {

LedgerEntry entry(os::Pid pid, std::uint64_t start, os::Identity service = {100, 50}) {
    LedgerEntry e;
    e.process = {pid, start};
    e.pgid = 100;
    e.argv = {"/abs/tether", "demo-mcp", "--name", "demo-" + std::to_string(pid)};
    e.name = "demo-" + std::to_string(pid);
    e.service = service;
    e.firstSeenMs = 1700000000000 + pid;
    return e;
}

os::ProcessInfo proc(os::Pid pid, std::uint64_t start, os::RunState state = os::RunState::Running) {
    os::ProcessInfo p;
    p.pid = pid;
    p.ppid = 1;
    p.startTime = start;
    p.state = state;
    return p;
}

bool sameEntries(const std::vector<LedgerEntry> &a, const std::vector<LedgerEntry> &b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].process != b[i].process || a[i].pgid != b[i].pgid || a[i].argv != b[i].argv ||
            a[i].name != b[i].name || a[i].service != b[i].service ||
            a[i].firstSeenMs != b[i].firstSeenMs)
            return false;
    }
    return true;
}

} // namespace

class TestLedger : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path() const { return dir_.filePath(QStringLiteral("mcp-ledger.json")); }

private slots:
    void init() {
        QFile::remove(path());
        QFile::remove(path() + ".bad");
    }

    void defaultPathIsInTheDataDir() {
        qputenv("TETHER_DATA_DIR", dir_.path().toUtf8());
        QCOMPARE(Ledger::defaultPath(), path());
        qunsetenv("TETHER_DATA_DIR");
    }

    void roundTripIsPrivate() {
        Ledger ledger(path());
        QVERIFY(ledger.load()); // missing: empty, no error
        QVERIFY(ledger.entries().empty());
        QVERIFY(!QFile::exists(path())); // nothing changed, nothing written

        // A Windows FILETIME start time is beyond 2^53: must survive exactly.
        const std::vector<LedgerEntry> seen{entry(201, 133500000000000123ULL), entry(202, 7)};
        QVERIFY(ledger.record(seen));
        QVERIFY2(ledger.error().isEmpty(), qPrintable(ledger.error()));
#ifndef _WIN32 // POSIX modes; a Windows profile directory is private by its ACL
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(path()).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0600u);
#endif

        Ledger again(path());
        QVERIFY2(again.load(), qPrintable(again.error()));
        QVERIFY(sameEntries(again.entries(), seen));
    }

    void recordOnlyWritesOnChange() {
        Ledger ledger(path());
        QVERIFY(ledger.record({entry(201, 1)}));
        QFile::remove(path()); // a write would recreate it
        QVERIFY(!ledger.record({entry(201, 1)}));
        QVERIFY(!QFile::exists(path()));

        // Known process seen again later: keeps its firstSeen; a changed pgid is recorded.
        LedgerEntry moved = entry(201, 1);
        moved.pgid = 201;
        moved.firstSeenMs = 42;
        QVERIFY(ledger.record({moved}));
        QCOMPARE(ledger.entries().size(), std::size_t(1));
        QCOMPARE(ledger.entries()[0].pgid, os::Pid(201));
        QCOMPARE(ledger.entries()[0].firstSeenMs, entry(201, 1).firstSeenMs);
        QVERIFY(QFile::exists(path()));
    }

    void dropExitedAndRemove() {
        Ledger ledger(path());
        ledger.record({entry(201, 1), entry(202, 2), entry(203, 3), entry(204, 4)});
        const std::vector<os::ProcessInfo> snap{
            proc(201, 1),                       // alive
            proc(202, 2, os::RunState::Zombie), // exited, not reaped
            proc(203, 99),                      // pid reused by another process
            proc(1, 1)};                        // 204 absent
        QVERIFY(!ledger.dropExited({}));        // an empty snapshot proves nothing
        QCOMPARE(ledger.entries().size(), std::size_t(4));
        QVERIFY(ledger.dropExited(snap));
        QCOMPARE(ledger.entries().size(), std::size_t(1));
        QCOMPARE(ledger.entries()[0].process.pid, os::Pid(201));
        QVERIFY(!ledger.dropExited(snap));

        QVERIFY(!ledger.remove({{201, 999}})); // same pid, other start time: not this one
        QVERIFY(ledger.remove({{201, 1}}));
        QVERIFY(ledger.entries().empty());
        Ledger reread(path());
        QVERIFY(reread.load());
        QVERIFY(reread.entries().empty());
    }

    void badFilesAreReportedAndKeptAside_data() {
        QTest::addColumn<QByteArray>("content");
        const QByteArray good = serializeLedger({entry(201, 1), entry(202, 2)});
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated") << good.left(good.size() / 2);
        QTest::newRow("garbage") << QByteArray("\x00\xff\xfe garbage \x01", 14);
        QTest::newRow("array") << QByteArray("[]");
        QTest::newRow("wrong version") << QByteArray(R"({"version": 2, "entries": []})");
        QTest::newRow("entries not array") << QByteArray(R"({"version": 1, "entries": {}})");
        QTest::newRow("pid string")
            << QByteArray(R"({"version":1,"entries":[{"pid":"201","startTime":"1","pgid":1,)"
                          R"("argv":[],"name":"a","servicePid":5,"serviceStartTime":"1",)"
                          R"("firstSeenMs":0}]})");
        QTest::newRow("pid 1") << QByteArray(
            R"({"version":1,"entries":[{"pid":1,"startTime":"1","pgid":1,)"
            R"("argv":[],"name":"a","servicePid":5,"serviceStartTime":"1",)"
            R"("firstSeenMs":0}]})");
        QTest::newRow("fractional pid")
            << QByteArray(R"({"version":1,"entries":[{"pid":20.5,"startTime":"1","pgid":1,)"
                          R"("argv":[],"name":"a","servicePid":5,"serviceStartTime":"1",)"
                          R"("firstSeenMs":0}]})");
        QTest::newRow("start time number")
            << QByteArray(R"({"version":1,"entries":[{"pid":20,"startTime":1,"pgid":1,)"
                          R"("argv":[],"name":"a","servicePid":5,"serviceStartTime":"1",)"
                          R"("firstSeenMs":0}]})");
        QTest::newRow("argv number")
            << QByteArray(R"({"version":1,"entries":[{"pid":20,"startTime":"1","pgid":1,)"
                          R"("argv":[3],"name":"a","servicePid":5,"serviceStartTime":"1",)"
                          R"("firstSeenMs":0}]})");
        QTest::newRow("oversized") << QByteArray(Ledger::kMaxFileBytes + 1, ' ');
    }
    void badFilesAreReportedAndKeptAside() {
        QFETCH(QByteArray, content);
        {
            QFile f(path());
            QVERIFY(f.open(QIODevice::WriteOnly));
            QCOMPARE(f.write(content), content.size());
        }
        Ledger ledger(path());
        QVERIFY(!ledger.load());
        QVERIFY(!ledger.error().isEmpty());
        QVERIFY2(ledger.error().contains(".bad"), qPrintable(ledger.error()));
        QVERIFY(ledger.entries().empty());
        QVERIFY(!QFile::exists(path()));
        QFile aside(path() + ".bad");
        QVERIFY(aside.open(QIODevice::ReadOnly));
        QCOMPARE(aside.size(), qint64(content.size()));
        // The ledger keeps working: the next record writes a fresh, valid file.
        QVERIFY(ledger.record({entry(300, 3)}));
        Ledger reread(path());
        QVERIFY(reread.load());
        QCOMPARE(reread.entries().size(), std::size_t(1));
    }

    void observedChildrenFromTrees() {
        os::ProcessInfo a = proc(201, 11);
        a.pgid = 100;
        a.argv = {"npm exec pkg"};
        os::ProcessInfo b = proc(202, 12);
        b.pgid = 202;
        os::ProcessInfo z = proc(203, 13, os::RunState::Zombie);
        McpProcessTree tree;
        tree.name = "fs";
        tree.rootPid = 201;
        tree.pids = {201, 202, 203, 204}; // 204 vanished since
        const auto seen = observedChildren({100, 50}, {tree}, {a, b, z}, 777);
        QCOMPARE(seen.size(), std::size_t(2));
        QCOMPARE(seen[0].process, (os::Identity{201, 11}));
        QCOMPARE(seen[0].argv, std::vector<std::string>{"npm exec pkg"});
        QCOMPARE(seen[1].pgid, os::Pid(202));
        QCOMPARE(seen[1].name, std::string("fs"));
        QCOMPARE(seen[1].service, (os::Identity{100, 50}));
        QCOMPARE(seen[1].firstSeenMs, std::int64_t(777));
    }
};

QTEST_GUILESS_MAIN(TestLedger)
#include "tst_ledger.moc"
