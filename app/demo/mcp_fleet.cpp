#include "demo/mcp_fleet.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QProcessEnvironment>

#include <algorithm>

namespace tether::demo {

QList<McpChildSpec> demoMcpChildSpecs(const QString &program, const DemoServiceOptions &o) {
    QList<McpChildSpec> specs;
    for (int i = 1; i <= o.mcpCount; ++i) {
        McpChildSpec spec;
        spec.name = QStringLiteral("demo-%1").arg(i);
        spec.command = {program, QStringLiteral("demo-mcp"), QStringLiteral("--name"), spec.name};
        const auto every = [i](int k) { return k > 0 && i % k == 0; };
        if (o.mcpStubborn || every(o.mcpStubbornEvery))
            spec.command << QStringLiteral("--stubborn");
        if (o.mcpSetsidIndex == i || every(o.mcpSetsidEvery))
            spec.command << QStringLiteral("--setsid");
        if (o.mcpLeakKibPerSecond > 0)
            spec.command << QStringLiteral("--leak-kib-per-s")
                         << QString::number(o.mcpLeakKibPerSecond);
        if (!o.mcpLeakWhileFile.isEmpty())
            spec.command << QStringLiteral("--leak-while-file") << o.mcpLeakWhileFile;
        specs << spec;
    }
    return specs;
}

const char *toString(McpState state) {
    switch (state) {
    case McpState::Connected:
        return "connected";
    case McpState::Disabled:
        return "disabled";
    case McpState::Failed:
        return "failed";
    }
    return "failed";
}

McpFleet::McpFleet(QList<McpChildSpec> specs, QObject *parent)
    : QObject(parent)
    , specs_(std::move(specs)) {
    for (const auto &spec : std::as_const(specs_))
        children_.push_back(Child{spec, nullptr, McpState::Disabled, {}});
}

McpFleet::~McpFleet() {
    stopAll();
}

bool McpFleet::has(const QString &name) const {
    return std::any_of(children_.begin(), children_.end(),
                       [&](const Child &c) { return c.spec.name == name; });
}

McpFleet::Child *McpFleet::find(const QString &name) {
    for (auto &c : children_)
        if (c.spec.name == name) return &c;
    return nullptr;
}

QList<McpStatus> McpFleet::statuses() const {
    QList<McpStatus> out;
    for (const auto &c : children_)
        out << McpStatus{c.spec.name, c.state, c.error};
    return out;
}

void McpFleet::startAll() {
    for (auto &c : children_)
        if (!c.process) start(c);
}

bool McpFleet::connectServer(const QString &name) {
    Child *c = find(name);
    if (!c) return false;
    if (!c->process) start(*c);
    return true;
}

bool McpFleet::disconnectServer(const QString &name) {
    Child *c = find(name);
    if (!c) return false;
    stop({c});
    c->state = McpState::Disabled;
    c->error.clear();
    return true;
}

void McpFleet::stopAll() {
    std::vector<Child *> running;
    for (auto &c : children_)
        running.push_back(&c);
    stop(running);
}

void McpFleet::start(Child &child) {
    // No setsid here: like opencode 1.18.33 the children stay in the service's process group.
    auto *process = new QProcess(this);
    process->setProgram(child.spec.command.constFirst());
    process->setArguments(child.spec.command.mid(1));
    process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    // The server's password is the server's: its MCP children never see it.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("OPENCODE_SERVER_PASSWORD"));
    process->setProcessEnvironment(environment);
    // The first reply (to initialize) means the child is up and serving; later replies are only
    // drained, so the pipe never fills up.
    connect(process, &QProcess::readyReadStandardOutput, this,
            [this, process, name = child.spec.name, answered = false]() mutable {
                if (!process->readAllStandardOutput().contains('\n') || answered) return;
                answered = true;
                emit childReady(name, process->processId());
            });
    connect(process, &QProcess::finished, this,
            [this, process](int code, QProcess::ExitStatus status) {
                onFinished(process, code, static_cast<int>(status));
            });
    process->start();
    if (!process->waitForStarted(10000)) {
        child.state = McpState::Failed;
        child.error = QStringLiteral("cannot start MCP server: %1").arg(process->errorString());
        process->deleteLater();
        return;
    }
    child.process = process;
    child.state = McpState::Connected;
    child.error.clear();
    // The MCP handshake opencode performs; the answers are drained above.
    process->write(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{)"
                   R"("protocolVersion":"2025-06-18","capabilities":{},)"
                   R"("clientInfo":{"name":"tether-demo-service","version":"1"}}})"
                   "\n"
                   R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                   "\n");
    emit childStarted(child.spec.name, process->processId());
}

void McpFleet::stop(std::vector<Child *> children) {
    struct Stopping {
        QString name;
        qint64 pid;
        QProcess *process;
    };
    std::vector<Stopping> stopping;
    for (Child *c : children) {
        if (!c->process) continue;
        QProcess *p = c->process;
        c->process = nullptr; // from here on its exit is expected, not a failure
        stopping.push_back({c->spec.name, p->processId(), p});
        p->closeWriteChannel(); // EOF on stdin: how an MCP stdio server is asked to leave
    }
    const QDeadlineTimer grace(kStopGraceMs);
    for (const Stopping &s : stopping)
        if (s.process->state() != QProcess::NotRunning)
            s.process->waitForFinished(
                static_cast<int>(std::max<qint64>(1, grace.remainingTime())));
    for (const Stopping &s : stopping) {
        QProcess *p = s.process;
        QString how;
        if (p->state() != QProcess::NotRunning) {
            p->kill(); // our own child, not reaped yet: its pid cannot have been reused
            p->waitForFinished(5000);
            how = QStringLiteral("killed after %1 ms").arg(kStopGraceMs);
        } else if (p->exitStatus() == QProcess::CrashExit) {
            how = QStringLiteral("terminated by a signal");
        } else {
            how = QStringLiteral("exited with code %1").arg(p->exitCode());
        }
        emit childStopped(s.name, s.pid, how);
        p->disconnect(this);
        p->deleteLater();
    }
}

void McpFleet::onFinished(QProcess *process, int exitCode, int exitStatus) {
    for (auto &c : children_) {
        if (c.process != process) continue;
        c.process = nullptr;
        c.state = McpState::Failed;
        c.error = exitStatus == QProcess::CrashExit
                      ? QStringLiteral("MCP server was terminated by a signal")
                      : QStringLiteral("MCP server exited with code %1").arg(exitCode);
        process->deleteLater();
        return;
    }
}

} // namespace tether::demo
