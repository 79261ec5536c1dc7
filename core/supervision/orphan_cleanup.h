// What Tether does with the MCP processes a service left, in one place for Tether and for the
// model (issue 25: the simulated world kept a copy of it): scan (snapshot, prune exited ledger
// entries, classify), plan, sweep, drop what is gone, over a process table and a ledger port.
// Blocking (the sweep waits out the grace): Tether runs it on a worker thread, the model on its
// simulated clock. The launch scan, the crash sweep and `tether cleanup` are all this.
#pragma once

#include "policy/ledger_entry.h"
#include "policy/orphan_mode.h"
#include "policy/orphans.h"
#include "supervision/process_table.h"
#include "supervision/sweep.h"

#include <string>
#include <vector>

namespace tether::supervision {

// The MCP ledger as the orchestration sees it (core/mcp's file in Tether, a list in the model).
class LedgerStore {
public:
    virtual ~LedgerStore() = default;
    virtual const std::vector<policy::LedgerEntry> &entries() const = 0;
    // Drops the entries of processes no longer running: absent, a zombie, another start time.
    virtual void dropExited(const std::vector<os::ProcessInfo> &snapshot) = 0;
    virtual void remove(const std::vector<os::Identity> &processes) = 0;
    // The last problem persisting it (a full disk); empty when none.
    virtual std::string problem() const { return {}; }
};

using McpCommands = std::vector<std::vector<std::string>>;

struct ScanResult {
    std::vector<policy::Orphan> orphans;
    std::vector<os::ProcessInfo> snapshot; // what the orphans were decided on
    policy::Self self;
    Ms elapsedMs = 0; // snapshot + ledger pruning + classification, on the table's clock
    Ms snapshotMs = 0;
    std::string ledgerProblem; // a ledger write problem during pruning, if any
};

// `services`: the tracked or registered service(s), counted when still alive (nothing started
// after one of them is a possible orphan); `mcpCommands`: the configured local commands.
ScanResult scanOrphans(LedgerStore &ledger, const McpCommands &mcpCommands,
                       const std::vector<os::Identity> &services, ProcessTable &table);

struct CleanupResult {
    ScanResult scan;
    policy::SweepPlan plan;
    SweepReport report; // empty for a dry run
};

// Scan, plan, sweep (unless dryRun), drop what is gone from the ledger.
CleanupResult cleanupOrphans(LedgerStore &ledger, const McpCommands &mcpCommands,
                             const std::vector<os::Identity> &services,
                             const policy::SweepOptions &options, bool dryRun,
                             const SweepConfig &config, ProcessTable &table);

// `tether cleanup`, the orphan dialog, the launch's clean: the orphans found (only those in
// onlyPids when it is not empty), swept (possible ones only when a person confirmed them), and
// what is still there afterwards (it stays listed).
struct ListedCleanup {
    ScanResult found;
    std::vector<policy::LedgerEntry> entries; // the ledger as the orphans were found
    SweepReport report;                       // empty for a dry run
    ScanResult after;                         // empty for a dry run
};
ListedCleanup cleanupListed(LedgerStore &ledger, const McpCommands &mcpCommands,
                            const std::vector<os::Identity> &services,
                            const std::vector<os::Pid> &onlyPids, bool possibleConfirmed,
                            bool dryRun, const SweepConfig &config, ProcessTable &table);

// After a service died, as [orphans] whileRunning says: clean sweeps the ledger's orphans at
// once (possible ones are only listed), ask only lists them for a person, ignore does nothing.
constexpr int kCrashSweepAttempts = 5;
constexpr Ms kCrashSweepRetryMs = 300;
struct CrashSweep {
    bool ran = false;     // false: ignore
    bool cleaned = false; // the orphans were swept (clean), else only found (ask)
    CleanupResult result;
};
CrashSweep sweepAfterCrash(policy::OrphanMode mode, LedgerStore &ledger,
                           const McpCommands &mcpCommands,
                           const std::vector<os::Identity> &services, const SweepConfig &config,
                           ProcessTable &table);

} // namespace tether::supervision
