// One running Tether: settings, the Supervisor, the control socket and the logs, wired
// together. The tray and headless mode are two faces of this same object.
#pragma once

#include "control/control_server.h"
#include "service/supervisor.h"
#include "settings/settings.h"

#include <QFile>
#include <QObject>
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
    const LoadedSettings &settings() const { return settings_; }
    QString settingsPath() const;

    // Quit as configured: stop the service only when [app] stopServiceOnQuit is set.
    void shutdown();

    // MCP servers through the service's own API (disconnect + connect gives a fresh process).
    void reconnectMcp(const QString &name);
    void setMcpConnected(const QString &name, bool connected);
    // Remove the listed orphans (pids from status().orphans); possible orphans only when a
    // person confirmed them. Reports through logLine and statusChanged.
    void cleanupOrphans(const QList<qint64> &pids, bool confirmedByPerson);

signals:
    void quitRequested();
    void showRequested();

private:
    QByteArray handle(const control::Request &request);
    void writeLog(const QString &line);

    Options options_;
    LoadedSettings settings_;
    std::unique_ptr<Supervisor> supervisor_;
    control::ControlServer *control_ = nullptr;
    QFile logFile_;
    QTimer rotationTimer_;
};

} // namespace tether
