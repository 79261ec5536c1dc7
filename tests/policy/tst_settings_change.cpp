// Issue 25 (2): a settings change is a SettingsChanged event, in production as in the model. One
// that changes the service itself (its program, arguments, profile, port) stops a tracked
// service first and starts it again with them; with nothing tracked they apply at once, and a
// wanted service (Failed included) starts with them. A quit meanwhile drops them; newer settings
// replace pending ones. The pure transition function, on a virtual clock.
#include "machine_driver.h"
#include "policy_names.h"

#include <QtTest>

#include <algorithm>
#include <variant>

using namespace tether::policy;
using tether::os::Identity;
namespace test = tether::test;

namespace {

using test::name;

constexpr int kPort = 4096;
const Identity kService{321, 900};

SupervisionConfig config() {
    SupervisionConfig c;
    c.timings.windowMs = 30000;
    c.timings.probeIntervalMs = 5000;
    c.port = kPort;
    c.installedVersion = "1.0";
    return c;
}

// The same service under other settings: another program (the shell's flag) or another port.
SettingsChanged anotherProgram(const SupervisionConfig &c) {
    SupervisionConfig next = c;
    next.launchFamily = Family::V6; // a mark: the settings a launch must follow
    return SettingsChanged{next, true};
}
SettingsChanged anotherPort(const SupervisionConfig &c, int port) {
    SupervisionConfig next = c;
    next.port = port;
    return SettingsChanged{next, true};
}

StartupFacts freePort() {
    StartupFacts f;
    f.configuredPort.readable = true; // nobody listens there
    return f;
}

PortFacts listening(Identity id) {
    return PortFacts{true, {Listener{id.pid, Family::V4, false, "PID " + std::to_string(id.pid)}}};
}

struct Driver : test::MachineDriver {
    Driver()
        : MachineDriver(config()) {}
    // Started, launched and answering: Tether's own child, Healthy.
    void running() {
        feed(StartRequested{});
        feed(freePort());
        feed(Launched{kService, kService.pid, {}});
        advanceTo(now + 100);
        answer(true);
        out.clear();
    }
    // The stop under way (Verifying) runs to its end: verified, signalled, done.
    void stopEnds(Identity id = kService) {
        feed(Verified{1, Liveness::Alive, true, listening(id), {}, std::nullopt});
        feed(StopPlanDone{});
    }
    // Where ApplySettings was issued among the commands so far (-1: never).
    int indexOf(bool (*is)(const Command &)) const {
        const auto it = std::find_if(out.begin(), out.end(), is);
        return it == out.end() ? -1 : int(it - out.begin());
    }
    int applied() const {
        return int(std::count_if(out.begin(), out.end(), [](const Command &c) {
            return std::holds_alternative<ApplySettings>(c);
        }));
    }
    bool logged(const std::string &text) const {
        for (const Command &c : out)
            if (const auto *l = std::get_if<Log>(&c))
                if (l->line.find(text) != std::string::npos) return true;
        return false;
    }
};

bool isApply(const Command &c) {
    return std::holds_alternative<ApplySettings>(c);
}
bool isGather(const Command &c) {
    return std::holds_alternative<GatherStartupFacts>(c);
}

} // namespace

class TestSettingsChange : public QObject {
    Q_OBJECT
private slots:
    // Another program while it runs: the old one is stopped, then started anew with the new
    // settings, which are in force before the start looks at anything.
    void aProgramChangeWhileRunningStopsThenStartsWithTheNewProgram() {
        Driver d;
        d.running();
        d.feed(anotherProgram(d.s.config));
        QCOMPARE(d.applied(), 0); // not while the old program runs
        QVERIFY(!d.take<Verify>().empty());
        QCOMPARE(name(d.s.stopCause), name(StopCause::Settings));
        d.stopEnds();
        QVERIFY(!d.take<RunStopPlan>().empty());
        QCOMPARE(d.applied(), 1);
        QVERIFY(d.indexOf(isGather) > d.indexOf(isApply));
        QVERIFY(d.s.config.launchFamily == Family::V6);
        d.feed(freePort());
        QCOMPARE(d.take<Launch>().size(), std::size_t(1));
        d.feed(Launched{{555, 990}, 555, {}});
        QVERIFY(d.s.svc && d.s.svc->family == Family::V6);
        QVERIFY(!d.s.pendingConfig);
    }

    // Timings only: in force at once, and what runs goes on.
    void aChangeOfTimingsAppliesAtOnce() {
        Driver d;
        d.running();
        SupervisionConfig next = d.s.config;
        next.timings.probeIntervalMs = 7000;
        d.feed(SettingsChanged{next});
        QCOMPARE(d.applied(), 1);
        QCOMPARE(d.s.config.timings.probeIntervalMs, Ms(7000));
        QVERIFY(d.take<Verify>().empty());
        QCOMPARE(name(d.display()), name(State::Healthy));
    }

    // Stopped: the new settings apply, nothing starts.
    void aChangeWhileStoppedStartsNothing() {
        Driver d;
        d.feed(anotherPort(d.s.config, kPort + 1));
        QCOMPARE(d.applied(), 1);
        QCOMPARE(d.s.config.port, kPort + 1);
        QVERIFY(d.take<GatherStartupFacts>().empty());
        QVERIFY(d.take<Launch>().empty());
        QCOMPARE(name(d.display()), name(State::Stopped));
    }

    // Failed (still wanted, as "Use a free port" relies on): it starts on the new port.
    void aChangeWhileFailedStartsOnTheNewPort() {
        Driver d;
        d.feed(StartRequested{});
        d.feed(freePort());
        d.feed(LaunchFailed{"No such file or directory"});
        QCOMPARE(name(d.display()), name(State::Failed));
        d.out.clear();
        d.feed(anotherPort(d.s.config, 5123));
        const auto gathers = d.take<GatherStartupFacts>();
        QCOMPARE(gathers.size(), std::size_t(1));
        QCOMPARE(gathers[0].configuredPort, 5123);
        d.feed(freePort());
        const auto launches = d.take<Launch>();
        QCOMPARE(launches.size(), std::size_t(1));
        QCOMPARE(launches[0].port, 5123);
    }

    // A quit during the change's stop: the settings are dropped, nothing starts.
    void aQuitDuringTheChangesStopStartsNothing() {
        Driver d;
        d.running();
        d.feed(anotherPort(d.s.config, kPort + 1));
        QVERIFY(!d.take<Verify>().empty());
        d.feed(QuitRequested{true});
        QVERIFY(d.logged("settings not applied: Tether is quitting"));
        d.stopEnds();
        QVERIFY(d.take<GatherStartupFacts>().empty());
        QVERIFY(d.take<Launch>().empty());
        QCOMPARE(d.applied(), 0);
        QCOMPARE(d.s.config.port, kPort);
        QCOMPARE(name(d.display()), name(State::Stopped));
    }

    // Settings given while the stop for earlier ones runs take their place.
    void aSecondChangeDuringTheStopWins() {
        Driver d;
        d.running();
        d.feed(anotherPort(d.s.config, kPort + 1));
        d.feed(anotherPort(d.s.config, kPort + 2));
        QCOMPARE(d.take<Verify>().size(), std::size_t(1)); // one stop
        d.stopEnds();
        QCOMPARE(d.applied(), 1);
        const auto gathers = d.take<GatherStartupFacts>();
        QCOMPARE(gathers.size(), std::size_t(1));
        QCOMPARE(gathers[0].configuredPort, kPort + 2);
        d.feed(freePort());
        const auto launches = d.take<Launch>();
        QCOMPARE(launches.size(), std::size_t(1));
        QCOMPARE(launches[0].port, kPort + 2);
    }

    // A change while the old settings' launch is under way: that service is stopped as soon
    // as it is there, and the next launch follows the new settings.
    void aChangeDuringALaunchStopsWhatItStarted() {
        Driver d;
        d.feed(StartRequested{});
        d.feed(freePort());
        QCOMPARE(d.take<Launch>().size(), std::size_t(1));
        d.feed(anotherPort(d.s.config, kPort + 1));
        QCOMPARE(d.applied(), 0);
        d.feed(Launched{kService, kService.pid, {}});
        QVERIFY(!d.take<Verify>().empty());
        QCOMPARE(name(d.s.stopCause), name(StopCause::PortChange));
        d.stopEnds();
        d.feed(freePort());
        const auto launches = d.take<Launch>();
        QCOMPARE(launches.size(), std::size_t(1));
        QCOMPARE(launches[0].port, kPort + 1);
    }
};

QTEST_APPLESS_MAIN(TestSettingsChange)
#include "tst_settings_change.moc"
