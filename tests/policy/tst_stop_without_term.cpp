// The one escalation (TERM, grace, KILL) on an OS that has no TERM: Windows, where
// os::signalIdentity refuses every signal but Kill. A stop must still end the verified service
// and its descendants at once (no grace waited for a TERM never sent), and must still never
// signal a process whose identity changed. Simulated process table with its own clock.
#include "supervision/stop_plan.h"
#include "supervision/sweep.h"

#include <QtTest>

#include <map>

using namespace tether;
using namespace tether::supervision;
using os::TerminateOutcome;

namespace {

class WindowsLikeTable : public ProcessTable {
public:
    std::map<os::Pid, os::ProcessInfo> procs;
    std::vector<std::pair<os::Identity, os::Signal>> sent; // every signal delivered
    Ms clock = 0;
    // After a failed TERM to this pid, the pid goes to a new process (reused).
    os::Pid reuseAfterTerm = 0;

    void add(os::Pid pid, os::Pid ppid, std::uint64_t start) {
        os::ProcessInfo p;
        p.pid = pid;
        p.ppid = ppid;
        p.startTime = start;
        p.state = os::RunState::Running;
        p.executable = "C:\\x\\p.exe";
        p.argv = {p.executable};
        procs[pid] = p;
    }
    os::Lookup inspect(os::Pid pid) override {
        os::Lookup l;
        const auto it = procs.find(pid);
        l.status = it == procs.end() ? os::Lookup::Status::NotFound : os::Lookup::Status::Found;
        if (it != procs.end()) l.info = it->second;
        return l;
    }
    policy::PortFacts portFacts(int) override { return {}; }
    std::vector<os::ProcessInfo> snapshot() override {
        std::vector<os::ProcessInfo> out;
        for (const auto &[pid, p] : procs)
            out.push_back(p);
        return out;
    }
    std::vector<os::ProcessInfo> groupMembers(os::Pid) override { return {}; } // no groups
    bool signal(const os::Identity &id, os::Signal sig, std::string *error) override {
        const auto it = procs.find(id.pid);
        if (it == procs.end() || it->second.startTime != id.startTime) {
            if (error) *error = "identity does not hold";
            return false;
        }
        if (sig != os::Signal::Kill) {
            if (error) *error = "only Kill (TerminateProcess) exists on Windows";
            if (id.pid == reuseAfterTerm) it->second.startTime += 1000;
            return false;
        }
        sent.push_back({id, sig});
        procs.erase(it);
        return true;
    }
    bool signalGroup(os::Pid, os::Signal, std::string *error) override {
        if (error) *error = "no process groups";
        return false;
    }
    bool waitGone(const os::Identity &id, Ms timeoutMs) override {
        const auto it = procs.find(id.pid);
        if (it == procs.end() || it->second.startTime != id.startTime) return true;
        clock += timeoutMs; // waited it out, in vain
        return false;
    }
    bool waitGroupEmpty(os::Pid, Ms) override { return true; }
    void pause(Ms ms) override { clock += ms; }
    Ms clockMs() override { return clock; }
    std::uint64_t startTimeNow() override { return 1u << 30; }
    os::Pid selfPid() override { return 4; }
    os::Pid selfGroup() override { return 0; }
};

policy::StopPlan planFor(const os::Identity &service) {
    policy::StopPlan plan;
    plan.service = service;
    plan.pgid = service.pid; // the launch's containment marker on Windows (the job)
    plan.graceMs = 5000;
    plan.groupGraceMs = 500;
    return plan;
}

} // namespace

class TestStopWithoutTerm : public QObject {
    Q_OBJECT
private slots:
    void theServiceIsKilledAtOnceWithoutWaitingAGrace() {
        WindowsLikeTable t;
        t.add(100, 4, 1000);
        const StopPlanReport r = runStopPlan(planFor({100, 1000}), t);
        QCOMPARE(r.service, TerminateOutcome::Killed);
        QCOMPARE(t.sent.size(), std::size_t(1));
        QVERIFY(t.sent.front().first == (os::Identity{100, 1000}));
        QCOMPARE(t.clock, Ms(0)); // no grace waited for a TERM that was never sent
    }

    void theWholeChainEndsWithTheService() {
        // cmd.exe -> node -> opencode.exe (listening), plus an MCP child of opencode.exe.
        WindowsLikeTable t;
        t.add(100, 4, 1000);
        t.add(200, 100, 1001);
        t.add(300, 200, 1002);
        t.add(400, 300, 1003);
        t.add(900, 4, 1004); // not of the chain: never signalled
        const StopPlanReport r = runStopPlan(planFor({100, 1000}), t);
        QCOMPARE(r.service, TerminateOutcome::Killed);
        QCOMPARE(r.straysKilled.size(), std::size_t(3));
        QCOMPARE(t.procs.size(), std::size_t(1));
        QVERIFY(t.procs.count(900));
        QCOMPARE(t.clock, Ms(0));
    }

    void aPidReusedAfterTheFailedTermIsNeverKilled() {
        WindowsLikeTable t;
        t.add(100, 4, 1000);
        t.reuseAfterTerm = 100;
        const StopPlanReport r = runStopPlan(planFor({100, 1000}), t);
        QCOMPARE(r.service, TerminateOutcome::Refused);
        QVERIFY(t.sent.empty());
        QVERIFY(t.procs.count(100)); // the new owner of pid 100 lives on
    }

    void aSweptOrphanWithoutTermIsKilledAtOnce() {
        WindowsLikeTable t;
        t.add(500, 123, 2000); // its service is gone: a stale parent pid
        policy::SweepPlan plan;
        policy::SweepTarget target;
        target.id = {500, 2000};
        target.name = "demo-1";
        plan.singles.push_back(target);
        const SweepReport r = sweep(plan, {std::chrono::milliseconds(500)}, t);
        QCOMPARE(r.results.size(), std::size_t(1));
        QCOMPARE(r.results.front().outcome, TerminateOutcome::Killed);
        QCOMPARE(t.clock, Ms(0));
    }
};

QTEST_APPLESS_MAIN(TestStopWithoutTerm)
#include "tst_stop_without_term.moc"
