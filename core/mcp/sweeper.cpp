#include "mcp/sweeper.h"

#include "supervision/os_process_table.h"

#include <algorithm>
#include <thread>

namespace tether::mcp {

namespace {

using Clock = std::chrono::steady_clock;

template <typename D> D msSince(Clock::time_point t0) {
    return std::chrono::duration_cast<D>(Clock::now() - t0);
}

} // namespace

SweepReport sweep(const policy::SweepPlan &plan, const SweepConfig &config) {
    supervision::OsProcessTable table;
    return supervision::sweep(plan, config, table);
}

policy::Self selfFrom(const std::vector<os::ProcessInfo> &snapshot) {
    supervision::OsProcessTable table;
    return supervision::selfFrom(snapshot, table);
}

ScanResult scan(Ledger &ledger, const std::vector<std::vector<std::string>> &mcpCommands,
                const std::vector<os::Identity> &services) {
    const auto t0 = Clock::now();
    ScanResult r;
    r.snapshot = os::snapshot();
    r.snapshotTime = msSince<std::chrono::microseconds>(t0);
    r.self = selfFrom(r.snapshot);
    if (ledger.dropExited(r.snapshot)) r.ledgerError = ledger.error();

    policy::OrphanInput in;
    in.ledger = ledger.entries();
    for (const LedgerEntry &e : in.ledger) {
        const bool known = std::any_of(in.services.begin(), in.services.end(),
                                       [&](const auto &s) { return s.first == e.service; });
        if (!known) in.services.emplace_back(e.service, os::alive(e.service));
    }
    for (const os::Identity &s : services)
        if (os::alive(s) == os::Liveness::Alive) in.liveServices.push_back(s);
    in.mcpCommands = mcpCommands;
    in.self = r.self;
    // Classify over the same snapshot the caller will plan with.
    in.snapshot = r.snapshot;
    r.orphans = policy::classifyOrphans(in);
    r.elapsed = msSince<std::chrono::microseconds>(t0);
    return r;
}

CleanupResult cleanup(Ledger &ledger, const std::vector<std::vector<std::string>> &mcpCommands,
                      const policy::SweepOptions &options, bool dryRun, const SweepConfig &config,
                      const std::vector<os::Identity> &services) {
    CleanupResult c;
    c.scan = scan(ledger, mcpCommands, services);
    c.plan = policy::planSweep(c.scan.orphans, c.scan.snapshot, c.scan.self, options);
    if (dryRun) return c;
    c.report = sweep(c.plan, config);
    ledger.remove(c.report.gone());
    return c;
}

} // namespace tether::mcp
