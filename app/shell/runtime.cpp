#include "shell/runtime.h"

#include "service/log_rotation.h"
#include "service/login_path.h"
#include "shell/diagnostics.h"
#include "service/registration.h"
#include "settings/autostart.h"
#include "settings/autostart_entries.h"
#include "settings/storage.h"
#include "ui/format.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QJsonObject>
#include <cstdio>

namespace tether {

Runtime::Runtime(Options options, QObject *parent)
    : QObject(parent)
    , options_(std::move(options)) {
}

Runtime::~Runtime() {
    storage::setWriteObserver({});
}

QString Runtime::settingsPath() const {
    return options_.settingsPath.isEmpty() ? defaultSettingsPath() : options_.settingsPath;
}

void Runtime::writeLog(const QString &line) {
    const QString stamped =
        QDateTime::currentDateTime().toString(Qt::ISODateWithMs) + QLatin1Char(' ') + line;
    if (logFile_.isOpen()) {
        logFile_.write(stamped.toUtf8() + '\n');
        logFile_.flush();
    }
    events_.append(stamped);
    if (events_.size() > 1000) events_.removeFirst();
    emit eventLogged(stamped);
    if (options_.echoLog) {
        std::fprintf(stdout, "%s\n", qPrintable(stamped));
        std::fflush(stdout);
    }
}

Runtime::Init Runtime::init(QString *error) {
    // Its directories first: the single-instance lock and the control socket live there.
    if (!storage::preparePrivateDirs(error)) return Init::Error;
    verbs_ = std::make_unique<ControlVerbs>(*this);
    control_ = new control::ControlServer(
        [this](const control::Request &r, control::ControlServer::Reply reply) {
            verbs_->handle(r, std::move(reply));
        },
        this);
    switch (control_->listen(error)) {
    case control::ControlServer::Listen::AnotherInstance:
        return Init::AnotherInstance;
    case control::ControlServer::Listen::Error:
        return Init::Error;
    case control::ControlServer::Listen::Ok:
        break;
    }
    connect(control_, &control::ControlServer::clientDropped, this, &Runtime::writeLog);

    // Every state write's outcome, from whichever thread wrote: a failure is logged, shown in
    // the status and the tray, and cleared by the next write of that file that lands.
    storage::setWriteObserver([this](const storage::WriteOutcome &o) {
        QMetaObject::invokeMethod(
            this, [this, o] { onStateWrite(o.path, o.error); }, Qt::QueuedConnection);
    });

    const QString logPath = storage::logsDir() + QStringLiteral("/tether.log");
    rotateIfNeeded(logPath);
    // From here on off the main thread: the service may write faster than a copy is made.
    rotator_ = new LogRotator({storage::logsDir() + QStringLiteral("/service.log"), logPath}, {},
                              250, this);
    connect(rotator_, &LogRotator::rotated, this, [this](const QString &path, qint64 dropped) {
        writeLog(QStringLiteral("log rotation: %1 grew faster than it was rotated; %2 older "
                                "bytes dropped")
                     .arg(path)
                     .arg(dropped));
    });
    connect(rotator_, &LogRotator::refused, this, [this](const QString &path, const QString &why) {
        if (rotationRefused_.contains(path)) return; // said once
        rotationRefused_.insert(path);
        writeLog(QStringLiteral("log rotation: ") + why);
    });
    QString logError; // a link or a FIFO in its place: refused, said once the log is up
    storage::openLogForAppend(logFile_, logPath, &logError);
    if (!logError.isEmpty()) writeLog(QStringLiteral("own log not written: ") + logError);

    settings_ = loadSettings(options_.settingsPath);
    for (const QString &w : settings_.warnings)
        writeLog(QStringLiteral("settings: ") + w);

    // Once, before opencode is looked for: Finder and launchd give a bare PATH (macOS).
    servicePath_ = resolveServicePath(loginShellPathEnabled(), LoginShellQuery{loginShell()});
    applyServicePath(servicePath_);
    writeLog(QStringLiteral("service PATH (%1): %2%3")
                 .arg(servicePath_.source, servicePath_.value,
                      servicePath_.note.isEmpty() ? QString()
                                                  : QStringLiteral("; ") + servicePath_.note));

    // A start-at-login entry would not survive the next login from here (macOS): say so early.
    const QString moveAdvice = autostart::moveToApplicationsAdvice(
        autostart::classifyLaunchLocation(QCoreApplication::applicationFilePath()));
    if (!moveAdvice.isEmpty()) writeLog(moveAdvice);

    wake_ = new WakeWatcher(this);
    writeLog(
        wake_->activeSources().isEmpty()
            ? QStringLiteral("wake notifications: none here (late timers still reveal a sleep)")
            : QStringLiteral("wake notifications: %1")
                  .arg(wake_->activeSources().join(QStringLiteral(", "))));
    makeSupervisor(settings_.settings);
    // After the tray is up: the scan reads every process, and the icon should not wait for it.
    QTimer::singleShot(0, mcp_.get(), &mcp::McpMonitor::scanOnLaunch);
    connect(&rotationTimer_, &QTimer::timeout, rotator_, &LogRotator::check);
    connect(&rotationTimer_, &QTimer::timeout, this, &Runtime::keepControlSocket);
    rotationTimer_.start(60000); // a backstop: probes rotate too (makeSupervisor)
    return Init::Ok;
}

void Runtime::keepControlSocket() {
    const QString done = control_->keepListening();
    if (!done.isEmpty()) writeLog(done);
}

void Runtime::onStateWrite(const QString &path, const QString &error) {
    if (error.isEmpty()) {
        if (stateFileErrors_.remove(path) == 0) return;
        writeLog(QStringLiteral("saved again: %1").arg(path));
    } else {
        const bool known = stateFileErrors_.contains(path);
        if (stateFileErrors_.value(path) == error) return;
        stateFileErrors_.insert(path, error);
        writeLog(QStringLiteral("state not saved: %1; the file keeps its last good contents")
                     .arg(error));
        if (!known)
            emit notice(policy::NoticeKind::StateNotSaved,
                        QStringLiteral("%1. Its last good copy is kept; free some space or fix "
                                       "the file, and Tether saves it again.")
                            .arg(error));
    }
    if (supervisor_) supervisor_->setStateFileErrors(stateFileErrors_.values());
}

Supervisor::Config Runtime::supervisorConfig(const Settings &s) const {
    const bool wantsOpencode = !s.profile || *s.profile == policy::Dialect::Opencode1 ||
                               *s.profile == policy::Dialect::Opencode2;
    const OpencodeInstall opencode =
        wantsOpencode && s.program.isEmpty() ? detectOpencode() : OpencodeInstall{};
    const ProfileResolution resolved =
        resolveProfile(s, opencode, QCoreApplication::applicationFilePath());

    Supervisor::Config config;
    config.settings = s;
    config.profile = resolved.profile;
    config.profileError = resolved.error;
    config.registrationPath = registrationPath();
    config.serviceLogPath = storage::logsDir() + QStringLiteral("/service.log");
    config.servicePath = servicePath_;
    return config;
}

void Runtime::makeSupervisor(const Settings &s) {
    const Supervisor::Config config = supervisorConfig(s);
    supervisor_ = std::make_unique<Supervisor>(config);
    connect(supervisor_.get(), &Supervisor::logLine, this, &Runtime::writeLog);
    mcp_ = std::make_unique<mcp::McpMonitor>(supervisor_.get());
    connect(mcp_.get(), &mcp::McpMonitor::logLine, this, &Runtime::writeLog);
    writeLog(QStringLiteral("tether %1: profile %2, port %3, data in %4")
                 .arg(QCoreApplication::applicationVersion(),
                      QString::fromLatin1(policy::toString(config.profile.dialect)))
                 .arg(config.profile.port)
                 .arg(QDir::toNativeSeparators(storage::dataDir())));

    Supervisor *sup = supervisor_.get();
    sup->setStateFileErrors(stateFileErrors_.values());
    connect(sup, &Supervisor::statusChanged, this, &Runtime::statusChanged);
    connect(sup, &Supervisor::notice, this, &Runtime::notice);
    // A wake restarts the recovery window at once: hours asleep never count as hours unanswered.
    if (wake_)
        connect(wake_, &WakeWatcher::systemResumed, sup, [sup](const QString &source) {
            sup->noteTimeGap(QStringLiteral("system resumed (%1)").arg(source));
        });
    // The logs are checked on the probe cadence, a wake-up Tether has anyway: the service writes
    // while it runs, and a timer of its own would wake Tether 6 times a minute more.
    connect(sup, &Supervisor::probed, rotator_, &LogRotator::check);
    connect(sup, &Supervisor::probed, this, &Runtime::keepControlSocket);
    connect(sup, &Supervisor::probed, this, [this](const ProbeSample &p) {
        health_.add({p.at.toMSecsSinceEpoch(), p.latencyMs, true, p.state});
        emit healthChanged();
    });
    connect(sup, &Supervisor::stateChanged, this,
            [this](policy::State, policy::State to, const QString &) {
                health_.add({QDateTime::currentMSecsSinceEpoch(), -1, false, to});
                emit healthChanged();
            });
}

void Runtime::applySettings(const Settings &settings) {
    if (shuttingDown_) { // the Supervisor's machine says so too; no profile to resolve for it
        writeLog(QStringLiteral("settings not applied: Tether is quitting"));
        return;
    }
    // What the file says from now on; the machine decides when the service takes them (a
    // change of the service itself waits for the tracked one's stop: policy::SettingsChanged).
    settings_ = LoadedSettings{settings, {}, {}};
    supervisor_->applySettings(supervisorConfig(settings));
    emit statusChanged();
}

bool Runtime::useFreePort(quint16 port, QString *error) {
    Settings s = settings_.settings;
    s.port = port;
    if (!saveSettings(options_.settingsPath, s, error)) return false;
    writeLog(QStringLiteral("port %1 chosen by a person: the service starts there").arg(port));
    applySettings(s); // Failed counts as wanted: the machine starts it on the new port
    return true;
}

diagnostics::Input Runtime::diagnosticsInput() const {
    return {options_.settingsPath, supervisor_->status().toJson(),
            QStringLiteral("running (pid %1)").arg(QCoreApplication::applicationPid()), events_};
}

QString Runtime::diagnostics() const {
    return diagnostics::build(diagnosticsInput());
}

void Runtime::setMcpConnected(const QString &name, bool connected) {
    const Profile &profile = supervisor_->config().profile;
    if (profile.mcpActionPath.isEmpty() || !supervisor_->serviceIdentity()) return;
    HttpCall call;
    call.method = "POST";
    const QString path = profile.mcpActionPath.arg(QString::fromUtf8(QUrl::toPercentEncoding(name)),
                                                   connected ? QStringLiteral("connect")
                                                             : QStringLiteral("disconnect"));
    call.url = supervisor_->baseUrl().resolved(QUrl(path.mid(1)));
    call.authorization = supervisor_->authorization();
    call.timeoutMs = 30000;
    sendHttp(call, this, [this, name, connected](const HttpResult &r) {
        writeLog(QStringLiteral("mcp %1 %2: %3")
                     .arg(name,
                          connected ? QStringLiteral("connect") : QStringLiteral("disconnect"),
                          r.transportOk ? QStringLiteral("HTTP %1").arg(r.status) : r.error));
    });
}

void Runtime::reconnectMcp(const QString &name) {
    const Profile &profile = supervisor_->config().profile;
    if (profile.mcpActionPath.isEmpty() || !supervisor_->serviceIdentity()) return;
    HttpCall call;
    call.method = "POST";
    const QString encoded = QString::fromUtf8(QUrl::toPercentEncoding(name));
    call.url = supervisor_->baseUrl().resolved(
        QUrl(profile.mcpActionPath.arg(encoded, QStringLiteral("disconnect")).mid(1)));
    call.authorization = supervisor_->authorization();
    call.timeoutMs = 30000;
    sendHttp(call, this, [this, name](const HttpResult &) { setMcpConnected(name, true); });
}

void Runtime::cleanupOrphans(const QList<qint64> &pids, bool confirmedByPerson,
                             std::function<void(const mcp::McpMonitor::CleanupSummary &)> done) {
    mcp_->cleanup(false, pids, confirmedByPerson, [this, done](const auto &summary) {
        for (const QString &line : summary.lines)
            writeLog(QStringLiteral("cleanup: ") + line);
        // The Events tab says what the person's clean-up did (the lines above are details).
        writeLog(
            ui::personCleanupLogLine(summary.killed + summary.exitedOnTerm + summary.alreadyGone,
                                     summary.refused + summary.unknown));
        if (done) done(summary);
    });
}

void Runtime::beginQuit() {
    if (shuttingDown_) return;
    shuttingDown_ = true;
    if (!supervisor_) return;
    // Stop, or leave running; either way what is under way finishes first (the Supervisor's
    // machine sees to it), and nothing new starts except a service the user wants left running.
    quitStops_ = stopsServiceOnQuit();
    supervisor_->quit(quitStops_);
}

bool Runtime::needsConsent(policy::PersonAction action) const {
    return policy::needsConsent(action, stopsServiceOnQuit(), supervisor_->activity());
}

bool Runtime::stopsServiceOnQuit() const {
    const auto &svc = supervisor_->machine().svc;
    const bool demoStartedHere =
        supervisor_->config().profile.dialect == policy::Dialect::Demo && svc && svc->ourChild;
    return policy::stopsServiceOnQuit(settings_.settings.stopServiceOnQuit, quitBy_,
                                      demoStartedHere);
}

void Runtime::sessionEnding() {
    if (shuttingDown_) return;
    writeLog(QStringLiteral("session ends: %1")
                 .arg(settings_.settings.stopServiceOnQuit
                          ? QStringLiteral("stopping the service")
                          : QStringLiteral("the service keeps running")));
    beginQuit();
}

// The longest a stop (TERM, grace, KILL, then the MCP orphans' grace) takes, with a margin.
static int longestStopMs(const Settings &settings) {
    return int(settings.timings.graceMs + settings.orphanGraceMs + 5000);
}

void Runtime::requestQuit() {
    if (quitAsked_) return;
    quitAsked_ = true;
    if (!supervisor_) {
        quitReady_ = true;
        emit readyToQuit();
        return;
    }
    beginQuit(); // a session end may have begun it already
    connect(supervisor_.get(), &Supervisor::statusChanged, this, &Runtime::readyIfSettled);
    connect(supervisor_.get(), &Supervisor::settled, this, &Runtime::readyIfSettled);
    if (!supervisor_->quitDone()) {
        // Quitting in the middle would leave the service half-stopped and its MCP children
        // orphaned.
        writeLog(QStringLiteral("quitting: letting the stop or cleanup under way finish"));
        quitBound_.setSingleShot(true);
        connect(&quitBound_, &QTimer::timeout, this, [this] {
            if (quitReady_) return;
            writeLog(QStringLiteral("quitting: what was under way did not finish in %1 s; the "
                                    "service is let go as it is")
                         .arg(quitBound_.interval() / 1000));
            supervisor_->leaveRunning();
            quitReady_ = true;
            emit readyToQuit();
        });
        quitBound_.start(longestStopMs(settings_.settings));
    }
    readyIfSettled();
}

void Runtime::readyIfSettled() {
    if (!quitAsked_ || quitReady_ || !supervisor_->quitDone()) return;
    quitBound_.stop();
    quitReady_ = true;
    emit readyToQuit();
}

void Runtime::holdQuitsUntilReady(QCoreApplication *app) {
    app->installEventFilter(this);
    connect(
        this, &Runtime::readyToQuit, app, [] { QCoreApplication::exit(0); }, Qt::QueuedConnection);
}

bool Runtime::eventFilter(QObject *watched, QEvent *event) {
    if (event->type() != QEvent::Quit || watched != QCoreApplication::instance() || quitReady_)
        return QObject::eventFilter(watched, event);
    requestQuit();
    return true; // the loop ends on readyToQuit
}

void Runtime::shutdown() {
    if (!supervisor_) return;
    beginQuit(); // when the loop ended without a requestQuit()
    const bool stopIt = quitStops_;
    const bool running = supervisor_->serviceIdentity().has_value();
    if (!supervisor_->quitDone()) supervisor_->leaveRunning(); // the loop ended first: let go
    writeLog(QStringLiteral("tether quits%1")
                 .arg(running && !stopIt ? QStringLiteral("; the service keeps running")
                      : stopIt && !settings_.settings.stopServiceOnQuit
                          ? QStringLiteral("; the demo service it started was stopped (Ctrl+C)")
                          : QString()));
}

} // namespace tether
