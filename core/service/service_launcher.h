// Starts the service as Tether's child (QProcess) and reports what the OS says about it:
// started (with its identity), failed to start, exited. It decides nothing; and it never lets
// a QProcess destructor kill a child that is still running: such a child is released.
#pragma once

#include "os/process.h"
#include "policy/failure.h"
#include "service/profile.h"
#include "supervision/executor.h"

#include <QObject>
#include <QPointer>
#include <functional>
#include <memory>

class QProcess;

namespace tether {

class ServiceLauncher : public QObject, public supervision::Launcher {
    Q_OBJECT
public:
    struct Config {
        Profile profile;
        QString serviceLogPath; // stdout + stderr appended here; empty: discarded
        bool containment = true;
        // opencode 2.x: its service.json, beside which a replaced service's terminal handoff
        // waits for the next one (service/pty_handoff.h); empty for other profiles.
        QString managedRegistrationPath;
    };
    ServiceLauncher(Config config, std::function<void(const policy::Event &)> feed,
                    QObject *parent = nullptr);
    ~ServiceLauncher() override;

    // New settings (no service tracked for a change of its own): the next launch uses them.
    void setConfig(Config config) { config_ = std::move(config); }

    void launch(int port) override;
    bool childRunning(const os::Identity &id) override;
    void release() override;
    std::string program() override;

    // The Windows job of the current service (null on POSIX, or uncontained).
    std::shared_ptr<os::Job> job() const { return job_; }
    void setJob(std::shared_ptr<os::Job> job) { job_ = std::move(job); }
    // The current child, if any: forgotten (and released once it exits) after a stop.
    void forgetChild();

    // Where the current service's output starts in the log file: its last lines are from here.
    qint64 logOffset() const { return logOffset_; }

signals:
    void logLine(const QString &line);
    // The child ended: how, and after how long (the failure's cause reads it).
    void childExited(const tether::policy::ExitFacts &exit);

private:
    void onStarted(QProcess *p);
    void detach(QProcess *p); // never destroyed while running: destroying would SIGKILL it

    Config config_;
    std::function<void(const policy::Event &)> feed_;
    QPointer<QProcess> process_;
    os::Identity identity_;
    QString password_;
    std::shared_ptr<os::Job> job_;
    qint64 logOffset_ = 0;
    qint64 startedAtMs_ = 0; // monotonic, for ExitFacts::ranMs
};

} // namespace tether
