// The orphan scan, cleanup and sweep of core/supervision (orphan_cleanup.h) over the real OS and
// the ledger file: what Tether, `tether cleanup` without a Tether, and the benchmarks call.
// Synchronous and free of the Qt event loop: call it from a worker thread.
#pragma once

#include "mcp/ledger.h"
#include "supervision/orphan_cleanup.h"

#include <string>
#include <vector>

namespace tether::mcp {

using supervision::CleanupResult;
using supervision::ScanResult;
using supervision::SweepConfig;
using supervision::SweepReport;
using supervision::SweepResult;

// The ledger file as the orchestration's ledger port.
class LedgerFileStore : public supervision::LedgerStore {
public:
    explicit LedgerFileStore(Ledger &ledger)
        : ledger_(ledger) {}
    const std::vector<policy::LedgerEntry> &entries() const override { return ledger_.entries(); }
    void dropExited(const std::vector<os::ProcessInfo> &snapshot) override {
        ledger_.dropExited(snapshot);
    }
    void remove(const std::vector<os::Identity> &processes) override { ledger_.remove(processes); }
    std::string problem() const override { return ledger_.error().toStdString(); }

private:
    Ledger &ledger_;
};

// One sweep or self look-up over the real OS (for callers that plan themselves).
SweepReport sweep(const policy::SweepPlan &plan, const SweepConfig &config);
policy::Self selfFrom(const std::vector<os::ProcessInfo> &snapshot);

ScanResult scan(Ledger &ledger, const std::vector<std::vector<std::string>> &mcpCommands,
                const std::vector<os::Identity> &services = {});
CleanupResult cleanup(Ledger &ledger, const std::vector<std::vector<std::string>> &mcpCommands,
                      const policy::SweepOptions &options, bool dryRun,
                      const SweepConfig &config = {},
                      const std::vector<os::Identity> &services = {});

} // namespace tether::mcp
