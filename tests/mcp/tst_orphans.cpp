// The orphan policy as plain data: classification rules and the group-vs-pid sweep plan.
#include "policy/orphan_mode.h"
#include "policy/orphans.h"

#include <QtTest>

#include <algorithm>

using namespace tether;
using namespace tether::policy;
using Argv = std::vector<std::string>;

namespace {

constexpr os::Pid kInit = 1, kSession = 50, kTether = 60, kOldService = 100;

os::ProcessInfo proc(os::Pid pid, os::Pid ppid, os::Pid pgid, std::uint64_t start, Argv argv = {},
                     os::RunState state = os::RunState::Running) {
    os::ProcessInfo p;
    p.pid = pid;
    p.ppid = ppid;
    p.pgid = pgid;
    p.startTime = start;
    p.argv = std::move(argv);
    p.state = state;
    return p;
}

policy::LedgerEntry ledgerEntry(os::Pid pid, std::uint64_t start, os::Pid pgid,
                                os::Identity service = {kOldService, 900}) {
    policy::LedgerEntry e;
    e.process = {pid, start};
    e.pgid = pgid;
    e.name = "mcp-" + std::to_string(pid);
    e.service = service;
    return e;
}

const Argv kDemo1{"/abs/tether", "demo-mcp", "--name", "demo-1"};

// init <- session (a subreaper, Tether's parent) <- tether. The old service is gone.
std::vector<os::ProcessInfo> baseSnapshot() {
    return {proc(kInit, 0, 1, 1, {"/sbin/init"}), proc(kSession, kInit, kSession, 10, {"sh"}),
            proc(kTether, kSession, kTether, 20, {"/abs/tether"})};
}

Self self() {
    return {kTether, kTether, {kSession, kInit}};
}

OrphanInput input(std::vector<os::ProcessInfo> extra, std::vector<policy::LedgerEntry> ledger,
                  os::Liveness oldService = os::Liveness::Gone) {
    OrphanInput in;
    in.snapshot = baseSnapshot();
    in.snapshot.insert(in.snapshot.end(), extra.begin(), extra.end());
    in.ledger = std::move(ledger);
    in.services = {{{kOldService, 900}, oldService}};
    in.mcpCommands = {kDemo1, {"npx", "-y", "@mcp/server-filesystem", "/tmp"}};
    in.self = self();
    return in;
}

std::vector<os::Pid> pidsOf(const std::vector<Orphan> &orphans, OrphanKind kind) {
    std::vector<os::Pid> out;
    for (const Orphan &o : orphans)
        if (o.kind == kind) out.push_back(o.process.pid);
    return out;
}

std::vector<os::Pid> pidsOf(const std::vector<SweepTarget> &targets) {
    std::vector<os::Pid> out;
    for (const SweepTarget &t : targets)
        out.push_back(t.id.pid);
    std::sort(out.begin(), out.end());
    return out;
}

bool planMentions(const SweepPlan &plan, os::Pid pid) {
    for (const SweepGroup &g : plan.groups)
        for (const SweepTarget &t : g.members)
            if (t.id.pid == pid) return true;
    for (const SweepTarget &t : plan.singles)
        if (t.id.pid == pid) return true;
    return false;
}

} // namespace

class TestOrphans : public QObject {
    Q_OBJECT
private slots:
    // [orphans] onLaunch: what the launch scan does with what it found, one rule for the
    // monitor and the tray (which opened its dialog for anything found in its first minute).
    void theLaunchScansRule() {
        using policy::LaunchOrphans;
        using policy::OrphanMode;
        QCOMPARE(policy::onLaunchOrphans(OrphanMode::Ask, true), LaunchOrphans::Offer);
        QCOMPARE(policy::onLaunchOrphans(OrphanMode::Clean, true), LaunchOrphans::Clean);
        QCOMPARE(policy::onLaunchOrphans(OrphanMode::Ignore, true), LaunchOrphans::Nothing);
        for (OrphanMode m : {OrphanMode::Ask, OrphanMode::Clean, OrphanMode::Ignore})
            QCOMPARE(policy::onLaunchOrphans(m, false), LaunchOrphans::Nothing);
    }

    // A double-forked, setsid MCP server of the live service: init for a parent, its own
    // session, started after the service. Never a possible orphan while that service runs
    // (whether the service is tracked, or alive in the ledger); one that started before it is.
    void nothingStartedSinceALiveServiceIsAPossibleOrphan() {
        const os::Identity live{300, 1000};
        std::vector<os::ProcessInfo> extra{proc(300, kSession, 300, 1000, {"opencode"}),
                                           proc(301, kInit, 301, 1500, kDemo1), // its daemon
                                           proc(302, kInit, 302, 800, kDemo1)}; // older
        OrphanInput in = input(extra, {});
        QCOMPARE(pidsOf(classifyOrphans(in), OrphanKind::Possible),
                 (std::vector<os::Pid>{301, 302})); // nothing says it runs: both offered
        in.liveServices = {live};
        QCOMPARE(pidsOf(classifyOrphans(in), OrphanKind::Possible), std::vector<os::Pid>{302});
        OrphanInput byLedger = input(extra, {}, os::Liveness::Alive);
        byLedger.services = {{live, os::Liveness::Alive}};
        QCOMPARE(pidsOf(classifyOrphans(byLedger), OrphanKind::Possible),
                 std::vector<os::Pid>{302});
        byLedger.services = {{live, os::Liveness::Gone}}; // once it is dead, both are
        QCOMPARE(pidsOf(classifyOrphans(byLedger), OrphanKind::Possible),
                 (std::vector<os::Pid>{301, 302}));
    }

    void ancestorsStopAtInitAndStaleParents() {
        auto snap = baseSnapshot();
        QCOMPARE(ancestorsOf(kTether, snap), (std::vector<os::Pid>{kSession, kInit}));
        snap.push_back(proc(70, 80, 70, 5)); // parent 80 started after it: stale
        snap.push_back(proc(80, kInit, 80, 99));
        QVERIFY(ancestorsOf(70, snap).empty());
        QVERIFY(ancestorsOf(12345, snap).empty());
    }

    void ledgerOrphanNeedsMatchingIdentityAndAGoneService() {
        const auto in =
            input({proc(201, kInit, kOldService, 1000, kDemo1),
                   proc(202, kInit, kOldService, 1001, kDemo1)},
                  {ledgerEntry(201, 1000, kOldService), ledgerEntry(202, 1001, kOldService)});
        const auto orphans = classifyOrphans(in);
        QCOMPARE(pidsOf(orphans, OrphanKind::Ledger), (std::vector<os::Pid>{201, 202}));
        QCOMPARE(orphans[0].name, std::string("mcp-201"));
        QVERIFY(pidsOf(orphans, OrphanKind::Possible).empty()); // in the ledger: not "possible"
    }

    void serviceAliveOrUnknownMeansNoOrphan() {
        for (os::Liveness l : {os::Liveness::Alive, os::Liveness::Unknown}) {
            const auto in = input({proc(201, kInit, kOldService, 1000, kDemo1)},
                                  {ledgerEntry(201, 1000, kOldService)}, l);
            QVERIFY(classifyOrphans(in).empty());
        }
        // A service nobody reported on counts as unknown.
        auto in = input({proc(201, kInit, kOldService, 1000, kDemo1)},
                        {ledgerEntry(201, 1000, kOldService)});
        in.services.clear();
        QVERIFY(classifyOrphans(in).empty());
    }

    // The worst possible bug: a recorded pid now belongs to another process.
    void reusedPidIsNeverAnOrphanNorPlanned() {
        const auto stranger = proc(201, kInit, 201, 5555, {"/usr/bin/vim"});
        const auto in = input({stranger}, {ledgerEntry(201, 1000, kOldService)});
        const auto orphans = classifyOrphans(in);
        QVERIFY(orphans.empty());

        // Even a forged orphan handed straight to the planner is not planned.
        Orphan forged{stranger, OrphanKind::Ledger, "x", "forged"};
        forged.process.startTime = 1000;
        const SweepPlan plan = planSweep({forged}, in.snapshot, self(), {true});
        QVERIFY(plan.empty());
        QCOMPARE(plan.skipped.size(), std::size_t(1));
        QVERIFY(!plan.skipped[0].alreadyGone);
        QVERIFY(plan.skipped[0].reason.find("another process") != std::string::npos);
    }

    void zombiesAndProtectedProcessesAreNotOrphans() {
        auto selfEntry = ledgerEntry(kTether, 20, kTether);
        const auto in =
            input({proc(201, kInit, 201, 1000, kDemo1, os::RunState::Zombie)},
                  {ledgerEntry(201, 1000, 201), selfEntry, ledgerEntry(kSession, 10, kSession)});
        QVERIFY(classifyOrphans(in).empty());
    }

    void possibleOrphanRules() {
        const Argv npm{"npm exec @mcp/server-filesystem /tmp"};
        const auto in = input(
            {
                proc(301, kInit, 301, 1000, kDemo1),    // reparented to init
                proc(302, kSession, 302, 1000, kDemo1), // to the subreaper
                proc(303, 999, 303, 1000, kDemo1),      // parent missing
                proc(304, 400, 304, 1000, kDemo1),      // parent pid reused (newer)
                proc(400, kInit, 400, 2000, {"/usr/bin/other"}),
                proc(305, 500, 305, 3000, kDemo1), // parent alive: not orphan
                proc(500, kInit, 500, 2500, {"opencode", "serve"}),
                proc(306, kInit, 306, 1000, {"/abs/tether", "demo-mcp", "--name", "other"}),
                proc(307, kTether, 307, 1000, kDemo1), // Tether's own child
                proc(308, kInit, 308, 1000, npm),      // npx subtree root
                proc(309, 308, 308, 1001, {"sh", "-c", "mcp-server-filesystem /tmp"}),
                proc(310, 309, 308, 1002, {"node", "/n/.bin/mcp-server-filesystem", "/tmp"}),
            },
            {});
        const auto orphans = classifyOrphans(in);
        QVERIFY(pidsOf(orphans, OrphanKind::Ledger).empty());
        QCOMPARE(pidsOf(orphans, OrphanKind::Possible),
                 (std::vector<os::Pid>{301, 302, 303, 304, 308, 309, 310}));
        for (const Orphan &o : orphans)
            QVERIFY(!o.reason.empty());
    }

    // Every live member of the group is being swept: one group signal.
    void wholeGroupOfOrphansIsSignalledAsAGroup() {
        const auto in =
            input({proc(201, kInit, 201, 1000, kDemo1), proc(202, 201, 201, 1001, kDemo1),
                   proc(203, 201, 201, 1002, {}, os::RunState::Zombie)},
                  {ledgerEntry(201, 1000, 201), ledgerEntry(202, 1001, 201)});
        const auto orphans = classifyOrphans(in);
        const SweepPlan plan = planSweep(orphans, in.snapshot, self(), {});
        QCOMPARE(plan.groups.size(), std::size_t(1));
        QCOMPARE(plan.groups[0].pgid, os::Pid(201));
        QCOMPARE(pidsOf(plan.groups[0].members), (std::vector<os::Pid>{201, 202}));
        QVERIFY(plan.singles.empty());
    }

    // opencode 1.18.33 keeps MCP children in the service's group; another live member that is
    // not being swept means: only the pids.
    void groupWithANonOrphanMemberIsSignalledPerPid() {
        const auto in =
            input({proc(201, kInit, 777, 1000, kDemo1), proc(202, kInit, 777, 1001, kDemo1),
                   proc(203, kInit, 777, 1002, {"/usr/bin/editor"})},
                  {ledgerEntry(201, 1000, 777), ledgerEntry(202, 1001, 777)});
        const SweepPlan plan = planSweep(classifyOrphans(in), in.snapshot, self(), {});
        QVERIFY(plan.groups.empty());
        QCOMPARE(pidsOf(plan.singles), (std::vector<os::Pid>{201, 202}));
        QVERIFY(!planMentions(plan, 203));
    }

    void neverTethersGroupNorGroupOne() {
        const auto in =
            input({proc(201, kInit, kTether, 1000, kDemo1), proc(202, kInit, 1, 1001, kDemo1),
                   proc(203, kInit, 0, 1002, kDemo1)},
                  {ledgerEntry(201, 1000, kTether), ledgerEntry(202, 1001, 1),
                   ledgerEntry(203, 1002, 0)});
        const SweepPlan plan = planSweep(classifyOrphans(in), in.snapshot, self(), {});
        QVERIFY(plan.groups.empty());
        QCOMPARE(pidsOf(plan.singles), (std::vector<os::Pid>{201, 202, 203}));
        QVERIFY(!groupIsAllSwept(kTether, {{201, 1000}}, in.snapshot, self()));
        QVERIFY(!groupIsAllSwept(1, {{202, 1001}}, in.snapshot, self()));
    }

    void possibleOrphansNeedConfirmation() {
        const auto in = input({proc(301, kInit, 301, 1000, kDemo1)}, {});
        const auto orphans = classifyOrphans(in);
        QCOMPARE(pidsOf(orphans, OrphanKind::Possible), std::vector<os::Pid>{301});

        const SweepPlan unconfirmed = planSweep(orphans, in.snapshot, self(), {false});
        QVERIFY(unconfirmed.empty());
        QCOMPARE(unconfirmed.skipped.size(), std::size_t(1));
        QVERIFY(unconfirmed.skipped[0].reason.find("confirmation") != std::string::npos);

        const SweepPlan confirmed = planSweep(orphans, in.snapshot, self(), {true});
        QCOMPARE(confirmed.groups.size(), std::size_t(1));
        QCOMPARE(confirmed.groups[0].pgid, os::Pid(301));
    }

    // An unconfirmed possible orphan in a group with ledger orphans keeps the group from
    // being signalled as a whole.
    void unconfirmedMemberSpoilsTheGroup() {
        const auto in =
            input({proc(201, kInit, 201, 1000, kDemo1), proc(202, kInit, 201, 1001, kDemo1)},
                  {ledgerEntry(201, 1000, 201)});
        const auto orphans = classifyOrphans(in);
        QCOMPARE(pidsOf(orphans, OrphanKind::Possible), std::vector<os::Pid>{202});
        const SweepPlan plan = planSweep(orphans, in.snapshot, self(), {false});
        QVERIFY(plan.groups.empty());
        QCOMPARE(pidsOf(plan.singles), std::vector<os::Pid>{201});
    }

    void protectedTargetsAreSkipped() {
        Orphan selfOrphan{proc(kTether, kSession, kTether, 20), OrphanKind::Ledger, "", ""};
        Orphan ancestor{proc(kSession, kInit, kSession, 10), OrphanKind::Ledger, "", ""};
        Orphan init{proc(kInit, 0, 1, 1), OrphanKind::Ledger, "", ""};
        const SweepPlan plan =
            planSweep({selfOrphan, ancestor, init}, baseSnapshot(), self(), {true});
        QVERIFY(plan.empty());
        QCOMPARE(plan.skipped.size(), std::size_t(3));
    }

    void goneTargetsAreSkippedAsAlreadyGone() {
        Orphan gone{proc(201, kInit, 201, 1000), OrphanKind::Ledger, "", ""};
        Orphan zombie{proc(202, kInit, 202, 1000), OrphanKind::Ledger, "", ""};
        auto snap = baseSnapshot();
        snap.push_back(proc(202, kInit, 202, 1000, {}, os::RunState::Zombie));
        const SweepPlan plan = planSweep({gone, zombie}, snap, self(), {});
        QVERIFY(plan.empty());
        QCOMPARE(plan.skipped.size(), std::size_t(2));
        QVERIFY(plan.skipped[0].alreadyGone && plan.skipped[1].alreadyGone);
    }

    void kindNames() {
        QCOMPARE(toString(OrphanKind::Ledger), "ledger");
        QCOMPARE(toString(OrphanKind::Possible), "possible");
    }
};

QTEST_GUILESS_MAIN(TestOrphans)
#include "tst_orphans.moc"
