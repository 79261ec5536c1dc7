// Carries out an orphan sweep plan (policy/orphans) with the OS layer, and the scan that
// produces one. Synchronous and free of the Qt event loop: call it from a worker thread.
#pragma once

#include "mcp/ledger.h"
#include "os/process.h"
#include "policy/orphans.h"
#include "supervision/sweep.h"

#include <QString>

#include <chrono>
#include <string>
#include <vector>

namespace tether::mcp {

// The sweep itself is core/supervision's (one escalation for the service and its orphans).
using supervision::SweepConfig;
using supervision::SweepReport;
using supervision::SweepResult;
SweepReport sweep(const policy::SweepPlan &plan, const SweepConfig &config = {});
policy::Self selfFrom(const std::vector<os::ProcessInfo> &snapshot);

struct ScanResult {
    std::vector<policy::Orphan> orphans;
    std::vector<os::ProcessInfo> snapshot; // what the orphans were decided on
    policy::Self self;
    std::chrono::microseconds elapsed{0}; // snapshot + ledger pruning + classification
    std::chrono::microseconds snapshotTime{0};
    QString ledgerError; // a ledger write problem during pruning, if any
};

// Snapshot, prune exited ledger entries, check each ledger service's liveness, classify.
// `ledger` must be loaded; `mcpCommands` are the configured local commands (for "possible");
// `services`: the tracked or registered service(s), counted when still alive (policy's
// liveServices: nothing started after one is a possible orphan).
ScanResult scan(Ledger &ledger, const std::vector<std::vector<std::string>> &mcpCommands,
                const std::vector<os::Identity> &services = {});

struct CleanupResult {
    ScanResult scan;
    policy::SweepPlan plan;
    SweepReport report; // empty for a dry run
};

// The whole `tether cleanup`: scan, plan, sweep (unless dryRun), drop swept entries.
CleanupResult cleanup(Ledger &ledger, const std::vector<std::vector<std::string>> &mcpCommands,
                      const policy::SweepOptions &options, bool dryRun,
                      const SweepConfig &config = {},
                      const std::vector<os::Identity> &services = {});

} // namespace tether::mcp
