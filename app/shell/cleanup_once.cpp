#include "shell/cleanup_once.h"

#include "control/control_server.h"
#include "mcp/mcp_monitor.h"
#include "service/registration.h"
#include "settings/storage.h"
#include "shell/runtime.h"

#include <QCoreApplication>
#include <QEventLoop>

namespace tether {

std::optional<QJsonObject> cleanupWithoutTether(const CleanupOnce &options, bool *anotherInstance,
                                                QString *error) {
    *anotherInstance = false;
    if (!storage::preparePrivateDirs(error)) return std::nullopt;
    // The single-instance lock for the length of the sweep: a Tether launched now waits for
    // none of this, it finds "another instance" and hands over, as for any running Tether.
    control::ControlServer lock([](const control::Request &, control::ControlServer::Reply reply) {
        reply(control::errorReply(
            QStringLiteral("a one-shot `tether cleanup` runs; try again in a moment")));
    });
    switch (lock.listen(error)) {
    case control::ControlServer::Listen::AnotherInstance:
        *anotherInstance = true;
        return std::nullopt;
    case control::ControlServer::Listen::Error:
        return std::nullopt;
    case control::ControlServer::Listen::Ok:
        break;
    }
    const LoadedSettings loaded = loadSettings(options.settingsPath);
    // A Supervisor that is never started: the MCP monitor's rules need its settings and profile
    // (the orphan grace, the MCP commands cached from the last service), nothing else.
    const ProfileResolution resolved =
        resolveProfile(loaded.settings, {}, QCoreApplication::applicationFilePath());
    Supervisor::Config config;
    config.settings = loaded.settings;
    config.profile = resolved.profile;
    config.profileError = resolved.error;
    config.registrationPath = registrationPath();
    Supervisor supervisor(config);
    mcp::McpMonitor monitor(&supervisor);
    QJsonObject report;
    QEventLoop loop;
    monitor.cleanup(options.dryRun, {}, options.possibleConfirmed,
                    [&](const mcp::McpMonitor::CleanupSummary &summary) {
                        report = cleanupReport(options.dryRun, summary);
                        loop.quit();
                    });
    loop.exec();
    return report;
}

} // namespace tether
