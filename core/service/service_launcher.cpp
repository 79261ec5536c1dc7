#include "service/service_launcher.h"

#include "service/service_job.h"

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
    // The profile's arguments name its port; a Supervisor is made anew when the port changes.
    (void)port;
    p->setArguments(config_.profile.arguments);
    const QString password = randomPassword();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!config_.profile.passwordEnv.isEmpty())
        env.insert(config_.profile.passwordEnv, password); // never on the command line
    p->setProcessEnvironment(env);
    p->setStandardInputFile(QProcess::nullDevice());
    // Output goes to a file, not a pipe: the service outlives Tether without SIGPIPE.
    logOffset_ = 0;
    if (!config_.serviceLogPath.isEmpty()) {
        QFile log(config_.serviceLogPath); // private from its first byte
        if (log.open(QIODevice::Append)) {
            log.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
            logOffset_ = log.size();
        }
        p->setStandardOutputFile(config_.serviceLogPath, QIODevice::Append);
        p->setStandardErrorFile(config_.serviceLogPath, QIODevice::Append);
    } else {
        p->setStandardOutputFile(QProcess::nullDevice());
        p->setStandardErrorFile(QProcess::nullDevice());
    }
#ifdef Q_OS_UNIX
    // The service leads a new session and process group: its whole tree can be signalled.
    if (config_.containment) p->setChildProcessModifier([] { ::setsid(); });
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
