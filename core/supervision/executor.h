// The executor: feeds events to policy::step and carries out the commands it returns, through
// ports the shell (Qt) or a test (the simulated world) provides. It decides nothing: facts it
// gathers (registration, liveness, port owners) are handed back as events in the same step.
// Plain C++: the model-based tests run it a million steps a run.
#pragma once

#include "policy/supervision.h"
#include "supervision/process_table.h"

#include <deque>
#include <functional>
#include <string>

namespace tether::supervision {

// Tether's own registration of the service it started, as read from its file (the executor
// adds the liveness of the process it names and the port's listeners).
using OwnRegistration = policy::RegistrationFacts;

class Scheduler { // answers with Executor::feed(TimerFired)
public:
    virtual ~Scheduler() = default;
    virtual void start(policy::Timer timer, Ms delayMs) = 0;
    virtual void cancel(policy::Timer timer) = 0;
};

class Prober { // answers with ProbeAnswered / ProbeMissed (same seq)
public:
    virtual ~Prober() = default;
    virtual void probe(const policy::SendProbe &probe, const std::string &password) = 0;
};

class Launcher { // answers with Launched / LaunchFailed, later Exited
public:
    virtual ~Launcher() = default;
    virtual void launch(int port) = 0;
    // The launcher still holds this identity as its own running child.
    virtual bool childRunning(const os::Identity &id) = 0;
    // Quit: let the service run on, detached (never killed when Tether's objects go).
    virtual void release() = 0;
    // The program a launch runs (for the registration and the liveness check).
    virtual std::string program() = 0;
};

class RegistrationStore {
public:
    virtual ~RegistrationStore() = default;
    virtual OwnRegistration read() = 0;
    virtual void write(const policy::TrackedService &svc, const std::string &version) = 0;
    virtual void drop(bool setAside) = 0;
    // opencode 2.x: service.json judged against the process table (verdict None elsewhere).
    virtual policy::ManagedFacts readManaged() = 0;
    virtual void dropManaged(const std::string &id) = 0; // only if it still names id
    // Where a launch will listen: the configured port, or (opencode 2.x, configured 0) the one
    // the service will choose as its config says now; 0 when that cannot be known.
    virtual int launchPort(int configured) { return configured; }
};

class StopPlanRunner { // answers with StopPlanDone (after the plan and the orphan sweep)
public:
    virtual ~StopPlanRunner() = default;
    virtual void run(const policy::RunStopPlan &run) = 0;
};

class Observer {
public:
    virtual ~Observer() = default;
    virtual void log(const std::string &line) = 0;
    virtual void notify(policy::NoticeKind kind, const std::string &message) = 0;
    virtual void stateChanged(policy::State from, policy::State to, const std::string &reason) = 0;
    virtual void changed() = 0; // anything in the state changed (status model)
    virtual void released() = 0;
    virtual void settled() = 0;
    // The state's config was just replaced (ApplySettings): what depends on it follows now,
    // before any later command of the same step (a launch runs the new program).
    virtual void settingsApplied() {}
};

struct Ports {
    ProcessTable &table;
    Scheduler &scheduler;
    Prober &prober;
    Launcher &launcher;
    RegistrationStore &registrations;
    StopPlanRunner &stops;
    Observer &observer;
};

// Whether a live process runs the registered program: argv[0] or the executable, by path or
// by name, or the script an interpreter runs (a shebang script shows as `sh /path/script`; a
// Windows .cmd / .bat as `cmd.exe /c "script args"`).
bool runsProgram(const os::ProcessInfo &p, const std::string &program);

// pid + start time + not a zombie (+ the program, when one is given) -> liveness.
policy::Liveness livenessOf(ProcessTable &table, const os::Identity &id,
                            const std::string &program);

class Executor {
public:
    Executor(policy::SupervisionConfig config, Ports ports, std::function<Ms()> clock);

    // Steps the machine with the event (and any facts its commands gather, at once), and
    // carries out every command. Reentrant calls (a port answering synchronously) are queued.
    void feed(const policy::Event &event);

    const policy::SupervisionState &state() const { return state_; }
    policy::State display() const { return policy::displayState(state_); }
    Ms now() const { return clock_(); }

private:
    void execute(const policy::Command &c);
    policy::StartupFacts gatherStartupFacts(int configuredPort);
    policy::Verified verify(const policy::Verify &v);

    policy::SupervisionState state_;
    Ports ports_;
    std::function<Ms()> clock_;
    std::deque<policy::Event> queue_;
    bool stepping_ = false;
};

} // namespace tether::supervision
