// The registrations the supervision reads and writes: Tether's own file for a service it
// started (1.x, custom, demo), and opencode 2.x's service.json, which Tether only reads (and
// removes only when the process it names is provably gone). Facts, not decisions: the judging
// of service.json is judgeOwner's (managed_registration.h), the rest is policy::step's.
#pragma once

#include <optional>
#include <utility>

#include "service/managed_registration.h"
#include "supervision/executor.h"

#include <QString>

namespace tether {

class RegistrationStore : public supervision::RegistrationStore {
public:
    struct Config {
        QString ownPath;     // Tether's registration of the service it started
        QString managedPath; // opencode 2.x: service.json; empty for other profiles
        QString channel;     // opencode 2.x: its build channel (its port's default, its config)
        QString profileName; // written into the registration
        QString program;     // what a launch runs
    };
    explicit RegistrationStore(Config config);
    // New settings: the paths and names the next launch is registered with.
    void setConfig(Config config) { config_ = std::move(config); }

    supervision::OwnRegistration read() override;
    void write(const policy::TrackedService &svc, const std::string &version) override;
    void drop(bool setAside) override;
    policy::ManagedFacts readManaged() override;
    void dropManaged(const std::string &id) override;
    int launchPort(int configured) override;

    // The pid this Tether launched, so service.json naming it reads as "launched by us".
    void setLaunchedPid(qint64 pid) { launchedPid_ = pid; }
    qint64 launchedPid() const { return launchedPid_; }
    // Errors writing the registration, for the log (empty when none since the last call).
    QString takeError();
    // A registration that could not be written (a full disk) is written again here, until it
    // lands or the service it names is dropped; the Supervisor asks on the probe cadence.
    void retryWrite();
    const QString &managedPath() const { return config_.managedPath; }

private:
    Config config_;
    qint64 launchedPid_ = 0;
    QString error_;
    std::optional<std::pair<policy::TrackedService, std::string>> unsaved_;
};

// service.json, judged against the process table right now (verdict None when it is missing).
policy::ManagedFacts judgeManagedRegistration(const ManagedRegistrationRead &read,
                                              qint64 launchedPid);

} // namespace tether
