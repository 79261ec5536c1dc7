// Carries out a policy::StopPlan against a ProcessTable: the one place where the service and
// its group are signalled. Blocking (it waits out the grace): the Qt shell runs it on a worker
// thread, the model-based tests on the simulated clock. The orphan part of the plan is done by
// the caller afterwards (the MCP ledger sweep), since it needs the ledger.
#pragma once

#include "os/process.h"
#include "policy/supervision.h"
#include "supervision/process_table.h"

#include <string>
#include <vector>

namespace tether::supervision {

struct StopPlanReport {
    // ExitedOnTerm | Killed | AlreadyGone (nothing sent) | Refused (identity did not hold:
    // nothing sent) | Unknown (survived SIGKILL)
    os::TerminateOutcome service = os::TerminateOutcome::AlreadyGone;
    std::string detail;
    std::vector<os::Pid> groupTermed; // the group's live members when it was sent SIGTERM
    std::vector<os::Pid> groupKilled; // ... and those still there for SIGKILL
    // Its descendants outside that group (an MCP server in a session of its own), seen in a
    // snapshot right before the service was stopped: sent SIGTERM once it was gone, and
    // SIGKILL with the group. Children it started since the last MCP refresh are caught too.
    std::vector<os::Identity> straysTermed;
    std::vector<os::Identity> straysUnsignalled; // TERM failed on them (Windows has none)
    std::vector<os::Pid> straysKilled;
    std::string groupSkipped; // why the group step sent nothing, when it did not
    bool refused() const { return service == os::TerminateOutcome::Refused; }
};

// killWaitMs: how long SIGKILL may take to show before the service counts as a survivor.
// The whole plan but the orphans, in order: the service (TERM + CONT, grace, KILL), then its
// group (TERM + CONT, up to groupGraceMs to empty, KILL). Each signal verified right before.
StopPlanReport runStopPlan(const policy::StopPlan &plan, ProcessTable &table, Ms killWaitMs = 2000);

// The same in two halves, so the orphan sweep can run while the group has its grace:
// begin = the service and the group's TERM + CONT; finish = the group's wait and KILL.
StopPlanReport beginStopPlan(const policy::StopPlan &plan, ProcessTable &table,
                             Ms killWaitMs = 2000);
void finishStopPlan(const policy::StopPlan &plan, ProcessTable &table, StopPlanReport &report,
                    Ms killWaitMs = 2000);

} // namespace tether::supervision
