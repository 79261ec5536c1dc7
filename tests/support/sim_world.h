// A simulated world for the model-based tests of the supervision (DESIGN.md "Testing", issue 13
// points 3-4): processes (pid, start time, ppid, pgid, session, running / stopped / zombie,
// argv, listeners on v4 and v6), a monotonic clock whose timers fire as it advances, pid reuse,
// a service the Launcher starts, its MCP children, decoys, a registration file, and an
// invariant checker that sees every signal with the truth at the moment it was sent.
//
// The world implements every port of supervision/executor.h and supervision::ProcessTable;
// supervision::Executor runs against it unchanged. The Driver below generates seeded random
// action sequences, replays them, and shrinks a failing one (delta debugging).
//
// Plain C++17: no Qt, so the benchmark and the QtTest suite share it.
#pragma once

#include "policy/ledger_entry.h"
#include "supervision/executor.h"
#include "supervision/managed_watch.h"
#include "supervision/stop_plan.h"
#include "supervision/stop_sequence.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tether::sim {

using os::Pid;
using policy::Ms;

enum class Role : std::uint8_t { Free, Init, Tether, Service, Mcp, Decoy, Foreign };
const char *toString(Role r);

// One process of the simulated table.
struct Proc {
    Pid pid = 0, ppid = 0, pgid = 0, sid = 0;
    std::uint64_t start = 0;
    os::RunState state = os::RunState::Running;
    Role role = Role::Free;
    int lineage = -1;  // Service / Mcp: index of the service record it belongs to
    int instance = -1; // Tether: its instance number; Service: the instance that launched it
    std::string exe;
    std::vector<std::string> argv;
    // One listening socket at most.
    bool listening = false;
    int port = 0;
    policy::Family family = policy::Family::V4;
    bool wildcard = false;
    bool invisible = false; // another user's: the port tables show owner pid 0
    bool http = false;      // a non-service that answers HTTP (unhealthy) instead of hanging up
    // Behaviour.
    bool ignoresTerm = false;
    Ms termDelay = 5;
    bool termPending = false; // TERM while stopped: acted on after CONT
    bool listenPending = false;
    bool exitWithParent = false; // MCP: exits on stdin EOF when its service dies
    Ms exitAt = -1;              // a scheduled exit
    bool replaced = false;       // opencode 2.x: another owner registered over it; it shuts down
    bool alive() const { return role != Role::Free && state != os::RunState::Zombie; }
};

// How the next service the Launcher starts behaves (set by the driver's actions).
struct ServiceSpec {
    Ms startupDelay = 30;
    bool listens = true;
    policy::Family family = policy::Family::V4; // where it listens when the host is not pinned
    bool wildcard = false;
    bool ignoresTerm = false;
    Ms termDelay = 10;
    int mcp = 2;                 // MCP children it spawns once up
    unsigned leaveGroupMask = 0; // bit i: child i starts its own session
    unsigned stubbornMask = 0;   // bit i: child i ignores TERM
    unsigned unledgeredMask = 0; // bit i: child i never makes it into the ledger
    unsigned exitWithParentMask = 0;
    bool launchFails = false;
    Ms latency = 3; // probe answer latency
};

struct ServiceRec {
    os::Identity id;
    Pid pgid = 0;
    int instance = -1;
    bool adoptedOnly = false; // not started by any Tether (a hand-started service)
    std::string password;
    std::string version;
    Ms latency = 3;
    Ms busyUntil = -1; // answers only after the probe timeout until then
    bool dead = false;
    bool trackedAtDeath = false;
    // opencode 2.x
    bool byClient = false;         // a contender another client's ensure() spawned
    bool replacedByClient = false; // another client's ensure() stopped it to replace its version
    bool stoppedByClient = false;  // another client's terminate() signalled it (not checked
                                   // by [orphans]: Tether follows the next owner, see DESIGN)
    std::string managedId;         // its service.json id once it registered
};

struct SignalRecord {
    std::uint64_t step = 0;
    Ms at = 0;
    os::Signal sig = os::Signal::Terminate;
    bool group = false;
    Pid asked = 0;                // pid or pgid asked for
    std::uint64_t askedStart = 0; // single: the start time asked for
    Pid pid = 0;                  // who received it
    std::uint64_t start = 0;
    Role role = Role::Free;
    int lineage = -1;
    bool delivered = false; // false: refused by the table
    std::string note;
};

struct Obligation { // MCP processes of a dead service: removed or listed by E deadline
    int service = -1;
    Ms deadlineE = 0;
};

// Knobs for negative controls: each one breaks a port on purpose.
struct Breakage {
    bool staleInspect = false; // inspect() caches the first process seen at a pid, signal()
                               // signals by pid alone (skips the verification)
    bool dropAnswers = false;  // the prober reports healthy answers as missed
    bool skipOrphans = false;  // the stop-plan runner never sweeps the ledger
    bool ownFailure = false;   // the checker's self-test hook (unused by the world)
};

struct WorldOptions {
    policy::Timings timings;
    bool containment = true;    // a launched service leads its own process group (the launcher's)
    bool scriptProgram = false; // the service program is a shebang script (runs as node)
    // The service's event stream: a heartbeat this often while it runs (opencode 1.x: 10 s),
    // fed as policy::StreamAlive; 0: no stream (as opencode 2.x and custom services).
    Ms heartbeatMs = 0;
    bool adoptedExitNotice = true;
    bool splitRunner = true; // begin/finish with the orphan sweep between (as the shell)
    Ms runnerDoneDelay = 40; // StopPlanDone comes this long after the plan (0: at once)
    Ms killWaitMs = 200;
    Ms exitNoticeLatency = 2;
    bool checkStartupGaps = true; // invariant: a start-up deadline does not count gaps
    // opencode 2.x (the profile's Dialect::Opencode2): services register themselves in
    // service.json on their own port and leave when it stops naming them; Tether reads the file
    // (policy selfRegistering) and other clients call Service.ensure() (Act::Ensure).
    bool opencode2 = false;
    Breakage broken;
    bool collectLog = false;
    // Invariant tags ("[quit-settle]") not to fail on: exploring past a known finding only.
    std::vector<std::string> ignore;
};

class World;

// ---- Driver actions
// ------------------------------------------------------------------------------

enum class Act : std::uint8_t {
    Advance,
    Start,
    Stop,
    Restart,
    QuitKeep,
    QuitStop,
    TetherCrash,
    TetherLaunch,
    Settings,
    Stall,
    Sleep,
    Jump,
    GapEvent,
    StaleAnswer,
    Crash,
    Freeze,
    Cont,
    Busy,
    Exit0,
    NextSpec,
    Decoy,
    DecoyExit,
    ForgeReg,
    TableErrors,
    McpSpawn,
    McpLeave,
    McpExit,
    Quiet,
    Ensure, // opencode 2.x: another client's Service.ensure() (a: checkVersion, b: its version
            // is the other one, c: it reconnects, ensuring again when the service changes)
    Count
};
struct Action {
    Act act = Act::Advance;
    std::int64_t a = 0, b = 0, c = 0;
};
std::string toString(const Action &a);

// ---- The world
// ------------------------------------------------------------------------------------

class World : public supervision::ProcessTable,
              public supervision::Scheduler,
              public supervision::Prober,
              public supervision::Launcher,
              public supervision::RegistrationStore,
              public supervision::StopPlanRunner,
              public supervision::Observer {
public:
    World(std::uint64_t seed, WorldOptions options);
    ~World() override;

    // -- driving
    void apply(const Action &a); // one driver action (may feed several events)
    bool failed() const { return !failure_.empty(); }
    const std::string &failure() const { return failure_; }
    std::uint64_t failedAtStep() const { return failedStep_; }
    std::uint64_t ignored() const { return ignored_; }
    std::uint64_t steps() const { return steps_; } // events stepped through the executor
    supervision::Executor *exec() { return exec_; }
    // The rig (tests/support/world_rig.h): the Tether this world launches is made by `make`, a
    // real Supervisor over the world's ports and clock, which returns the executor it runs;
    // `end` destroys it when that Tether ends. Unset: the world runs a bare executor itself.
    struct TetherFactory {
        std::function<supervision::Executor &(supervision::Ports &ports, std::function<Ms()> clock,
                                              std::function<void(const policy::Event &)> feed)>
            make;
        std::function<void()> end;
    };
    void setTetherFactory(TetherFactory factory) { factory_ = std::move(factory); }
    policy::SupervisionConfig &config() { return config_; }
    ServiceSpec &nextSpec() { return spec_; }
    std::string binaryVersion; // what a launched service reports (empty: the installed version)
    Ms now() const { return now_; }
    Ms execNow() const { return now_ + offset_; }
    const std::vector<SignalRecord> &signalLog() const {
        return signals_;
    } // not signals(): a Qt macro
    const std::vector<std::string> &log() const { return log_; }
    std::vector<Proc> &procs() { return procs_; }
    std::vector<ServiceRec> &services() { return services_; }
    const std::vector<std::string> &notices() const { return notices_; }
    const std::vector<Pid> &confirmationList() const { return possible_; }
    int launches() const { return launches_; }

    // -- pieces the scenario tests use directly
    void launchTether();
    void endTether(bool graceful);
    void feed(const policy::Event &e); // to the executor, with the checks
    void advance(Ms dt);               // normal time: world and Tether
    void stall(Ms dt);                 // Tether does not run; the world does
    void sleepFor(Ms dt);              // the machine sleeps: everything is late after
    void jump(Ms dt);                  // Tether's clock jumps ahead
    void settle(Ms maxMs);             // advance until the quit is done (or maxMs)
    bool quitDone() const;             // as Supervisor::quitDone()
    int currentService() const;        // record of the newest live service, -1 when none
    Proc *proc(Pid pid);
    Proc *byLineage(int service, Role role);
    Pid spawn(Role role, Pid ppid, bool ownGroup, const std::vector<std::string> &argv,
              const std::string &exe, Pid reusePid = 0);
    void listen(Pid pid, int port, policy::Family f, bool wildcard, bool invisible = false);
    void die(Pid pid, const char *why);
    void signalFromWorld(Pid pid, os::Signal sig);
    supervision::OwnRegistration &registrationFile() { return reg_; }
    Pid tetherPid() const { return selfPid_; }
    void checkIntent(); // the user's last intent is what the executor ends in
    void fail(const std::string &why);

    // -- ProcessTable
    os::Lookup inspect(Pid pid) override;
    policy::PortFacts portFacts(int port) override;
    std::vector<os::ProcessInfo> snapshot() override;
    std::vector<os::ProcessInfo> groupMembers(Pid pgid) override;
    Ms clockMs() override { return now_; }
    void pause(Ms ms) override { runWorldUntil(now_ + std::max<Ms>(0, ms), nullptr, 0); }
    // A process started from now on gets a greater token (see spawn()).
    std::uint64_t startTimeNow() override { return startCounter_; }
    bool signal(const os::Identity &id, os::Signal sig, std::string *error) override;
    bool signalGroup(Pid pgid, os::Signal sig, std::string *error) override;
    bool waitGone(const os::Identity &id, Ms timeoutMs) override;
    bool waitGroupEmpty(Pid pgid, Ms timeoutMs) override;
    Pid selfPid() override { return selfPid_; }
    Pid selfGroup() override { return selfPid_; }
    // -- Scheduler
    void start(policy::Timer timer, Ms delayMs) override;
    void cancel(policy::Timer timer) override;
    // -- Prober
    void probe(const policy::SendProbe &probe, const std::string &password) override;
    // -- Launcher
    void launch(int port) override;
    bool childRunning(const os::Identity &id) override;
    void release() override;
    std::string program() override { return program_; }
    // -- RegistrationStore
    supervision::OwnRegistration read() override;
    void write(const policy::TrackedService &svc, const std::string &version) override;
    void drop(bool setAside) override;
    policy::ManagedFacts readManaged() override;
    void dropManaged(const std::string &id) override;
    int launchPort(int configured) override;
    // -- StopPlanRunner
    void run(const policy::RunStopPlan &run) override;
    // -- Observer
    void log(const std::string &line) override;
    void notify(policy::NoticeKind kind, const std::string &message) override;
    void stateChanged(policy::State from, policy::State to, const std::string &reason) override;
    void changed() override {}
    void released() override { released_ = true; }
    void settled() override { settled_ = true; }

private:
    struct Item {
        Ms at;
        std::uint64_t seq;
        std::uint8_t kind;
        std::int64_t a, b;
        std::uint64_t c;
    };
    enum Kind : std::uint8_t {
        // world-internal
        KListen,
        KExit,
        KReap,
        KMcpSpawn,
        KCall, // the worker's `then` of the production stop sequence (a split runner)
        KErrorsOff,
        // to the executor
        KTimer,
        KProbe,
        KLaunched,
        KExitNotice,
        KStopDone,
        KHeartbeat,
        KManagedPoll, // the shell's watch of service.json (Supervisor::watchManagedRegistration)
        // opencode 2.x, world-internal
        KRecheck,    // a registered service re-reads service.json (it leaves when not named)
        KEnsureTick, // the other client's ensure() loop
        KEnsureTerm, // its terminate(): poll for the exit, then KILL, then remove the file
        KIncumbent,  // a contender's incumbent check before it binds
    };
    static bool later(const Item &x, const Item &y) {
        return x.at != y.at ? x.at > y.at : x.seq > y.seq;
    }
    void push(std::vector<Item> &q, Ms at, std::uint8_t kind, std::int64_t a = 0,
              std::int64_t b = 0, std::uint64_t c = 0);
    void runWorldUntil(Ms t, const os::Identity *gone = nullptr, Pid groupEmpty = 0);
    void worldItem(const Item &it);
    void execItem(const Item &it);
    void stepBegin();
    void afterStep();
    Pid allocPid(Pid reuse);
    bool pidFree(Pid pid) const;
    void deliver(Proc &p, os::Signal sig, bool group, Pid asked, std::uint64_t askedStart);
    void effect(Proc &p, os::Signal sig);
    void quit(bool keep);
    bool verifiedThisStep(Pid pid, std::uint64_t start) const;
    void checkSignal(const SignalRecord &r, const Proc &p);
    void onTrackedChange();
    void checkObligations();
    void applyDecoy(const Action &a);
    void applyForge(std::int64_t kind);
    // opencode 2.x
    struct Managed { // service.json
        bool present = false;
        std::string id;
        os::Identity process; // the pid, and the start time of the process that wrote it
        int port = 0;
        std::string password, version;
        std::uint64_t writtenAt = 0; // start-time token when written
        int serial = 0;              // registrations_ when written
    };
    struct EnsureClient {
        bool active = false, reconnects = false;
        Ms until = 0;
        std::string want;    // checkVersion: the version it requires (empty: any)
        std::string version; // what its contenders run
        std::string timeoutsId;
        int timeouts = 0;
        std::vector<os::Identity> contenders;
        std::optional<Ms> lastSpawn;
        Ms spawnDelay = 0;
        std::string seenId; // reconnecting: the registration it last found ready
        std::uint64_t epoch = 0;
    };
    struct Termination {
        std::string id;
        os::Identity process;
        int polls = 0;
        bool killed = false, forVersion = false;
    };
    void registerService(Proc &p);
    void unregister(const Proc &p);
    bool named(const Proc &p) const;
    void ensureTick(std::uint64_t epoch);
    void ensureStart(const Action &a);
    void ensureTerminate(bool forVersion);
    void ensureTermStep(std::size_t index);
    Pid spawnContender();
    void managedPoll();
    void noteReplacement(bool byTether);
    Managed managed_;
    std::uint64_t managedGen_ = 1;
    supervision::ManagedWatch managedWatch_; // the shell's watch of service.json
    int registrations_ = 0, contenders_ = 0;
    EnsureClient ensure_;
    std::vector<Termination> terminations_;
    // invariants of living beside ensure()
    int userActs_ = 0;               // the person's asks so far
    int replacementsAfterOther_ = 0; // Tether's, after another client's, since a person's ask
    bool otherReplaced_ = false;     // another client replaced since the person's last ask
    int replaceActs_ = -1;           // userActs_ when those were counted
    std::uint64_t stopToken_ = 0;    // start-time token when the person asked to stop
    int stopActs_ = 0;               // userActs_ at that stop
    int stopRegistrations_ = 0;      // registrations_ at that stop
    bool successorDied_ = false;     // another client's service died by itself, never followed
    bool startedElsewhereNoticed_ = false; // since the stop
    void mcpSpawnFor(int service, int index);
    bool bindConflict(int port, policy::Family f, bool wildcard, Pid except) const;
    os::ProcessInfo info(const Proc &p) const;
    std::uint64_t rnd();

    WorldOptions opt_;
    std::uint64_t rng_;
    policy::SupervisionConfig config_;
    ServiceSpec spec_;
    std::string program_;
    std::vector<Proc> procs_; // indexed by pid - kPidBase
    std::vector<ServiceRec> services_;
    std::vector<Item> worldQ_, execQ_;
    std::uint64_t seq_ = 0;
    Ms now_ = 1000, offset_ = 0, stallUntil_ = 0;
    Ms experienced_ = 0; // Tether's own time: advances except over the big gaps
    std::uint64_t startCounter_ = 0;
    Pid nextPid_ = 0;
    std::vector<Pid> freed_;
    std::vector<policy::LedgerEntry> ledger_;
    Pid lastFreedService_ = 0, lastFreedMcp_ = 0;
    std::vector<std::pair<Pid, std::uint64_t>> inspectCache_; // Breakage::staleInspect

    // Tether instance
    std::unique_ptr<supervision::Executor> ownExec_; // without a factory
    supervision::Executor *exec_ = nullptr;          // the one Tether runs, when it runs
    TetherFactory factory_;
    std::unique_ptr<supervision::Ports> factoryPorts_; // outlive the Tether made with them
    int instance_ = -1;
    Pid selfPid_ = 0;
    bool released_ = false, settled_ = false;
    std::uint64_t timerGen_[policy::kTimerCount] = {};
    std::vector<std::uint64_t> myChildren_; // start times of this instance's launched children
    supervision::OwnRegistration reg_;
    Ms errorsUntil_ = -1;
    bool quiet_ = false; // no random late answers (the quiet spell before an intent check)
    int launches_ = 0;

    // stop plans
    struct PlanRun {
        policy::RunStopPlan run;
        policy::StopPlanDone done; // what the sequence reported, fed after runnerDoneDelay
        bool open = false;
        // The plan's service was what service.json named, or Tether's child, when the plan was
        // issued: the decision to stop it was Tether's to make ([signal-unregistered]).
        bool serviceOursAtOpen = false;
    };
    PlanRun plan_;
    std::uint64_t planNo_ = 0;
    // The stop's order of work is Tether's own (core/supervision/stop_sequence), over this world
    // as its process table and a worker that runs on the simulated clock.
    class SimWorker;
    std::unique_ptr<SimWorker> worker_;
    std::unique_ptr<supervision::StopSequence> stopSequence_;
    std::vector<std::pair<std::int64_t, std::function<void()>>> calls_; // KCall's closures
    std::int64_t nextCall_ = 0;
    void newStopSequence();
    bool unledgeredBesideALiveService(const Proc &p);
    void sweepOrphans(const os::Identity &service, std::function<void()> done);

    // checker
    std::uint64_t steps_ = 0, stepNo_ = 0, order_ = 0;
    std::string failure_;
    std::uint64_t failedStep_ = 0, ignored_ = 0;
    std::vector<SignalRecord> signals_;
    std::vector<std::pair<Pid, std::uint64_t>> verified_; // identities inspected this step
    std::vector<Pid> portOwnersSeen_;                     // pids seen listening this step
    std::vector<os::Identity> childSeen_;                 // childRunning true this step
    os::Identity tracked_;
    Ms trackedAtE = 0;
    // the window evidence for the tracked service (exec clock, orders)
    std::uint64_t anchorOrder_ = 0, gapOrder_ = 0, freshMissOrder_ = 0;
    Ms anchorExec_ = 0, lastAnswerExec_ = -1, gapE_ = 0, launchE_ = 0;
    Ms creditExec_ = 0; // where life signs' credit starts (policy onLifeSign): answers, gaps
    bool freshMiss_ = false;
    std::uint64_t probeSentOrder_ = 0;
    std::uint64_t probeSeqSent_ = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> probesSent_; // seq -> order
    std::vector<Obligation> obligations_;
    std::vector<Pid> possible_;
    std::vector<Ms> autoLaunchesE_; // launches not asked for by the person, since the last ask
    bool userAskedLaunch_ = true;
    bool lastLaunchAsked_ = true; // the last launch answered a person's ask
    int intent_ = 0;              // 0 none, 1 start, 2 stop
    os::Identity trackedAtStop_;  // the service Tether tracked when the stop was asked
    std::vector<std::string> log_;
    std::vector<std::string> notices_;
    policy::State shown_ = policy::State::Stopped;
    friend class Driver;
};

// ---- Random sequences, replay, shrinking
// ----------------------------------------------------------

struct RunResult {
    bool failed = false;
    std::string failure;
    std::uint64_t steps = 0;     // events stepped through the executor
    std::uint64_t failedAt = 0;  // the step that failed
    std::size_t actionIndex = 0; // the action during which it failed
    std::vector<std::string> log;
};

WorldOptions modelOptions(std::uint64_t seed, bool opencode2 = false);
// The one fixed world of the deterministic scenarios (the model's and the rig's): seed 1's
// timings, a plain program, exit notices, the split runner, its log collected.
WorldOptions scenarioOptions();
std::vector<Action> randomActions(std::uint64_t seed, std::size_t count);
RunResult replay(std::uint64_t seed, const std::vector<Action> &actions, const WorldOptions &o);
// Delta debugging: the smallest sub-sequence found that still fails with the same invariant.
std::vector<Action> shrink(std::uint64_t seed, std::vector<Action> actions, const WorldOptions &o,
                           int maxReplays = 400);
// The invariant a failure message names ("[name] ...").
std::string invariantOf(const std::string &failure);

} // namespace tether::sim
