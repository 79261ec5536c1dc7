// Supervision latencies, measured in-process on the Supervisor + MCP monitor that `tether` runs
// (same library, no CLI round trips in the timings), against the demo service and real opencode:
//   service cold start     spawn -> first authorised 200 from the health path, polled every 5 ms
//                          by this program alone (the service's own start-up time)
//   crash detection        SIGKILL -> Supervisor leaves Healthy              target < 50 ms
//   crash -> healthy       minus back-off and the replacement's own start-up  target < 100 ms
//   crash -> orphans gone  every MCP process of the dead service gone         target < 1 s
//   freeze -> replacement  SIGSTOP -> a new service healthy, minus (window + its start-up)  < 1 s
// The replacement's own start-up is measured in the same run (its spawn -> its first authorised
// 200, polled every 5 ms from a thread of this program's, beside Tether): real opencode's
// start-up varies by seconds from one start to the next, so a cold start measured once cannot
// be subtracted.
//   adopt                  a new Supervisor -> the running service adopted as Healthy
// Usage: bench_supervision [demo|opencode]... (default both). Needs TETHER_BIN; opencode needs
// TETHER_E2E_CACHE (scripts/e2e-deps.sh). Prints one line per figure.
#include "mcp/mcp_monitor.h"
#include "os/process.h"
#include "service/exit_notifier.h"
#include "service/supervisor.h"

#include "bench_util.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace tether;
using policy::State;

namespace {

constexpr policy::Ms kBackoffMs = 1; // the restart back-off is a setting; excluded from overhead
const QByteArray kBenchAuth = "Basic " + QByteArray("opencode:bench").toBase64();

void line(const QString &target, const QString &figure, double ms, const QString &goal = {},
          bool met = true) {
    std::printf("%-9s %-44s %10.1f ms  %s\n", qPrintable(target), qPrintable(figure), ms,
                qPrintable(bench::verdict(goal, met)));
    std::fflush(stdout);
}

using bench::freePort;

// Spin the event loop until condition() holds, checking every pollMs (napping a fifth of it
// between turns); false on timeout.
bool spinUntil(const std::function<bool()> &condition, int timeoutMs, int pollMs = 1) {
    return bench::spinUntil(condition, timeoutMs, pollMs, 200ul * unsigned(pollMs));
}

// The same request over a plain socket, for the watch thread (no Qt objects off the main thread).
bool healthOkPosix(int port, const QByteArray &authorization, const QString &path) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(quint16(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    timeval tv{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    bool ok = false;
    if (::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0) {
        const QByteArray request = "GET " + path.toLatin1() +
                                   " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" +
                                   "Authorization: " + authorization + "\r\n\r\n";
        if (::send(fd, request.constData(), size_t(request.size()), MSG_NOSIGNAL) ==
            ssize_t(request.size())) {
            char head[16] = {};
            const ssize_t n = ::recv(fd, head, sizeof head - 1, MSG_WAITALL);
            ok = n >= 12 && QByteArray(head).startsWith("HTTP/1.1 200");
        }
    }
    ::close(fd);
    return ok;
}

bool healthOk(int port, const QByteArray &authorization, const QString &path) {
    QTcpSocket s;
    s.connectToHost(QStringLiteral("127.0.0.1"), quint16(port));
    if (!s.waitForConnected(200)) return false;
    s.write("GET " + path.toLatin1() +
            " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: " + authorization +
            "\r\n\r\n");
    QByteArray head;
    while (!head.contains("\r\n") && s.waitForReadyRead(5000))
        head += s.readAll();
    return head.startsWith("HTTP/1.1 200");
}

// A replacement service's own start-up, watched beside Tether: from its spawn to its first
// authorised 200, polled every 5 ms on a thread of its own (Tether's event loop is not held up).
class StartupWatch {
public:
    ~StartupWatch() { finish(); }
    void begin(int port, QByteArray authorization, QString path) {
        spawned_.start();
        thread_ = std::thread([this, port, authorization, path] {
            while (!stop_) {
                if (healthOkPosix(port, authorization, path)) {
                    answeredMs_ = double(spawned_.nsecsElapsed()) / 1e6;
                    return;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
        });
    }
    // ms from the spawn to its first answer; < 0 when it never answered.
    double finish() {
        stop_ = true;
        if (thread_.joinable()) thread_.join();
        return answeredMs_;
    }

private:
    QElapsedTimer spawned_;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::atomic<double> answeredMs_{-1};
};

struct Target {
    QString name;
    Settings settings;
    QString tetherBin;
    std::unique_ptr<QTemporaryDir> home;
    int expectedMcp = 0;
};

// opencode in a private HOME: the real MCP servers plus a stubborn one (tests/e2e wrapper).
bool prepareOpencode(Target &t, QString *why) {
    const QString cache =
        qEnvironmentVariable("TETHER_E2E_CACHE", QStringLiteral("/var/cache/tether-e2e"));
    const QString bin = cache + QStringLiteral("/node_modules/opencode-linux-x64/bin/opencode");
    const QString everything =
        cache +
        QStringLiteral("/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    const QString wrapper = qEnvironmentVariable("TETHER_STUBBORN_MCP");
    if (!QFileInfo(bin).isExecutable() || !QFileInfo::exists(everything) ||
        !QFileInfo(wrapper).isExecutable()) {
        *why =
            QStringLiteral("opencode or the MCP servers are missing (run scripts/e2e-deps.sh; set "
                           "TETHER_E2E_CACHE and TETHER_STUBBORN_MCP=tests/e2e/stubborn-mcp.sh)");
        return false;
    }
    t.home = std::make_unique<QTemporaryDir>();
    const QString h = t.home->path();
    QDir().mkpath(h + QStringLiteral("/.config/opencode"));
    QDir().mkpath(h + QStringLiteral("/project"));
    auto local = [](const QStringList &c) {
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("local")},
                           {QStringLiteral("command"), QJsonArray::fromStringList(c)}};
    };
    const QJsonObject config{
        {QStringLiteral("autoupdate"), false},
        {QStringLiteral("share"), QStringLiteral("disabled")},
        {QStringLiteral("mcp"),
         QJsonObject{
             {QStringLiteral("everything"),
              local({QStringLiteral("node"), everything, QStringLiteral("stdio")})},
             {QStringLiteral("stubborn"), local({wrapper, everything, QStringLiteral("stdio")})}}}};
    QFile f(h + QStringLiteral("/.config/opencode/opencode.json"));
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(config).toJson()) <= 0) {
        *why = QStringLiteral("cannot write opencode.json");
        return false;
    }
    f.close();
    // The service inherits this program's environment: a private HOME, offline-quiet opencode.
    qputenv("HOME", h.toUtf8());
    for (const char *x : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"})
        qunsetenv(x);
    for (const char *quiet : {"OPENCODE_DISABLE_AUTOUPDATE", "OPENCODE_DISABLE_MODELS_FETCH",
                              "OPENCODE_DISABLE_DEFAULT_PLUGINS", "OPENCODE_DISABLE_LSP_DOWNLOAD",
                              "OPENCODE_DISABLE_SHARE", "OPENCODE_DISABLE_CLAUDE_CODE",
                              "OPENCODE_DISABLE_EXTERNAL_SKILLS"})
        qputenv(quiet, "1");
    QDir::setCurrent(h + QStringLiteral("/project"));
    t.settings.profile = policy::Dialect::Opencode1;
    t.settings.program = bin;
    t.settings.timings.windowMs = 5000;
    t.settings.timings.probeTimeoutMs = 2000;
    t.settings.timings.startupDeadlineMs = 180000;
    t.expectedMcp = 2;
    return true;
}

class Bench {
public:
    explicit Bench(Target &t)
        : t_(t) {}

    void run() {
        Settings &s = t_.settings;
        s.port = freePort();
        s.timings.probeIntervalMs = 200;
        s.timings.graceMs = 500;
        s.timings.backoffInitialMs = kBackoffMs;
        s.orphanGraceMs = 300;
        const ProfileResolution r = resolveProfile(s, {}, t_.tetherBin);
        if (!r.error.isEmpty()) {
            std::printf("%s: %s\n", qPrintable(t_.name), qPrintable(r.error));
            return;
        }
        profile_ = r.profile;
        const double cold = coldStart();
        line(t_.name, QStringLiteral("service cold start (its own start-up)"), cold);

        make();
        QElapsedTimer t;
        t.start();
        sup_->start();
        if (!waitReady(200000)) return fail(QStringLiteral("never healthy with its MCP servers"));
        line(t_.name, QStringLiteral("Tether start -> healthy + MCP rows"), double(t.elapsed()));

        crash(QStringLiteral("crash"));
        freeze();
        adopt();
        // The same crash of a service Tether adopted (not its child): the kernel's exit
        // notification instead of QProcess, beside the child's figures above.
        crash(QStringLiteral("adopted crash"));
        mcpExit();
        sup_->stop();
        spinUntil([this] { return sup_->status().state == State::Stopped; }, 30000);
        mcp_.reset();
        sup_.reset();
    }

private:
    Target &t_;
    Profile profile_;
    QTemporaryDir data_;
    std::unique_ptr<Supervisor> sup_;
    std::unique_ptr<mcp::McpMonitor> mcp_;

    void fail(const QString &why) {
        std::printf("%s: FAILED: %s (state %s, %s)\n", qPrintable(t_.name), qPrintable(why),
                    sup_ ? policy::toString(sup_->status().state) : "-",
                    sup_ ? qPrintable(sup_->status().lastError) : "");
    }
    void make() {
        mcp_.reset();
        Supervisor::Config c;
        c.settings = t_.settings;
        c.profile = profile_;
        c.registrationPath = data_.filePath(QStringLiteral("service.json"));
        c.serviceLogPath = data_.filePath(QStringLiteral("service.log"));
        sup_ = std::make_unique<Supervisor>(c);
        mcp_ = std::make_unique<mcp::McpMonitor>(sup_.get());
    }
    bool ready() const {
        if (sup_->status().state != State::Healthy ||
            int(sup_->status().mcp.size()) < t_.expectedMcp)
            return false;
        return std::all_of(sup_->status().mcp.begin(), sup_->status().mcp.end(),
                           [](const McpChildStatus &m) {
                               return m.pid > 0 && m.status == QLatin1String("connected");
                           });
    }
    bool waitReady(int timeoutMs) {
        return spinUntil([this] { return ready(); }, timeoutMs, 5);
    }

    // The watch saw no authorised 200 before Tether did: no overhead can be isolated (seen with
    // real opencode, whose killed process keeps its listening socket for a while).
    void unobserved(const QString &what) {
        std::printf("%-9s %-44s        n/a     the replacement's start-up was not observed: "
                    "overhead not isolated\n",
                    qPrintable(t_.name),
                    qPrintable(what + QStringLiteral(" -> healthy - its start-up")));
        std::fflush(stdout);
    }

    // Watch the next service Tether spawns: its own start-up, measured beside Tether.
    QMetaObject::Connection watchNextSpawn(StartupWatch &watch) {
        return QObject::connect(sup_.get(), &Supervisor::serviceStarted, [this, &watch] {
            watch.begin(t_.settings.port, sup_->authorization(), profile_.healthPath);
        });
    }

    // The service alone, as Tether would start it, polled every 5 ms by this program.
    double coldStart() {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("OPENCODE_SERVER_PASSWORD"), QStringLiteral("bench"));
        p.setProcessEnvironment(env);
        p.setStandardOutputFile(QProcess::nullDevice());
        p.setStandardErrorFile(QProcess::nullDevice());
        QElapsedTimer t;
        t.start();
        p.start(profile_.program, profile_.arguments);
        const bool ok =
            p.waitForStarted(10000) &&
            spinUntil([&] { return healthOk(t_.settings.port, kBenchAuth, profile_.healthPath); },
                      200000, 5);
        const double ms = double(t.elapsed());
        // Our own child: kill its group (opencode's MCP children share it), then reap.
        if (p.processId() > 0) {
            if (const auto id = os::identityOf(p.processId())) {
                for (const os::Pid d : os::descendants(id->pid))
                    if (const auto c = os::identityOf(d)) os::signalIdentity(*c, os::Signal::Kill);
                os::signalIdentity(*id, os::Signal::Kill);
            }
        }
        p.waitForFinished(10000);
        spinUntil([&] { return os::listeningPortOwners(quint16(t_.settings.port)).pids.empty(); },
                  10000, 5);
        return ok ? ms : -1;
    }

    std::vector<os::Identity> mcpProcesses() const {
        std::vector<os::Identity> out;
        for (const McpChildStatus &m : sup_->status().mcp) {
            if (const auto id = os::identityOf(m.pid)) out.push_back(*id);
            for (const os::Pid d : os::descendants(m.pid))
                if (const auto id = os::identityOf(d)) out.push_back(*id);
        }
        return out;
    }

    void crash(const QString &what) {
        const auto service = sup_->serviceIdentity();
        const std::vector<os::Identity> children = mcpProcesses();
        qint64 leftHealthy = -1, orphansGone = -1;
        StartupWatch replacement;
        const auto spawned = watchNextSpawn(replacement);
        QElapsedTimer t;
        auto conn = QObject::connect(sup_.get(), &Supervisor::stateChanged,
                                     [&](State from, State, const QString &) {
                                         if (from == State::Healthy && leftHealthy < 0)
                                             leftHealthy = t.nsecsElapsed() / 1000;
                                     });
        // The floor: when the kernel itself reports the service gone (its pidfd readable).
        qint64 kernelGone = -1;
        QObject scope;
        const std::unique_ptr<ExitNotifier> serviceWatch = ExitNotifier::open(*service);
        if (serviceWatch)
            QObject::connect(serviceWatch.get(), &ExitNotifier::exited, &scope,
                             [&] { kernelGone = t.nsecsElapsed() / 1000; });
        t.start();
        os::signalIdentity(*service, os::Signal::Kill);
        const bool ok = spinUntil(
            [&] {
                if (orphansGone < 0 &&
                    std::all_of(children.begin(), children.end(), [](const os::Identity &c) {
                        return os::alive(c) == os::Liveness::Gone;
                    }))
                    orphansGone = t.nsecsElapsed() / 1000;
                return sup_->status().state == State::Healthy && sup_->status().pid != service->pid;
            },
            200000, 1);
        const double healthyMs = double(t.elapsed());
        QObject::disconnect(conn);
        QObject::disconnect(spawned);
        const double startup = replacement.finish();
        if (!ok) return fail(QStringLiteral("not healthy after the %1").arg(what));
        line(t_.name, QStringLiteral("%1: SIGKILL -> state change").arg(what), leftHealthy / 1000.0,
             QStringLiteral("< 50 ms"), leftHealthy >= 0 && leftHealthy < 50000);
        line(t_.name, QStringLiteral("%1: floor: the kernel has it gone (pidfd)").arg(what),
             kernelGone / 1000.0);
        line(t_.name, QStringLiteral("%1: %2 MCP processes gone").arg(what).arg(children.size()),
             orphansGone / 1000.0, QStringLiteral("< 1000 ms"),
             orphansGone >= 0 && orphansGone < 1000000);
        line(t_.name, QStringLiteral("%1: SIGKILL -> healthy again").arg(what), healthyMs);
        if (startup < 0) {
            unobserved(what);
        } else {
            line(t_.name, QStringLiteral("%1: the replacement's own start-up").arg(what), startup);
            const double overhead = healthyMs - double(kBackoffMs) - startup;
            line(t_.name, QStringLiteral("%1 -> healthy - back-off - its start-up").arg(what),
                 overhead, QStringLiteral("< 100 ms"), overhead < 100);
        }
        waitReady(200000);
    }

    // One MCP server's process killed: its row loses the pid at once (the kernel's exit
    // notification), not at the next refresh 200 ms later.
    void mcpExit() {
        const auto rows = sup_->status().mcp;
        const auto it = std::find_if(rows.begin(), rows.end(),
                                     [](const McpChildStatus &m) { return m.pid > 0; });
        const auto id = it != rows.end() ? os::identityOf(it->pid) : std::nullopt;
        if (!id) return fail(QStringLiteral("no MCP process to end"));
        const QString name = it->name;
        qint64 seenUs = -1;
        QElapsedTimer t;
        QObject scope;
        QObject::connect(sup_.get(), &Supervisor::statusChanged, &scope, [&] {
            for (const McpChildStatus &m : sup_->status().mcp)
                if (m.name == name && m.pid != id->pid && seenUs < 0)
                    seenUs = t.nsecsElapsed() / 1000;
        });
        t.start();
        os::signalIdentity(*id, os::Signal::Kill);
        if (!spinUntil([&] { return seenUs >= 0; }, 30000, 1))
            return fail(QStringLiteral("the MCP row kept its pid"));
        line(t_.name, QStringLiteral("MCP process SIGKILL -> its row changed"), seenUs / 1000.0,
             QStringLiteral("< 50 ms"), seenUs < 50000);
    }

    void freeze() {
        const auto service = sup_->serviceIdentity();
        StartupWatch replacement;
        const auto spawned = watchNextSpawn(replacement);
        QElapsedTimer t;
        t.start();
        os::signalIdentity(*service, os::Signal::Stop);
        const bool ok = spinUntil(
            [&] {
                return sup_->status().state == State::Healthy && sup_->status().pid != service->pid;
            },
            300000, 2);
        const double ms = double(t.elapsed());
        QObject::disconnect(spawned);
        const double startup = replacement.finish();
        if (!ok) return fail(QStringLiteral("frozen service not replaced"));
        line(t_.name, QStringLiteral("freeze: SIGSTOP -> replacement healthy"), ms);
        if (startup < 0) {
            unobserved(QStringLiteral("freeze"));
        } else {
            line(t_.name, QStringLiteral("freeze: the replacement's own start-up"), startup);
            const double overhead = ms - double(t_.settings.timings.windowMs) - startup;
            line(t_.name,
                 QStringLiteral("freeze -> healthy - (window %1 ms + its start-up)")
                     .arg(t_.settings.timings.windowMs),
                 overhead, QStringLiteral("< 1000 ms"), overhead < 1000);
        }
        waitReady(200000);
    }

    void adopt() {
        const qint64 pid = sup_->status().pid;
        sup_->leaveRunning();
        mcp_.reset();
        sup_.reset();
        make();
        QElapsedTimer t;
        t.start();
        sup_->start();
        const bool ok = spinUntil([&] { return sup_->status().state == State::Healthy; }, 60000, 1);
        if (!ok || sup_->status().pid != pid) return fail(QStringLiteral("not adopted"));
        line(t_.name, QStringLiteral("launch -> running service adopted, healthy"),
             double(t.elapsed()));
        waitReady(200000); // its MCP rows too: the adopted crash below counts them
    }
};

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    QStringList which = app.arguments().mid(1);
    if (which.isEmpty()) which = {QStringLiteral("demo"), QStringLiteral("opencode")};
    const QString tether = qEnvironmentVariable("TETHER_BIN");
    if (tether.isEmpty()) {
        std::printf("bench_supervision: set TETHER_BIN to the built tether\n");
        return 2;
    }
    std::printf("bench_supervision: probe interval 200 ms, back-off %lld ms, load %s\n",
                static_cast<long long>(kBackoffMs),
                [] {
                    QFile f(QStringLiteral("/proc/loadavg"));
                    return f.open(QIODevice::ReadOnly) ? f.readAll().trimmed() : QByteArray("?");
                }()
                    .constData());
    int failures = 0;
    for (const QString &name : which) {
        Target t;
        t.name = name;
        t.tetherBin = tether;
        if (name == QLatin1String("demo")) {
            t.settings.profile = policy::Dialect::Demo;
            t.settings.arguments = {QStringLiteral("--mcp"), QStringLiteral("3"),
                                    QStringLiteral("--stubborn")};
            t.settings.timings.windowMs = 3000;
            t.settings.timings.probeTimeoutMs = 500;
            t.expectedMcp = 3;
        } else {
            QString why;
            if (!prepareOpencode(t, &why)) {
                std::printf("opencode: FAILED: %s\n", qPrintable(why));
                ++failures;
                continue;
            }
        }
        Bench(t).run();
    }
    return failures == 0 ? 0 : 1;
}
