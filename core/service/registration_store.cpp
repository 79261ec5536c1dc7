#include "service/registration_store.h"

#include "service/registration.h"

#include <QDateTime>
#include <QFile>
#include <algorithm>
#include <optional>

#ifdef Q_OS_LINUX
#include <unistd.h>
#endif

namespace tether {

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

} // namespace

RegistrationStore::RegistrationStore(Config config)
    : config_(std::move(config)) {
}

QString RegistrationStore::takeError() {
    QString e;
    std::swap(e, error_);
    return e;
}

supervision::OwnRegistration RegistrationStore::read() {
    supervision::OwnRegistration out;
    const RegistrationRead read = readRegistration(config_.ownPath);
    switch (read.status) {
    case RegistrationRead::Status::Missing:
        return out;
    case RegistrationRead::Status::Invalid:
        out.read = supervision::OwnRegistration::Read::Invalid;
        out.error = read.error.toStdString();
        return out;
    case RegistrationRead::Status::Ok:
        break;
    }
    const Registration &r = read.registration;
    out.read = supervision::OwnRegistration::Read::Ok;
    out.id = {r.pid, r.startTime};
    out.pgid = r.pgid;
    out.port = r.port;
    out.password = r.password.toStdString();
    out.program = r.program.toStdString();
    out.version = r.version.toStdString();
    return out;
}

void RegistrationStore::write(const policy::TrackedService &svc, const std::string &version) {
    Registration r;
    r.pid = svc.id.pid;
    r.startTime = svc.id.startTime;
    r.port = svc.port;
    r.pgid = svc.pgid;
    r.version = QString::fromStdString(version);
    r.password = QString::fromStdString(svc.password);
    r.startedAt = QDateTime::currentDateTime();
    r.profile = config_.profileName;
    r.program = config_.program;
    // Kept: the first write's start time (a later write only adds the version).
    const RegistrationRead before = readRegistration(config_.ownPath);
    if (before.status == RegistrationRead::Status::Ok && before.registration.pid == r.pid &&
        before.registration.startTime == r.startTime && before.registration.startedAt.isValid())
        r.startedAt = before.registration.startedAt;
    QString error;
    unsaved_.reset();
    if (!writeRegistration(config_.ownPath, r, &error)) {
        error_ = QStringLiteral("cannot write the registration: %1").arg(error);
        unsaved_ = std::make_pair(svc, version);
    }
}

void RegistrationStore::retryWrite() {
    if (!unsaved_) return;
    const auto [svc, version] = *unsaved_;
    write(svc, version);
    if (unsaved_) error_.clear(); // failing still: said once already
}

void RegistrationStore::drop(bool setAside) {
    unsaved_.reset(); // the service it named is gone
    if (setAside) {
        // Kept aside, not deleted: a damaged file is evidence, and nothing of it is lost.
        if (!setRegistrationAside(config_.ownPath).isEmpty()) return;
    }
    removeRegistration(config_.ownPath);
}

policy::ManagedFacts RegistrationStore::readManaged() {
    if (config_.managedPath.isEmpty()) return {};
    return judgeManagedRegistration(readManagedRegistration(config_.managedPath), launchedPid_);
}

void RegistrationStore::dropManaged(const std::string &id) {
    if (config_.managedPath.isEmpty()) return;
    // Re-read right before removing: a new service may have registered since.
    const ManagedRegistrationRead again = readManagedRegistration(config_.managedPath);
    if (again.status == ManagedRegistrationRead::Status::Ok &&
        again.registration.id.toStdString() == id)
        QFile::remove(config_.managedPath);
}

int RegistrationStore::launchPort(int configured) {
    if (config_.managedPath.isEmpty()) return configured;
    return expectedServicePort(config_.channel).value_or(0);
}

policy::ManagedFacts judgeManagedRegistration(const ManagedRegistrationRead &read,
                                              qint64 launchedPid) {
    using V = policy::ManagedFacts::Verdict;
    policy::ManagedFacts m;
    if (read.status == ManagedRegistrationRead::Status::Missing) return m;
    if (read.status == ManagedRegistrationRead::Status::Invalid) {
        m.verdict = V::Invalid;
        m.detail = read.error.toStdString();
        return m;
    }
    const ManagedRegistration &reg = read.registration;
    m.id = reg.id.toStdString();
    m.port = reg.port();
    m.password = reg.password.toStdString();
    m.version = reg.version.toStdString();
    m.process = {reg.pid, 0};
    m.launchedByUs = launchedPid > 0 && reg.pid == launchedPid;

    OwnerFacts f;
    f.registeredAtMs = reg.writtenAtMs;
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
        m.process = {l.info.pid, l.info.startTime};           // the OS start time, taken now
        m.pgid = l.info.pgid == l.info.pid ? l.info.pgid : 0; // its own group, or none of ours
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
        m.detail = QStringLiteral("PID %1").arg(pids.join(QStringLiteral(", "))).toStdString();
    }
    switch (judgeOwner(f)) {
    case OwnerVerdict::Adopt:
        m.verdict = V::Adopt;
        break;
    case OwnerVerdict::Wait:
        m.verdict = V::Wait;
        break;
    case OwnerVerdict::ProvablyGone:
        m.verdict = V::Gone;
        break;
    case OwnerVerdict::PortHeld:
        m.verdict = V::PortHeld;
        break;
    case OwnerVerdict::Unknown:
        m.verdict = V::Unknown;
        break;
    }
    return m;
}

} // namespace tether
