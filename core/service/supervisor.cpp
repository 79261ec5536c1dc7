#include "service/supervisor.h"
#include "service/activity_monitor.h"

#include "service/failure_report.h"
#include "service/health.h"
#include "service/managed_registration.h"
#include "service/registration_store.h"
#include "service/service_job.h"
#include "service/service_launcher.h"
#include "service/stop_runner.h"
#include "service/terminal_handoff.h"
#include "supervision/executor.h"
#include "supervision/managed_watch.h"
#include "supervision/os_process_table.h"

#include <QElapsedTimer>

#include <algorithm>
#include <array>
#include <climits>

namespace tether {

using policy::Ms;
using policy::State;

namespace {

std::function<qint64()> steadyClock() {
    auto timer = std::make_shared<QElapsedTimer>();
    timer->start();
    return [timer] { return timer->elapsed(); };
}

// Where a launched service listens, when its arguments say: the last --hostname wins.
std::optional<policy::Family> namedFamily(const QStringList &args) {
    std::optional<policy::Family> family;
    for (int i = 0; i + 1 < args.size(); ++i) {
        if (args[i] != QLatin1String("--hostname")) continue;
        const QString host = args[i + 1];
        if (host == QLatin1String("::1") || host == QLatin1String("[::1]"))
            family = policy::Family::V6;
        else if (host == QLatin1String("127.0.0.1") || host == QLatin1String("localhost"))
            family = policy::Family::V4;
        else
            family.reset(); // anything else: found by probing both
    }
    return family;
}

policy::SupervisionConfig machineConfig(const Supervisor::Config &c) {
    policy::SupervisionConfig m;
    m.timings = c.settings.timings;
    m.minStartupDeadlineMs = c.profile.minStartupDeadlineMs;
    m.port = c.profile.port;
    m.autoReplaceOnVersionChange = c.settings.autoReplaceOnVersionChange;
    m.installedVersion = c.profile.installedVersion.toStdString();
    m.selfRegistering = c.profile.selfRegistering;
    // opencode is told to listen on 127.0.0.1, the demo does by default; a custom command
    // listens where it likes: a refused probe then tries the other family.
    const std::optional<policy::Family> named = namedFamily(c.profile.arguments);
    const bool demo = c.profile.dialect == policy::Dialect::Demo;
    m.hostPinned =
        named.has_value() || (demo && !c.profile.arguments.contains(QStringLiteral("--hostname")));
    m.launchFamily = named.value_or(policy::Family::V4);
    m.profileError = c.profileError.toStdString();
    // The ledger sweep after a death applies [orphans] whileRunning itself (McpMonitor).
    m.cleanOrphans = c.settings.orphansWhileRunning == policy::OrphanMode::Clean;
    m.orphanGraceMs = c.settings.orphanGraceMs;
    return m;
}

QString q(const std::string &s) {
    return QString::fromStdString(s);
}

// Whether b runs another service than a: its settings say so, or what they resolve to does
// (an auto profile finding another opencode, another install's program).
bool anotherService(const Supervisor::Config &a, const Supervisor::Config &b) {
    return changesService(a.settings, b.settings) || a.profile.dialect != b.profile.dialect ||
           a.profile.program != b.profile.program || a.profile.arguments != b.profile.arguments ||
           a.profileError != b.profileError;
}

// The parts that depend on the settings (made again when the policy applies new ones).
ServiceLauncher::Config launcherConfig(const Supervisor::Config &c, const QString &managedPath) {
    return {c.profile, c.serviceLogPath, c.settings.containment, managedPath};
}

RegistrationStore::Config registrationConfig(const Supervisor::Config &c,
                                             const QString &managedPath) {
    return {c.registrationPath, managedPath, c.profile.channel,
            QString::fromLatin1(policy::toString(c.profile.dialect)), c.profile.program};
}

} // namespace

// Every port the executor needs, carried out with Qt and the OS layer; answers are fed back.
class Supervisor::Ports : public supervision::Scheduler,
                          public supervision::Prober,
                          public supervision::Observer {
public:
    explicit Ports(Supervisor *s)
        : sup(s)
        , launcher(launcherConfig(s->config_, s->managedPath()),
                   [s](const policy::Event &e) { s->feed(e); })
        , registrations(registrationConfig(s->config_, s->managedPath()))
        , stops([s](const policy::Event &e) { s->feed(e); }, [this] { return launcher.job(); }) {
        for (int i = 0; i < policy::kTimerCount; ++i) {
            timers[i].setSingleShot(true);
            timers[i].setTimerType(Qt::PreciseTimer);
            QObject::connect(&timers[i], &QTimer::timeout, s,
                             [s, i] { s->feed(policy::TimerFired{policy::Timer(i)}); });
        }
        QObject::connect(&launcher, &ServiceLauncher::logLine, s, &Supervisor::logLine);
        QObject::connect(&stops, &StopRunner::logLine, s, &Supervisor::logLine);
        QObject::connect(&launcher, &ServiceLauncher::childExited, s,
                         [s](const policy::ExitFacts &e) {
                             s->lastExit_ = e;
                             // An exit Tether's own stop caused explains nothing.
                             s->lastExitOurs_ = s->exec_->state().phase == policy::Phase::Stopping;
                             s->status_.lastExit = e;
                         });
    }

    void start(policy::Timer t, Ms delayMs) override {
        timers[int(t)].start(int(std::clamp<Ms>(delayMs, 0, INT_MAX)));
    }
    void cancel(policy::Timer t) override { timers[int(t)].stop(); }
    void probe(const policy::SendProbe &p, const std::string &password) override {
        sup->probe(p, q(password));
    }
    void log(const std::string &line) override { emit sup->logLine(q(line)); }
    void notify(policy::NoticeKind kind, const std::string &message) override {
        emit sup->notice(kind, q(message));
    }
    void stateChanged(State from, State to, const std::string &reason) override {
        sup->status_.state = to;
        emit sup->logLine(QStringLiteral("state %1 -> %2%3")
                              .arg(QLatin1String(policy::toString(from)),
                                   QLatin1String(policy::toString(to)),
                                   reason.empty() ? QString() : QStringLiteral(": ") + q(reason)));
        if (policy::interruptsWork(from, to)) sup->recordInterruption();
        if (to == State::Healthy) sup->completeTerminalHandoff();
        if (to == State::Failed || from == State::Failed) sup->refreshFailure();
        emit sup->stateChanged(from, to, q(reason));
    }
    void changed() override {
        if (sup->quietStep_) return;
        const QString error = registrations.takeError();
        if (!error.isEmpty()) emit sup->logLine(error);
        sup->refreshStatus();
    }
    void released() override {}
    void settled() override { emit sup->settled(); }
    void settingsApplied() override { sup->swapConfig(); }

    Supervisor *sup;
    ServiceLauncher launcher;
    RegistrationStore registrations;
    StopRunner stops;
    supervision::OsProcessTable table;
    std::array<QTimer, policy::kTimerCount> timers;
};

Supervisor::Supervisor(Config config, QObject *parent)
    : QObject(parent)
    , config_(std::move(config)) {
    if (!config_.clock) config_.clock = steadyClock();
    given_ = config_;
    status_.profile = config_.profile.dialect;
    status_.port = quint16(config_.profile.port);
    status_.installedVersion = config_.profile.installedVersion;
    status_.servicePath = config_.servicePath;
    ports_ = std::make_unique<Ports>(this);
    terminals_ = std::make_unique<TerminalHandoff>();
    connect(terminals_.get(), &TerminalHandoff::logLine, this, &Supervisor::logLine);
    ports_->stops.setTerminalStep([this](policy::Terminals t, std::function<void()> done) {
        prepareTerminals(t, std::move(done));
    });
    supervision::Ports *w = config_.world;
    exec_ = std::make_unique<supervision::Executor>(
        machineConfig(config_),
        w ? supervision::Ports{w->table, w->scheduler, w->prober, w->launcher, w->registrations,
                               w->stops, *ports_}
          : supervision::Ports{ports_->table, *ports_, *ports_, ports_->launcher,
                               ports_->registrations, ports_->stops, *ports_},
        config_.clock);
    status_.url = baseUrl().toString();
    ActivityMonitor::Config stream; // the defaults, on this supervisor's clock
    stream.clock = config_.clock;
    stream.v2 = config_.profile.dialect == policy::Dialect::Opencode2;
    activity_ = std::make_unique<ActivityMonitor>(stream);
    connect(activity_.get(), &ActivityMonitor::activityChanged, this, [this] {
        const bool tools = policy::runsToolCalls(activity_->activity());
        if (tools != exec_->state().toolCallsRun) feed(policy::ActivityChanged{tools});
        refreshActivityStatus();
        emit statusChanged();
    });
    // The stream's events are evidence of life, as answered probes are (policy::StreamAlive).
    // While it answers, a heartbeat changes nothing a person or a verb sees (only the probe's
    // time): no status rebuild for it. Not responding, it moves the countdown.
    connect(activity_.get(), &ActivityMonitor::alive, this, [this](qint64) {
        quietStep_ = exec_->state().responding && exec_->state().phase == policy::Phase::Running;
        feed(policy::StreamAlive{});
        quietStep_ = false;
    });
    connect(activity_.get(), &ActivityMonitor::connectedChanged, this, [this](bool up) {
        refreshActivityStatus();
        emit logLine(up ? QStringLiteral("following the service's event stream")
                        : QStringLiteral("event stream lost: %1").arg(activity_->lastError()));
        emit statusChanged();
    });
    connect(&adoptedExit_, &AdoptedExitWatch::exited, this,
            [this](const os::Identity &id, const QString &why) {
                feed(policy::Exited{id, why.toStdString()});
            });
    connect(&adoptedExit_, &AdoptedExitWatch::logLine, this, &Supervisor::logLine);
    managedWatch_ = std::make_unique<ManagedRegistrationWatch>(
        [this] { return ports_->registrations.managedPath(); },
        [this] { return ports_->registrations.launchedPid(); });
    connect(managedWatch_.get(), &ManagedRegistrationWatch::changed, this,
            [this](const policy::ManagedFacts &facts) {
                feed(policy::ManagedRegistrationChanged{facts});
            });
    watchManagedRegistration(); // stopped from the start: another client may start it
    // The first look before anything the person asks is handled (the event loop's first turn):
    // a Stop must find the service that already runs, not see it turn up as started elsewhere.
    if (managedWatch_->following())
        QMetaObject::invokeMethod(managedWatch_.get(), &ManagedRegistrationWatch::look,
                                  Qt::QueuedConnection);
}

Supervisor::~Supervisor() {
    activity_.reset(); // its stream and catch-up call back into this object
    // A plan under way finishes on its thread (StopRunner waits); a running child is released,
    // never killed by a destructor (ServiceLauncher).
    exec_.reset();
    ports_.reset();
}

const policy::SupervisionState &Supervisor::machine() const {
    return exec_->state();
}

const policy::Activity &Supervisor::activity() const {
    return activity_->activity();
}

void Supervisor::followActivity() {
    const policy::SupervisionState &s = exec_->state();
    // Kept through a stop or a replacement until the service is gone: what it was doing when
    // it was cut short is recorded from here (recordInterruption).
    const bool follow = !config_.world && !config_.profile.eventPath.isEmpty() && s.svc &&
                        s.svc->id.pid > 0 && s.phase != policy::Phase::Released;
    if (!follow) {
        // Why, in the log's words: the service went (stopped, crashed, replaced) or was let go.
        if (!activity_->url().isEmpty())
            activity_->stopFollowing(
                s.phase == policy::Phase::Released
                    ? QStringLiteral("Tether let the service go (quit)")
                    : QStringLiteral("the service is gone (%1)")
                          .arg(s.reason.empty() ? QStringLiteral("stopped") : q(s.reason)));
        refreshActivityStatus();
        return;
    }
    activity_->follow(baseUrl().resolved(QUrl(config_.profile.eventPath.mid(1))), authorization(),
                      std::to_string(s.svc->id.pid));
    refreshActivityStatus();
}

const ServiceStatus &Supervisor::status() const {
    // Ages as of the question: a cached one lagged by up to a display tick or a refresh.
    status_.activity = activityStatus();
    const Ms now = config_.clock();
    for (McpChildStatus &m : status_.mcp)
        if (m.pid != 0 && m.startedAtMs) m.uptimeMs = std::max<qint64>(0, now - *m.startedAtMs);
    return status_;
}

ActivityStatus Supervisor::activityStatus() const {
    const policy::Activity &a = activity_->activity();
    const Ms now = config_.clock();
    ActivityStatus out;
    out.followed = activity_->caughtUp();
    out.busySessions = int(policy::busySessionCount(a));
    for (const policy::RunningTool &t : a.tools)
        out.runningTools.append(RunningToolStatus{q(t.session), q(t.tool), now - t.since});
    out.summary =
        out.followed || policy::isBusy(a) ? q(policy::describeActivity(a, now)) : QString();
    const policy::SupervisionState &s = exec_->state();
    const bool answers =
        status_.state == policy::State::Healthy || status_.state == policy::State::NotResponding;
    if (config_.profile.eventPath.isEmpty() && s.svc && s.svc->id.pid > 0 && answers)
        out.summary = q(policy::describeUnseenActivity());
    return out;
}

// No tick of its own while a tool call runs: status() brings its age current when asked, and
// each surface that shows it refreshes at its own pace (issue 28: a tick a second here doubled
// the headless Tether's CPU while the service worked).
void Supervisor::refreshActivityStatus() {
    status_.activity = activityStatus();
}

void Supervisor::recordInterruption() {
    const policy::Activity &a = activity_->activity();
    if (!policy::isBusy(a)) return;
    const Ms now = config_.clock();
    const policy::Interruption cut = policy::interruptionOf(a, now);
    InterruptedStatus out;
    for (const policy::BusySession &s : cut.sessions)
        out.sessions << q(s.id);
    for (const policy::RunningTool &t : cut.tools)
        out.tools.append(RunningToolStatus{q(t.session), q(t.tool), now - t.since});
    out.at = QDateTime::currentDateTime();
    out.summary = q(policy::describeInterruption(cut));
    status_.lastInterrupted = out;
    emit logLine(out.summary);
    std::vector<std::string> tools;
    for (const policy::RunningTool &t : cut.tools)
        tools.push_back(t.tool);
    emit notice(policy::NoticeKind::Interrupted,
                q(policy::interruptedText(tools, (long long)cut.sessions.size())));
}

void Supervisor::feed(const policy::Event &e) {
    if (config_.worldFeed)
        config_.worldFeed(e);
    else
        exec_->feed(e);
}

QUrl Supervisor::baseUrl() const {
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    const policy::TrackedService *svc =
        exec_ && exec_->state().svc ? &*exec_->state().svc : nullptr;
    const bool v6 = svc && svc->family == policy::Family::V6;
    url.setHost(v6 ? QStringLiteral("::1") : QStringLiteral("127.0.0.1"));
    url.setPort(svc ? svc->port : config_.profile.port);
    url.setPath(QStringLiteral("/"));
    return url;
}

QByteArray Supervisor::authorization() const {
    const auto &svc = exec_->state().svc;
    if (!svc || config_.profile.authUser.isEmpty() || svc->password.empty()) return {};
    return basicAuth(config_.profile.authUser, q(svc->password));
}

std::optional<os::Identity> Supervisor::serviceIdentity() const {
    const auto &svc = exec_->state().svc;
    if (!svc || svc->id.pid <= 0) return std::nullopt;
    return svc->id;
}

QString Supervisor::managedPath() const {
    return config_.profile.selfRegistering
               ? managedRegistrationPath(config_.settings.stateDir, config_.profile.channel)
               : QString();
}

// opencode 2.x's terminals before its service is signalled (TerminalHandoff): only the service
// service.json names is asked.
void Supervisor::prepareTerminals(policy::Terminals t, std::function<void()> done) {
    const auto &svc = exec_->state().svc;
    terminals_->prepare(t, managedPath(), svc ? svc->managedId : std::string(),
                        config_.profile.authUser, std::move(done));
}

void Supervisor::completeTerminalHandoff() {
    if (config_.profile.selfRegistering) TerminalHandoff::complete(managedPath());
}

void Supervisor::setCrashCleanup(CrashCleanup cleanup) {
    crashCleanup_ = std::move(cleanup);
    if (!crashCleanup_) {
        ports_->stops.setOrphanSweep({});
        return;
    }
    ports_->stops.setOrphanSweep([this](const os::Identity &service, std::function<void()> done) {
        crashCleanup_(service, std::move(done));
    });
}

bool Supervisor::settling() const {
    return policy::settling(exec_->state());
}

bool Supervisor::quitDone() const {
    const auto &s = exec_->state();
    return s.quitting && !policy::settling(s) &&
           (s.phase == policy::Phase::Released || s.phase == policy::Phase::Idle);
}

void Supervisor::setMcp(const QList<McpChildStatus> &rows) {
    if (!exec_->state().svc) return; // a late answer about a service that is gone
    status_.mcp = rows;
    emit statusChanged();
}

void Supervisor::setOrphans(const QList<OrphanStatus> &orphans) {
    status_.orphans = orphans;
    emit statusChanged();
}

void Supervisor::setStateFileErrors(const QStringList &errors) {
    if (status_.stateFileErrors == errors) return;
    status_.stateFileErrors = errors;
    emit statusChanged();
}

void Supervisor::refreshStatus() {
    const policy::SupervisionState &s = exec_->state();
    status_.state = policy::displayState(s);
    const auto &svc = s.svc;
    status_.pid = svc ? svc->id.pid : 0;
    status_.port = quint16(svc ? svc->port : config_.profile.port);
    status_.url = baseUrl().toString();
    status_.version = q(s.version);
    status_.external = svc && svc->external;
    status_.versionMismatch = s.versionMismatch;
    status_.restarts = s.restarts;
    status_.lastError = q(s.lastError);
    status_.lastProbeMs = s.lastAnswerLatency;
    const policy::NextSteps next = policy::nextSteps(s, config_.clock());
    const QDateTime wallNow = QDateTime::currentDateTime();
    status_.replaceAt = next.replaceInMs ? wallNow.addMSecs(*next.replaceInMs) : QDateTime();
    status_.restartAt = next.restartInMs ? wallNow.addMSecs(*next.restartInMs) : QDateTime();
    status_.startupDeadlineAt =
        next.startupDeadlineInMs ? wallNow.addMSecs(*next.startupDeadlineInMs) : QDateTime();
    if (!svc) {
        status_.mcp.clear();
        status_.startedAt = QDateTime();
        announced_ = {};
    } else if (svc->id.pid > 0 && svc->id != announced_) {
        announced_ = svc->id;
        // Its start by the OS: an adopted service has run since before this Tether.
        const std::int64_t age = config_.world ? 0 : os::ageMs(svc->id.startTime);
        status_.startedAt = QDateTime::currentDateTime().addMSecs(-std::max<std::int64_t>(0, age));
        status_.mcp.clear();
        if (svc->ourChild) ports_->registrations.setLaunchedPid(svc->id.pid);
        emit serviceStarted(svc->id);
    }
    watchAdoptedExit();
    watchManagedRegistration();
    followActivity();
    emit statusChanged();
}

void Supervisor::refreshFailure() {
    if (status_.state != State::Failed) {
        status_.failure = FailureStatus{};
        return;
    }
    const policy::SupervisionState &s = exec_->state();
    FailureInputs in;
    in.reason = s.failure.value_or(std::string());
    in.exit = lastExit_;
    in.exitOurs = lastExitOurs_;
    in.serviceLogPath = config_.serviceLogPath;
    in.logOffset = ports_->launcher.logOffset();
    in.fix = s.fixFirst;
    in.program = config_.profile.program;
    in.failedStarts = int(s.budget.failures.size());
    in.timings = config_.settings.timings;
    in.launchPort = s.launchPort;
    in.configuredPort = quint16(config_.profile.port);
    // [service] port moves Tether's own service; opencode 2.x's port is in its own config
    // (`opencode service set port`), so no offer that would change nothing.
    in.offerFreePort = !config_.profile.selfRegistering;
    in.examinePort = !config_.world;
    status_.failure = failureReport(in);
    emit logLine(QStringLiteral("failed: ") + status_.failure.cause);
}

// An adopted service is not our child: its exit is watched (AdoptedExitWatch). A rig's world
// tells the exit of a process it runs itself.
void Supervisor::watchAdoptedExit() {
    const policy::SupervisionState &s = exec_->state();
    const bool watch = !config_.world && s.svc && !s.svc->ourChild && s.svc->id.pid > 0 &&
                       (s.phase == policy::Phase::Starting || s.phase == policy::Phase::Running);
    adoptedExit_.watch(watch ? std::optional<os::Identity>(s.svc->id) : std::nullopt,
                       int(std::max<Ms>(50, config_.settings.timings.probeIntervalMs / 5)));
}

void Supervisor::watchManagedRegistration() {
    // Stopped or Failed: another client's ensure() may start a service, which is shown (and
    // followed) rather than Tether saying "stopped" while it runs.
    const int every = int(supervision::managedWatchEvery(
        exec_->state(), config_.profile.selfRegistering && !config_.world,
        config_.settings.timings.probeIntervalMs));
    managedWatch_->follow(every);
}

void Supervisor::probe(const policy::SendProbe &p, const QString &password) {
    HttpCall call;
    call.url = baseUrl().resolved(QUrl(config_.profile.healthPath.mid(1)));
    if (!password.isEmpty() && !config_.profile.authUser.isEmpty())
        call.authorization = basicAuth(config_.profile.authUser, password);
    call.timeoutMs = int(p.timeoutMs);
    const std::uint64_t seq = p.seq;
    ports_->registrations.retryWrite(); // one that a full disk kept out, once there is room
    const auto &svc = exec_->state().svc;
    // Only a pid Tether knows is the registered one: its own launched child before it
    // registers is not yet named by anything the service could answer about.
    const qint64 expectedPid = svc && !svc->managedId.empty() ? svc->id.pid : 0;
    // A connection of its own (service/http_client.h): no stream or other answer is ever ahead
    // of a health check (one without newlines on Qt's shared HTTP thread starved the probes,
    // and a healthy service was replaced).
    sendHttp(call, this, [this, seq, expectedPid](const HttpResult &r) {
        const HealthVerdict v =
            r.transportOk ? judgeHealth(config_.profile.dialect, r.status, r.body, expectedPid)
                          : HealthVerdict{false, {}, 0, r.error, policy::Boot::Ready};
        if (v.healthy)
            feed(policy::ProbeAnswered{seq, true, v.version.toStdString(), {}});
        else if (r.transportOk)
            feed(policy::ProbeAnswered{seq, false, {}, v.error.toStdString(), v.boot});
        else
            feed(policy::ProbeMissed{seq, r.refused, v.error.toStdString()});
        emit probed(ProbeSample{QDateTime::currentDateTime(), v.healthy ? r.latencyMs : -1,
                                v.healthy, status_.state});
    });
}

// ---- Settings ---------------------------------------------------------------------------------

void Supervisor::applySettings(Config next) {
    next.clock = config_.clock; // one clock and one world for the life of this Supervisor
    next.world = config_.world;
    next.worldFeed = config_.worldFeed;
    // Against the settings in force: settings waiting for a stop are replaced, not built on.
    const bool service = anotherService(config_, next);
    given_ = std::move(next);
    feed(policy::SettingsChanged{machineConfig(given_), service});
}

// The policy put the settings given last in force (policy::ApplySettings): the parts made from
// them follow before any later command of that step. A change of the service itself comes here
// only while nothing is tracked, so nothing swapped here is in use.
void Supervisor::swapConfig() {
    const bool service = anotherService(config_, given_);
    config_ = given_;
    const QString managed = managedPath();
    ports_->launcher.setConfig(launcherConfig(config_, managed));
    ports_->registrations.setConfig(registrationConfig(config_, managed));
    activity_->setV2(config_.profile.dialect == policy::Dialect::Opencode2);
    if (managed.isEmpty()) managedWatch_->forget(); // another profile: nothing to compare with
    status_.profile = config_.profile.dialect;
    status_.installedVersion = config_.profile.installedVersion;
    status_.port = quint16(exec_->state().svc ? exec_->state().svc->port : config_.profile.port);
    status_.url = baseUrl().toString();
    // The managed watch (on or off, its cadence) and the rest of the status follow at the
    // step's end (Observer::changed).
    emit settingsApplied(service);
}

// ---- The person's requests ------------------------------------------------------------------

void Supervisor::start() {
    lastExit_.reset(); // a new attempt: an earlier run's exit no longer explains anything
    status_.lastExit.reset();
    feed(policy::StartRequested{});
}

void Supervisor::stop() {
    feed(policy::StopRequested{});
}

void Supervisor::restart() {
    feed(policy::RestartRequested{});
}

void Supervisor::quit(bool stopService) {
    feed(policy::QuitRequested{stopService});
}

void Supervisor::leaveRunning() {
    quit(false);
    // Whatever is still under way is let go of: the child is released, never killed.
    if (config_.world)
        config_.world->launcher.release();
    else
        ports_->launcher.release();
    adoptedExit_.watch(std::nullopt, 0);
    managedWatch_->follow(0);
}

void Supervisor::noteTimeGap(const QString &why) {
    feed(policy::TimeGap{why.toStdString()});
}

} // namespace tether
