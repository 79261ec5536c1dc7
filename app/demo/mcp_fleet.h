// The demo service's MCP children: `tether demo-mcp` processes on stdio pipes, started,
// stopped and restarted the way opencode 1.x does it, with their status for GET /mcp.
#pragma once

#include "demo/service_options.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

class QProcess;

namespace tether::demo {

struct McpChildSpec {
    QString name;
    QStringList command; // exact argv: command[0] is the absolute program path
};

// demo-1..demo-N running `program demo-mcp --name demo-i [--stubborn] [--setsid]
// [--leak-kib-per-s K]` (pure: the same options always give the same argv).
QList<McpChildSpec> demoMcpChildSpecs(const QString &program, const DemoServiceOptions &options);

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
    void onFinished(QProcess *process, int exitCode, int exitStatus);

    QList<McpChildSpec> specs_;
    std::vector<Child> children_;
};

} // namespace tether::demo
