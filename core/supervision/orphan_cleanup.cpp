#include "supervision/orphan_cleanup.h"

#include <algorithm>

namespace tether::supervision {

namespace {

// os::alive() over the table: a zombie or another start time is gone; a failed look is unknown.
os::Liveness livenessIn(ProcessTable &table, const os::Identity &id) {
    if (id.pid <= 0) return os::Liveness::Gone;
    const os::Lookup l = table.inspect(id.pid);
    switch (l.status) {
    case os::Lookup::Status::NotFound:
        return os::Liveness::Gone;
    case os::Lookup::Status::Error:
        return os::Liveness::Unknown;
    case os::Lookup::Status::Found:
        break;
    }
    return l.info.state == os::RunState::Zombie || l.info.startTime != id.startTime
               ? os::Liveness::Gone
               : os::Liveness::Alive;
}

} // namespace

ScanResult scanOrphans(LedgerStore &ledger, const McpCommands &mcpCommands,
                       const std::vector<os::Identity> &services, ProcessTable &table) {
    const Ms t0 = table.clockMs();
    ScanResult r;
    r.snapshot = table.snapshot();
    r.snapshotMs = table.clockMs() - t0;
    r.self = selfFrom(r.snapshot, table);
    // An empty snapshot is a process table that could not be read, not one where every MCP
    // process has exited: the ledger keeps its entries for the next scan.
    if (!r.snapshot.empty()) ledger.dropExited(r.snapshot);
    r.ledgerProblem = ledger.problem();

    policy::OrphanInput in;
    in.ledger = ledger.entries();
    for (const policy::LedgerEntry &e : in.ledger) {
        const bool known = std::any_of(in.services.begin(), in.services.end(),
                                       [&](const auto &s) { return s.first == e.service; });
        if (!known) in.services.emplace_back(e.service, livenessIn(table, e.service));
    }
    for (const os::Identity &s : services)
        if (livenessIn(table, s) == os::Liveness::Alive) in.liveServices.push_back(s);
    in.mcpCommands = mcpCommands;
    in.self = r.self;
    in.snapshot = r.snapshot; // classified over the snapshot the caller will plan with
    r.orphans = policy::classifyOrphans(in);
    r.elapsedMs = table.clockMs() - t0;
    return r;
}

CleanupResult cleanupOrphans(LedgerStore &ledger, const McpCommands &mcpCommands,
                             const std::vector<os::Identity> &services,
                             const policy::SweepOptions &options, bool dryRun,
                             const SweepConfig &config, ProcessTable &table) {
    CleanupResult c;
    c.scan = scanOrphans(ledger, mcpCommands, services, table);
    c.plan = policy::planSweep(c.scan.orphans, c.scan.snapshot, c.scan.self, options);
    if (dryRun) return c;
    c.report = sweep(c.plan, config, table);
    ledger.remove(c.report.gone());
    return c;
}

ListedCleanup cleanupListed(LedgerStore &ledger, const McpCommands &mcpCommands,
                            const std::vector<os::Identity> &services,
                            const std::vector<os::Pid> &onlyPids, bool possibleConfirmed,
                            bool dryRun, const SweepConfig &config, ProcessTable &table) {
    ListedCleanup c;
    c.found = scanOrphans(ledger, mcpCommands, services, table);
    if (!onlyPids.empty()) {
        auto &o = c.found.orphans;
        o.erase(std::remove_if(o.begin(), o.end(),
                               [&](const policy::Orphan &x) {
                                   return std::find(onlyPids.begin(), onlyPids.end(),
                                                    x.process.pid) == onlyPids.end();
                               }),
                o.end());
    }
    c.entries = ledger.entries();
    if (dryRun) return c;
    const policy::SweepPlan plan =
        policy::planSweep(c.found.orphans, c.found.snapshot, c.found.self, {possibleConfirmed});
    c.report = sweep(plan, config, table);
    ledger.remove(c.report.gone());
    c.after = scanOrphans(ledger, mcpCommands, services, table);
    return c;
}

CrashSweep sweepAfterCrash(policy::OrphanMode mode, LedgerStore &ledger,
                           const McpCommands &mcpCommands,
                           const std::vector<os::Identity> &services, const SweepConfig &config,
                           ProcessTable &table) {
    CrashSweep out;
    if (mode == policy::OrphanMode::Ignore) return out;
    out.ran = true;
    out.cleaned = mode == policy::OrphanMode::Clean;
    // Possible orphans (matched by command only) are never swept here: a person confirms them.
    // A process table that cannot be read (an empty snapshot) is tried again a few times: the
    // orphans of this death are found now or only by the next launch's scan.
    for (int attempt = 0;; ++attempt) {
        out.result = cleanupOrphans(ledger, mcpCommands, services, policy::SweepOptions{},
                                    !out.cleaned, config, table);
        if (!out.result.scan.snapshot.empty() || attempt + 1 >= kCrashSweepAttempts) break;
        table.pause(kCrashSweepRetryMs);
    }
    return out;
}

} // namespace tether::supervision
