// End to end against the real thing: `tether --headless` supervising opencode 1.18.33 (the
// npm package opencode-ai, installed by scripts/e2e-deps.sh) with the real MCP servers
// server-everything and server-filesystem plus a stubborn wrapper around server-everything.
// Every scenario has its own temporary HOME. Missing packages fail the run; nothing skips.
#include "opencode_home.h"

#include <QElapsedTimer>
#include <QTcpSocket>
#include <QtTest>

using namespace tether;
using e2e::OpencodeHome;

namespace {

// opencode needs a while to start (20+ s seen on this shared 2-core machine under load).
constexpr int kStart = 180000;

QString str(const QJsonObject &o, const char *key) {
    return o.value(QLatin1String(key)).toString();
}
qint64 num(const QJsonObject &o, const char *key) {
    return o.value(QLatin1String(key)).toInteger();
}
QString dumpStatus(const QJsonObject &s) {
    return QString::fromUtf8(QJsonDocument(s).toJson(QJsonDocument::Compact));
}

QString argvOf(qint64 pid) {
    const os::Lookup l = os::inspect(pid);
    QStringList parts;
    for (const std::string &a : l.info.argv)
        parts << QString::fromStdString(a);
    return parts.join(QLatin1Char(' '));
}

// One raw HTTP exchange; returns the status code (0: no answer).
int httpStatus(int port, const QByteArray &request) {
    QTcpSocket s;
    s.connectToHost(QStringLiteral("127.0.0.1"), quint16(port));
    if (!s.waitForConnected(10000)) return 0;
    s.write(request);
    QByteArray head;
    QDeadlineTimer deadline(20000);
    while (!head.contains("\r\n") && !deadline.hasExpired() &&
           s.waitForReadyRead(int(deadline.remainingTime())))
        head += s.readAll();
    const QList<QByteArray> first = head.split(' ');
    return first.size() > 1 ? first.at(1).toInt() : 0;
}

} // namespace

class TstOpencode : public QObject {
    Q_OBJECT

    std::unique_ptr<OpencodeHome> home_;

    // A fresh HOME and a Tether that has brought opencode to Healthy with all MCP servers up.
    QJsonObject bringUp(const e2e::Timings &t = {}) {
        home_ = std::make_unique<OpencodeHome>();
        QString why;
        const QString source = QFileInfo(QFINDTESTDATA("stubborn-mcp.sh")).absolutePath();
        if (!home_->prepare(source, t, &why)) {
            qWarning("%s", qPrintable(why));
            return {};
        }
        if (!home_->startTether()) {
            qWarning("tether did not start");
            return {};
        }
        QJsonObject s;
        if (!home_->waitFor(&OpencodeHome::allConnected, kStart, &s)) {
            qWarning("not healthy with all MCP servers: %s\n%s", qPrintable(dumpStatus(s)),
                     qPrintable(home_->tetherLog()));
            return {};
        }
        home_->service(num(s, "pid"));
        for (const QJsonValue &v : s.value(QLatin1String("mcp")).toArray())
            home_->remember(num(v.toObject(), "pid"));
        return s;
    }

private slots:
    void initTestCase() {
        const QString missing = e2e::missingDependencies();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
    }
    void cleanup() {
        if (home_) home_->tearDown();
        home_.reset();
    }

    void healthyWithVersionAndEveryMcpServerConnectedWithItsRealPid() {
        const QJsonObject s = bringUp();
        QVERIFY(!s.isEmpty());
        QCOMPARE(str(s, "profile"), QStringLiteral("opencode1"));
        QCOMPARE(str(s, "version"), QStringLiteral("1.18.33"));
        QCOMPARE(num(s, "port"), qint64(home_->port));
        const auto service = home_->service(num(s, "pid"));
        QVERIFY2(service, qPrintable(QStringLiteral("pid %1 is not our opencode: %2")
                                         .arg(num(s, "pid"))
                                         .arg(argvOf(num(s, "pid")))));
        // Each row's pid is a real child of the service running the configured command.
        const QMap<QString, QString> expect{
            {QStringLiteral("everything"), e2e::everythingJs()},
            {QStringLiteral("filesystem"), e2e::filesystemBin()},
            {QStringLiteral("stubborn"), home_->path(QStringLiteral("stubborn-mcp.sh"))}};
        for (auto it = expect.begin(); it != expect.end(); ++it) {
            const QJsonObject row = OpencodeHome::mcpRow(s, it.key());
            const qint64 pid = num(row, "pid");
            const os::Lookup l = os::inspect(pid);
            QCOMPARE(int(l.status), int(os::Lookup::Status::Found));
            QCOMPARE(qint64(l.info.ppid), qint64(service->pid));
            QVERIFY2(argvOf(pid).contains(it.value()),
                     qPrintable(it.key() + QStringLiteral(": ") + argvOf(pid)));
        }
        // The stubborn server's real node process runs below its wrapper shell.
        const qint64 wrapper = num(OpencodeHome::mcpRow(s, QStringLiteral("stubborn")), "pid");
        QTRY_VERIFY_WITH_TIMEOUT(!os::descendants(wrapper).empty(), 10000);
    }

    void requestWithoutThePasswordIsRefusedWhileTethersProbesPass() {
        const QJsonObject s = bringUp();
        QVERIFY(!s.isEmpty());
        const QByteArray get =
            "GET /global/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
        QCOMPARE(httpStatus(home_->port, get + "\r\n"), 401);
        QCOMPARE(httpStatus(home_->port, get + "Authorization: Basic " +
                                             QByteArray("opencode:not-the-password").toBase64() +
                                             "\r\n\r\n"),
                 401);
        QCOMPARE(httpStatus(home_->port,
                            "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
                 401);
        // Tether's own probes carry the per-start password: it stays healthy over many probes,
        // on the same service, and saw fresh answers.
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 5000) {
            const QJsonObject now = home_->status();
            QCOMPARE(str(now, "state"), QStringLiteral("healthy"));
            QCOMPARE(num(now, "pid"), num(s, "pid"));
            QVERIFY(num(now, "lastProbeMs") >= 0);
            QTest::qWait(500);
        }
        // The password lives only in the service's environment and Tether's private registration.
        QFile env(QStringLiteral("/proc/%1/environ").arg(num(s, "pid")));
        QVERIFY(env.open(QIODevice::ReadOnly));
        QVERIFY(env.readAll().contains("OPENCODE_SERVER_PASSWORD="));
    }

    void frozenServiceOutlivesTheWindowThenIsReplacedOnTheSamePort() {
        e2e::Timings t;
        t.windowMs = 15000;
        const QJsonObject s = bringUp(t);
        QVERIFY(!s.isEmpty());
        const auto frozen = home_->service(num(s, "pid"));
        QVERIFY(frozen);
        QElapsedTimer since;
        QVERIFY(os::signalIdentity(*frozen, os::Signal::Stop));
        since.start();
        QVERIFY2(home_->waitFor(
                     [](const QJsonObject &o) {
                         return str(o, "state") == QLatin1String("not-responding");
                     },
                     30000),
                 qPrintable(home_->tetherLog()));
        // Inside the window (with a margin for this loaded machine) the frozen owner is untouched.
        while (since.elapsed() < t.windowMs - 2000) {
            QCOMPARE(os::alive(*frozen), os::Liveness::Alive);
            const QJsonObject o = home_->status();
            QCOMPARE(num(o, "pid"), qint64(frozen->pid));
            QVERIFY2(str(o, "state") == QLatin1String("not-responding"), qPrintable(dumpStatus(o)));
            QTest::qWait(500);
        }
        // Then replaced: a new opencode, on the same port, healthy.
        QJsonObject after;
        QVERIFY2(home_->waitFor(
                     [&](const QJsonObject &o) {
                         return str(o, "state") == QLatin1String("healthy") && num(o, "pid") > 0 &&
                                num(o, "pid") != frozen->pid;
                     },
                     kStart, &after),
                 qPrintable(dumpStatus(after) + home_->tetherLog()));
        QVERIFY(since.elapsed() >= t.windowMs);
        QVERIFY(e2e::goneOrZombie(*frozen));
        QCOMPARE(num(after, "port"), qint64(home_->port));
        QVERIFY(home_->service(num(after, "pid")));
        QCOMPARE(str(after, "version"), QStringLiteral("1.18.33"));
        const os::PortOwners owners = os::listeningPortOwners(quint16(home_->port));
        QVERIFY(std::find(owners.pids.begin(), owners.pids.end(), num(after, "pid")) !=
                owners.pids.end());
    }

    void crashRemovesTheStubbornServerWithinOneSecondAndEverythingComesBack() {
        const QJsonObject s = bringUp();
        QVERIFY(!s.isEmpty());
        const auto service = home_->service(num(s, "pid"));
        QVERIFY(service);
        // The stubborn server: its wrapper shell and the node process below it.
        const qint64 wrapper = num(OpencodeHome::mcpRow(s, QStringLiteral("stubborn")), "pid");
        QTRY_VERIFY_WITH_TIMEOUT(!os::descendants(wrapper).empty(), 10000);
        std::vector<os::Identity> stubborn{*home_->remember(wrapper)};
        for (const os::Pid p : os::descendants(wrapper))
            if (const auto id = home_->remember(p)) stubborn.push_back(*id);
        std::vector<os::Identity> oldMcp;
        for (const QJsonValue &v : s.value(QLatin1String("mcp")).toArray())
            oldMcp.push_back(*os::identityOf(num(v.toObject(), "pid")));

        QElapsedTimer t;
        QVERIFY(os::signalIdentity(*service, os::Signal::Kill));
        t.start();
        QTRY_VERIFY2_WITH_TIMEOUT(std::all_of(stubborn.begin(), stubborn.end(), e2e::goneOrZombie),
                                  qPrintable(home_->tetherLog()), 10000);
        const qint64 orphansGoneMs = t.elapsed();
        qInfo("SIGKILL opencode -> stubborn MCP server (%d processes) gone: %lld ms",
              int(stubborn.size()), static_cast<long long>(orphansGoneMs));
        QVERIFY2(orphansGoneMs < 1000 * test::sanitizerSlowdown(),
                 qPrintable(QStringLiteral("%1 ms").arg(orphansGoneMs)));

        QJsonObject after;
        QVERIFY2(home_->waitFor(
                     [&](const QJsonObject &o) {
                         return OpencodeHome::allConnected(o) && num(o, "pid") != service->pid;
                     },
                     kStart, &after),
                 qPrintable(dumpStatus(after) + home_->tetherLog()));
        QVERIFY(home_->service(num(after, "pid")));
        QVERIFY(num(after, "restarts") >= 1);
        for (const QJsonValue &v : after.value(QLatin1String("mcp")).toArray()) {
            const auto fresh = home_->remember(num(v.toObject(), "pid"));
            QVERIFY(fresh);
            for (const os::Identity &old : oldMcp)
                QVERIFY(*fresh != old);
        }
    }

    void restartedTetherAdoptsTheRunningServiceWithoutRestartingIt() {
        const QJsonObject s = bringUp();
        QVERIFY(!s.isEmpty());
        const auto service = home_->service(num(s, "pid"));
        QVERIFY(service);
        int rc = -1;
        home_->cli({QStringLiteral("quit")}, &rc);
        QCOMPARE(rc, 0);
        QVERIFY(home_->tether->waitForFinished(30000));
        QCOMPARE(os::alive(*service), os::Liveness::Alive); // quitting leaves the service running

        QVERIFY(home_->startTether());
        QJsonObject after;
        QVERIFY2(home_->waitFor(&OpencodeHome::allConnected, kStart, &after),
                 qPrintable(dumpStatus(after) + home_->tetherLog()));
        QCOMPARE(num(after, "pid"), qint64(service->pid));
        QCOMPARE(os::alive(*service), os::Liveness::Alive);
        QCOMPARE(str(after, "version"), QStringLiteral("1.18.33"));
        QCOMPARE(num(after, "restarts"), qint64(0));
        // The MCP servers are the same processes too: nothing was restarted.
        for (const QJsonValue &v : after.value(QLatin1String("mcp")).toArray()) {
            const QString name = str(v.toObject(), "name");
            QCOMPARE(num(v.toObject(), "pid"), num(OpencodeHome::mcpRow(s, name), "pid"));
        }
    }

    void disconnectAndReconnectOfOneMcpServerReachTheService() {
        const QJsonObject s = bringUp();
        QVERIFY(!s.isEmpty());
        const qint64 oldPid = num(OpencodeHome::mcpRow(s, QStringLiteral("filesystem")), "pid");
        const auto old = os::identityOf(oldPid);
        QVERIFY(old);
        int rc = -1;
        home_->cli({QStringLiteral("mcp-disconnect"), QStringLiteral("filesystem")}, &rc);
        QCOMPARE(rc, 0);
        QJsonObject o;
        QVERIFY2(home_->waitFor(
                     [](const QJsonObject &x) {
                         return str(OpencodeHome::mcpRow(x, QStringLiteral("filesystem")),
                                    "status") != QLatin1String("connected");
                     },
                     60000, &o),
                 qPrintable(dumpStatus(o)));
        qInfo("after mcp-disconnect: %s",
              qPrintable(dumpStatus(OpencodeHome::mcpRow(o, QStringLiteral("filesystem")))));
        QTRY_VERIFY_WITH_TIMEOUT(e2e::goneOrZombie(*old), 30000); // the service ended that server
        // The others are untouched.
        QCOMPARE(str(OpencodeHome::mcpRow(o, QStringLiteral("everything")), "status"),
                 QStringLiteral("connected"));

        home_->cli({QStringLiteral("mcp-connect"), QStringLiteral("filesystem")}, &rc);
        QCOMPARE(rc, 0);
        QVERIFY2(home_->waitFor(
                     [&](const QJsonObject &x) {
                         const QJsonObject r =
                             OpencodeHome::mcpRow(x, QStringLiteral("filesystem"));
                         return str(r, "status") == QLatin1String("connected") &&
                                num(r, "pid") > 0 && num(r, "pid") != oldPid;
                     },
                     60000, &o),
                 qPrintable(dumpStatus(o)));
        const qint64 fresh = num(OpencodeHome::mcpRow(o, QStringLiteral("filesystem")), "pid");
        home_->remember(fresh);
        QVERIFY(argvOf(fresh).contains(e2e::filesystemBin()));
        QCOMPARE(num(o, "pid"), num(s, "pid")); // the service itself was not restarted
    }
};

int main(int argc, char **argv) {
    // One scenario may wait minutes for opencode on a loaded machine: past QtTest's 5 min default.
    if (qEnvironmentVariableIsEmpty("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "900000");
    QCoreApplication app(argc, argv);
    TstOpencode test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_opencode.moc"
