#include "demo/standin_v2/mcp_servers.h"

#include <QDir>
#include <QJsonObject>

namespace tether::standin_v2 {

namespace {
QList<demo::McpChildSpec> localSpecs(const QList<McpServerConfig> &configs,
                                     const QString &location) {
    QList<demo::McpChildSpec> specs;
    for (const McpServerConfig &c : configs)
        if (c.local) specs << McpServers::childSpec(c, location);
    return specs;
}
} // namespace

demo::McpChildSpec McpServers::childSpec(const McpServerConfig &config, const QString &location) {
    demo::McpChildSpec spec;
    spec.name = config.name;
    spec.command = config.command;
    spec.workingDirectory = config.cwd.isEmpty()
                                ? location
                                : QDir::cleanPath(QDir(location).absoluteFilePath(config.cwd));
    spec.environment = config.environment;
    if (!config.command.isEmpty() && config.command.constFirst() == QLatin1String("opencode"))
        spec.environment.insert(QStringLiteral("BUN_BE_BUN"), QStringLiteral("1"));
    // Inferred, not read in the source: "the spawner kills the whole process group, so
    // descendants go too" [R36] says each server leads a group (record: Uncertain 3).
    spec.ownProcessGroup = true;
    return spec;
}

McpServers::McpServers(QList<McpServerConfig> configs, const QString &location, QObject *parent)
    : QObject(parent)
    , configs_(std::move(configs))
    , fleet_(localSpecs(configs_, location)) {
    QObject::connect(&fleet_, &demo::McpFleet::childStarted, this,
                     [this](const QString &name, qint64) { ready_.remove(name); });
    QObject::connect(&fleet_, &demo::McpFleet::childReady, this,
                     [this](const QString &name, qint64) { ready_.insert(name); });
}

const McpServerConfig *McpServers::config(const QString &name) const {
    for (const McpServerConfig &c : configs_)
        if (c.name == name) return &c;
    return nullptr;
}

void McpServers::startEnabled() {
    for (const McpServerConfig &c : std::as_const(configs_))
        if (c.local && !c.disabled && c.command.isEmpty() == false) fleet_.connectServer(c.name);
}

QJsonArray McpServers::statuses() const {
    QHash<QString, demo::McpStatus> running;
    for (const demo::McpStatus &s : fleet_.statuses())
        running.insert(s.name, s);
    QJsonArray out;
    for (const McpServerConfig &c : configs_) {
        QJsonObject status;
        if (!c.local) {
            status = c.disabled ? QJsonObject{{"status", "disabled"}}
                                : QJsonObject{{"status", "failed"},
                                              {"error", "remote MCP servers are not connected "
                                                        "by the stand-in"}};
        } else if (c.command.isEmpty()) {
            status = QJsonObject{{"status", "failed"}, {"error", "empty command"}};
        } else {
            const demo::McpStatus s = running.value(c.name);
            switch (s.state) {
            case demo::McpState::Connected:
                status = QJsonObject{{"status", ready_.contains(c.name) ? "connected" : "pending"}};
                break;
            case demo::McpState::Disabled:
                status = QJsonObject{{"status", "disabled"}};
                break;
            case demo::McpState::Failed:
                status = QJsonObject{{"status", "failed"}, {"error", s.error}};
                break;
            }
        }
        out.append(QJsonObject{{"name", c.name}, {"status", status}});
    }
    return out;
}

bool McpServers::connect(const QString &name) {
    const McpServerConfig *c = config(name);
    if (!c) return false;
    if (c->local && !c->command.isEmpty()) fleet_.connectServer(name);
    return true;
}

bool McpServers::disconnect(const QString &name) {
    const McpServerConfig *c = config(name);
    if (!c) return false;
    if (c->local) fleet_.disconnectGracefully(name, kStopPlan);
    return true;
}

void McpServers::stopAll(std::function<void()> done) {
    fleet_.stopAllGracefully(kStopPlan, std::move(done));
}

} // namespace tether::standin_v2
