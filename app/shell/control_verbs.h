// The verbs a `tether` command sends to the running Tether (status, start, stop, restart, quit,
// show, cleanup, diagnostics, mcp-connect/-disconnect), answered from the Runtime's public face:
// what each verb may do and what it says back, nothing of the Runtime's own bookkeeping.
#pragma once

#include "control/control_server.h"
#include "mcp/mcp_monitor.h"

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QThreadPool>

namespace tether {

class Runtime;

// What `tether cleanup` answers (the running Tether and the one-shot sweep alike): counts,
// what was found, and one line per process in "message".
QJsonObject cleanupReport(bool dryRun, const mcp::McpMonitor::CleanupSummary &summary);

class ControlVerbs : public QObject {
    Q_OBJECT
public:
    explicit ControlVerbs(Runtime &runtime, QObject *parent = nullptr);
    ~ControlVerbs() override;

    // Every verb; cleanup and diagnostics answer later, off the GUI thread.
    void handle(const control::Request &request, control::ControlServer::Reply reply);

private:
    QByteArray answer(const control::Request &request); // the verbs answered at once
    QByteArray cleanupReply(bool dryRun, const mcp::McpMonitor::CleanupSummary &summary);

    Runtime &runtime_;
    // Reports asked over the control socket are made here, one at a time; its destructor, before
    // this object's QObject part, waits for the one under way.
    QThreadPool diagnosticsPool_;
};

} // namespace tether
