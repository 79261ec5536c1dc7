// The opencode 2.x half of the Supervisor: the service registers itself in service.json, and
// Tether follows that file instead of keeping its own. Tether never writes it, and removes it
// only when the process it names is provably gone (dead, or a pid reused after it was written).
#include "service/supervisor.h"

#include "service/managed_registration.h"

#include <QFile>
#include <QProcess>

#ifdef Q_OS_LINUX
#include <unistd.h>
#endif

namespace tether {

using policy::Ms;
using policy::State;

namespace {

// Wall-clock start of a process, to compare with the registration's startedAt. Linux only
// (boot time + start ticks); elsewhere unknown, and port ownership alone decides.
std::optional<qint64> processStartMs(const os::ProcessInfo &p) {
#ifdef Q_OS_LINUX
    QFile stat(QStringLiteral("/proc/stat"));
    if (!stat.open(QIODevice::ReadOnly)) return std::nullopt;
    const QList<QByteArray> lines = stat.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (!line.startsWith("btime ")) continue;
        bool ok = false;
        const qint64 bootS = line.mid(6).trimmed().toLongLong(&ok);
        const long ticks = ::sysconf(_SC_CLK_TCK);
        if (!ok || ticks <= 0) return std::nullopt;
        return bootS * 1000 + qint64(p.startTime) * 1000 / ticks;
    }
    return std::nullopt;
#else
    (void)p;
    return std::nullopt;
#endif
}

struct Judged {
    OwnerVerdict verdict = OwnerVerdict::Unknown;
    os::ProcessInfo info; // when alive
    QString portOwners;   // when the port is held by another process
};

Judged judgeRegistration(const ManagedRegistration &reg) {
    Judged j;
    OwnerFacts f;
    f.registeredStartedAtMs = reg.startedAtMs;
    const os::Lookup l = os::inspect(reg.pid);
    switch (l.status) {
    case os::Lookup::Status::NotFound:
        f.life = OwnerFacts::Life::Gone;
        break;
    case os::Lookup::Status::Error:
        f.life = OwnerFacts::Life::Unknown;
        break;
    case os::Lookup::Status::Found:
        f.life =
            l.info.state == os::RunState::Zombie ? OwnerFacts::Life::Gone : OwnerFacts::Life::Alive;
        f.processStartMs = processStartMs(l.info);
        j.info = l.info;
        break;
    }
    const os::PortOwners owners = os::listeningPortOwners(quint16(reg.port()));
    if (!owners.ok)
        f.port = OwnerFacts::Port::Unknown;
    else if (!owners.listening)
        f.port = OwnerFacts::Port::Free;
    else if (std::find(owners.pids.begin(), owners.pids.end(), reg.pid) != owners.pids.end())
        f.port = OwnerFacts::Port::OwnedByPid;
    else if (owners.pids.empty())
        f.port = OwnerFacts::Port::Unknown;
    else {
        f.port = OwnerFacts::Port::OwnedByOther;
        QStringList pids;
        for (os::Pid pid : owners.pids)
            pids << QString::number(pid);
        j.portOwners = QStringLiteral("PID %1").arg(pids.join(QStringLiteral(", ")));
    }
    j.verdict = judgeOwner(f);
    return j;
}

} // namespace

QString Supervisor::managedPath() const {
    return managedRegistrationPath(config_.settings.stateDir);
}

void Supervisor::adoptOrLaunchManaged() {
    if (want_ != Want::Running || shuttingDown_) return;
    connect(&managedTimer_, &QTimer::timeout, this, &Supervisor::checkManagedRegistration,
            Qt::UniqueConnection);
    const QString path = managedPath();
    managedStamp_ = stampOf(path);
    const ManagedRegistrationRead read = readManagedRegistration(path);
    if (read.status == ManagedRegistrationRead::Status::Invalid) {
        // Not removed: Tether cannot tell whose it is. A new service replaces it.
        log(QStringLiteral("%1: ignored").arg(read.error));
        status_.lastError = read.error;
    } else if (read.status == ManagedRegistrationRead::Status::Ok) {
        const ManagedRegistration &reg = read.registration;
        const Judged j = judgeRegistration(reg);
        switch (j.verdict) {
        case OwnerVerdict::Adopt:
            managedWaitSince_ = 0;
            adoptManaged(reg, j.info);
            return;
        case OwnerVerdict::Wait: {
            // Alive and plausibly the writer, not listening (yet): never start a contender.
            const Ms t = now();
            if (managedWaitSince_ == 0) managedWaitSince_ = t;
            if (t - managedWaitSince_ >= config_.settings.timings.startupDeadlineMs) {
                managedWaitSince_ = 0;
                fail(QStringLiteral(
                         "the registered service pid %1 does not listen on port %2; stop it "
                         "or remove %3")
                         .arg(reg.pid)
                         .arg(reg.port())
                         .arg(path));
                return;
            }
            status_.lastError =
                QStringLiteral("registered service pid %1 does not listen on port %2 yet")
                    .arg(reg.pid)
                    .arg(reg.port());
            setState(State::Starting, status_.lastError);
            restartTimer_.start(int(config_.settings.timings.probeIntervalMs));
            return;
        }
        case OwnerVerdict::ProvablyGone:
            log(QStringLiteral(
                    "service.json names pid %1, which is gone or a process started after the "
                    "registration: not signalled, registration removed as stale")
                    .arg(reg.pid));
            emit notice(
                QStringLiteral("stale"),
                QStringLiteral("Removed a stale opencode registration (pid %1).").arg(reg.pid));
            removeManagedIfStill(reg.id);
            break;
        case OwnerVerdict::PortHeld:
            fail(QStringLiteral("port %1 of the registered service pid %2 is held by %3; stop that "
                                "program (%4 left as it is)")
                     .arg(reg.port())
                     .arg(reg.pid)
                     .arg(j.portOwners, path),
                 QStringLiteral("port-held"));
            return;
        case OwnerVerdict::Unknown:
            status_.lastError =
                QStringLiteral("cannot verify the registered service pid %1; retrying")
                    .arg(reg.pid);
            setState(State::Restarting, status_.lastError);
            restartTimer_.start(int(config_.settings.timings.probeIntervalMs));
            return;
        }
    }
    managedWaitSince_ = 0;
    managedId_.clear();
    launch();
    if (svc_ && svc_->ourChild) {
        log(QStringLiteral("waiting for the new service to register in %1").arg(path));
        managedTimer_.start(50); // until it registers; then the probe cadence
    }
}

void Supervisor::removeManagedIfStill(const QString &id) {
    // Re-read right before removing: a new service may have registered since.
    const ManagedRegistrationRead again = readManagedRegistration(managedPath());
    if (again.status == ManagedRegistrationRead::Status::Ok && again.registration.id == id)
        QFile::remove(managedPath());
}

void Supervisor::adoptManaged(const ManagedRegistration &reg, const os::ProcessInfo &info) {
    const os::Identity id{info.pid, info.startTime};           // the OS start time, taken now
    const qint64 pgid = info.pgid == info.pid ? info.pgid : 0; // its own group, or none of ours
    const bool external = reg.pid != managedLaunchedPid_;
    managedId_ = reg.id;
    adopt(id, pgid, reg.password, reg.port(), external,
          reg.startedAtMs > 0 ? QDateTime::fromMSecsSinceEpoch(reg.startedAtMs) : QDateTime());
    if (!reg.version.isEmpty() && status_.version.isEmpty()) status_.version = reg.version;
    managedTimer_.start(int(std::min<Ms>(config_.settings.timings.probeIntervalMs, 500)));
}

void Supervisor::checkManagedRegistration() {
    if (!svc_ || terminating_ || shuttingDown_) return;
    const FileStamp stamp = stampOf(managedPath());
    if (stamp == managedStamp_) return; // unchanged: no read
    managedStamp_ = stamp;
    const ManagedRegistrationRead read = readManagedRegistration(managedPath());
    if (read.status != ManagedRegistrationRead::Status::Ok)
        return; // the owner's life is watched by the probes and the alive check
    const ManagedRegistration &reg = read.registration;
    if (reg.id == managedId_) {
        svc_->password = reg.password;
        return;
    }
    // The service Tether launched has registered: from now on it is driven through the file.
    if (svc_->ourChild && svc_->process && managedId_.isEmpty() &&
        reg.pid == svc_->process->processId()) {
        managedId_ = reg.id;
        managedLaunchedPid_ = reg.pid;
        svc_->password = reg.password;
        status_.port = quint16(reg.port());
        status_.url = baseUrl().toString();
        status_.external = false;
        log(QStringLiteral("pid %1 registered as %2 on %3")
                .arg(reg.pid)
                .arg(reg.id, reg.url.toString()));
        managedTimer_.start(int(std::min<Ms>(config_.settings.timings.probeIntervalMs, 500)));
        emit statusChanged();
        scheduleProbe(0);
        return;
    }
    if (!followManagedRegistration())
        managedStamp_ = {}; // not adoptable yet (still starting?): look again next tick
}

bool Supervisor::followManagedRegistration() {
    if (!svc_) return false;
    managedStamp_ = stampOf(managedPath());
    const ManagedRegistrationRead read = readManagedRegistration(managedPath());
    if (read.status != ManagedRegistrationRead::Status::Ok || read.registration.id == managedId_)
        return false;
    const ManagedRegistration &reg = read.registration;
    if (svc_->ourChild && svc_->process && reg.pid == svc_->process->processId())
        return false; // our own launch, handled by checkManagedRegistration
    const Judged j = judgeRegistration(reg);
    if (j.verdict != OwnerVerdict::Adopt) return false;
    const qint64 oldPid = svc_->id.pid;
    log(QStringLiteral(
            "service.json now names pid %1 (%2): following the new owner; pid %3 is left "
            "to shut itself down")
            .arg(reg.pid)
            .arg(reg.id)
            .arg(oldPid));
    forgetService(); // no signal: the old service sees the file and leaves by itself
    adoptManaged(reg, j.info);
    return true;
}

} // namespace tether
