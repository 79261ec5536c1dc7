// A demo service's MCP children: processes on stdio pipes, started, stopped and restarted the
// way the service being imitated does it, with their status for its MCP route.
#pragma once

#include <QList>
#include <QMap>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

class QProcess;

namespace tether::demo {

struct McpChildSpec {
    QString name;
    QStringList command;                // exact argv: command[0] is the program
    QString workingDirectory;           // empty: the service's own
    QMap<QString, QString> environment; // set over the service's environment
    bool ownProcessGroup = false;       // POSIX: the child leads a session and group of its own
};

// How a graceful stop ends a child: stdin EOF, then after eofGraceMs SIGTERM (to its process
// group when it leads one), then after termGraceMs SIGKILL.
struct McpStopPlan {
    int eofGraceMs = 0;
    int termGraceMs = 0;
};

enum class McpState { Connected, Disabled, Failed };
const char *toString(McpState state); // "connected", "disabled", "failed"

struct McpStatus {
    QString name;
    McpState state = McpState::Disabled;
    QString error; // set when Failed
};

class McpFleet : public QObject {
    Q_OBJECT
public:
    explicit McpFleet(QList<McpChildSpec> specs, QObject *parent = nullptr);
    ~McpFleet() override; // stops every child (stdin EOF, then SIGKILL after the grace)

    const QList<McpChildSpec> &specs() const { return specs_; }
    bool has(const QString &name) const;
    QList<McpStatus> statuses() const;

    void startAll();
    // Starts the child unless it is already running (a fresh process, status connected).
    // Returns false for an unknown name.
    bool connectServer(const QString &name);
    // Stops the child and waits for it (see stopAll), status disabled. False for unknown names.
    bool disconnectServer(const QString &name);
    // Closes every child's stdin, waits up to the grace in total, then kills what is left.
    void stopAll();
    // The same without blocking the event loop, by `plan`; the children are stopped (status
    // disabled) at once. `done` runs once all of them have exited (at once when none ran).
    bool disconnectGracefully(const QString &name, const McpStopPlan &plan);
    void stopAllGracefully(const McpStopPlan &plan, std::function<void()> done);

    static constexpr int kStopGraceMs = 1000;

signals:
    void childStarted(const QString &name, qint64 pid);
    // The child answered the MCP initialize request: its own start-up is over.
    void childReady(const QString &name, qint64 pid);
    // After a requested stop: "exited with code N", "terminated by a signal" or "killed ...".
    void childStopped(const QString &name, qint64 pid, const QString &how);

private:
    struct Child {
        McpChildSpec spec;
        QProcess *process = nullptr; // owned (parent: this); null when not running
        McpState state = McpState::Disabled;
        QString error;
    };

    Child *find(const QString &name);
    void start(Child &child);
    void stop(std::vector<Child *> children);
    QProcess *detach(Child &child); // the running process, now no longer the child's
    void stopGracefully(std::vector<Child *> children, const McpStopPlan &plan,
                        std::function<void()> done);
    enum class Ending { Terminate, Kill };
    void end(QProcess *process, bool group, Ending how);
    void onFinished(QProcess *process, int exitCode, int exitStatus);

    QList<McpChildSpec> specs_;
    std::vector<Child> children_;
};

// Prints `mcp NAME pid PID` when a child starts, `... ready` when it answered initialize, and
// `... stopped: HOW` after a requested stop, each through `say` (the lines tests read).
void announceChildren(McpFleet &fleet, const std::function<void(const QString &)> &say);

} // namespace tether::demo
