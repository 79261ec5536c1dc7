// Carries out an orphan sweep plan (policy/orphans) with the OS layer, and the scan that
// produces one. Synchronous and free of the Qt event loop: call it from a worker thread.
#pragma once

#include "mcp/ledger.h"
#include "os/process.h"
#include "policy/orphans.h"

#include <QString>

#include <chrono>
#include <string>
#include <vector>

namespace tether::mcp {

struct SweepConfig {
    // TERM -> KILL. Orphans of a crashed service must be gone within 1 s even when they
    // ignore SIGTERM, so this is shorter than the service's own stop grace.
    std::chrono::milliseconds grace{500};
    // How long to wait for SIGKILL to take effect before reporting a survivor.
    std::chrono::milliseconds killWait{2000};
};

struct SweepResult {
    policy::SweepTarget target;
    // Killed | ExitedOnTerm | AlreadyGone | Refused (never signalled) | Unknown (outlived SIGKILL)
    os::TerminateOutcome outcome = os::TerminateOutcome::Unknown;
    std::string detail;    // the reason for Refused / Unknown
    bool viaGroup = false; // signalled through its process group
};

struct SweepReport {
    std::vector<SweepResult> results; // one per target and per skipped item of the plan
    std::chrono::milliseconds elapsed{0};
    int count(os::TerminateOutcome o) const;
    // Identities no longer running (killed, exited, already gone): drop them from the ledger.
    std::vector<os::Identity> gone() const;
};

SweepReport sweep(const policy::SweepPlan &plan, const SweepConfig &config = {});

// Tether's own pid, group and ancestors, from a snapshot.
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
// `ledger` must be loaded; `mcpCommands` are the configured local commands (for "possible").
ScanResult scan(Ledger &ledger, const std::vector<std::vector<std::string>> &mcpCommands);

struct CleanupResult {
    ScanResult scan;
    policy::SweepPlan plan;
    SweepReport report; // empty for a dry run
};

// The whole `tether cleanup`: scan, plan, sweep (unless dryRun), drop swept entries.
CleanupResult cleanup(Ledger &ledger, const std::vector<std::vector<std::string>> &mcpCommands,
                      const policy::SweepOptions &options, bool dryRun,
                      const SweepConfig &config = {});

} // namespace tether::mcp
