// The Windows executor against real processes, run under wine here: `tether.exe --headless`
// (TETHER_BIN) with a private data dir and short timings supervises `tether.exe demo-service`
// with two demo MCP children. Asserted as a person sees it: `status --json` (valid JSON on
// stdout) says healthy; a crashed service is replaced by a new one and its MCP children are
// gone; `tether stop` ends the service and its children; a .cmd wrapper chain (the shape of an
// npm install: opencode.cmd -> cmd.exe -> ...) is one service.
//
// Wine reports pid 0 as the owner of every TCP listener: Tether cannot see who holds the port,
// so nothing here can show the port-ownership check telling the service from a foreign process
// (tests/policy/tst_service_tree does, on simulated facts). What the test shows is what Tether
// does with an unreadable owner: a launched child is identified by its launcher (never by the
// port), and its stop covers its descendants and its job; a foreign listener is never contended.
// Not here, because wine cannot pass it: a service adopted by a later Tether launch cannot be
// verified (its port owner is unreadable), so a stop of it is refused, and Tether goes to Failed.

// windows.h first, with NOMINMAX: nothing included before may pull it in without.
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include "os/process.h"
#include "settings/settings.h"
#include "testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <iterator>
#include <memory>
#include <vector>

using namespace tether;

namespace {

constexpr int kLong = 60000; // wine starts processes slowly; a healthy run takes far less

QString tetherBin() {
    const QString bin = qEnvironmentVariable("TETHER_BIN");
    if (bin.isEmpty()) qFatal("TETHER_BIN is not set: it names the tether.exe under test");
    return bin;
}

std::uint16_t freeLoopbackPort() {
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        qFatal("cannot bind 127.0.0.1: %s", qPrintable(server.errorString()));
    return server.serverPort();
}

Settings fastDemo(int port) {
    Settings s;
    s.profile = policy::Dialect::Demo;
    s.port = port;
    // Stubborn children ignore stdin EOF: they outlive a dead service unless Tether ends them.
    s.arguments =
        QStringList{QStringLiteral("--mcp"), QStringLiteral("2"), QStringLiteral("--stubborn")};
    s.timings.probeIntervalMs = 200;
    s.timings.probeTimeoutMs = 1000;
    s.timings.windowMs = 4000;
    s.timings.graceMs = 1000;
    s.timings.backoffInitialMs = 200;
    s.orphanGraceMs = 500;
    s.orphansOnLaunch = policy::OrphanMode::Ignore;
    s.stopServiceOnQuit = true; // a test leaves nothing running behind it
    return s;
}

std::string baseName(const std::string &path) {
    const auto slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool sameName(const std::string &a, const char *b) {
    return QString::fromStdString(baseName(a)).compare(QLatin1String(b), Qt::CaseInsensitive) == 0;
}

bool gone(const os::Identity &id) {
    return os::alive(id) == os::Liveness::Gone;
}

// The demo MCP children below the service: the tether.exe processes it started (`demo-mcp`;
// wine shows no command line, and the demo service starts nothing else).
std::vector<os::Identity> mcpChildrenOf(os::Pid service) {
    const std::vector<os::ProcessInfo> snap = os::snapshot();
    std::vector<os::Identity> out;
    for (os::Pid d : os::descendants(service, snap))
        for (const os::ProcessInfo &p : snap)
            if (p.pid == d && sameName(p.executable, "tether.exe"))
                out.push_back({p.pid, p.startTime});
    return out;
}

// Kills the service the way a crash would, after proving it is that process: the pid, its
// creation time and its executable, all read on the very handle TerminateProcess then uses (a
// handle pins the process object, so the pid cannot be reused in between).
bool crash(const os::Identity &id, const std::string &executable, QString *why) {
    HANDLE h = OpenProcess(PROCESS_TERMINATE | PROCESS_QUERY_LIMITED_INFORMATION, FALSE,
                           static_cast<DWORD>(id.pid));
    if (!h) {
        *why = QStringLiteral("OpenProcess failed: %1").arg(GetLastError());
        return false;
    }
    FILETIME created{}, exited{}, kernel{}, user{};
    wchar_t image[MAX_PATH * 4];
    DWORD size = static_cast<DWORD>(std::size(image));
    bool ok = GetProcessTimes(h, &created, &exited, &kernel, &user) &&
              QueryFullProcessImageNameW(h, 0, image, &size);
    const std::uint64_t start =
        (std::uint64_t(created.dwHighDateTime) << 32) | std::uint64_t(created.dwLowDateTime);
    const std::string exe = QString::fromWCharArray(image, int(size)).toStdString();
    DWORD code = 0;
    if (!ok) {
        *why = QStringLiteral("cannot read the process: %1").arg(GetLastError());
    } else if (start != id.startTime) {
        *why = QStringLiteral("pid %1 is another process now (creation time differs)").arg(id.pid);
        ok = false;
    } else if (QString::fromStdString(exe).compare(QString::fromStdString(executable),
                                                   Qt::CaseInsensitive) != 0) {
        *why = QStringLiteral("pid %1 runs %2, not %3")
                   .arg(id.pid)
                   .arg(QString::fromStdString(exe), QString::fromStdString(executable));
        ok = false;
    } else if (!GetExitCodeProcess(h, &code) || code != STILL_ACTIVE) {
        *why = QStringLiteral("pid %1 has exited already").arg(id.pid);
        ok = false;
    } else if (!TerminateProcess(h, 9)) {
        *why = QStringLiteral("TerminateProcess failed: %1").arg(GetLastError());
        ok = false;
    }
    CloseHandle(h);
    return ok;
}

using Run = test::CliRun;

// A `tether.exe --headless` of the test's own: its own data dir, settings file and port.
class HeadlessTether {
public:
    HeadlessTether(const QString &dir, const Settings &s)
        : dir_(dir) {
        const QString ini = QDir(dir).filePath(QStringLiteral("tether.ini"));
        QString error;
        if (!saveSettings(ini, s, &error))
            qFatal("cannot write %s: %s", qPrintable(ini), qPrintable(error));
        process_.setProcessEnvironment(env());
        process_.setProcessChannelMode(QProcess::MergedChannels);
        QObject::connect(&process_, &QProcess::readyRead, [this] { log_ += process_.readAll(); });
        process_.start(tetherBin(),
                       {QStringLiteral("--headless"), QStringLiteral("--settings"), ini});
    }
    ~HeadlessTether() {
        if (process_.state() == QProcess::NotRunning) return;
        cli({QStringLiteral("quit")});
        if (!process_.waitForFinished(30000)) process_.kill(); // our own child
        process_.waitForFinished(5000);
    }
    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("TETHER_DATA_DIR"), dir_);
        return e;
    }
    // A CLI verb against this Tether, awaited with the event loop running (the log drains).
    Run cli(const QStringList &args, int timeoutMs = 30000) const {
        return test::runTether(args, env(), timeoutMs);
    }
    // `status --json`: its stdout must be one JSON object (else an empty object).
    QJsonObject status(QString *problem = nullptr) const {
        const Run r = cli({QStringLiteral("status"), QStringLiteral("--json")});
        QJsonParseError e{};
        const QJsonDocument d = QJsonDocument::fromJson(r.out, &e);
        if (problem)
            *problem = e.error != QJsonParseError::NoError
                           ? QStringLiteral("exit %1, not JSON (%2): %3")
                                 .arg(r.exitCode)
                                 .arg(e.errorString(), QString::fromUtf8(r.out + r.err))
                           : QString();
        return d.isObject() ? d.object() : QJsonObject{};
    }
    QString log() {
        log_ += process_.readAll();
        return QString::fromUtf8(log_);
    }
    bool running() const { return process_.state() == QProcess::Running; }
    os::Pid pid() const { return os::Pid(process_.processId()); }

private:
    QString dir_;
    QProcess process_;
    QByteArray log_;
};

QString stateOf(const QJsonObject &st) {
    return st.value(QLatin1String("state")).toString();
}
os::Pid pidOf(const QJsonObject &st) {
    return os::Pid(st.value(QLatin1String("pid")).toDouble());
}

// Healthy with a service pid other than `not`: the status, or an empty object at the deadline.
QJsonObject waitHealthy(HeadlessTether &t, os::Pid notPid = 0, int timeoutMs = kLong) {
    QJsonObject st;
    const bool ok = QTest::qWaitFor(
        [&] {
            st = t.status();
            return stateOf(st) == QLatin1String("healthy") && pidOf(st) > 0 && pidOf(st) != notPid;
        },
        timeoutMs);
    return ok ? st : QJsonObject{};
}

// The service named by a status, positively identified: alive, its start time, the program it
// must be (tether.exe) and its parent (the Tether under test, which launched it). Wine does not
// show another process's command line (argv reads as the executable alone), so `demo-service`
// cannot be seen; the parent is what tells it from any other tether.exe.
os::Identity identifyService(os::Pid pid, os::Pid launcher, std::string *executable,
                             const char *program = "tether.exe") {
    const os::Lookup l = os::inspect(pid);
    if (l.status != os::Lookup::Status::Found || l.info.state == os::RunState::Zombie) return {};
    if (!sameName(l.info.executable, program) || l.info.ppid != launcher) {
        qWarning("pid %lld is not the service: %s, parent %lld (Tether is %lld)",
                 static_cast<long long>(pid), l.info.executable.c_str(),
                 static_cast<long long>(l.info.ppid), static_cast<long long>(launcher));
        return {};
    }
    const os::Lookup parent = os::inspect(launcher);
    if (parent.status != os::Lookup::Status::Found || parent.info.startTime > l.info.startTime)
        return {}; // a stale parent pid: the "parent" started after it
    *executable = l.info.executable;
    return {l.info.pid, l.info.startTime};
}

} // namespace

class TestExecutorWindows : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<HeadlessTether> tether_;
    std::vector<os::Identity> spawned_; // every verified process the test saw: cleaned up

    void remember(const std::vector<os::Identity> &ids) {
        spawned_.insert(spawned_.end(), ids.begin(), ids.end());
    }
    QString dump() { return tether_ ? tether_->log() : QString(); }

    // Started, healthy, two MCP children below the service; returns the service's identity.
    os::Identity startHealthy(const Settings &s, qint64 *ms, std::string *exe,
                              std::vector<os::Identity> *children) {
        QElapsedTimer t;
        t.start();
        tether_ = std::make_unique<HeadlessTether>(dir_->path(), s);
        const QJsonObject st = waitHealthy(*tether_);
        *ms = t.elapsed();
        if (st.isEmpty()) {
            qWarning("never healthy:\n%s", qPrintable(dump()));
            return {};
        }
        os::Identity id = identifyService(pidOf(st), tether_->pid(), exe);
        if (id.pid == 0) return {};
        remember({id});
        (void)QTest::qWaitFor(
            [&] {
                *children = mcpChildrenOf(id.pid);
                return children->size() == 2;
            },
            kLong);
        remember(*children);
        return id;
    }

private slots:
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        QVERIFY(dir_->isValid());
        spawned_.clear();
    }
    void cleanup() {
        tether_.reset(); // quit with stopServiceOnQuit: the service goes with it
        // Whatever a failed test left: only identities it verified, each re-verified here.
        for (const os::Identity &id : spawned_)
            if (os::alive(id) == os::Liveness::Alive) os::signalIdentity(id, os::Signal::Kill);
        dir_.reset();
    }

    void startIsHealthyAndStatusIsJson() {
        qint64 ms = 0;
        std::string exe;
        std::vector<os::Identity> children;
        const os::Identity svc = startHealthy(fastDemo(freeLoopbackPort()), &ms, &exe, &children);
        QVERIFY2(svc.pid > 0, qPrintable(dump()));
        qInfo("measured: healthy %lld ms after tether.exe --headless started", ms);
        QCOMPARE(children.size(), std::size_t(2));
        QString problem;
        const QJsonObject st = tether_->status(&problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(stateOf(st), QStringLiteral("healthy"));
        QCOMPARE(pidOf(st), svc.pid);
        QVERIFY(st.value(QLatin1String("port")).toInt() > 0);
    }

    void aCrashedServiceIsReplacedAndItsChildrenSwept() {
        qint64 ms = 0;
        std::string exe;
        std::vector<os::Identity> children;
        const os::Identity svc = startHealthy(fastDemo(freeLoopbackPort()), &ms, &exe, &children);
        QVERIFY2(svc.pid > 0, qPrintable(dump()));
        QCOMPARE(children.size(), std::size_t(2));

        QString why;
        QElapsedTimer t;
        QVERIFY2(crash(svc, exe, &why), qPrintable(why));
        t.start();
        QVERIFY(QTest::qWaitFor([&] { return gone(svc); }, 10000));
        const bool swept = QTest::qWaitFor(
            [&] {
                return std::all_of(children.begin(), children.end(),
                                   [](const os::Identity &c) { return gone(c); });
            },
            kLong);
        const qint64 sweptMs = t.elapsed();
        QVERIFY2(swept, qPrintable(dump()));
        qInfo("measured: the crashed service's 2 MCP children gone %lld ms after TerminateProcess",
              sweptMs);

        const QJsonObject st = waitHealthy(*tether_, svc.pid);
        const qint64 restartMs = t.elapsed();
        QVERIFY2(!st.isEmpty(), qPrintable(dump()));
        std::string exe2;
        const os::Identity replacement = identifyService(pidOf(st), tether_->pid(), &exe2);
        QVERIFY(replacement.pid > 0);
        remember({replacement});
        QVERIFY(replacement != svc);
        // What Tether did about it, for the record.
        for (const QString &line : dump().split(QLatin1Char('\n')))
            if (line.contains(QLatin1String("job")) || line.contains(QLatin1String("orphan")) ||
                line.contains(QLatin1String("killed")) || line.contains(QLatin1String("crash")) ||
                line.contains(QLatin1String("->")))
                qInfo("tether: %s", qPrintable(line.trimmed()));
        QVERIFY(st.value(QLatin1String("restarts")).toInt() >= 1);
        qInfo("measured: healthy again (new pid %lld) %lld ms after TerminateProcess",
              static_cast<long long>(replacement.pid), restartMs);
        // The replacement's own children come up; none of the old ones came back.
        std::vector<os::Identity> fresh;
        QVERIFY(QTest::qWaitFor(
            [&] {
                fresh = mcpChildrenOf(replacement.pid);
                return fresh.size() == 2;
            },
            kLong));
        remember(fresh);
    }

    // The negative control of the sweep above: without containment and with [orphans]
    // whileRunning = ignore, the crashed service's stubborn children do survive it.
    void withoutContainmentTheChildrenOutliveACrash() {
        Settings s = fastDemo(freeLoopbackPort());
        s.containment = false;
        s.orphansWhileRunning = policy::OrphanMode::Ignore;
        qint64 ms = 0;
        std::string exe;
        std::vector<os::Identity> children;
        const os::Identity svc = startHealthy(s, &ms, &exe, &children);
        QVERIFY2(svc.pid > 0, qPrintable(dump()));
        QCOMPARE(children.size(), std::size_t(2));
        QString why;
        QVERIFY2(crash(svc, exe, &why), qPrintable(why));
        const QJsonObject st = waitHealthy(*tether_, svc.pid);
        QVERIFY2(!st.isEmpty(), qPrintable(dump()));
        std::string exe2;
        remember({identifyService(pidOf(st), tether_->pid(), &exe2)});
        remember(mcpChildrenOf(pidOf(st)));
        for (const os::Identity &c : children)
            QVERIFY2(os::alive(c) == os::Liveness::Alive, "an uncontained child died by itself");
    }

    void stopEndsTheServiceAndItsChildren() {
        qint64 ms = 0;
        std::string exe;
        std::vector<os::Identity> children;
        const os::Identity svc = startHealthy(fastDemo(freeLoopbackPort()), &ms, &exe, &children);
        QVERIFY2(svc.pid > 0, qPrintable(dump()));
        QCOMPARE(children.size(), std::size_t(2));

        QElapsedTimer t;
        t.start();
        const Run r = tether_->cli({QStringLiteral("stop")});
        QVERIFY2(r.exitCode == 0, r.out + r.err);
        QVERIFY2(QTest::qWaitFor([&] { return stateOf(tether_->status()) == "stopped"; }, kLong),
                 qPrintable(dump()));
        QVERIFY2(gone(svc), qPrintable(dump()));
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         return std::all_of(children.begin(), children.end(),
                                            [](const os::Identity &c) { return gone(c); });
                     },
                     10000),
                 qPrintable(dump()));
        qInfo("measured: stop -> service and its 2 MCP children gone in %lld ms", t.elapsed());
        QVERIFY(tether_->running()); // a stop is not a quit
    }

    // A foreign program on the port: Tether never starts a contender there and says why. Under
    // wine the holder's pid reads as 0, so Tether cannot name it (real Windows names the PID):
    // the test asserts what holds on both, the refusal and the port in the message.
    void aForeignListenerOnThePortIsNeverContended() {
        QTcpServer foreign;
        QVERIFY(foreign.listen(QHostAddress::LocalHost, 0));
        const int port = foreign.serverPort();
        tether_ = std::make_unique<HeadlessTether>(dir_->path(), fastDemo(port));
        QJsonObject st;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         st = tether_->status();
                         return stateOf(st) == QLatin1String("failed");
                     },
                     kLong),
                 qPrintable(dump()));
        const QString error = st.value(QLatin1String("lastError")).toString();
        QVERIFY2(error.contains(QString::number(port)), qPrintable(error));
        QCOMPARE(pidOf(st), os::Pid(0));
        QVERIFY(os::descendants(tether_->pid()).empty()); // nothing was launched
        qInfo("Tether says: %s", qPrintable(error));
    }

    // The shape of an npm install: the configured program is a .cmd, so the launched process
    // is cmd.exe and the service below it. Under wine the listener's owner reads as pid 0, so
    // what identifies the chain here is the launch (Tether's own child), not the port.
    void aCmdWrapperChainIsOneService() {
        const QString cmd = dir_->filePath(QStringLiteral("opencode.cmd"));
        {
            QFile f(cmd);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("@echo off\r\n\"" + QDir::toNativeSeparators(tetherBin()).toUtf8() +
                    "\" demo-service --port %1 --mcp 2\r\n");
        }
        Settings s = fastDemo(freeLoopbackPort());
        s.profile = policy::Dialect::Custom;
        s.program = QDir::toNativeSeparators(cmd);
        s.arguments = QStringList{QStringLiteral("{port}")};
        tether_ = std::make_unique<HeadlessTether>(dir_->path(), s);
        QElapsedTimer t;
        t.start();
        const QJsonObject st = waitHealthy(*tether_);
        QVERIFY2(!st.isEmpty(), qPrintable(dump()));
        qInfo("measured: the .cmd chain healthy %lld ms after start", t.elapsed());

        // The tracked pid is the wrapper (cmd.exe); the demo service runs below it.
        std::string exe;
        const os::Identity wrapperId = identifyService(pidOf(st), tether_->pid(), &exe, "cmd.exe");
        QVERIFY(wrapperId.pid > 0);
        remember({wrapperId});
        std::vector<os::Identity> chain;
        QVERIFY(QTest::qWaitFor(
            [&] {
                const std::vector<os::ProcessInfo> snap = os::snapshot();
                chain.clear();
                for (os::Pid d : os::descendants(wrapperId.pid, snap))
                    for (const os::ProcessInfo &p : snap)
                        if (p.pid == d && sameName(p.executable, "tether.exe"))
                            chain.push_back({p.pid, p.startTime});
                return chain.size() == 3; // demo-service + its 2 MCP children
            },
            kLong));
        remember(chain);

        const Run r = tether_->cli({QStringLiteral("stop")});
        QVERIFY2(r.exitCode == 0, r.out + r.err);
        QVERIFY2(QTest::qWaitFor([&] { return stateOf(tether_->status()) == "stopped"; }, kLong),
                 qPrintable(dump()));
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         return gone(wrapperId) &&
                                std::all_of(chain.begin(), chain.end(),
                                            [](const os::Identity &c) { return gone(c); });
                     },
                     10000),
                 qPrintable(dump()));
    }
};

QTEST_GUILESS_MAIN(TestExecutorWindows)
#include "tst_executor_windows.moc"
