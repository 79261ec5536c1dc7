#include "demo/common/mcp_fleet.h"

#include <QDeadlineTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTimer>

#include <algorithm>
#include <memory>

#ifdef Q_OS_UNIX
#include <csignal>
#include <sys/types.h>
#include <unistd.h>
#endif

namespace tether::demo {

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
    // No setsid unless the spec asks: like opencode 1.18.33 the children stay in the service's
    // process group.
    auto *process = new QProcess(this);
    process->setProgram(child.spec.command.constFirst());
    process->setArguments(child.spec.command.mid(1));
    process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    if (!child.spec.workingDirectory.isEmpty())
        process->setWorkingDirectory(child.spec.workingDirectory);
    // The server's password is the server's: its MCP children never see it.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("OPENCODE_SERVER_PASSWORD"));
    for (auto it = child.spec.environment.cbegin(); it != child.spec.environment.cend(); ++it)
        environment.insert(it.key(), it.value());
    process->setProcessEnvironment(environment);
#ifdef Q_OS_UNIX
    if (child.spec.ownProcessGroup) process->setChildProcessModifier([] { ::setsid(); });
#endif
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

QProcess *McpFleet::detach(Child &child) {
    QProcess *p = child.process;
    child.process = nullptr; // from here on its exit is expected, not a failure
    child.state = McpState::Disabled;
    child.error.clear();
    return p;
}

bool McpFleet::disconnectGracefully(const QString &name, const McpStopPlan &plan) {
    Child *c = find(name);
    if (!c) return false;
    stopGracefully({c}, plan, {});
    return true;
}

void McpFleet::stopAllGracefully(const McpStopPlan &plan, std::function<void()> done) {
    std::vector<Child *> all;
    for (auto &c : children_)
        all.push_back(&c);
    stopGracefully(all, plan, std::move(done));
}

void McpFleet::stopGracefully(std::vector<Child *> children, const McpStopPlan &plan,
                              std::function<void()> done) {
    struct Job {
        QString name;
        qint64 pid;
        QProcess *process;
        bool group;
    };
    // Shared by the timers and the exit handlers; the last exit ends the stop.
    struct Stop {
        std::vector<Job> jobs;
        int running = 0;
        int stage = 0; // 0 EOF sent, 1 SIGTERM sent, 2 SIGKILL sent
        QTimer term, kill;
        std::function<void()> done;
    };
    auto stop = std::make_shared<Stop>();
    stop->done = std::move(done);
    for (Child *c : children) {
        const bool group = c->spec.ownProcessGroup;
        if (QProcess *p = c->process ? detach(*c) : nullptr) {
            stop->jobs.push_back({c->spec.name, p->processId(), p, group});
            p->closeWriteChannel(); // EOF on stdin: how an MCP stdio server is asked to leave
        }
    }
    stop->running = static_cast<int>(stop->jobs.size());
    if (stop->running == 0) {
        if (stop->done) stop->done();
        return;
    }
    const auto escalate = [this, stop](int stage, Ending how) {
        stop->stage = stage;
        for (const Job &j : stop->jobs)
            if (j.process && j.process->state() != QProcess::NotRunning)
                end(j.process, j.group, how);
    };
    for (QTimer *t : {&stop->term, &stop->kill})
        t->setSingleShot(true);
    connect(&stop->term, &QTimer::timeout, this, [escalate] { escalate(1, Ending::Terminate); });
    connect(&stop->kill, &QTimer::timeout, this, [escalate] { escalate(2, Ending::Kill); });
    stop->term.start(plan.eofGraceMs);
    stop->kill.start(plan.eofGraceMs + plan.termGraceMs);
    for (std::size_t i = 0; i < stop->jobs.size(); ++i) {
        connect(stop->jobs[i].process, &QProcess::finished, this,
                [this, stop, i, plan](int code, QProcess::ExitStatus status) {
                    Job &j = stop->jobs[i];
                    QString how = status == QProcess::CrashExit
                                      ? QStringLiteral("terminated by a signal")
                                      : QStringLiteral("exited with code %1").arg(code);
                    if (stop->stage == 1)
                        how += QStringLiteral(" after SIGTERM (sent %1 ms after EOF)")
                                   .arg(plan.eofGraceMs);
                    else if (stop->stage == 2)
                        how = QStringLiteral("killed after %1 ms")
                                  .arg(plan.eofGraceMs + plan.termGraceMs);
                    emit childStopped(j.name, j.pid, how);
                    j.process->disconnect(this);
                    j.process->deleteLater();
                    j.process = nullptr;
                    if (--stop->running > 0) return;
                    // The timers' handlers hold this stop: dropping them frees it.
                    stop->term.disconnect(this);
                    stop->kill.disconnect(this);
                    stop->term.stop();
                    stop->kill.stop();
                    if (stop->done) stop->done();
                });
    }
}

void McpFleet::end(QProcess *process, bool group, Ending how) {
#ifdef Q_OS_UNIX
    // Still our unreaped child, so its pid (and, as a session leader, its group) is not reused.
    const pid_t pid = static_cast<pid_t>(process->processId());
    if (pid > 0) {
        ::kill(group ? -pid : pid, how == Ending::Kill ? SIGKILL : SIGTERM);
        return;
    }
#else
    Q_UNUSED(group);
#endif
    if (how == Ending::Kill)
        process->kill();
    else
        process->terminate();
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

void announceChildren(McpFleet &fleet, const std::function<void(const QString &)> &say) {
    QObject::connect(&fleet, &McpFleet::childStarted, &fleet,
                     [say](const QString &name, qint64 pid) {
                         say(QStringLiteral("mcp %1 pid %2").arg(name).arg(pid));
                     });
    QObject::connect(&fleet, &McpFleet::childReady, &fleet, [say](const QString &name, qint64 pid) {
        say(QStringLiteral("mcp %1 pid %2 ready").arg(name).arg(pid));
    });
    QObject::connect(
        &fleet, &McpFleet::childStopped, &fleet,
        [say](const QString &name, qint64 pid, const QString &how) {
            say(QStringLiteral("mcp %1 pid %2 stopped: %3").arg(name).arg(pid).arg(how));
        });
}

} // namespace tether::demo
