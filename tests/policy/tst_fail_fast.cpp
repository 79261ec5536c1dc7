// Issue 27 (3): an exit that blames the configuration is not retried. A service that refuses its
// arguments (exit 2 at once) or a program that cannot be started fails the same way every time;
// Tether used to retry it five times over ~20 s, each with a "crashed" notice. Now the
// transition function goes to Failed at once with the setting to change (fixFirst), tells it
// once (MustFix), and still cleans up what the dead service left. A crash that a retry may get
// past (exit 1, a signal, a long run) is restarted as before.
#include "policy/failure.h"
#include "policy/supervision.h"

#include <QtTest>

using namespace tether;
using namespace tether::policy;

namespace {

constexpr int kPort = 4096;
const os::Identity kService{321, 9000};

template <class T> int count(const std::vector<Command> &cs) {
    int n = 0;
    for (const Command &c : cs)
        n += std::holds_alternative<T>(c) ? 1 : 0;
    return n;
}

template <class T> const T *find(const std::vector<Command> &cs) {
    for (const Command &c : cs)
        if (const T *t = std::get_if<T>(&c)) return t;
    return nullptr;
}

// Every command a run of events issued, and where it ended.
struct Run {
    SupervisionState state;
    std::vector<Command> commands;
    void feed(const Event &e, Ms now) {
        Step st = step(std::move(state), e, now);
        state = std::move(st.state);
        commands.insert(commands.end(), st.commands.begin(), st.commands.end());
    }
};

// Started on a free port and launched: the service runs, Tether's child.
Run launched() {
    Run r;
    r.state.config.port = kPort;
    r.feed(StartRequested{}, 0);
    StartupFacts facts;
    facts.configuredPort.readable = true; // nobody listens on the port
    r.feed(facts, 1);
    Launched l;
    l.id = kService;
    l.pgid = kService.pid;
    r.feed(l, 2);
    return r;
}

// The service exits by itself after ranMs; the stop plan cleans up what it left.
Run exitedWith(const ExitFacts &exit) {
    Run r = launched();
    r.commands.clear();
    r.feed(Exited{kService, "pid 321 exited with code " + std::to_string(exit.code), 0, exit},
           2 + exit.ranMs);
    r.feed(StopPlanDone{}, 3 + exit.ranMs);
    return r;
}

} // namespace

class TestFailFast : public QObject {
    Q_OBJECT
private slots:
    void exitsThatBlameTheConfigurationNameTheSetting() {
        QVERIFY(fixFirst({2, false, 40}) == FixFirst::Arguments);
        QVERIFY(fixFirst({64, false, 40}) == FixFirst::Arguments);
        QVERIFY(fixFirst({78, false, 40}) == FixFirst::Arguments);
        QVERIFY(fixFirst({126, false, 40}) == FixFirst::Program);
        QVERIFY(fixFirst({127, false, 40}) == FixFirst::Program);
        QVERIFY(fixFirst({9009, false, 40}) == FixFirst::Program);
        QVERIFY(fixFirst({int(0xC0000135u), false, 40}) == FixFirst::Program);
        // What a retry may get past: a general error, a clean end, a signal.
        QVERIFY(fixFirst({1, false, 40}) == FixFirst::Nothing);
        QVERIFY(fixFirst({0, false, 40}) == FixFirst::Nothing);
        QVERIFY(fixFirst({137, false, 40}) == FixFirst::Nothing);
        QVERIFY(fixFirst({2, true, 40}) == FixFirst::Nothing);
        // Code 2 after minutes of work was no refused command line; an unknown run time either.
        QVERIFY(fixFirst({2, false, kStoppedAtOnceMs}) == FixFirst::Nothing);
        QVERIFY(fixFirst({2, false, -1}) == FixFirst::Nothing);
        QCOMPARE(std::string(toString(FixFirst::Arguments)), std::string("arguments"));
    }

    void badArgumentsFailAtOnceWithoutARetry() {
        const Run r = exitedWith({2, false, 40});
        QVERIFY(displayState(r.state) == State::Failed);
        QVERIFY(r.state.fixFirst == FixFirst::Arguments);
        QVERIFY(r.state.failure && !r.state.failure->empty());
        QCOMPARE(count<Launch>(r.commands), 0);
        for (const Command &c : r.commands)
            if (const auto *t = std::get_if<StartTimer>(&c))
                QVERIFY2(t->timer != Timer::Restart, "a restart was scheduled");
        // Told once, as a setting to fix, not as a crash being restarted.
        QCOMPARE(count<Notify>(r.commands), 1);
        QVERIFY(find<Notify>(r.commands)->kind == NoticeKind::MustFix);
        // What the dead service left is still cleaned up first.
        QCOMPARE(count<RunStopPlan>(r.commands), 1);
        QCOMPARE(r.state.budget.failures.size(), std::size_t(0));
    }

    void aProgramThatCannotStartFailsAtOnce() {
        Run r;
        r.state.config.port = kPort;
        r.feed(StartRequested{}, 0);
        StartupFacts facts;
        facts.configuredPort.readable = true;
        r.feed(facts, 1);
        r.commands.clear();
        r.feed(LaunchFailed{"No such file or directory"}, 2);
        QVERIFY(displayState(r.state) == State::Failed);
        QVERIFY(r.state.fixFirst == FixFirst::Program);
        QCOMPARE(count<Notify>(r.commands), 1);
        QVERIFY(find<Notify>(r.commands)->kind == NoticeKind::MustFix);
        QVERIFY(!r.state.due[int(Timer::Restart)]);
    }

    void aCrashIsStillRestartedUnderTheBudget() {
        const Run r = exitedWith({1, false, 40});
        QVERIFY(displayState(r.state) == State::Restarting);
        QVERIFY(r.state.fixFirst == FixFirst::Nothing);
        QVERIFY(r.state.due[int(Timer::Restart)]);
        QVERIFY(find<Notify>(r.commands)->kind == NoticeKind::Crashed);
        // An exit seen without its facts (an adopted service's) is a crash too.
        Run adopted = launched();
        adopted.feed(Exited{kService, "pid 321 exited", 0, std::nullopt}, 50);
        adopted.feed(StopPlanDone{}, 51);
        QVERIFY(displayState(adopted.state) == State::Restarting);
    }

    void tryingAgainClearsTheSettingToFix() {
        Run r = exitedWith({2, false, 40});
        QVERIFY(r.state.fixFirst == FixFirst::Arguments);
        r.feed(StartRequested{}, 100);
        QVERIFY(r.state.fixFirst == FixFirst::Nothing);
        QVERIFY(!r.state.failure);
    }

    void aStopWhileItEndsIsAStopNotAFailure() {
        Run r = launched();
        r.feed(Exited{kService, "exited with code 2", 0, ExitFacts{2, false, 40}}, 42);
        r.feed(StopRequested{}, 43);
        r.feed(StopPlanDone{}, 44);
        QVERIFY(displayState(r.state) == State::Stopped);
        QVERIFY(r.state.fixFirst == FixFirst::Nothing);
    }
};

QTEST_APPLESS_MAIN(TestFailFast)
#include "tst_fail_fast.moc"
