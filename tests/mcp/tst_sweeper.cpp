// The sweeper and scan against real processes: stubborn orphans in their own groups, a forged
// identity that must receive no signal, already-gone processes, a group with a non-orphan.
// Everything started here is cleaned up by verified identity.
#include "mcp/sweeper.h"

#include "testsupport.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <memory>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <unistd.h>

using namespace tether;
using namespace std::chrono_literals;
using os::TerminateOutcome;

namespace {

// A process this test started, and the identity it had once it was ready.
struct Child {
    std::unique_ptr<QProcess> proc;
    os::Identity id;
};

// Starts processes and, whatever happens, kills and reaps them by verified identity.
class Children {
public:
    ~Children() {
        for (Child &c : list_) {
            if (c.id.pid > 0 && os::alive(c.id) == os::Liveness::Alive)
                os::signalIdentity(c.id, os::Signal::Kill);
            c.proc->waitForFinished(5000);
        }
        for (const os::Identity &id : adopted_) {
            if (os::alive(id) == os::Liveness::Alive) os::signalIdentity(id, os::Signal::Kill);
        }
    }
    // A grandchild that outlives its parent: killed at the end too (it stays a zombie here).
    void adopt(const os::Identity &id) { adopted_.push_back(id); }
    Child &start(const QString &program, const QStringList &args, bool ownGroup) {
        auto proc = std::make_unique<QProcess>();
        proc->setProgram(program);
        proc->setArguments(args);
        if (ownGroup) proc->setChildProcessModifier([] { ::setsid(); });
        proc->start();
        if (!proc->waitForStarted(10000)) qFatal("cannot start %s", qPrintable(program));
        const auto id = os::identityOf(proc->processId());
        if (!id) qFatal("no identity for a child just started");
        list_.push_back({std::move(proc), *id});
        return list_.back();
    }
    // A shell that ignores TERM and HUP, then execs sleep (SIG_IGN survives exec).
    Child &stubborn(bool ownGroup = true) {
        Child &c = start(QStringLiteral("/bin/sh"),
                         {QStringLiteral("-c"), QStringLiteral("trap '' TERM HUP; exec sleep 300")},
                         ownGroup);
        awaitArgv0(c.id, "sleep");
        return c;
    }
    Child &testproc(const QStringList &args, bool ownGroup = false) {
        return start(test::testprocBin(), args, ownGroup);
    }

private:
    static void awaitArgv0(const os::Identity &id, const std::string &name) {
        const auto deadline = std::chrono::steady_clock::now() + 10s;
        while (std::chrono::steady_clock::now() < deadline) {
            const os::Lookup l = os::inspect(id.pid);
            if (l.status == os::Lookup::Status::Found && !l.info.argv.empty() &&
                l.info.argv[0].find(name) != std::string::npos)
                return;
            QTest::qWait(5);
        }
        qFatal("process never ran %s", name.c_str());
    }
    std::vector<Child> list_;
    std::vector<os::Identity> adopted_;
};

QString readLine(QProcess &p, const QString &prefix) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (std::chrono::steady_clock::now() < deadline) {
        while (p.canReadLine()) {
            const QString line = QString::fromUtf8(p.readLine()).trimmed();
            if (line.startsWith(prefix)) return line;
        }
        p.waitForReadyRead(100);
    }
    return {};
}

policy::Orphan orphanOf(const os::Identity &id,
                        policy::OrphanKind kind = policy::OrphanKind::Ledger) {
    const os::Lookup l = os::inspect(id.pid);
    if (l.status != os::Lookup::Status::Found)
        qFatal("orphanOf: process %lld not found", static_cast<long long>(id.pid));
    return {l.info, kind, "test", "test"};
}

policy::SweepPlan planFor(const std::vector<policy::Orphan> &orphans, bool confirmed = false) {
    const auto snap = os::snapshot();
    return policy::planSweep(orphans, snap, mcp::selfFrom(snap), {confirmed});
}

const mcp::SweepResult &resultFor(const mcp::SweepReport &report, os::Pid pid) {
    for (const mcp::SweepResult &r : report.results)
        if (r.target.id.pid == pid) return r;
    qFatal("no result for pid %lld", static_cast<long long>(pid));
}

std::string outcomes(const mcp::SweepReport &report) {
    std::string s;
    for (const auto &r : report.results)
        s +=
            std::to_string(r.target.id.pid) + "=" + os::toString(r.outcome) + "(" + r.detail + ") ";
    return s;
}

} // namespace

class TestSweeper : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    // Orphans of a crashed service must be gone within 1 s even when they ignore SIGTERM.
    void stubbornGroupsAreKilledWithinGrace() {
        Children kids;
        std::vector<policy::Orphan> orphans;
        std::vector<os::Identity> ids;
        for (int i = 0; i < 3; ++i) {
            ids.push_back(kids.stubborn().id);
            orphans.push_back(orphanOf(ids.back()));
        }
        const policy::SweepPlan plan = planFor(orphans);
        QCOMPARE(plan.groups.size(), std::size_t(3)); // each leads its own group
        QVERIFY(plan.singles.empty());

        const auto t0 = std::chrono::steady_clock::now();
        const mcp::SweepReport report = mcp::sweep(plan, {500ms, 2000ms});
        const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - t0);
        qInfo("3 stubborn orphans swept in %lld ms (grace 500 ms)",
              static_cast<long long>(took.count()));
        QVERIFY2(report.count(TerminateOutcome::Killed) == 3, outcomes(report).c_str());
        for (const auto &r : report.results)
            QVERIFY(r.viaGroup);
        QVERIFY(took >= 500ms); // they did ignore TERM: KILL was needed
        QVERIFY2(took < 1000ms, "orphans must be gone within 1 s");
        for (const os::Identity &id : ids)
            QCOMPARE(os::alive(id), os::Liveness::Gone);
    }

    // A stopped process acts on TERM only once continued: the sweep sends CONT.
    void stoppedOrphanExitsOnTerm() {
        Children kids;
        const os::Identity id = kids.testproc({"sleep"}, true).id;
        QVERIFY(os::signalIdentity(id, os::Signal::Stop));
        QTRY_VERIFY_WITH_TIMEOUT(os::inspect(id.pid).info.state == os::RunState::Stopped, 5000);
        const mcp::SweepReport report = mcp::sweep(planFor({orphanOf(id)}), {2000ms, 2000ms});
        QVERIFY2(resultFor(report, id.pid).outcome == TerminateOutcome::ExitedOnTerm,
                 outcomes(report).c_str());
        QVERIFY(report.elapsed < 2000ms);
    }

    // A live process whose start time does not match is refused and receives no signal.
    void forgedIdentityIsRefusedAndUntouched() {
        Children kids;
        const QString file = dir_.filePath("decoy-signals");
        Child &decoy = kids.testproc({"decoy", file});
        QVERIFY(!readLine(*decoy.proc, "ready").isEmpty());
        const os::Identity forged{decoy.id.pid, decoy.id.startTime + 1};

        policy::SweepPlan plan; // handed straight to the sweeper: it must re-verify itself
        plan.singles.push_back({forged, decoy.id.pid, policy::OrphanKind::Ledger, "x", {}});
        plan.groups.push_back(
            {decoy.id.pid, {{forged, decoy.id.pid, policy::OrphanKind::Ledger, "x", {}}}});
        const mcp::SweepReport report = mcp::sweep(plan, {200ms, 500ms});
        QCOMPARE(report.results.size(), std::size_t(2));
        for (const auto &r : report.results) {
            QVERIFY2(r.outcome == TerminateOutcome::Refused, outcomes(report).c_str());
            QVERIFY(r.detail.find("start time") != std::string::npos);
        }
        // Fence: once it answers, every signal sent earlier has been recorded.
        decoy.proc->write("ping\n");
        QVERIFY(!readLine(*decoy.proc, "pong").isEmpty());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray());
        QCOMPARE(os::alive(decoy.id), os::Liveness::Alive);

        // Through the planner too: never planned, reported refused.
        policy::Orphan forgedOrphan = orphanOf(decoy.id);
        forgedOrphan.process.startTime += 1;
        const policy::SweepPlan skipped = planFor({forgedOrphan});
        QVERIFY(skipped.empty());
        QCOMPARE(mcp::sweep(skipped, {}).count(TerminateOutcome::Refused), 1);
    }

    void alreadyGoneZombieAndReaped() {
        Children kids;
        Child &maker = kids.testproc({"zombie"});
        const QString childLine = readLine(*maker.proc, "child ");
        QVERIFY(!childLine.isEmpty());
        const auto zombieId = os::identityOf(childLine.section(' ', 1, 1).toLongLong());
        QVERIFY(zombieId);
        maker.proc->write("\n");
        QVERIFY(!readLine(*maker.proc, "zombie ").isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(os::inspect(zombieId->pid).info.state == os::RunState::Zombie,
                                 5000);

        Child &reaped = kids.testproc({"sleep"});
        const os::Identity reapedId = reaped.id;
        QVERIFY(os::signalIdentity(reapedId, os::Signal::Kill));
        QVERIFY(reaped.proc->waitForFinished(5000));

        policy::SweepPlan plan;
        plan.singles.push_back({*zombieId, 0, policy::OrphanKind::Ledger, "z", {}});
        plan.singles.push_back({reapedId, 0, policy::OrphanKind::Ledger, "r", {}});
        const mcp::SweepReport report = mcp::sweep(plan, {500ms, 500ms});
        QVERIFY2(report.count(TerminateOutcome::AlreadyGone) == 2, outcomes(report).c_str());
        QVERIFY(report.elapsed < 500ms); // nothing to wait for
        QCOMPARE(report.gone().size(), std::size_t(2));
    }

    // The group also holds a process that is not an orphan: only the orphan's pid is signalled.
    void groupWithANonOrphanIsSignalledPerPid() {
        Children kids;
        const QString file = dir_.filePath("tree-signals");
        Child &tree = kids.testproc({"tree", "2", file}, true);
        const QString top = readLine(*tree.proc, "node 1 ");
        const QString child = readLine(*tree.proc, "node 2 ");
        QVERIFY(!readLine(*tree.proc, "ready").isEmpty());
        const os::Pid topPid = top.section(' ', 2, 2).toLongLong();
        const os::Pid childPid = child.section(' ', 2, 2).toLongLong();
        QCOMPARE(child.section(' ', 3, 3).toLongLong(), topPid); // same group
        const auto childId = os::identityOf(childPid);
        QVERIFY(childId);

        const policy::SweepPlan plan = planFor({orphanOf(*childId)});
        QVERIFY(plan.groups.empty());
        QCOMPARE(plan.singles.size(), std::size_t(1));
        const mcp::SweepReport report = mcp::sweep(plan, {300ms, 2000ms});
        // The tree node records TERM and lives on: KILL was needed.
        QVERIFY2(resultFor(report, childPid).outcome == TerminateOutcome::Killed,
                 outcomes(report).c_str());
        QVERIFY(!resultFor(report, childPid).viaGroup);

        QCOMPARE(os::alive(tree.id), os::Liveness::Alive);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray log = f.readAll();
        QVERIFY2(log.contains(QByteArray::number(childPid) + " TERM"), log.constData());
        QVERIFY2(!log.contains(QByteArray::number(topPid) + " "), log.constData());
    }

    // The whole `tether cleanup` path: a ledger naming two stubborn processes of a dead service.
    void cleanupSweepsLedgerOrphansAndEmptiesTheLedger() {
        Children kids;
        Child &service = kids.testproc({"sleep"});
        const os::Identity serviceId = service.id;
        QVERIFY(os::signalIdentity(serviceId, os::Signal::Kill));
        QVERIFY(service.proc->waitForFinished(5000));

        const os::Identity a = kids.stubborn().id;
        const os::Identity b = kids.stubborn().id;
        const os::Identity bystander = kids.stubborn().id; // same shape, not in the ledger
        mcp::Ledger ledger(dir_.filePath("cleanup-ledger.json"));
        QVERIFY(ledger.load());
        std::vector<policy::LedgerEntry> seen;
        for (const os::Identity &id : {a, b}) {
            const os::Lookup l = os::inspect(id.pid);
            seen.push_back({id, l.info.pgid, l.info.argv, "stubborn", serviceId, 0});
        }
        // A stale entry: exited long ago. Pruned by the scan.
        seen.push_back({serviceId, 0, {"gone"}, "gone", serviceId, 0});
        ledger.record(seen);

        const mcp::CleanupResult dry = mcp::cleanup(ledger, {}, {}, true);
        QCOMPARE(dry.scan.orphans.size(), std::size_t(2));
        QCOMPARE(dry.plan.groups.size(), std::size_t(2));
        QVERIFY(dry.report.results.empty());
        QCOMPARE(ledger.entries().size(), std::size_t(2)); // the stale one was dropped
        QCOMPARE(os::alive(a), os::Liveness::Alive);

        const mcp::CleanupResult done = mcp::cleanup(ledger, {}, {}, false, {500ms, 2000ms});
        QVERIFY2(done.report.count(TerminateOutcome::Killed) == 2, outcomes(done.report).c_str());
        QVERIFY(ledger.entries().empty());
        QCOMPARE(os::alive(bystander), os::Liveness::Alive);
        mcp::Ledger reread(ledger.path());
        QVERIFY(reread.load());
        QVERIFY(reread.entries().empty());
        QVERIFY(mcp::cleanup(reread, {}, {}, true).scan.orphans.empty());
    }

    // A process running a configured MCP command whose parent died: "possible", swept only
    // when a person confirmed.
    void possibleOrphanNeedsConfirmation() {
        Children kids;
        const QString marker = dir_.filePath("possible-marker");
        Child &tree = kids.testproc({"--no-pdeathsig", "tree", "2", marker});
        const QString childLine = readLine(*tree.proc, "node 2 ");
        QVERIFY(!readLine(*tree.proc, "ready").isEmpty());
        const auto orphanId = os::identityOf(childLine.section(' ', 2, 2).toLongLong());
        QVERIFY(orphanId);
        kids.adopt(*orphanId);
        const std::vector<std::string> command = os::inspect(orphanId->pid).info.argv;
        QVERIFY(os::signalIdentity(tree.id, os::Signal::Kill)); // the "service" dies
        QVERIFY(tree.proc->waitForFinished(5000));
        QTRY_VERIFY_WITH_TIMEOUT(os::inspect(orphanId->pid).info.ppid != tree.id.pid, 5000);

        mcp::Ledger ledger(dir_.filePath("possible-ledger.json"));
        QVERIFY(ledger.load());
        const mcp::CleanupResult asked = mcp::cleanup(ledger, {command}, {false}, false);
        QCOMPARE(asked.scan.orphans.size(), std::size_t(1));
        QVERIFY(asked.scan.orphans[0].kind == policy::OrphanKind::Possible);
        QCOMPARE(asked.scan.orphans[0].process.pid, orphanId->pid);
        QCOMPARE(asked.report.count(TerminateOutcome::Refused), 1);
        QCOMPARE(os::alive(*orphanId), os::Liveness::Alive);

        const mcp::CleanupResult confirmed =
            mcp::cleanup(ledger, {command}, {true}, false, {300ms, 2000ms});
        QVERIFY2(resultFor(confirmed.report, orphanId->pid).outcome == TerminateOutcome::Killed,
                 outcomes(confirmed.report).c_str());
        QCOMPARE(os::alive(*orphanId), os::Liveness::Gone);
    }

    // Launch-scan time with 1,000 unrelated processes present.
    void scanTimeWithAThousandProcesses() {
        int gate[2];
        QCOMPARE(::pipe(gate), 0);
        std::vector<pid_t> forked;
        for (int i = 0; i < 1000; ++i) {
            const pid_t pid = ::fork();
            QVERIFY(pid >= 0);
            if (pid == 0) { // only async-signal-safe calls: wait for the gate to close, leave
#ifdef __linux__
                ::prctl(PR_SET_PDEATHSIG, SIGKILL); // elsewhere: the gate's EOF when we die
#endif
                ::close(gate[1]);
                char c;
                while (::read(gate[0], &c, 1) < 0) {
                }
                ::_exit(0);
            }
            forked.push_back(pid);
        }
        ::close(gate[0]);
        mcp::Ledger ledger(dir_.filePath("scan-ledger.json"));
        QVERIFY(ledger.load());
        std::vector<std::vector<std::string>> commands{{"/abs/tether", "demo-mcp", "--name", "x"}};
        mcp::ScanResult best;
        best.elapsedMs = 3600 * 1000;
        for (int i = 0; i < 3; ++i) {
            mcp::ScanResult r = mcp::scan(ledger, commands);
            if (r.elapsedMs < best.elapsedMs) best = std::move(r);
        }
        ::close(gate[1]); // every child sees EOF and exits
        for (pid_t pid : forked)
            ::waitpid(pid, nullptr, 0);
        qInfo("scan over %zu processes: %lld ms (snapshot %lld ms), best of 3",
              best.snapshot.size(), static_cast<long long>(best.elapsedMs),
              static_cast<long long>(best.snapshotMs));
        QVERIFY(best.snapshot.size() >= 1000);
        QVERIFY(best.orphans.empty());
        QVERIFY(best.elapsedMs < 5000);
    }
};

QTEST_GUILESS_MAIN(TestSweeper)
#include "tst_sweeper.moc"
