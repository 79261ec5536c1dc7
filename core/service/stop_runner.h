// Runs a stop plan off the GUI thread (it waits out the grace): the service and its group
// through supervision::runStopPlan, the Windows job, then the dead service's orphaned MCP
// processes through the MCP monitor's sweep; then reports StopPlanDone.
#pragma once

#include "os/process.h"
#include "supervision/executor.h"

#include <QObject>
#include <functional>
#include <memory>

namespace tether {

class StopRunner : public QObject, public supervision::StopPlanRunner {
    Q_OBJECT
public:
    // After the plan: clean what the dead service left behind, then call done().
    using OrphanSweep =
        std::function<void(const os::Identity &service, std::function<void()> done)>;

    StopRunner(std::function<void(const policy::Event &)> feed,
               std::function<std::shared_ptr<os::Job>()> job, QObject *parent = nullptr);
    ~StopRunner() override; // waits for a plan under way: it holds no pointer to us after

    void setOrphanSweep(OrphanSweep sweep) { sweep_ = std::move(sweep); }
    // Before anything is signalled: opencode 2.x's terminals (policy::Terminals), then done().
    using TerminalStep = std::function<void(policy::Terminals, std::function<void()> done)>;
    void setTerminalStep(TerminalStep step) { terminals_ = std::move(step); }
    void run(const policy::RunStopPlan &run) override;
    bool busy() const { return busy_; }

signals:
    void logLine(const QString &line);

private:
    std::function<void(const policy::Event &)> feed_;
    std::function<std::shared_ptr<os::Job>()> job_;
    void signalAndSweep(const policy::RunStopPlan &run);

    OrphanSweep sweep_;
    TerminalStep terminals_;
    bool busy_ = false;
};

} // namespace tether
