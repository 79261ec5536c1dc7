// The Supervisor: the Qt shell around the supervision's transition function. It owns the
// executor (core/supervision) and gives it real ports: QTimers, HTTP probes, a QProcess
// launcher, the registration files, the stop-plan runner. It holds no decision state of its
// own: every "what next" is policy::step's, and every status field is read from its state.
#pragma once

#include "os/process.h"
#include "policy/activity.h"
#include "policy/failure.h"
#include "policy/notice.h"
#include "policy/supervision.h"
#include "service/adopted_exit_watch.h"
#include "service/managed_registration_watch.h"
#include "service/http_client.h"
#include "service/profile.h"
#include "service/status.h"
#include "settings/settings.h"

#include <QObject>
#include <functional>
#include <memory>
#include <optional>

namespace tether {

namespace supervision {
class Executor;
struct Ports;
} // namespace supervision
class ServiceLauncher;
class RegistrationStore;
class StopRunner;
class ActivityMonitor;
class TerminalHandoff;

struct ProbeSample {
    QDateTime at;
    qint64 latencyMs = -1; // -1: no answer
    bool healthy = false;
    policy::State state = policy::State::Stopped;
};

class Supervisor : public QObject {
    Q_OBJECT
public:
    struct Config {
        Settings settings;
        Profile profile;
        QString profileError;          // non-empty: the profile cannot run; start() fails with it
        QString registrationPath;      // Tether's registration of the service it started
        QString serviceLogPath;        // the service's stdout and stderr are appended here
        ServicePath servicePath;       // shown in the status; already in Tether's environment
        std::function<qint64()> clock; // monotonic milliseconds; default: a steady clock
        // A world in place of the machine's: its process table, timers, probes, launches,
        // registration and stop plans (tests/support's simulated world on a virtual clock, the
        // rig of tst_supervisor_rig). The Supervisor then reads nothing else of the OS: no
        // event stream, no exit notification, no port doctor. Null: the real ones.
        supervision::Ports *world = nullptr;
        // With a world: every event goes through it (its checks, then this executor).
        std::function<void(const policy::Event &)> worldFeed;
    };

    // Called after the service died or was stopped, before anything is started again: clean
    // what it left behind outside its group (the stop plan's), then call done().
    using CrashCleanup =
        std::function<void(const os::Identity &service, std::function<void()> done)>;

    explicit Supervisor(Config config, QObject *parent = nullptr);
    ~Supervisor() override;

    // The activity's ages are those at the time of asking: a copy refreshed only by the
    // once-a-second tick answered `status --json` with an age up to a second old.
    const ServiceStatus &status() const;
    const Config &config() const { return config_; }
    QUrl baseUrl() const;
    QByteArray authorization() const; // empty when the service needs none
    std::optional<os::Identity> serviceIdentity() const;
    const policy::SupervisionState &machine() const;
    // The executor this Supervisor runs: a rig's world feeds its answers here.
    supervision::Executor &executor() { return *exec_; }
    // What the service is doing (its event stream); empty for a profile without one.
    const policy::Activity &activity() const;
    ActivityMonitor *activityMonitor() const { return activity_.get(); }

    void setCrashCleanup(CrashCleanup cleanup);
    // A stop plan or an MCP cleanup is under way: quitting now would leave the service
    // half-stopped or its MCP children orphaned. settled() is emitted when none is.
    bool settling() const;
    // Quit has been asked and everything it needed is done (service released or stopped).
    bool quitDone() const;
    // The MCP view and the orphans are observed elsewhere (core/mcp) and kept in this one model.
    void setMcp(const QList<McpChildStatus> &rows);
    void setOrphans(const QList<OrphanStatus> &orphans);
    // Tether's files that could not be saved (settings/storage.h's write observer, kept by the
    // Runtime).
    void setStateFileErrors(const QStringList &errors);

    // New settings (the caller saved them). Those that change the service itself
    // (changesService) stop a tracked one first and start it again with them if it is wanted;
    // the rest apply at once (policy::SettingsChanged). A quit meanwhile drops them.
    void applySettings(Config next);

public slots:
    void start();
    void stop();
    void restart();
    // Quit as configured: stop the service, or leave it running (a stop, replacement or clean-up
    // under way finishes first; a wanted service is running when Tether lets go).
    void quit(bool stopService);
    // Let go now, whatever is under way: the service keeps running, the next launch adopts it.
    void leaveRunning();
    // The OS says the machine woke up (or similar): time before this did not pass for Tether.
    void noteTimeGap(const QString &why);

signals:
    void statusChanged();
    void stateChanged(tether::policy::State from, tether::policy::State to, const QString &reason);
    void notice(tether::policy::NoticeKind kind, const QString &message);
    void logLine(const QString &line);
    void probed(const tether::ProbeSample &sample);
    void serviceStarted(const tether::os::Identity &service);
    void settled();
    // The settings given last are now in force (`service`: the service itself changed): what
    // was learnt about the old one (its MCP config) is forgotten.
    void settingsApplied(bool service);

private:
    class Ports;
    friend class Ports;

    void feed(const policy::Event &e);
    void refreshStatus(); // the status model from the machine's state
    void probe(const policy::SendProbe &p, const QString &password);
    void watchManagedRegistration(); // at the machine's cadence (off for other profiles)
    QString managedPath() const;     // opencode 2.x: its service.json; empty for other profiles
    void prepareTerminals(policy::Terminals t, std::function<void()> done);
    void completeTerminalHandoff();
    void followActivity();        // the stream of the tracked service, when its profile has one
    void refreshActivityStatus(); // status_.activity now
    ActivityStatus activityStatus() const; // from the monitor, on the clock
    void recordInterruption();             // work is being cut short: keep and announce what ran
    void watchAdoptedExit();
    void refreshFailure(); // status_.failure when Failed: the cause, the log, the port doctor
    void swapConfig();     // the policy applied the settings given last (ApplySettings)

    Config config_;
    Config given_; // the settings given last: in force, or waiting for the service's stop
    mutable ServiceStatus status_; // status() refreshes its activity ages
    std::unique_ptr<Ports> ports_;
    std::unique_ptr<supervision::Executor> exec_;
    CrashCleanup crashCleanup_;
    os::Identity announced_;       // the last identity serviceStarted was emitted for
    QDateTime startedAt_;          // wall clock, display only
    AdoptedExitWatch adoptedExit_; // an adopted service is not our child
    std::unique_ptr<ManagedRegistrationWatch> managedWatch_; // opencode 2.x: its service.json
    std::unique_ptr<ActivityMonitor> activity_;
    std::unique_ptr<TerminalHandoff> terminals_; // opencode 2.x's persistent terminals
    std::optional<policy::ExitFacts> lastExit_;  // how our last child ended (since the last start)
    bool lastExitOurs_ = false;                  // ... because Tether's stop ended it
    bool quietStep_ = false; // a step that changes nothing shown (a heartbeat while answering)
};

} // namespace tether
