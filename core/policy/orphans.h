// Which processes are orphaned MCP servers, and how to sweep them: pure decisions over plain
// data (no I/O, no event loop). The sweeper (core/mcp/sweeper) observes and carries out.
//
// Kinds:
//   ledger    a ledger entry whose identity (pid + start time) still matches a live process,
//             and whose service is positively gone
//   job       reserved: a process still in the service's Windows job object (wired by the caller)
//   possible  not in the ledger, argv matches a configured MCP command, and its parent is gone:
//             ppid <= 1, its parent is one of Tether's own ancestors (on Linux orphans go to the
//             nearest subreaper, not always PID 1), its parent is missing, or its parent started
//             after it (a stale, reused ppid, as on Windows). Plus such a process's descendants.
//             Never one that started after a service that runs now started: no service that
//             died before could have spawned it, and an MCP server that double-forks and calls
//             setsid leaves its live service's tree and session alike. Never swept without a
//             person's confirmation.
#pragma once

#include "os/types.h"
#include "policy/ledger_entry.h"

#include <string>
#include <utility>
#include <vector>

namespace tether::policy {

enum class OrphanKind { Ledger, Possible };
const char *toString(OrphanKind k); // "ledger" | "possible"

struct Orphan {
    os::ProcessInfo process; // as seen in the snapshot
    OrphanKind kind = OrphanKind::Ledger;
    std::string name;   // MCP entry name where known
    std::string reason; // why it is considered an orphan, for logs and the UI
};

// Who Tether is: never an orphan, never signalled, nor its process group.
struct Self {
    os::Pid pid = 0;
    os::Pid pgid = 0;
    std::vector<os::Pid> ancestors; // parent, grandparent, ... (see ancestorsOf)
};

// pid's parent chain in the snapshot, nearest first, stopping at pid <= 1, a missing parent,
// a cycle, or a parent that started after its child (a stale ppid).
std::vector<os::Pid> ancestorsOf(os::Pid pid, const std::vector<os::ProcessInfo> &snapshot);

struct OrphanInput {
    std::vector<LedgerEntry> ledger;
    std::vector<os::ProcessInfo> snapshot;
    // The liveness of each ledger entry's service; a service not listed counts as Unknown,
    // and an entry whose service is not positively Gone is never an orphan.
    std::vector<std::pair<os::Identity, os::Liveness>> services;
    std::vector<std::vector<std::string>> mcpCommands; // configured local MCP commands
    Self self;
    // Services known to run now (the tracked one, a registered one), as well as every ledger
    // service listed Alive in `services`: nothing started after one of them is a possible orphan.
    std::vector<os::Identity> liveServices;
};

// Ledger orphans first (in ledger order), then possible ones (by pid). A process appears once.
std::vector<Orphan> classifyOrphans(const OrphanInput &in);

struct SweepTarget {
    os::Identity id;
    os::Pid pgid = 0;
    OrphanKind kind = OrphanKind::Ledger;
    std::string name;
    std::vector<std::string> argv;
};

struct SweepGroup {
    os::Pid pgid = 0;
    std::vector<SweepTarget> members; // every live member of the group in the snapshot
};

struct Skipped {
    SweepTarget target;
    std::string reason;
    bool alreadyGone = false; // exited already (vs. refused: protected, reused, unconfirmed)
};

struct SweepPlan {
    std::vector<SweepGroup> groups;   // signal the whole group (kill(-pgid))
    std::vector<SweepTarget> singles; // signal only the pid
    std::vector<Skipped> skipped;     // not signalled at all, with the reason
    bool empty() const { return groups.empty() && singles.empty(); }
};

struct SweepOptions {
    // A person confirmed the possible orphans passed in (the list that was shown to them).
    bool possibleConfirmed = false;
};

// Signal a whole group only when every live member of that group is an orphan being swept;
// never a group id <= 1 or Tether's own group; never Tether, its ancestors or pid <= 1.
SweepPlan planSweep(const std::vector<Orphan> &orphans,
                    const std::vector<os::ProcessInfo> &snapshot, const Self &self,
                    const SweepOptions &options);

// The group rule alone, for re-checking right before a group signal: true when every live
// member of pgid in the snapshot is one of the swept identities.
bool groupIsAllSwept(os::Pid pgid, const std::vector<os::Identity> &swept,
                     const std::vector<os::ProcessInfo> &snapshot, const Self &self);

} // namespace tether::policy
