// The MCP servers of the stand-in's location, from opencode's config files: local ones run as
// children (each leading its own process group), with the status /api/mcp reports [R26] [R27].
#pragma once

#include "demo/common/mcp_fleet.h"
#include "demo/standin_v2/mcp_config.h"

#include <QJsonArray>
#include <QObject>
#include <QSet>

namespace tether::standin_v2 {

class McpServers : public QObject {
public:
    McpServers(QList<McpServerConfig> configs, const QString &location, QObject *parent = nullptr);

    demo::McpFleet &fleet() { return fleet_; }

    // Starts every local server that is not disabled.
    void startEnabled();
    // [{name, status:{status, error?}}]: pending until a child answers the MCP initialize,
    // then connected; disabled; failed + error [R27].
    QJsonArray statuses() const;
    // Connect overrides a disabled config until restart; both false for an unknown name [R24].
    bool connect(const QString &name);
    bool disconnect(const QString &name);
    void stopAll(std::function<void()> done);

    // opencode's stdio client closes a server so: stdin end, 2 s, SIGTERM, 2 s, SIGKILL [R36].
    static constexpr demo::McpStopPlan kStopPlan{2000, 2000};

    // A local server's child: command[0] with the rest as arguments, in `cwd` resolved against
    // the location, its environment over the service's (BUN_BE_BUN=1 for a literal `opencode`)
    // [R37] [R36]. Pure.
    static demo::McpChildSpec childSpec(const McpServerConfig &config, const QString &location);

private:
    const McpServerConfig *config(const QString &name) const;

    QList<McpServerConfig> configs_;
    demo::McpFleet fleet_;
    QSet<QString> ready_; // children that answered initialize since they started
};

} // namespace tether::standin_v2
