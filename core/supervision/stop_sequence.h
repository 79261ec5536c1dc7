// The order of a stop plan's work, in one place for Tether and for the model (issue 25: the
// simulated world kept a copy of it, so a defect in the production order could not fail the
// model): opencode 2.x's terminals first, then the service and its group's TERM (stop_plan.h) on
// a worker, then what is left in its job (Windows), then side by side the group's grace and KILL
// and the dead service's MCP orphans, then StopPlanDone. Plain C++: Tether gives it threads and
// HTTP through its ports, the model its simulated clock.
#pragma once

#include "supervision/executor.h"
#include "supervision/process_table.h"
#include "supervision/stop_plan.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tether::supervision {

// Runs blocking work off the caller's thread (Tether: a QThread), then `then` back on it.
class Worker {
public:
    virtual ~Worker() = default;
    virtual void run(std::function<void()> work, std::function<void()> then) = 0;
};

// What was left in the service's job (Windows) when it was ended.
struct JobEnd {
    std::vector<os::Pid> ended;
    bool emptied = true; // the job was empty within the grace
};

struct StopSequencePorts {
    ProcessTable *table = nullptr; // used by the worker's work only
    Worker *worker = nullptr;
    // opencode 2.x's terminals (policy::Terminals), before any signal; empty: nothing to do.
    std::function<void(policy::Terminals, std::function<void()> done)> terminals;
    // Asked on the caller's thread: the blocking step that ends what is left in the service's
    // job and waits up to the grace, run on the worker; empty: no job (POSIX, uncontained).
    std::function<std::function<JobEnd()>(const policy::StopPlan &)> jobEnder;
    // The dead service's orphaned MCP processes (the ledger's), then done(); empty: none.
    std::function<void(const os::Identity &service, std::function<void()> done)> sweepOrphans;
    std::function<void(const std::string &line)> log;
    Ms killWaitMs = 2000; // how long a KILLed process may take to be gone
    std::function<void(const policy::StopPlanDone &)> done; // the plan is over
};

class StopSequence : public StopPlanRunner {
public:
    explicit StopSequence(StopSequencePorts ports);
    void run(const policy::RunStopPlan &run) override;
    bool busy() const { return busy_; }
    // The plan as it ran (the model checks its invariants against it).
    const StopPlanReport &report() const { return *report_; }

private:
    void signalAndSweep(const policy::StopPlan &plan);

    StopSequencePorts ports_;
    std::shared_ptr<StopPlanReport> report_;
    bool busy_ = false;
};

// "12 34 56": the pids a signal reached, for the log that accounts for every signal.
std::string pidList(const std::vector<os::Pid> &pids);

} // namespace tether::supervision
