#include "service/supervisor.h"

#include "service/health.h"
#include "service/registration.h"
#include "service/service_job.h"

#include <QElapsedTimer>
#include <algorithm>
#include <QFile>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QRandomGenerator>
#include <QThread>
#include <memory>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

namespace tether {

using policy::Ms;
using policy::State;

namespace {

QString randomPassword() {
    QByteArray bytes(24, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()),
                                          bytes.size() / 4);
    return QString::fromLatin1(
        bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

std::function<qint64()> steadyClock() {
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    return [timer] { return timer->elapsed(); };
}

QString describePid(qint64 pid) {
    const os::Lookup l = os::inspect(pid);
    if (l.status != os::Lookup::Status::Found) return QStringLiteral("PID %1").arg(pid);
    QString program = QString::fromStdString(l.info.executable);
    if (program.isEmpty() && !l.info.argv.empty())
        program = QString::fromStdString(l.info.argv.front());
    return QStringLiteral("PID %1 (%2)").arg(pid).arg(QFileInfo(program).fileName());
}

// Whether pid runs the registered program (argv[0] or the executable, by path or by name).
// A registration that does not say what it started cannot identify anything.
bool runsProgram(qint64 pid, const QString &program) {
    if (program.isEmpty()) return false;
    const os::Lookup l = os::inspect(pid);
    if (l.status != os::Lookup::Status::Found) return false;
    const QString name = QFileInfo(program).fileName();
    const QString argv0 =
        l.info.argv.empty() ? QString() : QString::fromStdString(l.info.argv.front());
    const QString exe = QString::fromStdString(l.info.executable);
    return argv0 == program || exe == program || QFileInfo(argv0).fileName() == name ||
           QFileInfo(exe).fileName() == name;
}

// Processes Tether deliberately leaves running when it quits: QProcess would kill them on
// destruction. Kept reachable so the sanitizers do not call it a leak: the list itself is
// never destroyed, since a static vector is freed at exit before LeakSanitizer looks.
std::vector<QProcess *> &releasedProcesses() {
    static auto *released = new std::vector<QProcess *>;
    return *released;
}

// Runs work() on a thread of its own (it may block for the grace period), then() back on
// the owner's thread. The owner waits for such threads before it is destroyed.
template <typename T>
void runBlocking(QObject *owner, std::function<T()> work, std::function<void(T)> then) {
    auto result = std::make_shared<T>();
    QThread *thread = QThread::create([work, result] { *result = work(); });
    thread->setParent(owner);
    QObject::connect(thread, &QThread::finished, owner, [thread, result, then] {
        thread->deleteLater();
        then(*result);
    });
    thread->start();
}

} // namespace

QString pidList(const std::vector<os::Pid> &pids) {
    QStringList out;
    for (os::Pid p : pids)
        out << QString::number(p);
    return out.join(QLatin1Char(' '));
}

Supervisor::Supervisor(Config config, QObject *parent)
    : QObject(parent)
    , config_(std::move(config)) {
    if (!config_.clock) config_.clock = steadyClock();
    nam_ = newLoopbackManager(this);
    status_.profile = config_.profile.id;
    status_.port = quint16(config_.profile.port);
    status_.url = baseUrl().toString();
    status_.installedVersion = config_.profile.installedVersion;
    for (QTimer *t : {&probeTimer_, &windowTimer_, &restartTimer_})
        t->setSingleShot(true);
    probeTimer_.setTimerType(Qt::PreciseTimer);
    windowTimer_.setTimerType(Qt::PreciseTimer);
    connect(&probeTimer_, &QTimer::timeout, this, [this] {
        checkTimeGap(probeDueAt_, QStringLiteral("probe timer"));
        sendProbe();
    });
    connect(&windowTimer_, &QTimer::timeout, this, [this] {
        checkTimeGap(windowDueAt_, QStringLiteral("recovery timer"));
        checkWindow();
    });
    connect(&restartTimer_, &QTimer::timeout, this, [this] {
        if (want_ == Want::Running && !svc_ && !shuttingDown_) adoptOrLaunch();
    });
    connect(&aliveTimer_, &QTimer::timeout, this, [this] {
        if (svc_ && !svc_->ourChild && !terminating_ && os::alive(svc_->id) == os::Liveness::Gone)
            onServiceGone(QStringLiteral("pid %1 exited").arg(svc_->id.pid));
    });
}

Supervisor::~Supervisor() {
    shuttingDown_ = true;
    // Blocking workers (terminate) hold no pointer to us once joined.
    for (QThread *t : findChildren<QThread *>())
        t->wait();
    if (svc_ && svc_->process) leaveRunning();
}

QUrl Supervisor::baseUrl() const {
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(status_.port ? status_.port : config_.profile.port);
    url.setPath(QStringLiteral("/"));
    return url;
}

QByteArray Supervisor::authorization() const {
    if (!svc_ || config_.profile.authUser.isEmpty() || svc_->password.isEmpty()) return {};
    return basicAuth(config_.profile.authUser, svc_->password);
}

std::optional<os::Identity> Supervisor::serviceIdentity() const {
    if (!svc_) return std::nullopt;
    return svc_->id;
}

void Supervisor::log(const QString &line) {
    emit logLine(line);
}

void Supervisor::setState(State s, const QString &reason) {
    const State from = status_.state;
    if (from == s && reason.isEmpty()) return;
    status_.state = s;
    if (from != s) {
        log(QStringLiteral("state %1 -> %2%3")
                .arg(QLatin1String(policy::toString(from)), QLatin1String(policy::toString(s)),
                     reason.isEmpty() ? QString() : QStringLiteral(": ") + reason));
        emit stateChanged(from, s, reason);
    }
    emit statusChanged();
}

void Supervisor::fail(const QString &message, const QString &noticeKind) {
    probeTimer_.stop();
    windowTimer_.stop();
    restartTimer_.stop();
    status_.lastError = message;
    setState(State::Failed, message);
    if (!noticeKind.isEmpty()) emit notice(noticeKind, message);
}

void Supervisor::setMcp(const QList<McpChildStatus> &rows) {
    if (!svc_) return; // a late answer about a service that is gone
    status_.mcp = rows;
    emit statusChanged();
}

void Supervisor::setOrphans(const QList<OrphanStatus> &orphans) {
    status_.orphans = orphans;
    emit statusChanged();
}

// ---- Starting and adopting ---------------------------------------------------------------

void Supervisor::start() {
    if (shuttingDown_) return;
    want_ = Want::Running;
    if (svc_ || terminating_) return;
    if (status_.state == State::Failed || status_.state == State::Stopped)
        budget_ = {}; // an explicit start gets a fresh budget
    if (!config_.profileError.isEmpty()) {
        fail(config_.profileError);
        return;
    }
    restartTimer_.stop();
    adoptOrLaunch();
}

void Supervisor::adoptOrLaunch() {
    if (want_ != Want::Running || shuttingDown_) { // a stop arrived while a kill was under way
        if (!shuttingDown_ && !svc_) setState(State::Stopped, QStringLiteral("stopped"));
        return;
    }
    if (config_.profile.selfRegistering) {
        adoptOrLaunchManaged();
        return;
    }
    const RegistrationRead read = readRegistration(config_.registrationPath);
    if (read.status == RegistrationRead::Status::Invalid) {
        status_.lastError = read.error;
        // Kept aside, not deleted: a damaged file is evidence, and nothing of it is lost.
        const QString aside = setRegistrationAside(config_.registrationPath);
        if (aside.isEmpty()) removeRegistration(config_.registrationPath);
        log(QStringLiteral("registration dropped as stale: %1 (kept as %2)")
                .arg(read.error,
                     aside.isEmpty() ? QStringLiteral("nothing: could not move it") : aside));
    } else if (read.status == RegistrationRead::Status::Ok) {
        const Registration &reg = read.registration;
        const os::Identity id{reg.pid, reg.startTime};
        os::Liveness liveness = os::alive(id);
        if (liveness == os::Liveness::Alive && !runsProgram(reg.pid, reg.program))
            liveness = os::Liveness::Gone; // a live pid running something else: not the service
        switch (liveness) {
        case os::Liveness::Alive:
            if (reg.port == config_.profile.port) {
                adopt(id, reg.pgid, reg.password, reg.port, false, reg.startedAt);
                return;
            }
            log(QStringLiteral("registered service pid %1 listens on port %2, not %3: leaving it "
                               "alone")
                    .arg(reg.pid)
                    .arg(reg.port)
                    .arg(config_.profile.port));
            break;
        case os::Liveness::Gone:
            log(QStringLiteral("registration names pid %1, which is gone or now another process: "
                               "not signalled, registration dropped")
                    .arg(reg.pid));
            emit notice(QStringLiteral("stale"),
                        QStringLiteral("Dropped a stale registration (pid %1).").arg(reg.pid));
            removeRegistration(config_.registrationPath);
            break;
        case os::Liveness::Unknown:
            // Never guess "gone": a second service would fight the first for the port.
            status_.lastError = QStringLiteral("cannot verify the registered service pid %1; "
                                               "retrying")
                                    .arg(reg.pid);
            setState(State::Restarting, status_.lastError);
            restartTimer_.start(int(config_.settings.timings.probeIntervalMs));
            return;
        }
    }
    launch();
}

void Supervisor::adopt(const os::Identity &id, qint64 pgid, const QString &password, int port,
                       bool external, const QDateTime &startedAt) {
    ++generation_;
    svc_ = Tracked{id, pgid, password, false, nullptr, reopenServiceJob(id)};
    status_.pid = id.pid;
    status_.port = quint16(port);
    status_.url = baseUrl().toString();
    status_.external = external;
    status_.startedAt = startedAt.isValid() ? startedAt : QDateTime::currentDateTime();
    window_ = policy::windowOpenedAt(now());
    startupDeadline_ = 0;
    startupAttempt_ = 0;
    setState(State::Starting, QStringLiteral("adopted running service pid %1").arg(id.pid));
    aliveTimer_.start(int(std::max<Ms>(50, config_.settings.timings.probeIntervalMs / 5)));
    emit serviceStarted(id);
    scheduleProbe(0);
}

void Supervisor::launch() {
    if (want_ != Want::Running || shuttingDown_) return;
    QString owner;
    const policy::PortCheck port = checkPort(0, &owner);
    if (policy::decideStart(port) == policy::StartVerdict::PortHeld) {
        fail(QStringLiteral("port %1 is held by %2; stop that program or change [service] port")
                 .arg(config_.profile.port)
                 .arg(owner),
             QStringLiteral("port-held"));
        return;
    }

    auto *p = new QProcess(this);
    p->setProgram(config_.profile.program);
    p->setArguments(config_.profile.arguments);
    const QString password = randomPassword();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!config_.profile.passwordEnv.isEmpty())
        env.insert(config_.profile.passwordEnv, password); // never on the command line
    p->setProcessEnvironment(env);
    p->setProperty("tether.password", password);
    p->setStandardInputFile(QProcess::nullDevice());
    // Output goes to a file, not a pipe: the service outlives Tether without SIGPIPE.
    if (!config_.serviceLogPath.isEmpty()) {
        QFile log(config_.serviceLogPath); // private from its first byte
        if (log.open(QIODevice::Append)) log.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        p->setStandardOutputFile(config_.serviceLogPath, QIODevice::Append);
        p->setStandardErrorFile(config_.serviceLogPath, QIODevice::Append);
    } else {
        p->setStandardOutputFile(QProcess::nullDevice());
        p->setStandardErrorFile(QProcess::nullDevice());
    }
#ifdef Q_OS_UNIX
    // The service leads a new session and process group: its whole tree can be signalled.
    if (config_.settings.containment) p->setChildProcessModifier([] { ::setsid(); });
#endif
    // Windows: it starts suspended and runs once it is in its job (onLaunched).
    if (config_.settings.containment) requestSuspendedStart(p);
    connect(p, &QProcess::started, this, [this, p] { onLaunched(p); });
    connect(p, &QProcess::errorOccurred, this, [this, p](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) onLaunchFailed(p, p->errorString());
    });
    connect(p, &QProcess::finished, this, [this, p](int code, QProcess::ExitStatus st) {
        onProcessFinished(p, code, st == QProcess::CrashExit);
    });
    ++generation_;
    svc_ = Tracked{{}, 0, password, true, p, nullptr};
    status_.external = false;
    status_.port = quint16(config_.profile.port);
    status_.url = baseUrl().toString();
    setState(State::Starting,
             QStringLiteral("launching %1").arg(QFileInfo(p->program()).fileName()));
    p->start();
}

void Supervisor::onLaunched(QProcess *p) {
    if (!svc_ || svc_->process != p) return;
    const qint64 pid = p->processId();
    const std::optional<os::Identity> id = os::identityOf(pid);
    svc_->id = id ? *id : os::Identity{pid, 0};
    svc_->pgid = config_.settings.containment ? pid : 0; // setsid made it lead its own group
    if (config_.settings.containment) {
        QString why;
        svc_->job = containStartedService(svc_->id, &why);
        if (!why.isEmpty()) log(QStringLiteral("containment: %1").arg(why));
    }
    status_.pid = pid;
    status_.startedAt = QDateTime::currentDateTime();
    status_.version.clear();
    versionNoticed_ = false;
    writeOwnRegistration();
    window_ = policy::windowOpenedAt(now());
    startupAttempt_ = 0;
    startupDeadline_ = now() + config_.settings.timings.startupDeadlineMs;
    log(QStringLiteral("started pid %1 on port %2").arg(pid).arg(config_.profile.port));
    emit serviceStarted(svc_->id);
    emit statusChanged();
    scheduleProbe(policy::startupProbeDelay(0));
}

void Supervisor::onLaunchFailed(QProcess *p, const QString &why) {
    if (!svc_ || svc_->process != p) return;
    svc_.reset();
    p->deleteLater();
    status_.pid = 0;
    const QString message = QStringLiteral("cannot start %1: %2 (setting [service] program)")
                                .arg(config_.profile.program, why);
    status_.lastError = message;
    budget_ = policy::recordFailure(budget_, now(), config_.settings.timings);
    scheduleRestart(message);
}

void Supervisor::writeOwnRegistration() {
    if (!svc_) return;
    Registration r;
    r.pid = svc_->id.pid;
    r.startTime = svc_->id.startTime;
    r.port = config_.profile.port;
    r.pgid = svc_->pgid;
    r.version = status_.version;
    r.password = svc_->password;
    r.startedAt = status_.startedAt;
    r.profile = config_.profile.id;
    r.program = config_.profile.program;
    QString error;
    if (!writeRegistration(config_.registrationPath, r, &error))
        log(QStringLiteral("cannot write the registration: %1").arg(error));
}

// ---- Probing -------------------------------------------------------------------------------

void Supervisor::scheduleProbe(Ms delayMs) {
    // Never longer than one interval, whatever a clock that jumped makes of the arithmetic.
    delayMs = std::clamp<Ms>(delayMs, 0, config_.settings.timings.probeIntervalMs);
    probeDueAt_ = now() + delayMs;
    probeTimer_.start(int(delayMs));
}

void Supervisor::checkTimeGap(Ms dueAt, const QString &what) {
    const Ms t = now();
    if (policy::isTimeGap(dueAt, t, config_.settings.timings))
        noteTimeGap(QStringLiteral("%1 fired %2 ms late").arg(what).arg(t - dueAt));
}

void Supervisor::noteTimeGap(const QString &why) {
    window_ = policy::onTimeGap(window_, now());
    if (startupDeadline_ != 0)
        startupDeadline_ = now() + config_.settings.timings.startupDeadlineMs;
    log(QStringLiteral("time gap (%1): the recovery window restarts now").arg(why));
    if (svc_ && !terminating_ &&
        (status_.state == State::NotResponding || status_.state == State::Healthy ||
         status_.state == State::Starting)) {
        windowTimer_.stop();
        scheduleProbe(0); // fresh evidence, right away
    }
}

void Supervisor::sendProbe() {
    if (!svc_ || terminating_) return;
    if (!svc_->ourChild && os::alive(svc_->id) == os::Liveness::Gone) {
        onServiceGone(QStringLiteral("pid %1 exited").arg(svc_->id.pid));
        return;
    }
    const Ms sentAt = now();
    HttpCall call;
    call.url = baseUrl().resolved(QUrl(config_.profile.healthPath.mid(1)));
    call.authorization = authorization();
    call.timeoutMs = int(config_.settings.timings.probeTimeoutMs);
    const quint64 generation = generation_;
    sendHttp(nam_, call, this, [this, generation, sentAt](const HttpResult &r) {
        onProbeResult(generation, sentAt, r);
    });
}

void Supervisor::onProbeResult(quint64 generation, Ms sentAt, const HttpResult &r) {
    if (generation != generation_ || !svc_ || terminating_) return;
    const Ms t = now();
    const auto &timings = config_.settings.timings;
    if (t < sentAt) { // the clock went backwards under the probe: nothing it says is measured
        noteTimeGap(QStringLiteral("clock went back %1 ms").arg(sentAt - t));
        return;
    }
    // A probe settled far later than its deadline measured Tether's stall, not the service:
    // after a stall the reply and the timeout are both pending and either may be seen first.
    // A timeout then says nothing; a reply still says the service answered.
    const Ms deadline = sentAt + timings.probeTimeoutMs;
    if (t > deadline && policy::isTimeGap(deadline, t, timings)) {
        noteTimeGap(QStringLiteral("probe deadline passed %1 ms late")
                        .arg(t - sentAt - timings.probeTimeoutMs));
        if (!r.transportOk) return;
    }
    const HealthVerdict v = r.transportOk ? judgeHealth(config_.profile.id, r.status, r.body)
                                          : HealthVerdict{false, {}, 0, r.error};
    ProbeSample sample{QDateTime::currentDateTime(), v.healthy ? r.latencyMs : -1, v.healthy,
                       status_.state};
    if (!v.healthy) {
        emit probed(sample);
        onProbeMissed(sentAt, v.error);
        return;
    }

    status_.lastProbeMs = r.latencyMs;
    window_ = policy::onProbeAnswered(window_, t);
    windowTimer_.stop();
    startupDeadline_ = 0;
    const State before = status_.state;
    if (before != State::Healthy) {
        healthySince_ = t;
        status_.lastError.clear();
        QString reason = QStringLiteral("answered in %1 ms").arg(r.latencyMs);
        if (before == State::NotResponding) {
            emit notice(QStringLiteral("recovered"),
                        QStringLiteral("The service answers again after %1.")
                            .arg(QStringLiteral("a pause")));
        } else if (restartPending_) {
            restartPending_ = false;
            emit notice(QStringLiteral("restarted"),
                        QStringLiteral("The service was restarted and is healthy (pid %1).")
                            .arg(svc_->id.pid));
        }
        setState(State::Healthy, reason);
    }
    budget_ = policy::onHealthy(budget_, healthySince_, t, timings);
    checkVersion(v.version);
    sample.state = status_.state;
    emit probed(sample);
    emit statusChanged();
    scheduleProbe(timings.probeIntervalMs - (t - sentAt));
}

void Supervisor::onProbeMissed(Ms sentAt, const QString &why) {
    const Ms t = now();
    const auto &timings = config_.settings.timings;
    status_.lastError = why;
    if (status_.state == State::Starting && startupDeadline_ != 0) {
        if (t >= startupDeadline_) {
            const QString reason = QStringLiteral("not healthy within %1 ms of its start: %2")
                                       .arg(timings.startupDeadlineMs)
                                       .arg(why);
            verifyAndTerminate(reason, [this, reason] {
                budget_ = policy::recordFailure(budget_, now(), config_.settings.timings);
                scheduleRestart(reason);
            });
            return;
        }
        const Ms next = policy::startupProbeDelay(++startupAttempt_);
        scheduleProbe(std::min(next, startupDeadline_ - t));
        emit statusChanged();
        return;
    }
    window_ = policy::onProbeMissed(window_, sentAt);
    if (status_.state != State::NotResponding)
        setState(State::NotResponding, why);
    else
        emit statusChanged();
    const policy::WindowDecision d = policy::decideWindow(window_, t, timings);
    if (d.recover) {
        checkWindow();
        return;
    }
    scheduleWindowCheck(d.remainingMs);
    scheduleProbe(std::min(timings.probeIntervalMs - (t - sentAt), d.remainingMs));
}

void Supervisor::scheduleWindowCheck(Ms delayMs) {
    windowDueAt_ = now() + delayMs;
    windowTimer_.start(int(std::max<Ms>(0, delayMs)));
}

void Supervisor::checkWindow() {
    if (!svc_ || terminating_ || status_.state != State::NotResponding) return;
    if (now() < window_.anchor) // the clock went backwards: the window restarts, never stretches
        noteTimeGap(QStringLiteral("clock went back %1 ms").arg(window_.anchor - now()));
    const policy::WindowDecision d = policy::decideWindow(window_, now(), config_.settings.timings);
    if (!d.recover) {
        scheduleWindowCheck(d.remainingMs);
        return;
    }
    probeTimer_.stop();
    const QString reason =
        QStringLiteral("no answer for %1 ms (recovery window spent)").arg(now() - window_.anchor);
    setState(State::Recovering, reason);
    verifyAndTerminate(reason, [this] {
        restartPending_ = true;
        ++status_.restarts;
        adoptOrLaunch();
    });
}

// ---- Verify, terminate, replace -------------------------------------------------------------

policy::PortCheck Supervisor::checkPort(qint64 servicePid, QString *ownerDescription) const {
    // A managed service listens where its registration says.
    const quint16 servicePort = config_.profile.selfRegistering && status_.port
                                    ? status_.port
                                    : quint16(config_.profile.port);
    const os::PortOwners owners = os::listeningPortOwners(servicePort);
    if (!owners.ok) return policy::PortCheck::Unknown;
    if (!owners.listening) return policy::PortCheck::Free;
    for (os::Pid pid : owners.pids)
        if (servicePid > 0 && pid == servicePid) return policy::PortCheck::OwnedByService;
    if (ownerDescription) {
        QStringList names;
        for (os::Pid pid : owners.pids)
            names << describePid(pid);
        *ownerDescription = names.isEmpty() ? QStringLiteral("another program (owner not visible)")
                                            : names.join(QStringLiteral(", "));
    }
    return owners.pids.empty() ? policy::PortCheck::Unknown : policy::PortCheck::OwnedByOther;
}

void Supervisor::verifyAndTerminate(const QString &reason, std::function<void()> then) {
    if (!svc_ || terminating_) return;
    const Tracked svc = *svc_;
    const bool childRunning =
        svc.ourChild && svc.process && svc.process->state() != QProcess::NotRunning;
    policy::IdentityCheck identity = policy::IdentityCheck::Unknown;
    switch (os::alive(svc.id)) {
    case os::Liveness::Alive:
        identity = policy::IdentityCheck::Match;
        break;
    case os::Liveness::Gone:
        identity = os::inspect(svc.id.pid).status == os::Lookup::Status::NotFound
                       ? policy::IdentityCheck::Gone
                       : policy::IdentityCheck::Different;
        break;
    case os::Liveness::Unknown:
        identity = policy::IdentityCheck::Unknown;
        break;
    }
    QString owner;
    const policy::PortCheck port = checkPort(svc.id.pid, &owner);
    const policy::KillVerdict verdict = policy::decideKill(identity, port, childRunning);

    switch (verdict) {
    case policy::KillVerdict::Refuse:
        status_.lastError =
            QStringLiteral("cannot verify that pid %1 is the service; not signalling it")
                .arg(svc.id.pid);
        log(status_.lastError);
        setState(State::NotResponding, status_.lastError);
        scheduleWindowCheck(config_.settings.timings.probeIntervalMs);
        scheduleProbe(config_.settings.timings.probeIntervalMs);
        return;
    case policy::KillVerdict::DropStale:
        log(QStringLiteral(
                "pid %1 is no longer the service (%2): not signalled, registration dropped")
                .arg(svc.id.pid)
                .arg(identity == policy::IdentityCheck::Gone ? QStringLiteral("gone")
                                                             : QStringLiteral("exited or reused")));
        forgetService();
        removeRegistration(config_.registrationPath);
        then();
        return;
    case policy::KillVerdict::Proceed:
        break;
    }

    log(QStringLiteral("terminating pid %1: %2").arg(svc.id.pid).arg(reason));
    terminating_ = true;
    ++inFlight_;
    const Ms grace = config_.settings.timings.graceMs;
    struct Stopped {
        os::TerminateResult result;
        std::vector<os::Pid> groupKilled; // what was left of its group, killed after it
        std::vector<os::Pid> jobEnded;    // the same on Windows: what was left in its job
    };
    runBlocking<Stopped>(
        this,
        [svc, grace] {
            Stopped s{os::terminate(svc.id, std::chrono::milliseconds(grace)), {}, {}};
            // Then what is left of its group (it led its own session, so the group is its tree).
            if (svc.pgid > 1 && os::maySignalGroup(svc.pgid)) {
                s.groupKilled = os::liveGroupMembers(svc.pgid);
                if (!s.groupKilled.empty()) os::signalGroup(svc.pgid, os::Signal::Kill);
            }
            s.jobEnded = endServiceJob(svc.job);
            return s;
        },
        [this, svc, then](Stopped s) {
            const os::TerminateResult &r = s.result;
            terminating_ = false;
            log(QStringLiteral("pid %1: %2%3")
                    .arg(svc.id.pid)
                    .arg(QLatin1String(os::toString(r.outcome)))
                    .arg(r.detail.empty()
                             ? QString()
                             : QStringLiteral(" (%1)").arg(QString::fromStdString(r.detail))));
            if (!s.groupKilled.empty())
                log(QStringLiteral("  group %1 killed: %2")
                        .arg(svc.pgid)
                        .arg(pidList(s.groupKilled)));
            if (!s.jobEnded.empty())
                log(QStringLiteral("  job ended: %1").arg(pidList(s.jobEnded)));
            if (r.outcome == os::TerminateOutcome::Refused ||
                r.outcome == os::TerminateOutcome::Unknown) {
                status_.lastError = QStringLiteral("could not stop pid %1: %2")
                                        .arg(svc.id.pid)
                                        .arg(QString::fromStdString(r.detail));
            }
            forgetService();
            removeRegistration(config_.registrationPath);
            // What the stopped service leaves behind (children that left its group) goes too.
            if (!shuttingDown_) cleanUpAfter(svc.id, 0, then);
            settle();
        });
}

void Supervisor::cleanUpAfter(const os::Identity &service, qint64 pgid,
                              std::function<void()> then) {
    if (!crashCleanup_) {
        then();
        return;
    }
    ++inFlight_;
    crashCleanup_(service, pgid, [this, then] {
        then();
        settle();
    });
}

void Supervisor::settle() {
    if (--inFlight_ == 0) emit settled();
}

void Supervisor::forgetService() {
    ++generation_;
    probeTimer_.stop();
    windowTimer_.stop();
    aliveTimer_.stop();
    if (svc_ && svc_->process) {
        QProcess *p = svc_->process;
        p->disconnect(this);
        if (p->state() == QProcess::NotRunning)
            p->deleteLater();
        else // exited but not yet reaped by Qt: delete once it has
            connect(p, &QProcess::finished, p, &QObject::deleteLater);
    }
    svc_.reset();
    status_.pid = 0;
    status_.lastProbeMs = -1;
    status_.version.clear();
    status_.versionMismatch = false;
    status_.startedAt = QDateTime();
    status_.mcp.clear();
    emit statusChanged();
}

void Supervisor::onProcessFinished(QProcess *p, int exitCode, bool crashed) {
    if (!svc_ || svc_->process != p || terminating_) return;
    onServiceGone(
        crashed ? QStringLiteral("pid %1 was killed or crashed").arg(svc_->id.pid)
                : QStringLiteral("pid %1 exited with code %2").arg(svc_->id.pid).arg(exitCode));
}

void Supervisor::onServiceGone(const QString &reason) {
    if (!svc_) return;
    if (config_.profile.selfRegistering && followManagedRegistration())
        return; // another client's service took over; the old one left by itself
    const os::Identity id = svc_->id;
    const qint64 pgid = svc_->pgid;
    // Windows: the job ends the rest of its tree at once (POSIX: cleanUpAfter kills the group).
    if (const std::vector<os::Pid> ended = endServiceJob(svc_->job); !ended.empty())
        log(QStringLiteral("  job ended: %1").arg(pidList(ended)));
    status_.lastError = reason;
    forgetService();
    removeRegistration(config_.registrationPath);
    if (want_ != Want::Running || shuttingDown_) {
        setState(State::Stopped, reason);
        return;
    }
    emit notice(QStringLiteral("crashed"),
                QStringLiteral("The service stopped unexpectedly: %1").arg(reason));
    budget_ = policy::recordFailure(budget_, now(), config_.settings.timings);
    setState(State::Restarting, reason);
    cleanUpAfter(id, pgid, [this, reason] {
        if (!svc_) scheduleRestart(reason); // or Stopped, when starts are held meanwhile
    });
}

void Supervisor::scheduleRestart(const QString &reason) {
    if (want_ != Want::Running || shuttingDown_) {
        if (!shuttingDown_ && !svc_) setState(State::Stopped, QStringLiteral("stopped"));
        return;
    }
    const policy::RestartDecision d =
        policy::decideRestart(budget_, now(), config_.settings.timings);
    if (d.giveUp) {
        fail(QStringLiteral("gave up after %1 failed starts within %2 s; last: %3")
                 .arg(budget_.failures.size())
                 .arg(config_.settings.timings.burstWindowMs / 1000)
                 .arg(reason),
             QStringLiteral("gave-up"));
        return;
    }
    restartPending_ = true;
    ++status_.restarts;
    setState(State::Restarting,
             QStringLiteral("restarting in %1 ms (%2)").arg(d.delayMs).arg(reason));
    restartTimer_.start(int(d.delayMs));
}

void Supervisor::checkVersion(const QString &reported) {
    if (reported.isEmpty() || reported == status_.version) return;
    status_.version = reported;
    if (svc_ && !config_.profile.selfRegistering && !status_.external) writeOwnRegistration();
    switch (policy::decideVersion(reported.toStdString(),
                                  config_.profile.installedVersion.toStdString(),
                                  config_.settings.autoReplaceOnVersionChange)) {
    case policy::VersionAction::None:
        status_.versionMismatch = false;
        break;
    case policy::VersionAction::ShowMismatch:
        status_.versionMismatch = true;
        if (!versionNoticed_) {
            versionNoticed_ = true;
            emit notice(
                QStringLiteral("version-mismatch"),
                QStringLiteral(
                    "The service runs version %1; version %2 is installed. Restart to update.")
                    .arg(reported, config_.profile.installedVersion));
        }
        break;
    case policy::VersionAction::Replace:
        status_.versionMismatch = true;
        log(QStringLiteral("version %1 differs from the installed %2: replacing (opted in)")
                .arg(reported, config_.profile.installedVersion));
        QTimer::singleShot(0, this, &Supervisor::restart);
        break;
    }
}

// ---- Explicit control -----------------------------------------------------------------------

void Supervisor::stop() {
    want_ = Want::Stopped;
    restartTimer_.stop();
    if (!svc_) {
        if (!terminating_) setState(State::Stopped, QStringLiteral("stopped"));
        return;
    }
    verifyAndTerminate(QStringLiteral("stop requested"),
                       [this] { setState(State::Stopped, QStringLiteral("stopped on request")); });
}

void Supervisor::restart() {
    want_ = Want::Running;
    restartTimer_.stop();
    budget_ = {};
    if (!svc_) {
        start();
        return;
    }
    verifyAndTerminate(QStringLiteral("restart requested"), [this] {
        restartPending_ = true;
        ++status_.restarts;
        adoptOrLaunch();
    });
}

void Supervisor::holdStarts() {
    want_ = Want::Stopped;
    restartTimer_.stop();
}

void Supervisor::leaveRunning() {
    want_ = Want::Stopped;
    shuttingDown_ = true;
    probeTimer_.stop();
    windowTimer_.stop();
    restartTimer_.stop();
    aliveTimer_.stop();
    if (svc_ && svc_->process) {
        QProcess *p = svc_->process;
        p->disconnect(this);
        p->setParent(nullptr);
        releasedProcesses().push_back(p); // never destroyed: destroying would kill the service
    }
    svc_.reset();
}

} // namespace tether
