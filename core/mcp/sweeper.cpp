#include "mcp/sweeper.h"

#include "supervision/os_process_table.h"

namespace tether::mcp {

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
    LedgerFileStore store(ledger);
    supervision::OsProcessTable table;
    return supervision::scanOrphans(store, mcpCommands, services, table);
}

CleanupResult cleanup(Ledger &ledger, const std::vector<std::vector<std::string>> &mcpCommands,
                      const policy::SweepOptions &options, bool dryRun, const SweepConfig &config,
                      const std::vector<os::Identity> &services) {
    LedgerFileStore store(ledger);
    supervision::OsProcessTable table;
    return supervision::cleanupOrphans(store, mcpCommands, services, options, dryRun, config,
                                       table);
}

} // namespace tether::mcp
