// One running Tether: settings, the Supervisor, the control socket and the logs, wired
// together. The tray and headless mode are two faces of this same object.
#pragma once

#include "control/control_server.h"
#include "shell/control_verbs.h"
#include "mcp/mcp_monitor.h"
#include "policy/quit.h"
#include "service/health_history.h"
#include "service/log_rotation.h"
#include "service/supervisor.h"
#include "settings/settings.h"
#include "shell/diagnostics.h"
#include "shell/wake_watcher.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonObject>
#include <QMap>
#include <QObject>
#include <QSet>
#include <QTimer>
#include <memory>

namespace tether {

class Runtime : public QObject {
    Q_OBJECT
public:
    struct Options {
        QString settingsPath; // empty: the user's file
        bool echoLog = false; // headless: every log line also goes to stdout
    };

    explicit Runtime(Options options, QObject *parent = nullptr);
    ~Runtime() override;

    enum class Init { Ok, AnotherInstance, Error };
    Init init(QString *error);

    Supervisor *supervisor() const { return supervisor_.get(); }
    mcp::McpMonitor *mcpMonitor() const { return mcp_.get(); }
    const LoadedSettings &settings() const { return settings_; }
    QString settingsPath() const;

    // Apply edited settings without restarting Tether: the one Supervisor takes them. When they
    // change the service itself (settings/settings.h changesService) a tracked service is
    // stopped first and started anew with them if wanted (policy::SettingsChanged). The caller
    // saves.
    void applySettings(const Settings &settings);

    // The last hour of probes and state changes, and the recent log lines, for the UI.
    const HealthHistory &healthHistory() const { return health_; }
    const QStringList &eventLog() const { return events_; }

    // Quit as configured (stop the service only when [app] stopServiceOnQuit is set), in the
    // running event loop: a stop, a settings change or an MCP clean-up under way finishes first,
    // bounded by the longest stop, after which the service is let go as it is. readyToQuit() is
    // emitted once the loop may end (at once when nothing is under way).
    void requestQuit();
    bool isReadyToQuit() const { return quitReady_; }
    // Every QCoreApplication::quit() (the tray's Quit, Ctrl+C and SIGTERM, the quit verb) becomes
    // requestQuit(), and the application's loop ends on readyToQuit(): no second event loop
    // after exec() to finish a stop in (Qt 6 delivers quit() as QEvent::Quit to the application).
    void holdQuitsUntilReady(QCoreApplication *app);
    bool eventFilter(QObject *watched, QEvent *event) override;
    // After the loop: the log's last line. A quit that was not ready (the platform ended the
    // loop) lets the service go as it is; nothing waits here.
    void shutdown();
    // The session ends (logout, shutdown): settle the service as configured at once and
    // without blocking (the session manager is waiting), and never start one from here on.
    void sessionEnding();
    // Quitting has begun (aboutToQuit): the same settling, without the session's log line.
    void beginQuit();
    // What asked Tether to quit (before beginQuit): Ctrl+C in its terminal also stops the bundled
    // demo service it started (policy/quit.h).
    void setQuitBy(policy::QuitBy by) { quitBy_ = by; }
    bool isShuttingDown() const { return shuttingDown_; }
    // A line in Tether's log (file, status window, --headless stdout), stamped.
    void log(const QString &line) { writeLog(line); }
    // A person's Stop, Restart or Quit must be confirmed first (policy::needsConsent): the
    // tray asks, a verb without --force is refused.
    bool needsConsent(policy::PersonAction action) const;

    // MCP servers through the service's own API (disconnect + connect gives a fresh process).
    void reconnectMcp(const QString &name);
    void setMcpConnected(const QString &name, bool connected);
    // Remove the listed orphans (pids from status().orphans); possible orphans only when a
    // person confirmed them. Reports through logLine and statusChanged.
    // done (optional): the result, for the orphan dialog to tell.
    void cleanupOrphans(const QList<qint64> &pids, bool confirmedByPerson,
                        std::function<void(const mcp::McpMonitor::CleanupSummary &)> done = {});

    // "Use a free port": writes [service] port to the settings file and starts the service
    // there. False (and *error) when the file cannot be written.
    bool useFreePort(quint16 port, QString *error);
    // The report of shell/diagnostics.h, from this running Tether (its status and event log).
    QString diagnostics() const;
    diagnostics::Input diagnosticsInput() const; // what it is made from, taken now

signals:
    void quitRequested();
    void readyToQuit();
    void showRequested();
    // Relayed from the Supervisor.
    void statusChanged();
    void notice(tether::policy::NoticeKind kind, const QString &message);
    void eventLogged(const QString &line);
    void healthChanged();

private:
    // The service is stopped by this quit (policy/quit.h).
    bool stopsServiceOnQuit() const;

    void writeLog(const QString &line);
    void onStateWrite(const QString &path, const QString &error); // error empty: written
    void keepControlSocket(); // listening again if Qt closed the endpoint (on the probe cadence)
    // The profile resolved from these settings, as the Supervisor takes it.
    Supervisor::Config supervisorConfig(const Settings &s) const;
    // Create + wire the one Supervisor (init).
    void makeSupervisor(const Settings &s);

    Options options_;
    WakeWatcher *wake_ = nullptr;
    bool shuttingDown_ = false;
    bool quitStops_ = false; // the quit under way stops the service (decided when it began)
    bool quitAsked_ = false; // requestQuit() ran
    bool quitReady_ = false; // ... and what it waited for is done, or its bound passed
    QTimer quitBound_;
    void readyIfSettled();
    policy::QuitBy quitBy_ = policy::QuitBy::Person;
    LoadedSettings settings_;
    ServicePath servicePath_; // resolved once at start (service/login_path.h)
    std::unique_ptr<Supervisor> supervisor_;
    std::unique_ptr<mcp::McpMonitor> mcp_; // observes supervisor_: destroyed first
    control::ControlServer *control_ = nullptr;
    QFile logFile_;
    LogRotator *rotator_ = nullptr;          // the logs, off the main thread
    QSet<QString> rotationRefused_;          // a refusal is logged once per file
    QMap<QString, QString> stateFileErrors_; // path -> why its last write failed
    QTimer rotationTimer_;
    HealthHistory health_;
    QStringList events_; // newest last, capped
    // The control socket's verbs; destroyed first (its report thread waits for the one under way).
    std::unique_ptr<ControlVerbs> verbs_;
};

} // namespace tether
