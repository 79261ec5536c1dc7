// Defect 3.7: a wrapper chain is one service. An npm install on Windows runs opencode.cmd ->
// cmd.exe -> node -> opencode.exe: Tether holds the cmd.exe it launched, opencode.exe listens.
// The chain is simulated here as plain process data (these rules are pure and run everywhere).
#include "policy/supervision.h"
#include "supervision/executor.h"

#include <QtTest>

using namespace tether;
using namespace tether::policy;

namespace {

constexpr int kPort = 4096;
const os::Identity kCmd{100, 1000}; // the launched cmd.exe (what the registration names)

os::ProcessInfo proc(os::Pid pid, os::Pid ppid, std::uint64_t start, const char *exe) {
    os::ProcessInfo p;
    p.pid = pid;
    p.ppid = ppid;
    p.startTime = start;
    p.state = os::RunState::Running;
    p.executable = exe;
    p.argv = {exe};
    return p;
}

// cmd.exe -> node -> opencode.exe, each started after its parent.
std::vector<os::ProcessInfo> chain() {
    return {proc(100, 1, 1000, "C:\\Windows\\System32\\cmd.exe"),
            proc(200, 100, 1001, "C:\\Program Files\\nodejs\\node.exe"),
            proc(300, 200, 1002, "C:\\Users\\u\\AppData\\Roaming\\npm\\opencode.exe")};
}

PortFacts listenedBy(os::Pid pid) {
    PortFacts f;
    f.readable = true;
    Listener l;
    l.pid = pid;
    l.owner = "PID " + std::to_string(pid);
    f.listeners.push_back(l);
    return f;
}

template <class T> const T *find(const std::vector<Command> &cs) {
    for (const Command &c : cs)
        if (const T *t = std::get_if<T>(&c)) return t;
    return nullptr;
}

SupervisionState fresh() {
    SupervisionState s;
    s.config.port = kPort;
    return s;
}

// A later Tether launch finds its registration of the cmd.exe and the port held by `listener`.
Step startWithRegistration(os::Pid listener, std::vector<os::ProcessInfo> tree) {
    Step st = step(fresh(), StartRequested{}, 0);
    StartupFacts f;
    f.registration.read = RegistrationFacts::Read::Ok;
    f.registration.id = kCmd;
    f.registration.pgid = kCmd.pid; // contained: it led its group (POSIX) / job (Windows)
    f.registration.port = kPort;
    f.registration.program = "C:\\Users\\u\\AppData\\Roaming\\npm\\opencode.cmd";
    f.registration.life = Liveness::Alive;
    f.registration.portFacts = listenedBy(listener);
    f.registration.tree = std::move(tree);
    f.configuredPort = f.registration.portFacts;
    return step(std::move(st.state), f, 10);
}

} // namespace

class TestServiceTree : public QObject {
    Q_OBJECT
private slots:
    void everyProcessOfTheChainDescendsFromTheLaunchedOne() {
        QVERIFY(descendsFrom(300, kCmd, chain()));
        QVERIFY(descendsFrom(200, kCmd, chain()));
        QVERIFY(!descendsFrom(100, kCmd, chain())); // the root is itself, not a descendant
    }

    void aReusedRootPidHasNoDescendants() {
        // The registration's cmd.exe died and its pid now names a newer process.
        QVERIFY(!descendsFrom(300, os::Identity{100, 999}, chain()));
    }

    void aStaleParentPidDoesNotMakeAForeignListenerADescendant() {
        // Windows keeps a dead parent's pid in its children; a listener that started before
        // its "parent" belongs to an earlier owner of that pid.
        std::vector<os::ProcessInfo> t = chain();
        t.push_back(proc(400, 200, 900, "C:\\other\\server.exe"));
        QVERIFY(!descendsFrom(400, kCmd, t));
    }

    void aBrokenOrCyclicChainIsNoDescent() {
        std::vector<os::ProcessInfo> missingNode = chain();
        missingNode.erase(missingNode.begin() + 1); // node gone: opencode.exe's parent is stale
        QVERIFY(!descendsFrom(300, kCmd, missingNode));
        std::vector<os::ProcessInfo> cycle = {proc(100, 1, 1000, "cmd.exe"),
                                              proc(500, 600, 1000, "a"), proc(600, 500, 1000, "b")};
        QVERIFY(!descendsFrom(500, kCmd, cycle)); // terminates, and is not a descendant
        std::vector<os::ProcessInfo> zombie = chain();
        zombie[1].state = os::RunState::Zombie;
        QVERIFY(!descendsFrom(300, kCmd, zombie));
    }

    void theListeningDescendantIsThePortOwner() {
        QCOMPARE(servicePortOwner(kCmd, listenedBy(300), chain()), os::Pid(300));
        QCOMPARE(portHolder(listenedBy(300), servicePortOwner(kCmd, listenedBy(300), chain()),
                            Family::V4),
                 PortHolder::Service);
        // Not in the tree: another program, as before.
        QCOMPARE(servicePortOwner(kCmd, listenedBy(777), chain()), kCmd.pid);
        QCOMPARE(portHolder(listenedBy(777), servicePortOwner(kCmd, listenedBy(777), chain()),
                            Family::V4),
                 PortHolder::Other);
        // Wine: every listener shows pid 0; nothing can be told either way.
        QCOMPARE(
            portHolder(listenedBy(0), servicePortOwner(kCmd, listenedBy(0), chain()), Family::V4),
            PortHolder::Invisible);
    }

    // A later launch first checks that the registered pid still runs the registered program:
    // for opencode.cmd that is the cmd.exe Windows starts for it.
    void theWrapperRunsTheRegisteredScript() {
        os::ProcessInfo cmd = chain().front();
        cmd.argv = {"C:\\Windows\\System32\\cmd.exe", "/c",
                    "\"C:\\Users\\u\\AppData\\Roaming\\npm\\opencode.cmd\" serve --port 4096"};
        const std::string script = "C:/Users/U/AppData/Roaming/npm/opencode.cmd";
        QVERIFY(supervision::runsProgram(cmd, script));
        QVERIFY(!supervision::runsProgram(cmd, "C:/Users/u/AppData/Roaming/npm/other.cmd"));
        os::ProcessInfo notCmd = cmd;
        notCmd.executable = "C:\\x\\shell.exe";
        notCmd.argv.front() = notCmd.executable;
        QVERIFY(!supervision::runsProgram(notCmd, script));
        os::ProcessInfo unreadable = cmd; // wine: another process's command line is unreadable
        unreadable.argv = {cmd.executable};
        QVERIFY(!supervision::runsProgram(unreadable, script));
    }

    void aLaterLaunchAdoptsTheWrapperWhoseDescendantListens() {
        const Step st = startWithRegistration(300, chain());
        QVERIFY(st.state.svc.has_value());
        QCOMPARE(st.state.svc->id, kCmd); // the launched process stays the tracked identity
        QVERIFY(!find<DropRegistration>(st.commands));
        QVERIFY(!st.state.failure);
    }

    void withoutTheTreeTheWrapperIsNotTheService() {
        // The negative control: the same facts without the chain are a foreign port holder.
        const Step st = startWithRegistration(300, {});
        QVERIFY(find<DropRegistration>(st.commands));
        QCOMPARE(displayState(st.state), State::Failed);
    }

    void aHungWrapperChainIsVerifiedAndStoppedAsAWhole() {
        Step st = startWithRegistration(300, chain());
        QVERIFY(st.state.svc.has_value());
        QVERIFY(!st.state.svc->ourChild); // adopted: the port is all that can identify it
        st = step(std::move(st.state), StopRequested{}, 20);
        const Verify *v = find<Verify>(st.commands);
        QVERIFY(v);
        QCOMPARE(v->id, kCmd);
        Verified facts;
        facts.life = Liveness::Alive;
        facts.portFacts = listenedBy(300);
        facts.tree = chain();
        const Step stop = step(st.state, facts, 30);
        const RunStopPlan *run = find<RunStopPlan>(stop.commands);
        QVERIFY(run);
        QVERIFY(run->plan.terminate);
        QCOMPARE(run->plan.service, kCmd); // the plan's descendants and job step end the rest
        QVERIFY(run->plan.group);

        // The same stop with a foreign listener (not in the tree): never signalled.
        facts.portFacts = listenedBy(777);
        const Step refused = step(st.state, facts, 30);
        const RunStopPlan *none = find<RunStopPlan>(refused.commands);
        QVERIFY(!none || !none->plan.terminate);
    }
};

QTEST_APPLESS_MAIN(TestServiceTree)
#include "tst_service_tree.moc"
