// The Qt shell of the stop sequence (core/supervision/stop_sequence.h, the order of a stop
// plan's work, shared with the model): a QThread per blocking step, the Windows job, the MCP
// monitor's orphan sweep and opencode 2.x's terminals as its ports; StopPlanDone fed back.
#pragma once

#include "os/process.h"
#include "supervision/executor.h"
#include "supervision/stop_sequence.h"

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
    // Before anything is signalled: opencode 2.x's terminals (policy::Terminals), then done().
    using TerminalStep = std::function<void(policy::Terminals, std::function<void()> done)>;

    StopRunner(std::function<void(const policy::Event &)> feed,
               std::function<std::shared_ptr<os::Job>()> job, QObject *parent = nullptr);
    ~StopRunner() override; // waits for a plan under way: it holds no pointer to us after

    void setOrphanSweep(OrphanSweep sweep) { sweep_ = std::move(sweep); }
    void setTerminalStep(TerminalStep step) { terminals_ = std::move(step); }
    void run(const policy::RunStopPlan &run) override { sequence_.run(run); }
    bool busy() const { return sequence_.busy(); }

signals:
    void logLine(const QString &line);

private:
    class Threads;
    std::unique_ptr<Threads> threads_;
    std::unique_ptr<supervision::ProcessTable> table_;
    OrphanSweep sweep_;
    TerminalStep terminals_;
    supervision::StopSequence sequence_;
};

} // namespace tether
