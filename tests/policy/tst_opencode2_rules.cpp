// opencode 2.x's rules on the pure transition function, with the events opencode's own source
// says a supervisor sees (docs/opencode2-protocol.md): a service that answers "starting" (503)
// is waited for as its clients wait, one whose start failed (500) is replaced under the budget,
// an owner that exits and unregisters was stopped by another program unless a replacement
// registers, a service another client starts while Tether has it stopped is followed, and its
// terminals are handed over or shut down as its own clients do before a signal.
#include "machine_driver.h"
#include "policy_names.h"

#include <QtTest>

#include <variant>

using namespace tether::policy;
using tether::os::Identity;
namespace test = tether::test;

namespace {

using test::name;

constexpr Ms kWindow = 30000;
constexpr Ms kInterval = 5000;
constexpr Ms kStartBudget = 120000; // Service.ensure()'s, which the 2.x profile sets

SupervisionConfig v2Config() {
    SupervisionConfig c;
    c.timings.windowMs = kWindow;
    c.timings.probeIntervalMs = kInterval;
    c.timings.startupDeadlineMs = 30000; // [probe] startupDeadlineMs's default
    c.minStartupDeadlineMs = kStartBudget;
    c.port = 0;
    c.selfRegistering = true;
    c.installedVersion = "2.0.17";
    return c;
}

ManagedFacts registered(Identity id, const std::string &regId, bool launchedByUs = false) {
    ManagedFacts m;
    m.verdict = ManagedFacts::Verdict::Adopt;
    m.id = regId;
    m.process = id;
    m.pgid = id.pid;
    m.port = 49374;
    m.password = "pw";
    m.version = "2.0.17";
    m.launchedByUs = launchedByUs;
    return m;
}

// The machine, fed by hand, with this suite's question: is a stop under way?
struct Driver : test::MachineDriver {
    explicit Driver(SupervisionConfig c)
        : MachineDriver(std::move(c)) {
        version = "2.0.17";
    }
    bool stopping() { return !take<Verify>().empty() || s.phase == Phase::Verifying; }
    // The cleanup of what a dead owner left (true when one ran), then the start's look finds f.
    bool cleanUpThenFind(const StartupFacts &f) {
        const std::vector<RunStopPlan> plans = take<RunStopPlan>();
        if (plans.size() != 1 || plans[0].plan.terminate || !plans[0].plan.orphans) return false;
        feed(StopPlanDone{});
        if (take<GatherStartupFacts>().empty()) return false;
        feed(f);
        return true;
    }
    // Until t, every look at the start-up facts Tether asks for finds f.
    void lookAgainUntil(Ms t, const StartupFacts &f) {
        while (now < t) {
            advanceTo(std::min(t, now + 50));
            if (!take<GatherStartupFacts>().empty()) feed(f);
        }
    }
};

// The start-up facts of a launch onto the service's own free port.
StartupFacts freePort() {
    StartupFacts f;
    f.launchPort = 49374;
    f.configuredPort.readable = true;
    return f;
}

// Tether launches a 2.x service itself (pid 5000).
Driver launched(SupervisionConfig c = v2Config()) {
    Driver d(std::move(c));
    d.feed(StartRequested{});
    d.feed(freePort());
    d.take<Launch>();
    d.feed(Launched{{5000, 900}, 5000, {}});
    return d;
}

// Tether adopts a registered, healthy 2.x service.
Driver adopted() {
    Driver d(v2Config());
    d.feed(StartRequested{});
    StartupFacts f;
    f.managed = registered({4242, 777}, "11111111-1111-1111-1111-111111111111");
    d.feed(f);
    d.answer(true, Boot::Ready);
    return d;
}

// service.json still names the adopted owner (pid 4242), which is gone.
StartupFacts stillNamedAfterItsExit() {
    StartupFacts f;
    f.managed = registered({4242, 777}, "11111111-1111-1111-1111-111111111111");
    f.managed.verdict = ManagedFacts::Verdict::Gone;
    return f;
}

} // namespace

class TestOpencode2Rules : public QObject {
    Q_OBJECT
private slots:
    // A slow boot answers 503 for longer than [probe] startupDeadlineMs's 30 s default: it is
    // waited out up to the 120 s opencode's clients wait, never killed for it.
    void aBootThatAnswers503IsWaitedForLikeEnsureWaits() {
        Driver d = launched();
        d.answerUntil(100000, false, Boot::Starting);
        QCOMPARE(name(d.display()), name(State::Starting));
        QVERIFY(!d.stopping());
        d.answerUntil(101000, true); // the next start-up probe, at most 500 ms away
        QCOMPARE(name(d.display()), name(State::Healthy));
    }

    // Found by the model (issue 24): Tether's own event loop stalls past the start-up deadline
    // while its launch boots; the first thing it reads after the stall is the launch's
    // registration, which sends a probe at once. That probe, refused a moment later, was judged
    // against the deadline the stall had spent, and the launch was killed for Tether's stall.
    void aRegistrationReadFirstAfterAStallDoesNotSpendTheStartupDeadline() {
        Driver d = launched();
        while (d.now < 1000) { // not listening yet: every start-up probe is refused
            d.advanceTo(d.now + 25);
            if (d.s.probeSeq != 0) d.feed(ProbeMissed{d.s.probeSeq, true, "connection refused"});
        }
        d.take<SendProbe>();
        QVERIFY(d.s.due[int(Timer::Probe)]); // the next start-up probe is due
        d.now = kStartBudget + 60000;        // Tether stalled; nothing fired meanwhile
        d.feed(ManagedRegistrationChanged{
            registered({5000, 900}, "33333333-3333-3333-3333-333333333333", true)});
        QCOMPARE(d.take<SendProbe>().size(), std::size_t(1));
        d.feed(ProbeMissed{d.s.probeSeq, true, "connection refused"});
        QVERIFY(!d.stopping());
        QCOMPARE(name(d.display()), name(State::Starting));
    }

    // The control: with the settings' 30 s alone (what Tether did before), the same boot is
    // killed at 30 s.
    void withoutTheClientsBudgetTheSameBootIsKilledAt30s() {
        SupervisionConfig c = v2Config();
        c.minStartupDeadlineMs = 0;
        Driver d = launched(c);
        d.answerUntil(31000, false, Boot::Starting);
        QVERIFY(d.stopping());
        QCOMPARE(name(d.s.stopCause), name(StopCause::StartupTimeout));
    }

    // A service another client started and that still boots (503) is not a silent one: the
    // recovery window is not spent on it while it boots.
    void anAdoptedServiceThatStillBootsIsNotReplaced() {
        Driver d(v2Config());
        d.feed(StartRequested{});
        StartupFacts f;
        f.managed = registered({4242, 777}, "11111111-1111-1111-1111-111111111111");
        d.feed(f);
        d.answerUntil(3 * kWindow, false, Boot::Starting);
        QCOMPARE(name(d.display()), name(State::Starting));
        QVERIFY(!d.stopping());
        d.answerUntil(3 * kWindow + kInterval, true);
        QCOMPARE(name(d.display()), name(State::Healthy));
    }

    // The negative control: answered as a plain unhealthy answer, the same boot is killed at
    // the start-up deadline. (What Tether did before: any non-2xx was a missed probe.)
    void theSameBootCountedAsMissesIsStoppedAtTheDeadline() {
        Driver d = launched();
        d.answerUntil(kStartBudget + 1000, false, Boot::Ready);
        QVERIFY(d.stopping());
        QCOMPARE(name(d.s.stopCause), name(StopCause::StartupTimeout));
    }

    // After its first answer a 503 (it stops, or boots again) is an answer: the window is not
    // spent by it within the start budget; beyond that it counts as silence.
    void a503AfterTheFirstAnswerDoesNotSpendTheWindow() {
        Driver d = adopted();
        QCOMPARE(name(d.display()), name(State::Healthy));
        d.answerUntil(d.now + 3 * kWindow, false, Boot::Starting);
        QCOMPARE(name(d.display()), name(State::NotResponding));
        QVERIFY(!d.stopping());
        d.answerUntil(d.now + kStartBudget, false, Boot::Starting);
        QVERIFY(d.stopping());
        QCOMPARE(name(d.s.stopCause), name(StopCause::Recovery));
    }

    // 500 from /api/info: its boot failed and it stays alive answering so. Replaced, counted,
    // and after the burst Failed with the service's own words.
    void aFailedBootIsStoppedAndCountedUntilTheBudgetGivesUp() {
        SupervisionConfig c = v2Config();
        c.timings.burst = 2;
        Driver d = launched(c);
        d.advanceTo(100);
        d.answer(false, Boot::Failed, "it says its start failed (HTTP 500 from /api/info)");
        QVERIFY(d.stopping());
        QCOMPARE(name(d.s.stopCause), name(StopCause::StartFailed));
        QCOMPARE(name(d.display()), name(State::Recovering));
        d.feed(Verified{1, Liveness::Alive, true, {}, {}, std::nullopt});
        const auto plans = d.take<RunStopPlan>();
        QCOMPARE(plans.size(), std::size_t(1));
        QCOMPARE(int(plans[0].plan.terminals),
                 int(Terminals::Clear)); // a failed service is not asked
        d.feed(StopPlanDone{});
        QCOMPARE(d.s.budget.failures.size(), std::size_t(1));
        QCOMPARE(name(d.display()), name(State::Restarting));
        d.advanceTo(d.now + 60000);
        d.feed(freePort());
        d.feed(Launched{{5001, 950}, 5001, {}});
        d.advanceTo(d.now + 100);
        d.answer(false, Boot::Failed, "it says its start failed (HTTP 500 from /api/info)");
        d.feed(Verified{2, Liveness::Alive, true, {}, {}, std::nullopt});
        d.feed(StopPlanDone{});
        QCOMPARE(name(d.display()), name(State::Failed));
        QVERIFY(d.s.failure);
        QVERIFY2(d.s.failure->find("start failed") != std::string::npos, d.s.failure->c_str());
    }

    // opencode's `service stop` (or any clean stop by another client): the owner exits and its
    // registration goes. Tether does not start it again behind that client's back.
    void anOwnerThatExitsAndUnregistersWasStoppedByAnotherProgram() {
        Driver d = adopted();
        d.take<Notify>();
        d.feed(Exited{{4242, 777}, "pid 4242 exited"});
        d.feed(StartupFacts{}); // service.json is gone
        QVERIFY(!d.take<Launch>().size());
        QCOMPARE(name(d.display()), name(State::Starting)); // looking for a replacement, briefly
        const Ms end = d.now + 10000 + 500;
        for (Ms t = d.now; t < end; t += 250) {
            d.advanceTo(t);
            if (!d.take<GatherStartupFacts>().empty()) d.feed(StartupFacts{});
        }
        QVERIFY(d.noticed(NoticeKind::StoppedElsewhere));
        QCOMPARE(d.take<RunStopPlan>().size(), std::size_t(1)); // what it left still goes
        d.feed(StopPlanDone{});
        QCOMPARE(name(d.display()), name(State::Stopped));
        QCOMPARE(int(d.s.want), int(Want::Stopped));
        QCOMPARE(d.s.reason, std::string("stopped by another program"));
        QVERIFY(d.take<Launch>().empty());
        QVERIFY(d.s.budget.failures.empty()); // not a crash
    }

    // ensure()'s replacement: the old one is stopped (and unregisters), a new one registers a
    // moment later. Followed, not counted as a crash, nothing launched.
    void aReplacementThatRegistersSoonAfterIsFollowedNotCountedAsACrash() {
        Driver d = adopted();
        d.take<Notify>();
        d.feed(Exited{{4242, 777}, "pid 4242 exited"});
        d.feed(StartupFacts{});
        d.advanceTo(d.now + 250);
        QVERIFY(!d.take<GatherStartupFacts>().empty()); // it looks again
        StartupFacts next;
        next.managed = registered({4300, 800}, "22222222-2222-2222-2222-222222222222");
        d.feed(next);
        QVERIFY(d.cleanUpThenFind(next));
        d.answer(true, Boot::Ready);
        QCOMPARE(name(d.display()), name(State::Healthy));
        QCOMPARE(d.s.svc->id.pid, 4300);
        QVERIFY(d.s.svc->external);
        QVERIFY(!d.noticed(NoticeKind::Crashed));
        QVERIFY(d.take<Launch>().empty());
        QVERIFY(d.s.budget.failures.empty());
    }

    // A crash leaves service.json naming the dead pid: that is a crash, as before.
    void anOwnerThatDiesRegisteredCrashed() {
        StartupFacts f = stillNamedAfterItsExit();
        Driver d = adopted();
        d.take<Notify>();
        d.feed(Exited{{4242, 777}, "pid 4242 exited"});
        d.feed(f);
        // Still named a second after the exit: no client's stop removes it, a crash.
        d.lookAgainUntil(d.now + 1000, f);
        QVERIFY(d.noticed(NoticeKind::Crashed));
    }

    // Found by the model (issue 24): another client's ensure() replaces a service that ignores
    // TERM with KILL, and removes service.json one poll (50 ms) after it sees the pid gone.
    // Tether, told of the exit first, read the file still naming the dead pid and called it a
    // crash, spending the restart budget on another client's version replacement.
    void anotherClientsStopThatRemovesTheFileJustAfterTheExitIsNoCrash() {
        StartupFacts f = stillNamedAfterItsExit();
        Driver d = adopted();
        d.take<Notify>();
        d.feed(Exited{{4242, 777}, "pid 4242 exited"});
        d.feed(f);
        QVERIFY(!d.noticed(NoticeKind::Crashed));
        d.lookAgainUntil(d.now + 250, StartupFacts{}); // removed: the client's stop
        StartupFacts next;
        next.managed = registered({7100, 5}, "22222222-2222-2222-2222-222222222222");
        d.lookAgainUntil(d.now + 250, next); // its contender registered
        QVERIFY(d.cleanUpThenFind(next));
        QVERIFY(!d.noticed(NoticeKind::Crashed));
        QVERIFY(d.s.budget.failures.empty());
        QVERIFY(d.s.svc);
        QCOMPARE(d.s.svc->id.pid, 7100);
    }

    // Found by the model (issue 24): the owner dies with service.json still naming it, and
    // another client's ensure() registers a new one at once. Tether followed the new owner and
    // never cleaned up what the dead one left: its MCP servers ran on as orphans.
    void whatADeadOwnerLeftIsCleanedUpBeforeItsSuccessorIsFollowed() {
        Driver d = adopted();
        d.feed(Exited{{4242, 777}, "pid 4242 exited"});
        d.feed(stillNamedAfterItsExit());
        StartupFacts next;
        next.managed = registered({7100, 5}, "22222222-2222-2222-2222-222222222222");
        d.lookAgainUntil(d.now + 250, next);
        const std::vector<RunStopPlan> plans = d.take<RunStopPlan>();
        QCOMPARE(plans.size(), std::size_t(1));
        QCOMPARE(plans[0].plan.service.pid, 4242);
        QVERIFY(!plans[0].plan.terminate); // nothing signalled but what it left
        QVERIFY(plans[0].plan.orphans);
        d.feed(StopPlanDone{});
        QVERIFY(!d.take<GatherStartupFacts>().empty());
        d.feed(next);
        QVERIFY(d.s.svc);
        QCOMPARE(d.s.svc->id.pid, 7100);
        QVERIFY(d.s.budget.failures.empty());
        QVERIFY(d.take<Launch>().empty());
    }

    // Found by the model (issue 24): the owner dies with service.json still naming it, and the
    // person stops while Tether looks at the file again (a client's stop removes it a moment
    // after the exit). The stop went idle at once: the dead owner's MCP servers ran on.
    void aStopWhileAnExitedOwnerIsLookedAtCleansUpWhatItLeft() {
        Driver d = adopted();
        d.feed(Exited{{4242, 777}, "pid 4242 exited"});
        d.feed(stillNamedAfterItsExit());
        d.take<GatherStartupFacts>();
        d.feed(StopRequested{});
        const std::vector<RunStopPlan> plans = d.take<RunStopPlan>();
        QCOMPARE(plans.size(), std::size_t(1));
        QCOMPARE(plans[0].plan.service.pid, 4242);
        QVERIFY(!plans[0].plan.terminate);
        QVERIFY(plans[0].plan.orphans);
        d.feed(StopPlanDone{});
        QCOMPARE(name(d.display()), name(State::Stopped));
        d.advanceTo(d.now + 2000);
        QVERIFY(d.take<GatherStartupFacts>().empty());
    }

    // Found by the model (issue 24): another client's service registers first while Tether's
    // own launch still starts. Tether followed it and left its launch to leave by itself, which
    // it does only while an owner answers: after the person stopped that owner, Tether's launch
    // bound the port and ran on behind the Stop. The launch is now stopped before Tether follows.
    void aLaunchThatLostToAnotherClientsServiceIsStoppedBeforeItIsFollowed() {
        Driver d = launched();
        const StartupFacts other = [] {
            StartupFacts f;
            f.managed = registered({7100, 5}, "22222222-2222-2222-2222-222222222222");
            return f;
        }();
        d.feed(ManagedRegistrationChanged{other.managed});
        QVERIFY(d.stopping());
        d.feed(Verified{1, Liveness::Alive, true, PortFacts{true, {}}, {}, other.managed});
        const std::vector<RunStopPlan> plans = d.take<RunStopPlan>();
        QCOMPARE(plans.size(), std::size_t(1));
        QCOMPARE(plans[0].plan.service.pid, 5000);
        QVERIFY(plans[0].plan.terminate);
        d.feed(StopPlanDone{});
        QVERIFY(!d.take<GatherStartupFacts>().empty());
        d.feed(other);
        QVERIFY(d.s.svc);
        QCOMPARE(d.s.svc->id.pid, 7100);
        QVERIFY(d.s.budget.failures.empty());
    }

    // Found by the model (issue 24): a quit that leaves the service running, asked while Tether
    // waits for another client's replacement of an owner that exited and unregistered, waited
    // the whole 10 s for it (the tray's quit gives up after 5 s): a quit settles at once.
    void aQuitWhileWaitingForAReplacementSettles() {
        Driver d = adopted();
        d.feed(Exited{{4242, 777}, "pid 4242 exited"});
        d.feed(StartupFacts{}); // unregistered: waiting for a successor
        d.take<Settled>();
        d.feed(QuitRequested{false});
        d.lookAgainUntil(d.now + 100, StartupFacts{});
        QCOMPARE(d.take<RunStopPlan>().size(), std::size_t(1)); // what it left, if anything
        d.feed(StopPlanDone{});
        QVERIFY(!d.take<Settled>().empty());
    }

    // The TUI's ensure() starts a service while Tether has it stopped: shown and followed.
    void aServiceAnotherClientStartsWhileStoppedIsFollowed() {
        Driver d(v2Config());
        QCOMPARE(name(d.display()), name(State::Stopped));
        d.feed(ManagedRegistrationChanged{
            registered({7000, 1}, "33333333-3333-3333-3333-333333333333")});
        QVERIFY(d.noticed(NoticeKind::StartedElsewhere));
        d.answer(true, Boot::Ready);
        QCOMPARE(name(d.display()), name(State::Healthy));
        QVERIFY(d.s.svc->external);
        QCOMPARE(int(d.s.want), int(Want::Running));
        // A registration whose owner cannot be verified is not followed.
        Driver e(v2Config());
        ManagedFacts unknown = registered({7001, 1}, "44444444-4444-4444-4444-444444444444");
        unknown.verdict = ManagedFacts::Verdict::Unknown;
        e.feed(ManagedRegistrationChanged{unknown});
        QCOMPARE(name(e.display()), name(State::Stopped));
        // Nor one that appears while Tether quits.
        Driver q(v2Config());
        q.feed(QuitRequested{false});
        q.feed(ManagedRegistrationChanged{
            registered({7002, 1}, "55555555-5555-5555-5555-555555555555")});
        QVERIFY(!q.s.svc);
    }

    // Found by the model (issue 24): another client registered its own service since Tether
    // last read service.json, and the person asks for a restart. The verification found the
    // followed owner alive on the port and Tether signalled it, a service the file no longer
    // names (it leaves by itself when it re-reads the file). Now the file is read with it.
    void aServiceNoLongerRegisteredIsNotSignalled() {
        Driver d = adopted();
        d.feed(RestartRequested{});
        QVERIFY(!d.take<Verify>().empty());
        d.feed(Verified{1,
                        Liveness::Alive,
                        false,
                        PortFacts{true, {Listener{4242, Family::V4, false, {}}}},
                        {},
                        registered({7100, 5}, "22222222-2222-2222-2222-222222222222")});
        const std::vector<RunStopPlan> plans = d.take<RunStopPlan>();
        QCOMPARE(plans.size(), std::size_t(1));
        QVERIFY(!plans[0].plan.terminate);
        QVERIFY(!plans[0].plan.group);
        d.feed(StopPlanDone{});
        QVERIFY(!d.take<GatherStartupFacts>().empty()); // the restart finds the new owner
    }

    // Terminals, as opencode's own clients treat them before a signal.
    void terminalsAreHandedOverOnARestartAndShutDownOnAStop() {
        const auto planOf = [](Driver &d) {
            d.feed(Verified{1,
                            Liveness::Alive,
                            false,
                            PortFacts{true, {Listener{4242, Family::V4, false, {}}}},
                            {},
                            std::nullopt});
            const auto plans = d.take<RunStopPlan>();
            return plans.empty() ? Terminals::Untouched : plans.back().plan.terminals;
        };
        Driver restart = adopted();
        restart.feed(RestartRequested{});
        QCOMPARE(int(planOf(restart)), int(Terminals::HandOver));
        Driver stop = adopted();
        stop.feed(StopRequested{});
        QCOMPARE(int(planOf(stop)), int(Terminals::ShutDown));
        // A frozen service is replaced without asking it anything (ensure()'s eviction).
        Driver frozen = adopted();
        const Ms end = frozen.now + 2 * kWindow + kInterval;
        for (Ms t = frozen.now; t < end; t += 100) {
            frozen.advanceTo(t);
            for (const SendProbe &p : frozen.take<SendProbe>())
                frozen.feed(ProbeMissed{p.seq, false, "timed out"});
            if (frozen.s.phase == Phase::Verifying) break;
        }
        QCOMPARE(name(frozen.s.stopCause), name(StopCause::Recovery));
        QCOMPARE(int(planOf(frozen)), int(Terminals::Clear));
        // Not opencode 2.x: nothing of the kind.
        SupervisionConfig v1 = v2Config();
        v1.selfRegistering = false;
        Driver other(v1);
        other.feed(StartRequested{});
        StartupFacts f;
        f.registration.read = RegistrationFacts::Read::Missing;
        f.launchPort = 4096;
        f.configuredPort.readable = true;
        other.feed(f);
        other.feed(Launched{{4242, 10}, 4242, "pw"});
        other.advanceTo(100);
        other.answer(true, Boot::Ready);
        other.feed(StopRequested{});
        QCOMPARE(int(planOf(other)), int(Terminals::Untouched));
    }

    // opencode's stop removes service.json once the process is gone, if it still names it.
    void aStoppedServiceLeavesNoRegistrationBehind() {
        Driver d = adopted();
        d.feed(StopRequested{});
        d.feed(Verified{1,
                        Liveness::Alive,
                        false,
                        PortFacts{true, {Listener{4242, Family::V4, false, {}}}},
                        {},
                        std::nullopt});
        d.take<DropRegistration>();
        d.feed(StopPlanDone{});
        bool dropped = false;
        for (const DropRegistration &r : d.take<DropRegistration>())
            dropped = dropped || r.managedId == "11111111-1111-1111-1111-111111111111";
        QVERIFY(dropped);
        QCOMPARE(name(d.display()), name(State::Stopped));
    }

    // Found by the model (issue 24, seed 201): a quit-and-stop while another owner has
    // registered over the service Tether follows. The verification saw the followed one no
    // longer named and left it (it leaves by itself), and Tether said "stopped" while the
    // service the file names, the one every client uses, kept running. The person's stop means
    // the service: the owner named now is verified and stopped, the old one is not signalled.
    void aPersonsStopStopsTheOwnerTheFileNamesNow() {
        Driver d = adopted();
        d.feed(QuitRequested{true});
        QVERIFY(!d.take<Verify>().empty());
        const ManagedFacts now = registered({7100, 5}, "22222222-2222-2222-2222-222222222222");
        d.feed(Verified{1,
                        Liveness::Alive,
                        false,
                        PortFacts{true, {Listener{4242, Family::V4, false, {}}}},
                        {},
                        now});
        QVERIFY(d.take<RunStopPlan>().empty()); // pid 4242 is not signalled
        const std::vector<Verify> next = d.take<Verify>();
        QCOMPARE(next.size(), std::size_t(1));
        QCOMPARE(next[0].id.pid, 7100);
        d.feed(Verified{2,
                        Liveness::Alive,
                        false,
                        PortFacts{true, {Listener{7100, Family::V4, false, {}}}},
                        {},
                        now});
        const std::vector<RunStopPlan> plans = d.take<RunStopPlan>();
        QCOMPARE(plans.size(), std::size_t(1));
        QCOMPARE(plans[0].plan.service.pid, 7100);
        QVERIFY(plans[0].plan.terminate);
        // A restart is not a stop of the service: the old one is left, the new one followed.
        Driver r = adopted();
        r.feed(RestartRequested{});
        r.take<Verify>();
        r.feed(Verified{1,
                        Liveness::Alive,
                        false,
                        PortFacts{true, {Listener{4242, Family::V4, false, {}}}},
                        {},
                        now});
        QVERIFY(r.take<Verify>().empty());
        const std::vector<RunStopPlan> left = r.take<RunStopPlan>();
        QCOMPARE(left.size(), std::size_t(1));
        QVERIFY(!left[0].plan.terminate);
    }

    // Found by the model (issue 24, seeds 237 and 240059): the owner Tether followed died (a
    // crash, or an exit whose notice had not come yet) and another client's service registered
    // before Tether saw the death. Tether followed the new owner at once and forgot the old one:
    // its MCP servers were never swept. The old owner is now looked at first.
    void aNewOwnerIsFollowedOnlyAfterWhatTheOldOneLeftIsCleaned() {
        Driver d = adopted();
        const ManagedFacts next = registered({7100, 5}, "22222222-2222-2222-2222-222222222222");
        d.feed(ManagedRegistrationChanged{next});
        const std::vector<Verify> looks = d.take<Verify>();
        QCOMPARE(looks.size(), std::size_t(1));
        QCOMPARE(looks[0].id.pid, 4242);
        d.feed(Verified{1, Liveness::Gone, false, PortFacts{true, {}}, {}, next});
        const std::vector<RunStopPlan> plans = d.take<RunStopPlan>();
        QCOMPARE(plans.size(), std::size_t(1));
        QVERIFY(!plans[0].plan.terminate);
        QVERIFY(plans[0].plan.orphans); // the ledger's MCP servers of pid 4242 go
        d.feed(StopPlanDone{});
        QVERIFY(!d.take<GatherStartupFacts>().empty());
        StartupFacts f;
        f.managed = next;
        d.feed(f);
        QCOMPARE(d.s.svc->id.pid, 7100);
        QVERIFY(!d.noticed(NoticeKind::Crashed));
        QVERIFY(d.s.budget.failures.empty());
        // Alive: not signalled, and followed the same way.
        Driver a = adopted();
        a.feed(ManagedRegistrationChanged{next});
        a.take<Verify>();
        a.feed(Verified{1,
                        Liveness::Alive,
                        false,
                        PortFacts{true, {Listener{4242, Family::V4, false, {}}}},
                        {},
                        next});
        const std::vector<RunStopPlan> alive = a.take<RunStopPlan>();
        QCOMPARE(alive.size(), std::size_t(1));
        QVERIFY(!alive[0].plan.terminate);
        QVERIFY(!alive[0].plan.group);
    }

    // Found by the model (issue 24, seed 240028): Tether's own launch froze and another
    // client's service registered over it; "it leaves by itself" cannot happen while it is
    // stopped, and after the person's Stop it still ran. Tether's own child that no longer
    // answers is ended as any hung child of Tether's.
    void ownHungChildReplacedInTheFileIsEnded() {
        Driver d = launched();
        d.feed(ManagedRegistrationChanged{
            registered({5000, 900}, "33333333-3333-3333-3333-333333333333", true)});
        d.answer(true, Boot::Ready);
        d.s.responding = false; // it froze: the probes time out
        const ManagedFacts next = registered({7100, 5}, "22222222-2222-2222-2222-222222222222");
        d.feed(ManagedRegistrationChanged{next});
        QVERIFY(!d.take<Verify>().empty());
        d.feed(Verified{1,
                        Liveness::Alive,
                        true,
                        PortFacts{true, {Listener{5000, Family::V4, false, {}}}},
                        {},
                        next});
        const std::vector<RunStopPlan> plans = d.take<RunStopPlan>();
        QCOMPARE(plans.size(), std::size_t(1));
        QCOMPARE(plans[0].plan.service.pid, 5000);
        QVERIFY(plans[0].plan.terminate);
    }

    // Found by the model (issue 24, seed 424): the file named Tether's launch before Tether saw
    // it register; another client's version replacement TERMed it, and Tether, told of the exit
    // first, read the file still naming the dead pid and called it a crash. It now waits for
    // the file's removal as it does for an owner it saw register.
    void anUnregisteredLaunchThatExitsStillNamedIsWaitedForLikeAnyOwner() {
        Driver d = launched();
        d.take<Notify>();
        d.feed(Exited{{5000, 900}, "pid 5000 exited"});
        StartupFacts f;
        f.managed = registered({5000, 900}, "33333333-3333-3333-3333-333333333333", true);
        f.managed.verdict = ManagedFacts::Verdict::Gone;
        d.feed(f);
        QVERIFY(!d.noticed(NoticeKind::Crashed));
        QCOMPARE(name(d.s.phase == Phase::Resolving ? State::Starting : d.display()),
                 name(State::Starting));
        d.lookAgainUntil(d.now + 1000, f); // still named a second later: a crash after all
        QVERIFY(d.noticed(NoticeKind::Crashed));
    }

    // Found by the model (issue 24, seed 136): Tether's launch stopped because another
    // client's service registered first, and that service then went away: the launch after it
    // was free of the restart budget, so an owner that registers and vanishes again and again
    // would have Tether relaunch without end. It is spent from the budget like a failed start.
    void aLaunchAfterAReplacedOneIsSpentFromTheBudget() {
        Driver d = launched();
        const ManagedFacts other = registered({7100, 5}, "22222222-2222-2222-2222-222222222222");
        d.feed(ManagedRegistrationChanged{other});
        d.take<Verify>();
        d.feed(Verified{1, Liveness::Alive, true, PortFacts{true, {}}, {}, other});
        d.take<RunStopPlan>();
        d.feed(StopPlanDone{});
        QVERIFY(!d.take<GatherStartupFacts>().empty());
        QVERIFY(d.s.budget.failures.empty());
        d.feed(freePort()); // the other one is gone: nothing registered
        QCOMPARE(d.take<Launch>().size(), std::size_t(1));
        QCOMPARE(d.s.budget.failures.size(), std::size_t(1));
        // Followed instead of launching: nothing spent.
        Driver f = launched();
        f.feed(ManagedRegistrationChanged{other});
        f.take<Verify>();
        f.feed(Verified{1, Liveness::Alive, true, PortFacts{true, {}}, {}, other});
        f.take<RunStopPlan>();
        f.feed(StopPlanDone{});
        StartupFacts named;
        named.managed = other;
        f.feed(named);
        QVERIFY(f.take<Launch>().empty());
        QVERIFY(f.s.budget.failures.empty());
    }

    // The port is the service's own choice: when Tether cannot know it (a channel whose port
    // is a hash of its name), it launches without checking and learns it from the file.
    void anUnknownPortIsNotCheckedBeforeTheLaunch() {
        Driver d(v2Config());
        d.feed(StartRequested{});
        StartupFacts f;
        f.launchPort = 0; // its channel's port is a hash Tether does not know
        d.feed(f);
        const auto launches = d.take<Launch>();
        QCOMPARE(launches.size(), std::size_t(1));
        QCOMPARE(launches[0].port, 0);
        QCOMPARE(name(d.display()), name(State::Starting));
    }
};

QTEST_GUILESS_MAIN(TestOpencode2Rules)
#include "tst_opencode2_rules.moc"
