// Carries out a sweep plan (policy/orphans.h) against a ProcessTable: TERM (+ CONT) to every
// target, group-wide where the group rule holds (re-checked right before each group signal),
// the grace, then KILL to what is left, each signal re-verified. The one escalation Tether has:
// the stop plan's service step runs through it too (stop_plan.cpp). Blocking.
#pragma once

#include "os/process.h"
#include "policy/orphans.h"
#include "supervision/process_table.h"

#include <chrono>
#include <string>
#include <vector>

namespace tether::supervision {

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

SweepReport sweep(const policy::SweepPlan &plan, const SweepConfig &config, ProcessTable &table);

// Tether's own pid, group and ancestors, from a snapshot.
policy::Self selfFrom(const std::vector<os::ProcessInfo> &snapshot, ProcessTable &table);

} // namespace tether::supervision
