// The Supervisor: the imperative shell around core/policy. It starts or adopts the service,
// probes it, and carries out what the policy decides: wait, verify, terminate, replace,
// back off, give up. Every decision itself is a pure function in policy/recovery.h.
#pragma once

#include "os/process.h"
#include "policy/recovery.h"
#include "service/http_client.h"
#include "service/managed_registration.h"
#include "service/profile.h"
#include "service/status.h"
#include "settings/settings.h"

#include <QObject>
#include <QPointer>
#include <QTimer>
#include <functional>
#include <optional>

class QNetworkAccessManager;
class QProcess;

namespace tether {

struct ProbeSample {
    QDateTime at;
    qint64 latencyMs = -1; // -1: no answer
    bool healthy = false;
    policy::State state = policy::State::Stopped;
};

// "12 34 56": the pids a group signal reached, for the log that accounts for every signal.
QString pidList(const std::vector<os::Pid> &pids);

class Supervisor : public QObject {
    Q_OBJECT
public:
    struct Config {
        Settings settings;
        Profile profile;
        QString profileError;          // non-empty: the profile cannot run; start() fails with it
        QString registrationPath;      // Tether's registration of the service it started
        QString serviceLogPath;        // the service's stdout and stderr are appended here
        std::function<qint64()> clock; // monotonic milliseconds; default: a steady clock
    };

    // Called after the service died and before any restart: clean what it left behind, then
    // call done(). The default does nothing.
    using CrashCleanup =
        std::function<void(const os::Identity &service, qint64 pgid, std::function<void()> done)>;

    explicit Supervisor(Config config, QObject *parent = nullptr);
    ~Supervisor() override;

    const ServiceStatus &status() const { return status_; }
    const Config &config() const { return config_; }
    QUrl baseUrl() const;
    QByteArray authorization() const; // empty when the service needs none
    QNetworkAccessManager *network() const { return nam_; }
    std::optional<os::Identity> serviceIdentity() const;

    void setCrashCleanup(CrashCleanup cleanup) { crashCleanup_ = std::move(cleanup); }
    // A termination or an MCP cleanup is under way: quitting now would leave the service
    // half-stopped or its MCP children orphaned. settled() is emitted when none is.
    bool settling() const { return inFlight_ > 0; }
    // The MCP view and the orphans are observed elsewhere (core/mcp) and kept in this one model.
    void setMcp(const QList<McpChildStatus> &rows);
    void setOrphans(const QList<OrphanStatus> &orphans);

public slots:
    void start();
    void stop();
    void restart();
    // Quit without stopping: the service keeps running and the next launch adopts it.
    void leaveRunning();
    // From now on nothing is started or restarted; what is under way finishes.
    void holdStarts();
    // The OS says the machine woke up (or similar): time before this did not pass for Tether.
    void noteTimeGap(const QString &why);

signals:
    void statusChanged();
    void stateChanged(tether::policy::State from, tether::policy::State to, const QString &reason);
    // kind: crashed | restarted | recovered | gave-up | port-held | version-mismatch | stale
    void notice(const QString &kind, const QString &message);
    void logLine(const QString &line);
    void probed(const tether::ProbeSample &sample);
    void serviceStarted(const tether::os::Identity &service);
    void settled();

private:
    struct Tracked {
        os::Identity id;
        qint64 pgid = 0;
        QString password;
        bool ourChild = false; // launched by this Tether process (a QProcess we own)
        QPointer<QProcess> process;
        std::shared_ptr<os::Job> job; // Windows containment (service_job.h); null on POSIX
    };
    enum class Want { Stopped, Running };

    policy::Ms now() const { return config_.clock(); }
    void setState(policy::State s, const QString &reason);
    void log(const QString &line);
    void fail(const QString &message, const QString &noticeKind = QString());

    void adoptOrLaunch();
    void adopt(const os::Identity &id, qint64 pgid, const QString &password, int port,
               bool external, const QDateTime &startedAt);
    void launch();
    void onLaunched(QProcess *p);
    void onLaunchFailed(QProcess *p, const QString &why);
    void onProcessFinished(QProcess *p, int exitCode, bool crashed);

    void scheduleProbe(policy::Ms delayMs);
    void sendProbe();
    void onProbeResult(quint64 generation, policy::Ms sentAt, const HttpResult &r);
    void onProbeMissed(policy::Ms sentAt, const QString &why);
    void scheduleWindowCheck(policy::Ms delayMs);
    void checkWindow();
    void checkTimeGap(policy::Ms dueAt, const QString &what);

    // Verify identity + port ownership, then (policy permitting) terminate; then continue().
    void verifyAndTerminate(const QString &reason, std::function<void()> then);
    void onServiceGone(const QString &reason);
    // Clean what a dead service left behind (crashCleanup_), then continue with then().
    void cleanUpAfter(const os::Identity &service, qint64 pgid, std::function<void()> then);
    void settle(); // one piece of in-flight work done
    void scheduleRestart(const QString &reason);
    void forgetService();
    void writeOwnRegistration();
    void checkVersion(const QString &reported);
    policy::PortCheck checkPort(qint64 servicePid, QString *ownerDescription) const;

    // opencode 2.x managed service (supervisor_managed.cpp): it registers itself in service.json.
    QString managedPath() const;
    void adoptOrLaunchManaged();
    void adoptManaged(const ManagedRegistration &reg, const os::ProcessInfo &info);
    void checkManagedRegistration();  // on a cadence: re-read only when the file changed
    bool followManagedRegistration(); // true: switched to the new owner the file names
    void removeManagedIfStill(const QString &id);

    Config config_;
    ServiceStatus status_;
    QNetworkAccessManager *nam_ = nullptr;
    CrashCleanup crashCleanup_;
    int inFlight_ = 0; // terminations and cleanups under way

    Want want_ = Want::Stopped;
    std::optional<Tracked> svc_;
    bool terminating_ = false;
    bool shuttingDown_ = false;
    quint64 generation_ = 0;

    policy::RecoveryWindow window_;
    policy::RestartBudget budget_;
    policy::Ms healthySince_ = 0;
    int startupAttempt_ = 0;
    policy::Ms startupDeadline_ = 0; // 0: none (adopted services have no start-up deadline)
    bool versionNoticed_ = false;
    bool restartPending_ = false; // the next healthy answer completes a restart

    QTimer probeTimer_;
    policy::Ms probeDueAt_ = 0;
    QTimer windowTimer_;
    policy::Ms windowDueAt_ = 0;
    QTimer restartTimer_;
    QTimer aliveTimer_; // adopted services are not our children: look at them on a cadence
    QTimer managedTimer_;
    FileStamp managedStamp_;
    QString managedId_;             // the registration id being followed
    qint64 managedLaunchedPid_ = 0; // the service this Tether launched (not external)
    policy::Ms managedWaitSince_ = 0;
};

} // namespace tether
