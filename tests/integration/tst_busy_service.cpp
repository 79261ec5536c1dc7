// Issue 15 end to end with the real tether binary (TETHER_BIN, `--headless`) and a stand-in for
// opencode 1.x written here in Python: the opencode1 profile launches it (`serve --hostname
// 127.0.0.1 --port P`, password in OPENCODE_SERVER_PASSWORD), Tether follows its /global/event
// stream in opencode 1.18.33's framing, and a person's verbs see the running tool call.
// The stand-in's /test/tool route (loopback, no auth: a fixture) starts a tool call.
#include "testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <memory>

namespace {

const char kFakeOpencode[] = R"PY(#!/usr/bin/python3
# A stand-in for `opencode serve` 1.x: health, /mcp, /config and the /global/event stream.
import base64, http.server, json, os, sys, threading, time
port = int(sys.argv[sys.argv.index('--port') + 1])
password = os.environ.get('OPENCODE_SERVER_PASSWORD', '')
expected = 'Basic ' + base64.b64encode(('opencode:' + password).encode()).decode()
heartbeat = float(os.environ.get('FAKE_HEARTBEAT_S', '10'))
lock = threading.Lock()
streams = []
seq = [0]

def envelope(kind, props, directory=True):
    seq[0] += 1
    ev = {'payload': {'id': 'evt_%d' % seq[0], 'type': kind, 'properties': props}}
    if directory:
        ev = dict({'directory': '/tmp/p', 'project': 'global'}, **ev)
    return ('data: ' + json.dumps(ev) + '\n\n').encode()

def broadcast(data):
    with lock:
        for w in list(streams):
            try:
                w.write(data); w.flush()
            except Exception:
                streams.remove(w)

def tool(seconds, session='ses_fake1', part='prt_fake1',
         name='everything_trigger-long-running-operation'):
    def part_ev(status):
        return envelope('message.part.updated', {'sessionID': session, 'part': {
            'id': part, 'sessionID': session, 'messageID': 'msg_1', 'type': 'tool', 'tool': name,
            'callID': 'call_1', 'state': {'status': status, 'input': {}}}, 'time': 1})
    broadcast(envelope('session.status', {'sessionID': session, 'status': {'type': 'busy'}}))
    broadcast(part_ev('pending'))
    broadcast(part_ev('running'))
    time.sleep(seconds)
    broadcast(part_ev('completed'))
    broadcast(envelope('session.status', {'sessionID': session, 'status': {'type': 'idle'}}))
    broadcast(envelope('session.idle', {'sessionID': session}))

class H(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'
    def log_message(self, *a): pass
    def send_json(self, obj):
        body = json.dumps(obj).encode()
        self.send_response(200)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def do_POST(self):
        if self.path.startswith('/test/tool'):
            seconds = float(self.path.split('seconds=')[1]) if 'seconds=' in self.path else 30
            threading.Thread(target=tool, args=(seconds,), daemon=True).start()
            self.send_json({'ok': True})
        else:
            self.send_error(404)
    def do_GET(self):
        if self.headers.get('Authorization') != expected:
            self.send_response(401); self.send_header('Content-Length', '0'); self.end_headers()
            return
        if self.path == '/global/health':
            return self.send_json({'healthy': True, 'version': '1.18.33'})
        if self.path == '/mcp':
            return self.send_json({})
        if self.path == '/config':
            return self.send_json({'mcp': {}})
        if self.path == '/global/event':
            self.send_response(200)
            self.send_header('Content-Type', 'text/event-stream')
            self.send_header('Cache-Control', 'no-cache')
            self.end_headers()
            self.wfile.write(envelope('server.connected', {}, False)); self.wfile.flush()
            with lock:
                streams.append(self.wfile)
            while True:
                time.sleep(heartbeat)
                try:
                    with lock:
                        self.wfile.write(envelope('server.heartbeat', {}, False))
                        self.wfile.flush()
                except Exception:
                    return
        self.send_error(404)

def orphaned():  # the test's Tether is gone: so is its service
    parent = os.getppid()
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)
threading.Thread(target=orphaned, daemon=True).start()
http.server.ThreadingHTTPServer.daemon_threads = True
http.server.ThreadingHTTPServer(('127.0.0.1', port), H).serve_forever()
)PY";

const QString kTool = QStringLiteral("everything_trigger-long-running-operation");

using Run = tether::test::CliRun;

} // namespace

class TestBusyService : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> root_;
    std::unique_ptr<QProcess> tether_;
    int port_ = 0;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("TETHER_DATA_DIR"), root_->filePath(QStringLiteral("data")));
        e.insert(QStringLiteral("XDG_STATE_HOME"), root_->filePath(QStringLiteral("state")));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), root_->filePath(QStringLiteral("config")));
        e.insert(QStringLiteral("XDG_CACHE_HOME"), root_->filePath(QStringLiteral("cache")));
        e.insert(QStringLiteral("FAKE_HEARTBEAT_S"), QStringLiteral("1"));
        return e;
    }

    Run cli(const QStringList &a) const { return tether::test::runTether(a, env()); }
    QJsonObject status() const {
        return QJsonDocument::fromJson(
                   cli({QStringLiteral("status"), QStringLiteral("--json")}).out)
            .object();
    }
    bool waitFor(const std::function<bool(const QJsonObject &)> &ok, int timeoutMs,
                 QJsonObject *last = nullptr) const {
        QJsonObject s;
        const bool done = QTest::qWaitFor(
            [&] {
                s = status();
                return ok(s);
            },
            timeoutMs);
        if (last) *last = s;
        return done;
    }
    bool startTool(int seconds) {
        QNetworkAccessManager nam;
        nam.setProxy(QNetworkProxy::NoProxy);
        QNetworkRequest req(QUrl(
            QStringLiteral("http://127.0.0.1:%1/test/tool?seconds=%2").arg(port_).arg(seconds)));
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
        QNetworkReply *r = nam.post(req, QByteArray("{}"));
        const bool done = QTest::qWaitFor([r] { return r->isFinished(); }, 10000);
        const bool ok = done && r->error() == QNetworkReply::NoError;
        r->deleteLater();
        return ok;
    }
    static int runningTools(const QJsonObject &s) {
        return int(s.value(QLatin1String("activity"))
                       .toObject()
                       .value(QLatin1String("runningTools"))
                       .toArray()
                       .size());
    }

private slots:
    void init() {
        QVERIFY2(QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable(),
                 "this suite needs /usr/bin/python3 for its opencode stand-in");
        root_ = std::make_unique<QTemporaryDir>();
        QVERIFY(root_->isValid());
        port_ = tether::test::freeLoopbackPort();
        const QString script = root_->filePath(QStringLiteral("opencode"));
        QFile f(script);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kFakeOpencode);
        f.close();
        QFile::setPermissions(script, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QString ini = root_->filePath(QStringLiteral("tether.ini"));
        {
            QSettings s(ini, QSettings::IniFormat);
            s.setValue(QStringLiteral("service/profile"), QStringLiteral("opencode1"));
            s.setValue(QStringLiteral("service/program"), script);
            s.setValue(QStringLiteral("service/port"), port_);
            s.setValue(QStringLiteral("probe/intervalMs"), 200);
            s.setValue(QStringLiteral("probe/startupDeadlineMs"), 15000);
            s.setValue(QStringLiteral("probe/timeoutMs"), 250);
            s.setValue(QStringLiteral("recovery/windowMs"), 2000); // heartbeats every 1 s
            s.setValue(QStringLiteral("recovery/graceMs"), 500);
            // A quit stops the service here, so it interrupts tool calls as a stop does.
            s.setValue(QStringLiteral("app/stopServiceOnQuit"), true);
        }
        tether_ = std::make_unique<QProcess>();
        tether_->setProcessEnvironment(env());
        tether_->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        tether_->setStandardOutputFile(root_->filePath(QStringLiteral("tether.log")));
        tether_->start(tether::test::tetherBin(),
                       {QStringLiteral("--headless"), QStringLiteral("--settings"), ini});
        QVERIFY(tether_->waitForStarted(10000));
        QJsonObject s;
        QVERIFY2(waitFor(
                     [](const QJsonObject &st) {
                         return st.value(QLatin1String("state")).toString() ==
                                    QLatin1String("healthy") &&
                                st.value(QLatin1String("activity"))
                                    .toObject()
                                    .value(QLatin1String("followed"))
                                    .toBool();
                     },
                     20000, &s),
                 QJsonDocument(s).toJson().constData());
    }

    void cleanup() {
        if (QTest::currentTestFailed()) {
            QFile log(root_->filePath(QStringLiteral("tether.log")));
            if (log.open(QIODevice::ReadOnly))
                qWarning("tether log:\n%s", log.readAll().constData());
        }
        if (tether_ && tether_->state() != QProcess::NotRunning) {
            cli({QStringLiteral("stop"), QStringLiteral("--force")});
            (void)waitFor(
                [](const QJsonObject &st) {
                    return st.value(QLatin1String("state")).toString() == QLatin1String("stopped");
                },
                15000);
            cli({QStringLiteral("quit")});
            if (!tether_->waitForFinished(15000)) {
                tether_->kill(); // our own child, identified by QProcess
                tether_->waitForFinished(5000);
            }
        }
        tether_.reset();
        root_.reset();
    }

    void aToolCallIsShownAndAStopNeedsForce() {
        const qint64 pid = qint64(status().value(QLatin1String("pid")).toDouble());
        QVERIFY(pid > 0);
        QElapsedTimer since;
        since.start();
        QVERIFY(startTool(60));
        QJsonObject s;
        QVERIFY2(waitFor([](const QJsonObject &st) { return runningTools(st) == 1; }, 5000, &s),
                 QJsonDocument(s).toJson().constData());
        qInfo("a started tool call appeared in status --json after %lld ms (CLI polls included)",
              since.elapsed());
        const QJsonObject activity = s.value(QLatin1String("activity")).toObject();
        QCOMPARE(activity.value(QLatin1String("busySessions")).toInt(), 1);
        const QJsonObject tool =
            activity.value(QLatin1String("runningTools")).toArray().at(0).toObject();
        QCOMPARE(tool.value(QLatin1String("tool")).toString(), kTool);
        QCOMPARE(tool.value(QLatin1String("session")).toString(), QStringLiteral("ses_fake1"));
        QVERIFY(tool.value(QLatin1String("runningMs")).toInteger() >= 0);

        QTest::qWait(1100); // so that the line says "for 1 s" or more
        // In words (issue 27): the tool by name and how long, no session id; the log's own
        // summary behind --details.
        const Run text = cli({QStringLiteral("status")});
        QVERIFY2(text.out.contains("Running a tool: " + kTool.toUtf8() + " ("),
                 text.out.constData());
        QVERIFY2(!text.out.contains("ses_fake1") && !text.out.contains("pid "),
                 text.out.constData());
        const Run details = cli({QStringLiteral("status"), QStringLiteral("--details")});
        QVERIFY2(details.out.contains("busy: 1 session, tool " + kTool.toUtf8() + " for "),
                 details.out.constData());
        QVERIFY2(details.out.contains("process ID"), details.out.constData());

        const Run refused = cli({QStringLiteral("stop")});
        QCOMPARE(refused.exitCode, 3);
        QVERIFY2(refused.err.contains(kTool.toUtf8()) && refused.err.contains("--force"),
                 refused.err.constData());
        const Run restart = cli({QStringLiteral("restart")});
        QCOMPARE(restart.exitCode, 3);
        s = status();
        QCOMPARE(s.value(QLatin1String("state")).toString(), QStringLiteral("healthy"));
        QCOMPARE(qint64(s.value(QLatin1String("pid")).toDouble()), pid); // untouched

        const Run forced = cli({QStringLiteral("stop"), QStringLiteral("--force")});
        QCOMPARE(forced.exitCode, 0);
        QVERIFY(waitFor(
            [](const QJsonObject &st) {
                return st.value(QLatin1String("state")).toString() == QLatin1String("stopped");
            },
            15000, &s));
        const QJsonArray cut = s.value(QLatin1String("lastInterrupted")).toArray();
        QVERIFY2(!cut.isEmpty(), QJsonDocument(s).toJson().constData());
        QCOMPARE(cut.at(0).toObject().value(QLatin1String("tool")).toString(), kTool);
        QVERIFY(tether::test::absentOrZombie(pid));
    }

    // With stopServiceOnQuit a quit is a stop: refused while a tool call runs, named, and
    // Tether stays; --force quits and stops.
    // The age a status answer gives is the age when it was asked, not when Tether last
    // refreshed its display (once a second while a tool runs): a client that asks twice
    // within a second sees the call grow by the time between its questions.
    void aToolCallsAgeIsCurrentInEveryAnswer() {
        QVERIFY(startTool(60));
        QJsonObject s;
        QVERIFY2(waitFor([](const QJsonObject &st) { return runningTools(st) == 1; }, 5000, &s),
                 QJsonDocument(s).toJson().constData());
        const auto age = [](const QJsonObject &st) {
            return st.value(QLatin1String("activity"))
                .toObject()
                .value(QLatin1String("runningTools"))
                .toArray()
                .at(0)
                .toObject()
                .value(QLatin1String("runningMs"))
                .toInteger();
        };
        // Five pairs 150 ms apart: with a cached age, a pair inside one refresh second shows
        // no growth, and all five straddling a refresh is unlikely (about 1 in 2,000).
        for (int pair = 0; pair < 5; ++pair) {
            const qint64 first = age(status());
            QElapsedTimer between;
            between.start();
            QTest::qWait(150);
            const qint64 gap = between.elapsed(); // before the second question is asked
            const qint64 second = age(status());
            QVERIFY2(second - first >= gap,
                     qPrintable(QStringLiteral("pair %1: %2 ms then %3 ms, %4 ms apart")
                                    .arg(pair)
                                    .arg(first)
                                    .arg(second)
                                    .arg(gap)));
        }
    }

    void aQuitThatStopsTheServiceNeedsForce() {
        const qint64 pid = qint64(status().value(QLatin1String("pid")).toDouble());
        QVERIFY(startTool(60));
        QJsonObject s;
        QVERIFY2(waitFor([](const QJsonObject &st) { return runningTools(st) == 1; }, 5000, &s),
                 QJsonDocument(s).toJson().constData());
        const Run refused = cli({QStringLiteral("quit")});
        QCOMPARE(refused.exitCode, 3);
        QVERIFY2(refused.err.contains(kTool.toUtf8()) && refused.err.contains("--force"),
                 refused.err.constData());
        QVERIFY(!tether::test::awaitExit(*tether_, 500)); // still there, and so is the service
        QCOMPARE(qint64(status().value(QLatin1String("pid")).toDouble()), pid);

        const Run forced = cli({QStringLiteral("quit"), QStringLiteral("--force")});
        QCOMPARE(forced.exitCode, 0);
        QVERIFY(tether::test::awaitExit(*tether_, 15000));
        QTRY_VERIFY_WITH_TIMEOUT(tether::test::absentOrZombie(pid), 5000);
    }

    // A frozen service (SIGSTOP: no answer, no heartbeat) is replaced after the window even
    // though a tool call runs, and what was cut short is reported.
    void aFrozenServiceIsReplacedAndItsToolCallReported() {
        const qint64 pid = qint64(status().value(QLatin1String("pid")).toDouble());
        QVERIFY(pid > 0);
        // Positively ours: the stand-in this test wrote, started by this test's Tether.
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
        QVERIFY(cmdline.open(QIODevice::ReadOnly));
        QVERIFY(cmdline.readAll().contains(root_->path().toUtf8()));
        QVERIFY(startTool(60));
        QVERIFY(waitFor([](const QJsonObject &st) { return runningTools(st) == 1; }, 5000));
        QCOMPARE(::kill(pid_t(pid), SIGSTOP), 0);
        QJsonObject s;
        QVERIFY2(waitFor(
                     [pid](const QJsonObject &st) {
                         const qint64 now = qint64(st.value(QLatin1String("pid")).toDouble());
                         return now > 0 && now != pid &&
                                st.value(QLatin1String("state")).toString() ==
                                    QLatin1String("healthy");
                     },
                     20000, &s),
                 QJsonDocument(s).toJson().constData());
        const QJsonArray cut = s.value(QLatin1String("lastInterrupted")).toArray();
        QVERIFY2(!cut.isEmpty(), QJsonDocument(s).toJson().constData());
        QCOMPARE(cut.at(0).toObject().value(QLatin1String("tool")).toString(), kTool);
        QCOMPARE(runningTools(s), 0); // the new service runs nothing
        QVERIFY(tether::test::absentOrZombie(pid));
    }

    void aCompletedToolCallFreesTheStop() {
        QVERIFY(startTool(1));
        QVERIFY(waitFor([](const QJsonObject &st) { return runningTools(st) == 1; }, 5000));
        QJsonObject s;
        QVERIFY2(waitFor(
                     [](const QJsonObject &st) {
                         return runningTools(st) == 0 &&
                                st.value(QLatin1String("activity"))
                                        .toObject()
                                        .value(QLatin1String("busySessions"))
                                        .toInt() == 0;
                     },
                     10000, &s),
                 QJsonDocument(s).toJson().constData());
        QCOMPARE(s.value(QLatin1String("activity"))
                     .toObject()
                     .value(QLatin1String("summary"))
                     .toString(),
                 QStringLiteral("idle"));
        const Run stop = cli({QStringLiteral("stop")});
        QCOMPARE(stop.exitCode, 0);
        QVERIFY(waitFor(
            [](const QJsonObject &st) {
                return st.value(QLatin1String("state")).toString() == QLatin1String("stopped");
            },
            15000, &s));
        QVERIFY(s.value(QLatin1String("lastInterrupted")).toArray().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestBusyService)
#include "tst_busy_service.moc"
