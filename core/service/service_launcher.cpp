#include "service/service_launcher.h"

#include "service/managed_registration.h"
#include "service/pty_handoff.h"
#include "settings/storage.h"

#include "service/service_job.h"
#include "settings/storage.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

namespace tether {

namespace {

QString randomPassword() {
    QByteArray bytes(24, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()),
                                          bytes.size() / 4);
    return QString::fromLatin1(
        bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

// Processes Tether leaves running on purpose (quit) or that had not been reaped yet when they
// were forgotten: QProcess would SIGKILL them on destruction, without any identity check. Kept
// reachable so the sanitizers do not call it a leak: the list itself is never destroyed, since
// a static vector is freed at exit before LeakSanitizer looks.
std::vector<QProcess *> &releasedProcesses() {
    static auto *released = new std::vector<QProcess *>;
    return *released;
}

} // namespace

ServiceLauncher::ServiceLauncher(Config config, std::function<void(const policy::Event &)> feed,
                                 QObject *parent)
    : QObject(parent)
    , config_(std::move(config))
    , feed_(std::move(feed)) {
}

ServiceLauncher::~ServiceLauncher() {
    if (process_) detach(process_);
}

std::string ServiceLauncher::program() {
    return config_.profile.program.toStdString();
}

void ServiceLauncher::detach(QProcess *p) {
    p->disconnect(this);
    if (p->state() == QProcess::NotRunning) {
        p->deleteLater();
        return;
    }
    p->setParent(nullptr);
    releasedProcesses().push_back(p);
}

void ServiceLauncher::release() {
    if (process_) detach(process_);
    process_ = nullptr;
}

void ServiceLauncher::forgetChild() {
    if (!process_) return;
    QProcess *p = process_;
    process_ = nullptr;
    p->disconnect(this);
    if (p->state() == QProcess::NotRunning)
        p->deleteLater();
    else // exited but not reaped yet: delete once Qt has reaped it, never kill it
        connect(p, &QProcess::finished, p, &QObject::deleteLater);
    p->setParent(nullptr); // our destruction must not destroy (and kill) it meanwhile
}

bool ServiceLauncher::childRunning(const os::Identity &id) {
    return process_ && process_->state() != QProcess::NotRunning && identity_ == id;
}

void ServiceLauncher::launch(int port) {
    if (process_) forgetChild();
    auto *p = new QProcess(this);
    p->setProgram(config_.profile.program);
    p->setArguments(config_.profile.argumentsFor(port));
    const QString password = randomPassword();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!config_.profile.passwordEnv.isEmpty())
        env.insert(config_.profile.passwordEnv, password); // never on the command line
    env.remove(QString::fromLatin1(kPtyHandoffEnv));       // only ever the one published for it
    if (!config_.managedRegistrationPath.isEmpty()) {
        QByteArray sidecar;
        const ManagedRegistrationRead current =
            readManagedRegistration(config_.managedRegistrationPath);
        if (storage::readSmallFile(ptyHandoffSidecarPath(config_.managedRegistrationPath),
                                   64 * 1024, &sidecar, nullptr) == storage::ReadStatus::Ok) {
            const auto handoff =
                ptyHandoffForLaunch(sidecar,
                                    current.status == ManagedRegistrationRead::Status::Ok
                                        ? std::optional<ManagedRegistration>(current.registration)
                                        : std::nullopt,
                                    QDateTime::currentMSecsSinceEpoch());
            if (handoff) {
                env.insert(QString::fromLatin1(kPtyHandoffEnv), QString::fromUtf8(*handoff));
                emit logLine(QStringLiteral("the new service takes over the persistent terminals "
                                            "of the one it replaces"));
            }
        }
    }
    p->setProcessEnvironment(env);
    p->setStandardInputFile(QProcess::nullDevice());
    // Output goes to a file, not a pipe: the service outlives Tether without SIGPIPE. Opened
    // here, private from its first byte, as storage opens every file of Tether's: a link or a
    // FIFO in its place is refused (QProcess would follow the one and block on the other).
    logOffset_ = 0;
    QFile log;
    QString logError;
    const bool logged = !config_.serviceLogPath.isEmpty() &&
                        storage::openLogForAppend(log, config_.serviceLogPath, &logError);
    if (!logError.isEmpty())
        emit logLine(QStringLiteral("service output discarded: %1").arg(logError));
    if (logged) logOffset_ = log.size();
#ifdef Q_OS_UNIX
    // The child gets the very file opened above as its stdout and stderr; and, contained, it
    // leads a new session and process group, so its whole tree can be signalled.
    const int logFd = logged ? log.handle() : -1;
    const bool contain = config_.containment;
    if (logged)
        p->setProcessChannelMode(QProcess::ForwardedChannels);
    else {
        p->setStandardOutputFile(QProcess::nullDevice());
        p->setStandardErrorFile(QProcess::nullDevice());
    }
    if (logged || contain)
        p->setChildProcessModifier([logFd, contain] {
            if (logFd >= 0) {
                ::dup2(logFd, STDOUT_FILENO);
                ::dup2(logFd, STDERR_FILENO);
            }
            if (contain) ::setsid();
        });
#else
    log.close(); // Windows opens it again by name: no FIFO there, and a link was refused
    p->setStandardOutputFile(logged ? config_.serviceLogPath : QProcess::nullDevice(),
                             QIODevice::Append);
    p->setStandardErrorFile(logged ? config_.serviceLogPath : QProcess::nullDevice(),
                            QIODevice::Append);
#endif
    // Windows: its own console and process group (a graceful stop is CTRL_BREAK); contained, it
    // starts suspended and runs once it is in its job (onStarted).
    setServiceCreationFlags(p, config_.containment);
    connect(p, &QProcess::started, this, [this, p] { onStarted(p); });
    connect(p, &QProcess::errorOccurred, this, [this, p](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart || p != process_) return;
        const QString why = p->errorString();
        process_ = nullptr;
        p->deleteLater();
        feed_(policy::LaunchFailed{why.toStdString()});
    });
    connect(p, &QProcess::finished, this, [this, p](int code, QProcess::ExitStatus st) {
        if (p != process_) return;
        const os::Identity id = identity_;
        const policy::ExitFacts exit{code, st == QProcess::CrashExit,
                                     QDateTime::currentMSecsSinceEpoch() - startedAtMs_};
        emit childExited(exit);
        const std::string meaning = exit.crashed ? std::string() : policy::exitCodeMeaning(code);
        feed_(policy::Exited{
            id,
            exit.crashed ? "pid " + std::to_string(id.pid) + " was killed or crashed"
                         : "pid " + std::to_string(id.pid) + " exited with code " +
                               std::to_string(code) + (meaning.empty() ? "" : " (" + meaning + ")"),
            0, exit});
    });
    process_ = p;
    identity_ = {};
    password_ = password;
    job_.reset();
    startedAtMs_ = QDateTime::currentMSecsSinceEpoch();
    p->start();
}

void ServiceLauncher::onStarted(QProcess *p) {
    if (p != process_) return;
    const qint64 pid = p->processId();
    const std::optional<os::Identity> id = os::identityOf(pid);
    identity_ = id ? *id : os::Identity{pid, 0};
    if (config_.containment) {
        QString why;
        job_ = containStartedService(identity_, &why);
        if (!why.isEmpty()) emit logLine(QStringLiteral("containment: %1").arg(why));
    }
    // setsid made it lead its own group.
    feed_(policy::Launched{identity_, config_.containment ? os::Pid(pid) : 0,
                           password_.toStdString()});
}

} // namespace tether
