// `tether cleanup` when no Tether runs: one scan and one sweep under the same rules as the
// running Tether (the same McpMonitor, ledger, core/policy and core/supervision sweep), while
// holding the control socket so that no Tether starts in the middle of it.
#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>

namespace tether {

struct CleanupOnce {
    bool dryRun = false;
    bool possibleConfirmed = false; // --yes: possible orphans too (a person said so)
    QString settingsPath;
};

// The report (as the running Tether's cleanup reply), or nullopt when a Tether started
// meanwhile (*error says so: ask it instead) or the socket could not be taken.
std::optional<QJsonObject> cleanupWithoutTether(const CleanupOnce &options, bool *anotherInstance,
                                                QString *error);

} // namespace tether
