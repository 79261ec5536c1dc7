// Regression tests for the defects a-m of issue 13, black-box: each drives the real `tether`
// binary (TETHER_BIN) as a person would, `tether --headless --settings FILE` with a private data
// dir, then the CLI verbs (`tether status --json`, stop, start, restart, cleanup, quit) and the
// headless log (one line per transition on stdout), against the real demo service, real
// interpreters, real port holders and real signals. Of Tether's code only settingsFromValues (l)
// is called in process, and the OS layer (core/os) to look at processes and to send the test's
// own verified signals. Short timings; generous deadlines for what is awaited, strict on the
// behaviour. a, g and k are rules of timing alone (one update replacement, a busy spell and the
// stable clock, recoveries against the budget): they run on the rig's virtual clock, through
// the real Supervisor, in tests/rig/tst_supervisor_rig.
//
// Every process a test starts carries TETHER_REGRESSION_TAG=<its temp dir> in its environment
// (inherited by what Tether launches and by the MCP children), so cleanup() finds exactly ours
// and signals each only through a verified identity (pid + start time). Zombies count as gone:
// this machine's PID 1 does not reap orphans.
#include "os/process.h"
#include "settings/settings.h"
#include "testsupport.h"
#include "tether_rig.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

using namespace tether;

namespace {

constexpr int kLong = 30000; // generous deadline for anything awaited
constexpr int kNobody = 65534;

using Run = test::CliRun;

using Values = QMap<QString, QVariant>;

// Short timings on the demo profile; each test overrides what it is about.
Values demoSettings(int port) {
    return Values{
        {QStringLiteral("service/profile"), QStringLiteral("demo")},
        {QStringLiteral("service/port"), port},
        {QStringLiteral("probe/intervalMs"), 100},
        {QStringLiteral("probe/timeoutMs"), 250},
        {QStringLiteral("probe/startupDeadlineMs"), 8000},
        {QStringLiteral("recovery/windowMs"), 1500},
        {QStringLiteral("recovery/graceMs"), 500},
        {QStringLiteral("recovery/backoffInitialMs"), 50},
        {QStringLiteral("recovery/backoffMaxMs"), 400},
        {QStringLiteral("orphans/graceMs"), 300},
    };
}

QStringList args(std::initializer_list<const char *> list) {
    QStringList out;
    for (const char *a : list)
        out << QString::fromLatin1(a);
    return out;
}

bool isAlive(const os::Identity &id) {
    return os::alive(id) == os::Liveness::Alive;
}

os::Identity identity(qint64 pid) {
    const auto id = os::identityOf(pid);
    return id ? *id : os::Identity{pid, 0};
}

QByteArray readFile(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// GET http://HOST:PORT/PATH; the HTTP status, or -1 without an answer.
int httpGet(const QString &host, int port, const QByteArray &path,
            const QByteArray &authorization = {}) {
    QTcpSocket s;
    s.connectToHost(host, quint16(port));
    if (!s.waitForConnected(3000)) return -1;
    QByteArray req =
        "GET " + path + " HTTP/1.1\r\nHost: " + host.toLatin1() + "\r\nConnection: close\r\n";
    if (!authorization.isEmpty()) req += "Authorization: " + authorization + "\r\n";
    s.write(req + "\r\n");
    QByteArray reply;
    QElapsedTimer t;
    t.start();
    while (!reply.contains("\r\n") && t.elapsed() < 5000 && s.waitForReadyRead(1000))
        reply += s.readAll();
    const QList<QByteArray> first = reply.left(reply.indexOf("\r\n")).split(' ');
    return first.size() >= 2 ? first.at(1).toInt() : -1;
}

// A python3 HTTP service for the custom profile: GET /global/health answers
// {"healthy":true,"version":"1.0.0"}; with RECORD set it records every catchable signal (but
// SIGPIPE, which a client hanging up raises in the server itself) as
// "PID NAME" lines (the main process and its one forked child, which stays in its group), and
// GET /fence answers only after every signal delivered before it was handled: the server is
// single-threaded, and Python runs pending signal handlers before the next bytecode.
const char kPythonService[] = R"PY(#!/usr/bin/python3
import http.server, json, os, signal, sys, time
port = int(sys.argv[1])
record = sys.argv[2] if len(sys.argv) > 2 else ''
names = {getattr(signal, n): n[3:] for n in ('SIGTERM','SIGHUP','SIGINT','SIGQUIT','SIGUSR1',
         'SIGUSR2','SIGCONT','SIGALRM','SIGWINCH','SIGTSTP','SIGTTIN','SIGTTOU')}
def recorder(signo, frame):
    fd = os.open(record, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    os.write(fd, ('%d %s\n' % (os.getpid(), names.get(signo, str(signo)))).encode())
    os.close(fd)
if record:
    for s in names:
        signal.signal(s, recorder)
    child = os.fork()
    if child == 0:
        with open(record + '.child', 'w') as f:
            f.write(str(os.getpid()))
        while True:
            signal.pause()
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith('/global/health') or self.path.startswith('/fence'):
            body = json.dumps({'healthy': True, 'version': '1.0.0'}).encode()
            self.send_response(200)
        else:
            body = b'{}'
            self.send_response(404)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
http.server.HTTPServer(('127.0.0.1', port), Handler).serve_forever()
)PY";

} // namespace

class TestRegressions : public QObject {
    Q_OBJECT

    struct Tether {
        std::unique_ptr<QProcess> process;
        QStringList lines; // the headless log, timestamps stripped
        QByteArray partial;
    };

    std::unique_ptr<QTemporaryDir> root_;
    QString dataDir_;
    QString tag_;
    QStringList wrapper_; // run Tether and its verbs through this (e: setpriv as nobody)
    QProcessEnvironment extraEnv_;
    int port_ = 0;
    std::vector<std::unique_ptr<Tether>> tethers_;
    std::vector<std::unique_ptr<QProcess>> helpers_;
    QJsonObject lastStatus_;

    // ---- Environment and processes ------------------------------------------------------------

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("TETHER_DATA_DIR"), dataDir_);
        e.insert(QStringLiteral("XDG_STATE_HOME"), root_->filePath(QStringLiteral("state")));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), root_->filePath(QStringLiteral("config")));
        e.insert(QStringLiteral("XDG_CACHE_HOME"), root_->filePath(QStringLiteral("cache")));
        e.insert(QStringLiteral("TETHER_REGRESSION_TAG"), tag_);
        for (const QString &k : extraEnv_.keys())
            e.insert(k, extraEnv_.value(k));
        return e;
    }

    QString writeIni(const QString &name, const Values &values) {
        const QString path = root_->filePath(name);
        QFile::remove(path);
        {
            QSettings ini(path, QSettings::IniFormat);
            for (auto it = values.begin(); it != values.end(); ++it)
                ini.setValue(it.key(), it.value());
            ini.sync();
        }
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup |
                                        QFile::ReadOther);
        return path;
    }

    Tether *startTether(const QString &ini) {
        auto t = std::make_unique<Tether>();
        t->process = std::make_unique<QProcess>();
        QProcess *p = t->process.get();
        p->setProcessEnvironment(env());
        p->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        Tether *raw = t.get();
        connect(p, &QProcess::readyReadStandardOutput, this, [raw] { drain(raw); });
        const QStringList a{QStringLiteral("--headless"), QStringLiteral("--settings"), ini};
        if (wrapper_.isEmpty())
            p->start(test::tetherBin(), a);
        else
            p->start(wrapper_.first(), wrapper_.mid(1) + QStringList{test::tetherBin()} + a);
        if (!p->waitForStarted(10000))
            qWarning("tether did not start: %s", qPrintable(p->errorString()));
        tethers_.push_back(std::move(t));
        return raw;
    }
    static void drain(Tether *t) {
        t->partial += t->process->readAllStandardOutput();
        int nl;
        while ((nl = t->partial.indexOf('\n')) >= 0) {
            QString line = QString::fromUtf8(t->partial.left(nl));
            t->partial.remove(0, nl + 1);
            // "2026-12-01T08:49:00.123+00:00 state a -> b": drop the timestamp
            const int sp = line.indexOf(QLatin1Char(' '));
            if (sp > 0 && line.at(0).isDigit()) line = line.mid(sp + 1);
            t->lines << line;
        }
    }
    QStringList allLines() const {
        QStringList out;
        for (const auto &t : tethers_) {
            drain(t.get());
            out += t->lines;
        }
        return out;
    }

    // The verb's process is awaited while the event loop runs: Tether's log keeps draining.
    Run cli(const QStringList &a, int timeoutMs = 30000) const {
        return test::runTether(a, env(), timeoutMs, wrapper_);
    }
    QJsonObject status() {
        const Run r = cli({QStringLiteral("status"), QStringLiteral("--json")});
        lastStatus_ = QJsonDocument::fromJson(r.out).object();
        return lastStatus_;
    }
    QString state() { return status().value(QLatin1String("state")).toString(); }
    static qint64 pidOf(const QJsonObject &s) {
        return qint64(s.value(QLatin1String("pid")).toDouble());
    }
    // Status over the control socket itself, timed from the connect to the reply: what a person
    // waits for, without the start-up of a CLI process.
    QJsonObject rawRequest(const QString &verb, int timeoutMs, qint64 *elapsedMs = nullptr) const {
        QElapsedTimer t;
        t.start();
        QLocalSocket s;
        s.connectToServer(dataDir_ + QStringLiteral("/control.sock"));
        if (!s.waitForConnected(timeoutMs)) return {};
        s.write(QJsonDocument(QJsonObject{{QStringLiteral("verb"), verb}})
                    .toJson(QJsonDocument::Compact) +
                '\n');
        s.flush();
        while (!s.canReadLine() && t.elapsed() < timeoutMs)
            s.waitForReadyRead(int(std::max<qint64>(1, timeoutMs - t.elapsed())));
        if (elapsedMs) *elapsedMs = t.elapsed();
        return QJsonDocument::fromJson(s.readLine()).object();
    }

    QJsonObject rawStatus() {
        const QJsonObject s =
            rawRequest(QStringLiteral("status"), 10000).value(QLatin1String("status")).toObject();
        if (!s.isEmpty()) lastStatus_ = s;
        return s;
    }
    QString dump() {
        QStringList log = allLines();
        if (log.size() > 80) log = log.mid(log.size() - 80);
        return QStringLiteral("status: %1\nlog (last %2 lines):\n%3")
            .arg(QString::fromUtf8(QJsonDocument(lastStatus_).toJson(QJsonDocument::Compact)))
            .arg(log.size())
            .arg(log.join(QLatin1Char('\n')));
    }

    // Waits for one of the states (polling `tether status --json`); returns the state seen last.
    QString waitForState(const QStringList &states, int timeoutMs = kLong) {
        QString s;
        (void)QTest::qWaitFor(
            [&] {
                s = state();
                return states.contains(s);
            },
            timeoutMs);
        return s;
    }

    // `tether quit`, then the process ends (the service keeps running unless configured).
    bool quit(Tether *t) {
        cli({QStringLiteral("quit")});
        const bool ok =
            QTest::qWaitFor([t] { return t->process->state() == QProcess::NotRunning; }, kLong);
        drain(t);
        return ok;
    }

    QProcess *startHelper(const QStringList &a, bool ownSession = false) {
        auto p = std::make_unique<QProcess>();
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("TETHER_REGRESSION_TAG"), tag_);
        p->setProcessEnvironment(e);
        if (ownSession) p->setChildProcessModifier([] { ::setsid(); });
        p->start(test::testprocBin(), a);
        p->waitForStarted(10000);
        helpers_.push_back(std::move(p));
        return helpers_.back().get();
    }
    static QByteArray readLineFrom(QProcess *p, int timeoutMs = 10000) {
        QElapsedTimer t;
        t.start();
        while (!p->canReadLine() && t.elapsed() < timeoutMs)
            p->waitForReadyRead(100);
        return p->readLine().trimmed();
    }

    // Every live process carrying our tag (what this test started, directly or through Tether).
    QList<os::Identity> tagged() const {
        return test::taggedProcesses("TETHER_REGRESSION_TAG", tag_);
    }

    QString registrationFile() const { return dataDir_ + QStringLiteral("/service.json"); }
    QJsonObject registration() const {
        return QJsonDocument::fromJson(readFile(registrationFile())).object();
    }
    // A registration written as Tether writes its own (core/service/registration.cpp).
    bool forgeRegistration(const os::Identity &id, qint64 pgid, const QString &program) {
        const QJsonObject o{
            {QStringLiteral("pid"), qint64(id.pid)},
            {QStringLiteral("startTime"), QString::number(id.startTime)},
            {QStringLiteral("port"), port_},
            {QStringLiteral("pgid"), pgid},
            {QStringLiteral("version"), QStringLiteral("1.18.33-demo")},
            {QStringLiteral("password"), QStringLiteral("forged-password-0123456789")},
            {QStringLiteral("startedAt"), QStringLiteral("2026-01-01T00:00:00.000")},
            {QStringLiteral("profile"), QStringLiteral("demo")},
            {QStringLiteral("program"), program},
        };
        QDir().mkpath(dataDir_);
        QFile f(registrationFile());
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
        f.write(QJsonDocument(o).toJson());
        f.close();
        return QFile::setPermissions(registrationFile(), QFile::ReadOwner | QFile::WriteOwner);
    }

    // MCP rows of the status with their pids, once `count` are connected.
    QList<os::Identity> waitForMcp(int count) {
        QList<os::Identity> ids;
        (void)QTest::qWaitFor(
            [&] {
                ids.clear();
                const QJsonArray rows = status().value(QLatin1String("mcp")).toArray();
                if (rows.size() != count) return false;
                for (const QJsonValue &v : rows) {
                    const QJsonObject o = v.toObject();
                    const qint64 pid = qint64(o.value(QLatin1String("pid")).toDouble());
                    const auto id = os::identityOf(pid);
                    if (pid <= 1 || !id ||
                        o.value(QLatin1String("status")).toString() != QLatin1String("connected"))
                        return false;
                    ids << *id;
                }
                return true;
            },
            kLong);
        return ids;
    }
    bool ledgerNames(const QList<os::Identity> &ids) const {
        const QByteArray ledger = readFile(dataDir_ + QStringLiteral("/mcp-ledger.json"));
        for (const os::Identity &id : ids)
            if (!ledger.contains(QByteArray::number(id.pid))) return false;
        return true;
    }
    static int ownGroups(const QList<os::Identity> &ids) {
        int n = 0;
        for (const os::Identity &c : ids)
            n += os::inspect(c.pid).info.pgid == c.pid;
        return n;
    }

    static QString pythonOrEmpty() {
        return QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable()
                   ? QStringLiteral("/usr/bin/python3")
                   : QString();
    }
    QString writePythonService() {
        const QString path = root_->filePath(QStringLiteral("py-service"));
        QFile f(path);
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        f.write(kPythonService);
        f.close();
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                        QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                                        QFile::ExeOther);
        return path;
    }
    Values customPython(const QString &script, const QStringList &extra = {}) {
        Values v = demoSettings(port_);
        v.insert(QStringLiteral("service/profile"), QStringLiteral("custom"));
        v.insert(QStringLiteral("service/program"), script);
        v.insert(QStringLiteral("service/arguments"),
                 QStringList{QStringLiteral("{port}")} + extra);
        v.insert(QStringLiteral("service/healthPath"), QStringLiteral("/global/health"));
        v.insert(QStringLiteral("probe/startupDeadlineMs"), 15000);
        return v;
    }

private slots:
    void init() {
        root_ = std::make_unique<QTemporaryDir>();
        QVERIFY(root_->isValid());
        dataDir_ = root_->filePath(QStringLiteral("data"));
        tag_ = root_->path();
        wrapper_.clear();
        extraEnv_ = QProcessEnvironment();
        port_ = test::freeLoopbackPort();
        tethers_.clear();
        helpers_.clear();
        lastStatus_ = {};
    }

    void cleanup() {
        if (QTest::currentTestFailed()) qWarning("%s", qPrintable(dump()));
        for (auto &t : tethers_) {
            if (t->process->state() == QProcess::NotRunning) continue;
            cli({QStringLiteral("stop")});
            (void)QTest::qWaitFor(
                [this] {
                    const QString s = state();
                    return s == QLatin1String("stopped") || s == QLatin1String("failed") ||
                           s.isEmpty();
                },
                15000);
            cli({QStringLiteral("quit")});
            if (!QTest::qWaitFor([&t] { return t->process->state() == QProcess::NotRunning; },
                                 15000)) {
                t->process->kill(); // our own child, identified by QProcess
                t->process->waitForFinished(5000);
            }
        }
        tethers_.clear();
        for (auto &h : helpers_) {
            if (h->state() != QProcess::NotRunning) {
                h->kill();
                h->waitForFinished(5000);
            }
        }
        helpers_.clear();
        // What is left of ours (left running on purpose, or by a failed test): verified kills.
        QElapsedTimer t;
        t.start();
        QList<os::Identity> left = tagged();
        QStringList leftovers;
        for (const os::Identity &id : left) {
            QStringList argv;
            for (const std::string &a : os::inspect(id.pid).info.argv)
                argv << QString::fromStdString(a);
            leftovers << QStringLiteral("%1 [%2]").arg(id.pid).arg(argv.join(QLatin1Char(' ')));
        }
        while (!left.isEmpty() && t.elapsed() < 10000) {
            for (const os::Identity &id : left)
                os::signalIdentity(id, os::Signal::Kill);
            QTest::qWait(50);
            left = tagged();
        }
        if (!leftovers.isEmpty())
            qInfo("cleanup: killed %d process(es) of this test left running: %s",
                  int(leftovers.size()), qPrintable(leftovers.join(QStringLiteral("; "))));
        QVERIFY2(left.isEmpty(), "processes of this test survive SIGKILL");
        wrapper_.clear();
        root_.reset();
    }

    // b. An adopted service with stubborn MCP children is SIGKILLed and stopped at once, before
    // Tether notices the death: its MCP children must go all the same.
    void b_stopOfADeadAdoptedServiceRemovesItsMcpChildren() {
        Values v = demoSettings(port_);
        v.insert(QStringLiteral("service/arguments"),
                 args({"--mcp", "3", "--stubborn", "--mcp-setsid", "2"}));
        Tether *first = startTether(writeIni(QStringLiteral("b1.ini"), v));
        QCOMPARE(waitForState({QStringLiteral("healthy")}), QStringLiteral("healthy"));
        const QList<os::Identity> children = waitForMcp(3);
        QCOMPARE(children.size(), 3);
        QTRY_VERIFY_WITH_TIMEOUT(ledgerNames(children), kLong);
        QTRY_COMPARE_WITH_TIMEOUT(ownGroups(children), 1, kLong); // child 2 left the group
        const os::Identity service = identity(pidOf(status()));
        QVERIFY(quit(first));
        QVERIFY(isAlive(service));

        // The second Tether adopts it; slow probing, so only the kill's own notification (if
        // any) can tell it before the stop arrives.
        v.insert(QStringLiteral("probe/intervalMs"), 5000);
        v.insert(QStringLiteral("probe/timeoutMs"), 1000);
        v.insert(QStringLiteral("recovery/windowMs"), 10000);
        startTether(writeIni(QStringLiteral("b2.ini"), v));
        QCOMPARE(waitForState({QStringLiteral("healthy"), QStringLiteral("failed")}),
                 QStringLiteral("healthy"));
        QCOMPARE(pidOf(lastStatus_), service.pid); // adopted, not replaced
        for (const os::Identity &c : children)
            QVERIFY(isAlive(c));

        QLocalSocket control; // connected before the kill: the stop follows it at once
        control.connectToServer(dataDir_ + QStringLiteral("/control.sock"));
        QVERIFY(control.waitForConnected(10000));
        QVERIFY(os::signalIdentity(service, os::Signal::Kill));
        QTRY_VERIFY_WITH_TIMEOUT(test::absentOrZombie(service.pid), 5000);
        control.write("{\"verb\":\"stop\"}\n");
        control.flush();
        QTRY_VERIFY_WITH_TIMEOUT(control.canReadLine(), kLong);
        QVERIFY2(control.readLine().contains("\"ok\":true"), qPrintable(dump()));

        auto goneCount = [&children] {
            return int(std::count_if(children.begin(), children.end(),
                                     [](const os::Identity &c) { return !isAlive(c); }));
        };
        QTRY_VERIFY2_WITH_TIMEOUT(
            goneCount() == 3,
            qPrintable(
                QStringLiteral("%1 of 3 MCP children gone\n%2").arg(goneCount()).arg(dump())),
            8000);
        for (const os::Identity &c : children)
            QVERIFY(test::absentOrZombie(c.pid));
        const Run dry = cli(args({"cleanup", "--dry-run", "--json"}));
        QCOMPARE(dry.exitCode, 0);
        for (const QJsonValue &o :
             QJsonDocument::fromJson(dry.out).object().value(QLatin1String("found")).toArray())
            for (const os::Identity &c : children)
                QVERIFY2(qint64(o.toObject().value(QLatin1String("pid")).toDouble()) != c.pid,
                         dry.out.constData());
        QCOMPARE(waitForState({QStringLiteral("stopped")}), QStringLiteral("stopped"));
    }

    // c. A stop that takes a while (SIGTERM ignored, grace 2 s), then at once start / restart:
    // the status says stopping meanwhile, and the last intent wins.
    void c_stopThenStartLastIntentWins_data() {
        QTest::addColumn<QString>("then");
        QTest::newRow("start") << QStringLiteral("start");
        QTest::newRow("restart") << QStringLiteral("restart");
    }
    void c_stopThenStartLastIntentWins() {
        QFETCH(QString, then);
        Values v = demoSettings(port_);
        v.insert(QStringLiteral("service/arguments"), args({"--ignore-term"}));
        v.insert(QStringLiteral("recovery/graceMs"), 2000);
        startTether(writeIni(QStringLiteral("c.ini"), v));
        QCOMPARE(waitForState({QStringLiteral("healthy")}), QStringLiteral("healthy"));
        const os::Identity old = identity(pidOf(lastStatus_));
        QCOMPARE(cli({QStringLiteral("stop")}).exitCode, 0);
        const QString during = state();
        cli({then});
        QStringList seen{during};
        while (seen.size() < 1000) {
            const QString st = state();
            if (!isAlive(old)) break; // a sample counts only if the old one outlived its answer
            seen << st;
            QTest::qWait(20);
        }
        seen.removeDuplicates();
        // After it: the last intent (run) wins, with a new service.
        const bool ranAgain = QTest::qWaitFor(
            [&] { return state() == QLatin1String("healthy") && pidOf(lastStatus_) != old.pid; },
            10000);
        const QString summary =
            QStringLiteral("right after `tether stop`: %1; states while the old service was "
                           "still stopping (2 s grace): %2; after `tether %3` during the stop the "
                           "service %4\n%5")
                .arg(during, seen.join(QStringLiteral(", ")), then,
                     ranAgain
                         ? QStringLiteral("runs again with a new pid")
                         : QStringLiteral("did not run again (the %1 was dropped), state %2")
                               .arg(then, lastStatus_.value(QLatin1String("state")).toString()),
                     dump());
        QVERIFY2(during == QLatin1String("stopping"), qPrintable(summary));
        QVERIFY2(seen == QStringList{QStringLiteral("stopping")}, qPrintable(summary));
        QVERIFY2(ranAgain, qPrintable(summary));
        QVERIFY(test::absentOrZombie(old.pid));
        QCOMPARE(test::demoServicesOnPort(port_).size(), 1);
    }

    // d. A registration naming a live process that does not own the port (a real pid + start
    // time + program, leading its own group): never signalled, registration dropped, the
    // service launched and healthy, and `tether stop` stops the launched one.
    void d_liveRegisteredProcessNotOwningThePortIsLeftAlone() {
        const QString record = root_->filePath(QStringLiteral("decoy.signals"));
        QProcess *decoy = startHelper({QStringLiteral("decoy"), record}, true);
        QCOMPARE(readLineFrom(decoy), QByteArray("ready"));
        const os::Identity decoyId = identity(decoy->processId());
        QVERIFY(decoyId.startTime != 0);
        QCOMPARE(os::inspect(decoyId.pid).info.pgid, decoyId.pid); // leads its own group
        QVERIFY(forgeRegistration(decoyId, decoyId.pid, test::testprocBin()));

        startTether(writeIni(QStringLiteral("d.ini"), demoSettings(port_)));
        QTRY_VERIFY2_WITH_TIMEOUT(state() == QLatin1String("healthy") &&
                                      pidOf(lastStatus_) != decoyId.pid,
                                  qPrintable(dump()), 15000);
        const os::Identity launched = identity(pidOf(lastStatus_));
        QCOMPARE(test::demoServicesOnPort(port_), QList<qint64>{launched.pid});
        QCOMPARE(qint64(registration().value(QLatin1String("pid")).toDouble()), launched.pid);
        QCOMPARE(cli({QStringLiteral("stop")}).exitCode, 0);
        QCOMPARE(waitForState({QStringLiteral("stopped")}), QStringLiteral("stopped"));
        QTRY_VERIFY_WITH_TIMEOUT(test::absentOrZombie(launched.pid), 10000);
        // Fence: after "pong" every signal sent to the decoy earlier is in the record.
        decoy->write("ping\n");
        QCOMPARE(readLineFrom(decoy), QByteArray("pong"));
        QVERIFY2(readFile(record).isEmpty(), readFile(record).constData());
        QVERIFY(isAlive(decoyId));
        QCOMPARE(os::inspect(decoyId.pid).info.state, os::RunState::Running); // not stopped
    }

    // e. The port's listener belongs to a process Tether cannot see (another user's: Tether
    // runs as nobody, the holder as root): no contender is launched; failed, saying so.
    void e_portHeldByAnInvisibleOwnerLaunchesNoContender() {
        if (::geteuid() != 0) QFAIL("needs root to run Tether as nobody beside a root listener");
        if (QStandardPaths::findExecutable(QStringLiteral("setpriv")).isEmpty())
            QFAIL("setpriv is not installed");
        // nobody must reach the binary, the settings and its own data dir.
        for (QString dir = QFileInfo(test::tetherBin()).absolutePath(); dir != QLatin1String("/");
             dir = QFileInfo(dir).absolutePath())
            if (!(QFileInfo(dir).permissions() & QFile::ExeOther))
                QFAIL(qPrintable(QStringLiteral("%1 is not searchable by nobody").arg(dir)));
        QVERIFY(QFile::setPermissions(root_->path(), QFile::ReadOwner | QFile::WriteOwner |
                                                         QFile::ExeOwner | QFile::ReadOther |
                                                         QFile::ExeOther | QFile::ReadGroup |
                                                         QFile::ExeGroup));
        for (const char *sub : {"data", "home", "state", "config", "cache"}) {
            const QString d = root_->filePath(QString::fromLatin1(sub));
            QVERIFY(QDir().mkpath(d));
            QVERIFY(::chmod(QFile::encodeName(d).constData(), 0700) == 0);
            QVERIFY(::chown(QFile::encodeName(d).constData(), kNobody, kNobody) == 0);
        }
        extraEnv_.insert(QStringLiteral("HOME"), root_->filePath(QStringLiteral("home")));
        wrapper_ = QStringList{QStringLiteral("setpriv"), QStringLiteral("--reuid=65534"),
                               QStringLiteral("--regid=65534"), QStringLiteral("--clear-groups")};
        // Control: nobody really cannot see the holder's sockets.
        QProcess *holder = startHelper(
            {QStringLiteral("listen"), QStringLiteral("127.0.0.1"), QString::number(port_)});
        QVERIFY(readLineFrom(holder).startsWith("listening"));
        QProcess peek;
        peek.start(QStringLiteral("setpriv"),
                   wrapper_.mid(1) +
                       QStringList{QStringLiteral("ls"),
                                   QStringLiteral("/proc/%1/fd").arg(holder->processId())});
        QVERIFY(peek.waitForFinished(10000));
        QVERIFY2(peek.exitCode() != 0, "nobody can read root's /proc/PID/fd here: no test");

        startTether(writeIni(QStringLiteral("e.ini"), demoSettings(port_)));
        QList<qint64> contenders; // seen in the process table (a contender may live briefly)
        QString s;
        QElapsedTimer t, sinceFailed;
        t.start();
        while (t.elapsed() < 20000) {
            for (qint64 pid : test::demoServicesOnPort(port_))
                if (!contenders.contains(pid)) contenders << pid;
            s = state(); // through setpriv: the control socket answers its own user only
            if (s == QLatin1String("failed") && !sinceFailed.isValid()) sinceFailed.start();
            if (sinceFailed.isValid() && sinceFailed.elapsed() > 1500) break;
            QTest::qWait(20);
        }
        const QStringList launches = allLines().filter(
            QRegularExpression(QStringLiteral("started pid \\d+|-> starting: launching")));
        const QByteArray serviceOutput = readFile(dataDir_ + QStringLiteral("/logs/service.log"));
        QVERIFY2(launches.isEmpty() && contenders.isEmpty() && serviceOutput.isEmpty(),
                 qPrintable(QStringLiteral("a contender was launched on the held port %1 "
                                           "(%2 launch lines, %3 seen running; its output: "
                                           "%4)\n%5")
                                .arg(port_)
                                .arg(launches.size())
                                .arg(contenders.size())
                                .arg(QString::fromUtf8(serviceOutput.left(300)), dump())));
        QCOMPARE(s, QStringLiteral("failed"));
        const QString error = lastStatus_.value(QLatin1String("lastError")).toString();
        QVERIFY2(error.contains(QString::number(port_)), qPrintable(error));
        QVERIFY2(error.contains(QRegularExpression(
                     QStringLiteral("cannot see|can't see|not visible|cannot be read|"
                                    "unreadable|cannot read|cannot identify"),
                     QRegularExpression::CaseInsensitiveOption)),
                 qPrintable(error));
        QCOMPARE(holder->state(), QProcess::Running); // never signalled
    }

    // f. [service] port changed between two launches: the old service (ours, verified) does
    // not keep running unsupervised on the old port; the new one runs on the new port.
    void f_portChangeStopsTheOldServiceAndRegistersTheNew() {
        const int portA = port_;
        int portB = test::freeLoopbackPort();
        while (portB == portA)
            portB = test::freeLoopbackPort();
        Tether *first = startTether(writeIni(QStringLiteral("f1.ini"), demoSettings(portA)));
        QCOMPARE(waitForState({QStringLiteral("healthy")}), QStringLiteral("healthy"));
        const os::Identity old = identity(pidOf(lastStatus_));
        QVERIFY(quit(first));
        QVERIFY(isAlive(old));

        startTether(writeIni(QStringLiteral("f2.ini"), demoSettings(portB)));
        QTRY_VERIFY2_WITH_TIMEOUT(state() == QLatin1String("healthy") &&
                                      pidOf(lastStatus_) != old.pid,
                                  qPrintable(dump()), kLong);
        const qint64 fresh = pidOf(lastStatus_);
        QCOMPARE(int(lastStatus_.value(QLatin1String("port")).toDouble()), portB);
        QTRY_VERIFY2_WITH_TIMEOUT(
            test::absentOrZombie(old.pid),
            qPrintable(QStringLiteral("the old service pid %1 still runs unsupervised on port "
                                      "%2\n%3")
                           .arg(old.pid)
                           .arg(portA)
                           .arg(dump())),
            10000);
        QCOMPARE(test::demoServicesOnPort(portA).size(), 0);
        QCOMPARE(test::demoServicesOnPort(portB), QList<qint64>{fresh});
        const QJsonObject reg = registration();
        QCOMPARE(qint64(reg.value(QLatin1String("pid")).toDouble()), fresh);
        QCOMPARE(int(reg.value(QLatin1String("port")).toDouble()), portB);
        QCOMPARE(cli({QStringLiteral("stop")}).exitCode, 0);
        QCOMPARE(waitForState({QStringLiteral("stopped")}), QStringLiteral("stopped"));
        QTRY_VERIFY_WITH_TIMEOUT(test::demoServicesOnPort(portB).isEmpty(), 10000);
    }

    // h. A service that listens on ::1 only is probed where it listens.
    void h_serviceOnIpv6LoopbackIsProbedThere() {
        Values v = demoSettings(port_);
        v.insert(QStringLiteral("service/arguments"), args({"--hostname", "::1"}));
        v.insert(QStringLiteral("probe/startupDeadlineMs"), 4000);
        startTether(writeIni(QStringLiteral("h1.ini"), v));
        QVERIFY2(waitForState({QStringLiteral("healthy"), QStringLiteral("failed")}, 20000) ==
                     QLatin1String("healthy"),
                 qPrintable(dump()));
        const os::Identity first = identity(pidOf(lastStatus_));
        QCOMPARE(test::demoServicesOnPort(port_), QList<qint64>{first.pid});
        QCOMPARE(httpGet(QStringLiteral("127.0.0.1"), port_, "/global/health"), -1); // ::1 only
        QTest::qWait(1000); // and it stays so: healthy, the same process
        QCOMPARE(state(), QStringLiteral("healthy"));
        QCOMPARE(pidOf(lastStatus_), first.pid);
        QCOMPARE(lastStatus_.value(QLatin1String("restarts")).toInt(), 0);
    }

    // h. A foreign listener on [::1]:P only does not hold 127.0.0.1:P: the service is launched
    // on 127.0.0.1:P and healthy, and the foreign listener is left alone.
    void h_foreignIpv6OnlyListenerDoesNotHoldTheIpv4Port() {
        QProcess *holder =
            startHelper({QStringLiteral("listen"), QStringLiteral("::1"), QString::number(port_)});
        QVERIFY(readLineFrom(holder).startsWith("listening"));
        startTether(writeIni(QStringLiteral("h2.ini"), demoSettings(port_)));
        QVERIFY2(waitForState({QStringLiteral("healthy"), QStringLiteral("failed")}, 15000) ==
                     QLatin1String("healthy"),
                 qPrintable(dump()));
        const qint64 pid = pidOf(lastStatus_);
        QCOMPARE(test::demoServicesOnPort(port_), QList<qint64>{pid});
        QVERIFY(!lastStatus_.value(QLatin1String("lastError"))
                     .toString()
                     .contains(QStringLiteral("held by")));
        QCOMPARE(holder->state(), QProcess::Running);
    }

    // i. A custom service run through an interpreter (a python3 script with a shebang: the
    // process is python3 + the script's path) is re-adopted by the next Tether.
    void i_interpretedCustomServiceIsReadopted() {
        if (pythonOrEmpty().isEmpty()) QFAIL("/usr/bin/python3 is not installed");
        const QString script = writePythonService();
        const QString ini = writeIni(QStringLiteral("i.ini"), customPython(script));
        Tether *first = startTether(ini);
        QCOMPARE(waitForState({QStringLiteral("healthy"), QStringLiteral("failed")}),
                 QStringLiteral("healthy"));
        const os::Identity service = identity(pidOf(lastStatus_));
        QVERIFY(QString::fromStdString(os::inspect(service.pid).info.executable)
                    .contains(QStringLiteral("python")));
        QVERIFY(quit(first));
        QVERIFY(isAlive(service));

        Tether *second = startTether(ini);
        QVERIFY2(waitForState({QStringLiteral("healthy"), QStringLiteral("failed")}) ==
                     QLatin1String("healthy"),
                 qPrintable(dump()));
        QCOMPARE(pidOf(lastStatus_), service.pid);
        QVERIFY(isAlive(service));
        const QString log = second->lines.join(QLatin1Char('\n'));
        QVERIFY2(!log.contains(QStringLiteral("gone or now another process")), qPrintable(log));
        QVERIFY2(!log.contains(QStringLiteral("held by")), qPrintable(log));
        QCOMPARE(lastStatus_.value(QLatin1String("restarts")).toInt(), 0);
    }

    // j. Quitting with the service left running leaves it and its MCP children alive and
    // unsignalled (no ~QProcess kill of a released or forgotten child).
    void j_quitLeavesServiceAndMcpChildrenAlive() {
        Values v = demoSettings(port_);
        v.insert(QStringLiteral("service/arguments"), args({"--mcp", "2"})); // TERM/HUP kill them
        Tether *t = startTether(writeIni(QStringLiteral("j1.ini"), v));
        QCOMPARE(waitForState({QStringLiteral("healthy")}), QStringLiteral("healthy"));
        const os::Identity service = identity(pidOf(lastStatus_));
        const QList<os::Identity> children = waitForMcp(2);
        QCOMPARE(children.size(), 2);
        const QString password = registration().value(QLatin1String("password")).toString();
        QVERIFY(!password.isEmpty());
        QVERIFY(quit(t));
        QTest::qWait(500); // an absence is observed over a while: a late signal would show here
        QVERIFY(isAlive(service));
        for (const os::Identity &c : children)
            QVERIFY(isAlive(c));
        QCOMPARE(os::inspect(service.pid).info.state, os::RunState::Running);
        const QByteArray auth = "Basic " + (QByteArray("opencode:") + password.toUtf8()).toBase64();
        QCOMPARE(httpGet(QStringLiteral("127.0.0.1"), port_, "/global/health", auth), 200);
    }

    // j. A Tether that adopts a running service (its own earlier launch) says how long the
    // service and its MCP servers have run, not how long it has watched them: its MCP ledger is
    // gone here, as on a new data directory.
    void j_adoptedServiceAndMcpServersShowTheirOwnUptime() {
        Values v = demoSettings(port_);
        v.insert(QStringLiteral("service/arguments"), args({"--mcp", "2"}));
        v.insert(QStringLiteral("probe/intervalMs"), 5000); // the default: MCP rows refresh rarely
        const QString ini = writeIni(QStringLiteral("j3.ini"), v);
        Tether *first = startTether(ini);
        QCOMPARE(waitForState({QStringLiteral("healthy")}), QStringLiteral("healthy"));
        QCOMPARE(waitForMcp(2).size(), 2);
        QElapsedTimer known; // both have run at least this long
        known.start();
        QTest::qWait(1000); // a second this Tether watched and the next one did not
        QVERIFY(quit(first));
        QVERIFY(QFile::remove(QDir(dataDir_).filePath(QStringLiteral("mcp-ledger.json"))));
        startTether(ini);
        QCOMPARE(waitForState({QStringLiteral("healthy")}), QStringLiteral("healthy"));
        QCOMPARE(waitForMcp(2).size(), 2);
        const qint64 atLeast = known.elapsed();
        const QJsonObject s = status();
        const QDateTime started = QDateTime::fromString(
            s.value(QLatin1String("startedAt")).toString(), Qt::ISODateWithMs);
        QVERIFY(started.isValid());
        QVERIFY2(started.msecsTo(QDateTime::currentDateTime()) >= atLeast,
                 qPrintable(QStringLiteral("service up %1 ms, known to run %2 ms")
                                .arg(started.msecsTo(QDateTime::currentDateTime()))
                                .arg(atLeast)));
        for (const QJsonValue &row : s.value(QLatin1String("mcp")).toArray())
            QVERIFY2(
                row.toObject().value(QLatin1String("uptimeMs")).toInteger() >= atLeast,
                qPrintable(QStringLiteral("%1 up %2 ms, known to run %3 ms")
                               .arg(row.toObject().value(QLatin1String("name")).toString())
                               .arg(row.toObject().value(QLatin1String("uptimeMs")).toInteger())
                               .arg(atLeast)));
        // Ages as of the question, not of the last refresh (one probe interval apart):
        // asked again 300 ms later, every MCP server is 300 ms older.
        const QJsonArray before = status().value(QLatin1String("mcp")).toArray();
        QElapsedTimer between;
        between.start();
        QTest::qWait(300);
        const QJsonArray after = status().value(QLatin1String("mcp")).toArray();
        const qint64 apart = between.elapsed();
        QCOMPARE(after.size(), before.size());
        for (qsizetype i = 0; i < after.size(); ++i) {
            const qint64 grew = after[i].toObject().value(QLatin1String("uptimeMs")).toInteger() -
                                before[i].toObject().value(QLatin1String("uptimeMs")).toInteger();
            QVERIFY2(
                grew >= 300 && grew <= apart + 50,
                qPrintable(QStringLiteral("%1 grew %2 ms in %3 ms")
                               .arg(after[i].toObject().value(QLatin1String("name")).toString())
                               .arg(grew)
                               .arg(apart)));
        }
    }

    // j. The same with a service that records every catchable signal, with a child in its group.
    void j_quitSendsNoSignalToTheServiceOrItsGroup() {
        if (pythonOrEmpty().isEmpty()) QFAIL("/usr/bin/python3 is not installed");
        const QString record = root_->filePath(QStringLiteral("service.signals"));
        Tether *t = startTether(
            writeIni(QStringLiteral("j2.ini"), customPython(writePythonService(), {record})));
        QCOMPARE(waitForState({QStringLiteral("healthy"), QStringLiteral("failed")}),
                 QStringLiteral("healthy"));
        const os::Identity service = identity(pidOf(lastStatus_));
        QTRY_VERIFY_WITH_TIMEOUT(!readFile(record + QStringLiteral(".child")).isEmpty(), kLong);
        const os::Identity child =
            identity(readFile(record + QStringLiteral(".child")).toLongLong());
        QCOMPARE(os::inspect(child.pid).info.pgid, service.pid); // in the service's group
        QVERIFY(quit(t));
        QTest::qWait(300); // the child's handler runs at once; observed over a while
        QCOMPARE(httpGet(QStringLiteral("127.0.0.1"), port_, "/fence"), 200); // main's fence
        QVERIFY2(readFile(record).isEmpty(), readFile(record).constData());
        QVERIFY(isAlive(service));
        QVERIFY(isAlive(child));
    }

    // j. A registration naming a live unrelated process that leads its own group, with a member,
    // under another start time (what a reused pid looks like), across start, stop and restart:
    // neither it nor its group receives any signal.
    void j_forgedRegistrationSignalsNeitherLeaderNorGroup() {
        const QString record = root_->filePath(QStringLiteral("tree.signals"));
        QProcess *tree = startHelper({QStringLiteral("tree"), QStringLiteral("2"), record}, true);
        QList<qint64> nodes;
        for (QByteArray line = readLineFrom(tree); !line.isEmpty() && line != "ready";
             line = readLineFrom(tree))
            if (line.startsWith("node ")) nodes << line.split(' ').value(2).toLongLong();
        QCOMPARE(nodes.size(), 2);
        const os::Identity leader = identity(nodes.at(0)), member = identity(nodes.at(1));
        QCOMPARE(os::inspect(member.pid).info.pgid, leader.pid);
        QVERIFY(forgeRegistration({leader.pid, leader.startTime + 4242}, leader.pid,
                                  test::testprocBin()));

        startTether(writeIni(QStringLiteral("j3.ini"), demoSettings(port_)));
        QCOMPARE(waitForState({QStringLiteral("healthy"), QStringLiteral("failed")}),
                 QStringLiteral("healthy"));
        const qint64 launched = pidOf(lastStatus_);
        QVERIFY(launched != leader.pid);
        QCOMPARE(cli({QStringLiteral("restart")}).exitCode, 0);
        QTRY_VERIFY2_WITH_TIMEOUT(state() == QLatin1String("healthy") &&
                                      pidOf(lastStatus_) != launched,
                                  qPrintable(dump()), kLong);
        QCOMPARE(cli({QStringLiteral("stop")}).exitCode, 0);
        QCOMPARE(waitForState({QStringLiteral("stopped")}), QStringLiteral("stopped"));
        QTest::qWait(300); // their handlers run at once; observed over a while
        QVERIFY2(readFile(record).isEmpty(), readFile(record).constData());
        QVERIFY(isAlive(leader));
        QVERIFY(isAlive(member));
    }

    // j. The group signal after a stop goes only to the service's own group: a registration
    // that names a process which passes every check (real pid + start time + program, and it
    // listens on the port) but another, unrelated group as its pgid must never get that group
    // signalled. (The group kill today runs on the registered pgid whatever it is.)
    void j_registeredPgidOfAnotherGroupIsNeverSignalled() {
        const QString record = root_->filePath(QStringLiteral("group.signals"));
        QProcess *victim = startHelper({QStringLiteral("decoy"), record}, true);
        QCOMPARE(readLineFrom(victim), QByteArray("ready"));
        const os::Identity victimId = identity(victim->processId());
        QCOMPARE(os::inspect(victimId.pid).info.pgid, victimId.pid); // leads its own group
        QProcess *listener = startHelper(
            {QStringLiteral("listen"), QStringLiteral("127.0.0.1"), QString::number(port_)});
        QVERIFY(readLineFrom(listener).startsWith("listening"));
        const os::Identity listenerId = identity(listener->processId());
        QVERIFY(os::inspect(listenerId.pid).info.pgid != victimId.pid);
        QVERIFY(forgeRegistration(listenerId, victimId.pid, test::testprocBin()));

        startTether(writeIni(QStringLiteral("j4.ini"), demoSettings(port_)));
        const QString first = waitForState({QStringLiteral("healthy"), QStringLiteral("failed"),
                                            QStringLiteral("not-responding")});
        QVERIFY2(!first.isEmpty(), qPrintable(dump()));
        QCOMPARE(cli({QStringLiteral("stop")}).exitCode, 0);
        QVERIFY2(waitForState({QStringLiteral("stopped"), QStringLiteral("failed")}) !=
                     QLatin1String(""),
                 qPrintable(dump()));
        QTest::qWait(300); // a group signal would arrive at once; observed over a while
        QVERIFY2(isAlive(victimId),
                 qPrintable(QStringLiteral("the unrelated group %1 was killed\n%2")
                                .arg(victimId.pid)
                                .arg(dump())));
        victim->write("ping\n"); // fence: every signal sent earlier is in the record
        QCOMPARE(readLineFrom(victim), QByteArray("pong"));
        QVERIFY2(readFile(record).isEmpty(), readFile(record).constData());
    }

    // l. Settings under which a single missed probe is fatal are rejected, naming the key.
    void l_settingsFromValuesRejectsOneMissFatalTimings_data() {
        QTest::addColumn<Values>("values");
        QTest::addColumn<bool>("rejected");
        QTest::addColumn<QString>("keys"); // a warning names one of these
        const QString timeout = QStringLiteral("probe/timeoutMs"),
                      interval = QStringLiteral("probe/intervalMs"),
                      window = QStringLiteral("recovery/windowMs");
        QTest::newRow("timeout > window") << Values{{timeout, 5000}, {window, 3000}} << true
                                          << QStringLiteral("timeoutMs|windowMs");
        QTest::newRow("timeout == window") << Values{{timeout, 3000}, {window, 3000}} << true
                                           << QStringLiteral("timeoutMs|windowMs");
        QTest::newRow("default timeout, window 1 s")
            << Values{{window, 1000}, {interval, 500}} << true
            << QStringLiteral("timeoutMs|windowMs");
        QTest::newRow("interval > window")
            << Values{{interval, 10000}, {timeout, 1000}, {window, 3000}} << true
            << QStringLiteral("intervalMs|windowMs");
        QTest::newRow("valid") << Values{{interval, 2000}, {timeout, 1000}, {window, 3000}} << false
                               << QString();
        QTest::newRow("defaults") << Values{} << false << QString();
    }
    void l_settingsFromValuesRejectsOneMissFatalTimings() {
        QFETCH(Values, values);
        QFETCH(bool, rejected);
        QFETCH(QString, keys);
        const LoadedSettings loaded = settingsFromValues(values);
        const auto &t = loaded.settings.timings;
        const QString warnings = loaded.warnings.join(QLatin1Char('\n'));
        if (!rejected) {
            QVERIFY2(loaded.warnings.isEmpty(), qPrintable(warnings));
            return;
        }
        QVERIFY2(warnings.contains(QRegularExpression(keys)),
                 qPrintable(QStringLiteral("no warning names %1: \"%2\"").arg(keys, warnings)));
        // Whatever was replaced by its default, the result is one a single miss cannot end.
        QVERIFY2(t.probeTimeoutMs < t.windowMs && t.probeIntervalMs <= t.windowMs,
                 qPrintable(QStringLiteral("kept intervalMs=%1 timeoutMs=%2 windowMs=%3")
                                .arg(t.probeIntervalMs)
                                .arg(t.probeTimeoutMs)
                                .arg(t.windowMs)));
    }
    void l_headlessWarnsNamingTheKey_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("value");
        QTest::addColumn<QString>("names");
        QTest::newRow("timeoutMs >= windowMs")
            << QStringLiteral("probe/timeoutMs") << 1500 << QStringLiteral("timeoutMs|windowMs");
        QTest::newRow("intervalMs > windowMs")
            << QStringLiteral("probe/intervalMs") << 2000 << QStringLiteral("intervalMs|windowMs");
    }
    void l_headlessWarnsNamingTheKey() {
        QFETCH(QString, key);
        QFETCH(int, value);
        QFETCH(QString, names);
        Values v = demoSettings(port_);
        v.insert(key, value); // windowMs is 1500
        Tether *t = startTether(writeIni(QStringLiteral("l.ini"), v));
        QCOMPARE(waitForState({QStringLiteral("healthy"), QStringLiteral("failed")}),
                 QStringLiteral("healthy")); // the warnings are written before the first start
        const QStringList warnings =
            t->lines.filter(QRegularExpression(QStringLiteral("^settings: .*(%1)").arg(names)));
        QVERIFY2(!warnings.isEmpty(),
                 qPrintable(QStringLiteral("no settings warning names %1\n%2").arg(names, dump())));
    }

    // m. `tether cleanup` of stubborn orphans (grace 2 s) does not block Tether: status answers
    // promptly meanwhile, and probes go on (a service stopped meanwhile is seen not responding).
    void m_cleanupDoesNotBlockTheEventLoop() {
        Values v = demoSettings(port_);
        // Child 2 leaves the service's group: no group kill after the crash reaches it.
        v.insert(QStringLiteral("service/arguments"),
                 args({"--mcp", "3", "--stubborn", "--mcp-setsid", "2"}));
        v.insert(QStringLiteral("orphans/whileRunning"), QStringLiteral("ask"));
        v.insert(QStringLiteral("orphans/graceMs"), 2000);
        v.insert(QStringLiteral("recovery/windowMs"), 10000); // a stopped service is kept
        v.insert(QStringLiteral("recovery/backoffInitialMs"), 100);
        startTether(writeIni(QStringLiteral("m.ini"), v));
        QCOMPARE(waitForState({QStringLiteral("healthy")}), QStringLiteral("healthy"));
        const QList<os::Identity> children = waitForMcp(3);
        QCOMPARE(children.size(), 3);
        QTRY_VERIFY_WITH_TIMEOUT(ledgerNames(children), kLong);
        QTRY_COMPARE_WITH_TIMEOUT(ownGroups(children), 1, kLong);
        const os::Identity first = identity(pidOf(status()));
        QVERIFY(os::signalIdentity(first, os::Signal::Kill));
        // whileRunning=ask: what is outside the dead service's group stays (an orphan for
        // `tether cleanup`); the service is restarted meanwhile, after its crash cleanup.
        QTRY_VERIFY2_WITH_TIMEOUT(state() == QLatin1String("healthy") &&
                                      pidOf(lastStatus_) != first.pid,
                                  qPrintable(dump()), kLong);
        QList<os::Identity> orphans;
        for (const os::Identity &c : children)
            if (isAlive(c)) orphans << c;
        QVERIFY2(std::any_of(
                     orphans.begin(), orphans.end(),
                     [](const os::Identity &c) { return os::inspect(c.pid).info.pgid == c.pid; }),
                 qPrintable(dump())); // the one that left the group is still there
        const os::Identity second = identity(pidOf(lastStatus_));

        QProcess cleanup;
        cleanup.setProcessEnvironment(env());
        QElapsedTimer t;
        t.start();
        cleanup.start(test::tetherBin(), {QStringLiteral("cleanup")});
        QVERIFY(cleanup.waitForStarted(10000));
        auto anyAlive = [&orphans] { return std::any_of(orphans.begin(), orphans.end(), isAlive); };
        qint64 worst = 0;
        int samples = 0;
        bool stoppedIt = false, sawNotResponding = false;
        while (anyAlive() && t.elapsed() < kLong) {
            qint64 ms = 0; // asked while the orphans are still there: during the cleanup
            const QJsonObject reply = rawRequest(QStringLiteral("status"), 10000, &ms);
            worst = std::max(worst, ms);
            ++samples;
            const QString st = reply.value(QLatin1String("status"))
                                   .toObject()
                                   .value(QLatin1String("state"))
                                   .toString();
            sawNotResponding |= stoppedIt && st == QLatin1String("not-responding");
            if (!stoppedIt && t.elapsed() > 200) // probes must go on: freeze the service
                stoppedIt = os::signalIdentity(second, os::Signal::Stop);
            QTest::qWait(50);
        }
        const qint64 orphansGoneAfter = t.elapsed();
        if (stoppedIt) os::signalIdentity(second, os::Signal::Continue);
        QVERIFY2(!anyAlive(), qPrintable(dump()));
        if (orphansGoneAfter < 1500)
            qWarning("the orphans went in %lld ms: shorter than their 2 s grace",
                     static_cast<long long>(orphansGoneAfter));
        QVERIFY2(worst < 500 * test::sanitizerSlowdown(),
                 qPrintable(QStringLiteral("`tether status` took %1 ms while the cleanup ran "
                                           "(%2 ms): the event loop was blocked")
                                .arg(worst)
                                .arg(orphansGoneAfter)));
        QVERIFY2(samples >= 3, qPrintable(QStringLiteral("%1 status answers during the %2 ms "
                                                         "cleanup (worst %3 ms)")
                                              .arg(samples)
                                              .arg(orphansGoneAfter)
                                              .arg(worst)));
        QVERIFY2(sawNotResponding,
                 qPrintable(QStringLiteral("no probe noticed the stopped service during the "
                                           "cleanup\n%1")
                                .arg(dump())));
        QVERIFY(QTest::qWaitFor([&] { return cleanup.state() == QProcess::NotRunning; }, kLong));
        QCOMPARE(cleanup.exitCode(), 0);
        QCOMPARE(waitForState({QStringLiteral("healthy")}), QStringLiteral("healthy"));
        QCOMPARE(pidOf(lastStatus_), second.pid);
    }
};

QTEST_GUILESS_MAIN(TestRegressions)
#include "tst_regressions.moc"
