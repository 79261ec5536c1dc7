// The opencode 2.x stand-in (`tether demo-service --protocol v2`) against the RECORD,
// docs/opencode2-protocol.md: every expectation below is the record's (its reference key in a
// comment), checked from outside with Qt's JSON and HTTP and /proc, never with Tether's parsers.
#include "opencode2_fixtures.h"
#include "testsupport.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

#include <csignal>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

using tether::test::freeLoopbackPort;
using tether::test::tetherBin;

namespace {

constexpr int kLong = 20000; // generous bound for a start or a stop; never a measured value

QJsonObject json(const QByteArray &bytes) {
    return QJsonDocument::fromJson(bytes).object();
}

QSet<QString> keys(const QJsonObject &o) {
    const QStringList k = o.keys();
    return QSet<QString>(k.begin(), k.end());
}

// /proc/PID/stat: process group and session; /proc/PID/environ; /proc/PID/cwd.
struct ChildFacts {
    bool alive = false;
    qint64 ppid = 0, pgid = 0, sid = 0;
    QByteArray startTime;
    QStringList environ;
    QString cwd;
    QStringList argv;
};

ChildFacts childFacts(qint64 pid) {
    ChildFacts f;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) return f;
    const QByteArray text = stat.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 20 || fields[0] == "Z") return f; // gone, or a zombie: dead
    f.alive = true;
    f.ppid = fields[1].toLongLong();
    f.pgid = fields[2].toLongLong();
    f.sid = fields[3].toLongLong();
    f.startTime = fields[19];
    const auto nulList = [](const QString &path) {
        QFile file(path);
        QStringList out;
        if (file.open(QIODevice::ReadOnly))
            for (const QByteArray &item : file.readAll().split('\0'))
                if (!item.isEmpty()) out << QString::fromUtf8(item);
        return out;
    };
    f.environ = nulList(QStringLiteral("/proc/%1/environ").arg(pid));
    f.argv = nulList(QStringLiteral("/proc/%1/cmdline").arg(pid));
    f.cwd = QFileInfo(QStringLiteral("/proc/%1/cwd").arg(pid)).symLinkTarget();
    return f;
}

struct Reply {
    int status = 0;
    QByteArray body;
    QMap<QByteArray, QByteArray> headers; // lower-case names
    QJsonObject object() const { return json(body); }
};

// One request, awaited with the event loop running.
Reply request(const QByteArray &method, const QString &url, const QByteArray &authorization = {}) {
    static QNetworkAccessManager nam;
    nam.setProxy(QNetworkProxy::NoProxy);
    QNetworkRequest r{QUrl(url)};
    if (!authorization.isEmpty()) r.setRawHeader("Authorization", authorization);
    r.setTransferTimeout(kLong);
    std::unique_ptr<QNetworkReply> reply(nam.sendCustomRequest(r, method));
    if (!QTest::qWaitFor([&] { return reply->isFinished(); }, kLong + 1000)) reply->abort();
    Reply out;
    out.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    out.body = reply->readAll();
    for (const auto &[name, value] : reply->rawHeaderPairs())
        out.headers.insert(name.toLower(), value);
    return out;
}

QByteArray basic(const QString &password) {
    return "Basic " + ("opencode:" + password.toUtf8()).toBase64();
}

// A raw SSE reader: the bytes as they come (chunk sizes included); `data:` lines and comments
// are whole lines within them.
class EventReader {
public:
    EventReader(quint16 port, const QByteArray &authorization, const QByteArray &query = {}) {
        socket.connectToHost(QHostAddress::LocalHost, port);
        socket.write("GET /api/event" + query + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " +
                     authorization + "\r\n\r\n");
        QObject::connect(&socket, &QTcpSocket::readyRead, [this] { bytes += socket.readAll(); });
    }
    QList<QJsonObject> events() const {
        QList<QJsonObject> out;
        for (const QByteArray &line : bytes.split('\n'))
            if (line.startsWith("data: ")) out << json(line.mid(6).trimmed());
        return out;
    }
    QStringList types() const {
        QStringList out;
        for (const QJsonObject &e : events())
            out << e.value("type").toString();
        return out;
    }
    int heartbeats() const { return int(bytes.count("\n: heartbeat\n")); }
    QTcpSocket socket;
    QByteArray bytes;
};

// A stand-in process with its own HOME, state and config directories.
class Standin {
public:
    explicit Standin(QTemporaryDir &root)
        : root_(root) {
        process.setProgram(tetherBin());
        // Its own session, as a supervisor starts it: the children's groups are observations.
        process.setChildProcessModifier([] { ::setsid(); });
        env = QProcessEnvironment::systemEnvironment();
        for (const QString &k : env.keys())
            if (k.startsWith(QLatin1String("OPENCODE_"))) env.remove(k);
        env.insert("HOME", home());
        env.insert("XDG_STATE_HOME", root_.filePath("state"));
        env.insert("XDG_CONFIG_HOME", root_.filePath("config"));
        QDir().mkpath(home());
    }
    ~Standin() { stop(); }

    QString home() const { return root_.filePath("home"); }
    QString stateDir() const { return root_.filePath("state/opencode"); }
    QString configDir() const { return root_.filePath("config/opencode"); }
    QString registrationPath(const QString &name = "service.json") const {
        return stateDir() + '/' + name;
    }

    void start(const QStringList &args) {
        process.setProcessEnvironment(env);
        process.setArguments(QStringList{"demo-service", "--protocol", "v2"} + args);
        process.start();
        QVERIFY(process.waitForStarted(kLong));
    }

    // The next stdout line matching `re` (lines are consumed in order): its captures, or
    // empty when the deadline passed or the process ended without printing it.
    QStringList waitLine(const QString &re, int timeoutMs = kLong) {
        const QRegularExpression rx(re);
        QElapsedTimer t;
        t.start();
        for (;;) {
            const bool ended = process.state() == QProcess::NotRunning; // before the last read
            out_ += process.readAllStandardOutput();
            for (qsizetype nl = out_.indexOf('\n'); nl >= 0; nl = out_.indexOf('\n')) {
                lines_ << QString::fromUtf8(out_.left(nl));
                out_.remove(0, nl + 1);
            }
            while (scanned_ < lines_.size()) {
                const auto m = rx.match(lines_[scanned_++]);
                if (m.hasMatch()) return m.capturedTexts();
            }
            if (ended || t.elapsed() > timeoutMs) return {};
            QTest::qWait(10);
        }
    }
    QString allErr() { return QString::fromUtf8(err_ += process.readAllStandardError()); }

    // Waits for the registration line; fills id, url, path.
    bool waitRegistered() {
        const QStringList m =
            waitLine("^opencode service (\\S+) listening on (\\S+), registered in (.+)$");
        if (m.isEmpty()) return false;
        id = m[1];
        url = m[2];
        registered = m[3];
        const QJsonObject r = json(readFile(registered));
        password = r.value("password").toString();
        return !password.isEmpty();
    }
    bool waitReady() {
        return !waitLine("^server listening on " + QRegularExpression::escape(url) + "$").isEmpty();
    }

    Reply get(const QString &path) { return request("GET", url + path, basic(password)); }
    Reply post(const QString &path) { return request("POST", url + path, basic(password)); }

    static QByteArray readFile(const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

    // `mcp NAME pid PID`: the child, verified as this stand-in's child running `contains`.
    qint64 waitChild(const QString &name) {
        const QStringList m = waitLine("^mcp " + QRegularExpression::escape(name) + " pid (\\d+)$");
        if (m.isEmpty()) return 0;
        const qint64 pid = m[1].toLongLong();
        // exec lays out the new argv a moment after QProcess says "started".
        ChildFacts f;
        const bool settled = QTest::qWaitFor(
            [&] {
                f = childFacts(pid);
                return !f.alive || f.argv.contains(QStringLiteral("demo-mcp"));
            },
            kLong);
        if (!settled || !f.alive || f.ppid != process.processId()) return 0;
        children_.push_back({pid, f.startTime});
        return pid;
    }

    bool terminate() {
        ::kill(static_cast<pid_t>(process.processId()), SIGTERM); // our own child
        return tether::test::awaitExit(process, kLong);
    }

    void stop() {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(kLong);
        }
        for (const auto &[pid, start] : children_) {
            const ChildFacts f = childFacts(pid);
            // Only the very process verified earlier (same start time), still a demo-mcp.
            if (f.alive && f.startTime == start && f.argv.contains(QStringLiteral("demo-mcp")))
                ::kill(static_cast<pid_t>(pid), SIGKILL);
        }
        children_.clear();
    }

    QProcess process;
    QProcessEnvironment env;
    QString id, url, registered, password;

private:
    QTemporaryDir &root_;
    QByteArray out_;
    QStringList lines_;
    qsizetype scanned_ = 0;
    QByteArray err_;
    std::vector<std::pair<qint64, QByteArray>> children_;
};

void writeFile(const QString &path, const QByteArray &text) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
}

QString mcpCommand(const QString &name, const QStringList &extra = {}) {
    QStringList argv{tetherBin(), "demo-mcp", "--name", name};
    argv += extra;
    return QString::fromUtf8(
        QJsonDocument(QJsonArray::fromStringList(argv)).toJson(QJsonDocument::Compact));
}

QJsonObject statusOf(const QJsonObject &mcpBody, const QString &name) {
    for (const QJsonValue &v : mcpBody.value("data").toArray())
        if (v.toObject().value("name").toString() == name)
            return v.toObject().value("status").toObject();
    return {};
}

} // namespace

class TestStandinV2 : public QObject {
    Q_OBJECT

private slots:
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        QVERIFY(dir_->isValid());
    }

    void printVersionAndChannelVersion();
    void registrationFieldsModeAndConfigPassword();
    void configPasswordIsUsed();
    void channelFileNames();
    void portFromOptionConfigAndChannel();
    void authBasicAuthTokenAnd401();
    void bootStartingThenReady();
    void bootFailedStaysAlive();
    void stoppingAnswers503ThenRemovesRegistration();
    void selfEvictionOnMissingReplacedOrGarbage_data();
    void selfEvictionOnMissingReplacedOrGarbage();
    void incumbentAnswersSoContenderLeaves();
    void incumbentAwaitedWhilePortTaken();
    void mcpFromConfigFilesBothShapesAndJsonc();
    void mcpConnectDisconnectNotFound();
    void eventStreamShapesHeartbeatAndToolCall();
    void interruptEndsTheCall();
    void busyToolAtStartIsActive();
    void ptyHandoffShutdownAndAdoption();
    void noPtyHandoffRoute();
    void answersHaveTheRecordedShapes();
    void failedBootAndChannelHaveTheRecordedShapes();

private:
    std::unique_ptr<QTemporaryDir> dir_; // a HOME, state and config of its own per test
};

// --print-version; a local build reports "local", a preview 0.0.0-<channel>-<build> [R49] [R14].
void TestStandinV2::printVersionAndChannelVersion() {
    const auto version = [](const QStringList &extra) {
        const auto r = tether::test::runTether(
            QStringList{"demo-service", "--protocol", "v2", "--print-version"} + extra,
            QProcessEnvironment::systemEnvironment());
        return QString::fromUtf8(r.out).trimmed();
    };
    QCOMPARE(version({}), QStringLiteral("2.0.17"));
    QCOMPARE(version({"--channel", "local"}), QStringLiteral("local"));
    QCOMPARE(version({"--channel", "beta"}), QStringLiteral("0.0.0-beta-1"));
    QCOMPARE(version({"--version", "2.1.0"}), QStringLiteral("2.1.0"));
    const auto bad = tether::test::runTether({"demo-service", "--protocol", "v2", "--port", "0"},
                                             QProcessEnvironment::systemEnvironment());
    QCOMPARE(bad.exitCode, 2);
}

// service.json: exactly {id, version, url, pid, password}, 0600, temp + rename, after listening;
// the random password (32 bytes base64url) is kept in the service config [R12] [R9] [R14].
void TestStandinV2::registrationFieldsModeAndConfigPassword() {
    Standin s(*dir_);
    const int port = freeLoopbackPort();
    s.start({"--port", QString::number(port)});
    QVERIFY2(s.waitRegistered(), qPrintable(s.allErr()));
    QCOMPARE(s.registered, s.registrationPath());
    const QJsonObject r = json(Standin::readFile(s.registered));
    QCOMPARE(keys(r), (QSet<QString>{"id", "version", "url", "pid", "password"}));
    QVERIFY(!QUuid::fromString(r.value("id").toString()).isNull());
    QCOMPARE(r.value("id").toString(), s.id);
    QCOMPARE(r.value("version").toString(), QStringLiteral("2.0.17"));
    QCOMPARE(r.value("url").toString(), QStringLiteral("http://127.0.0.1:%1").arg(port));
    QCOMPARE(r.value("pid").toInteger(), s.process.processId());
    QVERIFY(QRegularExpression("^[A-Za-z0-9_-]{43}$").match(s.password).hasMatch());
    struct stat st {};
    QCOMPARE(::stat(QFile::encodeName(s.registered).constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, 0600u);
    // The temp file <file>.<id>.tmp was renamed, not left behind.
    QVERIFY(!QFile::exists(s.registered + '.' + s.id + ".tmp"));
    // Registered only once listening: the URL answers.
    QVERIFY(s.get("/api/info").status != 0);
    const QJsonObject config = json(Standin::readFile(s.configDir() + "/service.json"));
    QCOMPARE(config.value("password").toString(), s.password);
    QCOMPARE(::stat(QFile::encodeName(s.configDir() + "/service.json").constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, 0600u);
    QVERIFY(s.terminate());
    QCOMPARE(s.process.exitCode(), 0);
    QVERIFY(!QFile::exists(s.registered)); // removed on exit: it still named this service
}

// A password in the service config is the one published [R9].
void TestStandinV2::configPasswordIsUsed() {
    Standin s(*dir_);
    writeFile(s.configDir() + "/service.json",
              R"({"password":"from-config","hostname":"127.0.0.1"})");
    s.start({"--port", QString::number(freeLoopbackPort())});
    QVERIFY(s.waitRegistered());
    QCOMPARE(s.password, QStringLiteral("from-config"));
    QVERIFY(s.waitReady());
    QCOMPARE(s.get("/api/health").status, 200);
    QCOMPARE(request("GET", s.url + "/api/health", basic("other")).status, 401);
}

// service.json for latest/dev/beta/next, service-<channel>.json otherwise, [^a-zA-Z0-9._-] -> '-'
// [R14]; the service config takes the same name.
void TestStandinV2::channelFileNames() {
    const QList<QPair<QString, QString>> cases{{"beta", "service.json"},
                                               {"local", "service-local.json"},
                                               {"feat/x y", "service-feat-x-y.json"}};
    for (const auto &[channel, file] : cases) {
        QTemporaryDir dir;
        Standin s(dir);
        s.start({"--channel", channel, "--port", QString::number(freeLoopbackPort())});
        QVERIFY2(s.waitRegistered(), qPrintable(channel));
        QCOMPARE(s.registered, s.registrationPath(file));
        QVERIFY(QFile::exists(s.configDir() + '/' + file));
        QVERIFY(s.terminate());
    }
}

// --port ?? config port ?? 49374 (latest/dev/beta/next) / 49375 (local); a taken port with no
// registered service ends in the record's message, non-zero [R9] [R14].
void TestStandinV2::portFromOptionConfigAndChannel() {
    {
        Standin s(*dir_);
        const int port = freeLoopbackPort();
        writeFile(s.configDir() + "/service.json",
                  QStringLiteral(R"({"port":%1})").arg(port).toUtf8());
        s.start({});
        QVERIFY(s.waitRegistered());
        QCOMPARE(s.url, QStringLiteral("http://127.0.0.1:%1").arg(port));
        QVERIFY(s.terminate());
    }
    // The defaults, observed through the message about them: the test holds the port (or
    // someone else does: either way no registered service answers there).
    for (const auto &[channel, port] :
         QList<QPair<QString, int>>{{"latest", 49374}, {"dev", 49374}, {"local", 49375}}) {
        QTemporaryDir dir;
        QTcpServer holder;
        holder.listen(QHostAddress::LocalHost, quint16(port));
        Standin s(dir);
        s.start({"--channel", channel, "--port-wait-ms", "300"});
        QVERIFY(tether::test::awaitExit(s.process, kLong));
        QCOMPARE(s.process.exitCode(), 1);
        QVERIFY2(
            s.allErr().contains(
                QStringLiteral(
                    "Managed service port %1 on 127.0.0.1 is already in use by another process. "
                    "Configure another port with `opencode service set port <port>`")
                    .arg(port)),
            qPrintable(s.allErr()));
        QVERIFY(!QFile::exists(
            s.registrationPath(channel == "local" ? "service-local.json" : "service.json")));
    }
    // Other channels hash their name (Hash.fast, not in the record): the stand-in wants a port.
    Standin s(*dir_);
    s.start({"--channel", "feature"});
    QVERIFY(tether::test::awaitExit(s.process, kLong));
    QCOMPARE(s.process.exitCode(), 2);
}

// Basic opencode:<password> or ?auth_token=base64(...) (which wins); else 401 with the
// challenge and body [R23] [R18]. /api/info needs it too.
void TestStandinV2::authBasicAuthTokenAnd401() {
    Standin s(*dir_);
    s.start({"--port", QString::number(freeLoopbackPort())});
    QVERIFY(s.waitRegistered());
    QVERIFY(s.waitReady());
    for (const char *path : {"/api/info", "/api/health", "/api/mcp", "/api/session/active"}) {
        const Reply none = request("GET", s.url + path);
        QCOMPARE(none.status, 401);
        QCOMPARE(none.headers.value("www-authenticate"),
                 QByteArray(R"(Basic realm="Secure Area")"));
        QCOMPARE(none.object(), (QJsonObject{{"_tag", "UnauthorizedError"},
                                             {"message", "Authentication required"}}));
        QCOMPARE(request("GET", s.url + path, basic("wrong")).status, 401);
        QCOMPARE(
            request("GET", s.url + path, "Basic " + ("someone:" + s.password.toUtf8()).toBase64())
                .status,
            401);
        QCOMPARE(s.get(path).status, 200);
    }
    const QByteArray token = ("opencode:" + s.password.toUtf8()).toBase64();
    const QString encoded =
        QString::fromLatin1(QUrl::toPercentEncoding(QString::fromLatin1(token)));
    QCOMPARE(request("GET", s.url + "/api/info?auth_token=" + encoded).status, 200);
    QCOMPARE(request("GET", s.url + "/api/info?auth_token=bm9wZTpub3Bl", basic(s.password)).status,
             401);
    QCOMPARE(s.post("/api/service/stop").status, 404); // the removed stop route [R52]
}

// Listening, registered, then starting: /api/info and /api/status 503 + Retry-After: 1 with the
// info body, every other route 503 service_starting; once ready 200 with paths.home [R17] [R21].
void TestStandinV2::bootStartingThenReady() {
    {
        Standin s(*dir_);
        s.start({"--port", QString::number(freeLoopbackPort()), "--boot-ms", "600000"});
        QVERIFY(s.waitRegistered());
        for (const char *path : {"/api/info", "/api/status"}) {
            const Reply info = s.get(path);
            QCOMPARE(info.status, 503);
            QCOMPARE(info.headers.value("retry-after"), QByteArray("1"));
            const QJsonObject b = info.object();
            QCOMPARE(b.value("version").toString(), QStringLiteral("2.0.17"));
            QCOMPARE(b.value("pid").toInteger(), s.process.processId());
            QCOMPARE(b.value("urls").toArray(), QJsonArray{s.url});
            QVERIFY(b.value("paths").toObject().value("tmp").isString());
        }
        for (const char *path : {"/api/health", "/api/mcp", "/api/event", "/api/session/active"}) {
            const Reply r = s.get(path);
            QCOMPARE(r.status, 503);
            QCOMPARE(r.object(), (QJsonObject{{"code", "service_starting"}}));
            QCOMPARE(r.headers.value("retry-after"), QByteArray("1"));
        }
        QCOMPARE(request("GET", s.url + "/api/info").status, 401); // auth first, even now
    }
    Standin s(*dir_);
    s.start({"--port", QString::number(freeLoopbackPort()), "--boot-ms", "200"});
    QVERIFY(s.waitRegistered());
    QVERIFY(s.waitReady());
    const Reply info = s.get("/api/info");
    QCOMPARE(info.status, 200);
    QVERIFY(!info.headers.contains("retry-after"));
    const QJsonObject b = info.object();
    QCOMPARE(keys(b), (QSet<QString>{"version", "pid", "urls", "paths"}));
    QCOMPARE(b.value("urls").toArray(), QJsonArray{s.url});
    QCOMPARE(b.value("paths").toObject().value("home").toString(), s.home());
    QCOMPARE(s.get("/api/status").status, 200);
    const Reply health = s.get("/api/health");
    QCOMPARE(health.status, 200);
    QCOMPARE(health.object(), (QJsonObject{{"healthy", true},
                                           {"version", "2.0.17"},
                                           {"pid", double(s.process.processId())}}));
}

// A failed boot: /api/info 500 with the info body (no Retry-After), other routes 503
// service_failed with message and action; the process does not exit [R17].
void TestStandinV2::bootFailedStaysAlive() {
    Standin s(*dir_);
    s.start({"--port", QString::number(freeLoopbackPort()), "--boot-fails",
             "--registration-check-ms", "50"});
    QVERIFY(s.waitRegistered());
    QVERIFY(!s.waitLine("^background service boot failed$").isEmpty());
    const Reply info = s.get("/api/info");
    QCOMPARE(info.status, 500);
    QVERIFY(!info.headers.contains("retry-after"));
    QCOMPARE(info.object().value("pid").toInteger(), s.process.processId());
    const Reply other = s.get("/api/mcp");
    QCOMPARE(other.status, 503);
    QVERIFY(!other.headers.contains("retry-after"));
    QCOMPARE(other.object(),
             (QJsonObject{
                 {"code", "service_failed"},
                 {"message", "The background service could not start."},
                 {"action", "Run `opencode service restart` after checking the service logs."}}));
    // Many registration checks later it still runs and answers the same.
    QTest::qWait(500);
    QCOMPARE(s.process.state(), QProcess::Running);
    QCOMPARE(s.get("/api/info").status, 500);
    QVERIFY(s.terminate());
    QCOMPARE(s.process.exitCode(), 0);
}

// After SIGTERM, while its MCP servers close (EOF, 2 s, SIGTERM, 2 s, SIGKILL [R36]), every
// route answers 503 service_stopping + Retry-After; then the registration goes [R17] [R12].
void TestStandinV2::stoppingAnswers503ThenRemovesRegistration() {
    Standin s(*dir_);
    writeFile(s.configDir() + "/opencode.json",
              ("{\"mcp\":{\"servers\":{\"stubborn\":{\"type\":\"local\",\"command\":" +
               mcpCommand("stubborn", {"--stubborn"}) + "}}}}")
                  .toUtf8());
    s.start({"--port", QString::number(freeLoopbackPort())});
    QVERIFY(s.waitRegistered());
    QVERIFY(s.waitReady());
    const qint64 child = s.waitChild("stubborn");
    QVERIFY(child > 0);
    ::kill(static_cast<pid_t>(s.process.processId()), SIGTERM);
    QVERIFY(!s.waitLine("^opencode service " + s.id + " stopping: ").isEmpty());
    const Reply info = s.get("/api/info");
    QCOMPARE(info.status, 503);
    QCOMPARE(info.headers.value("retry-after"), QByteArray("1"));
    const Reply health = s.get("/api/health");
    QCOMPARE(health.status, 503);
    QCOMPARE(health.object(), (QJsonObject{{"code", "service_stopping"}}));
    QVERIFY(QFile::exists(s.registered)); // still registered while stopping
    QVERIFY(!s.waitLine("^mcp stubborn pid \\d+ stopped: killed after 4000 ms$").isEmpty());
    QVERIFY(tether::test::awaitExit(s.process, kLong));
    QCOMPARE(s.process.exitCode(), 0);
    QVERIFY(!QFile::exists(s.registered));
    QVERIFY(!childFacts(child).alive);
}

void TestStandinV2::selfEvictionOnMissingReplacedOrGarbage_data() {
    QTest::addColumn<QString>("change");
    QTest::newRow("missing") << "missing";
    QTest::newRow("garbage") << "garbage";
    QTest::newRow("other id") << "id";
    QTest::newRow("other password") << "password";
    QTest::newRow("other version") << "version";
}

// Re-read every check period: missing, unreadable, or any of the five fields changed -> clean
// shutdown (exit 0); the file is removed only while it still names this service [R12].
void TestStandinV2::selfEvictionOnMissingReplacedOrGarbage() {
    QFETCH(QString, change);
    Standin s(*dir_);
    s.start({"--port", QString::number(freeLoopbackPort()), "--registration-check-ms", "100"});
    QVERIFY(s.waitRegistered());
    QVERIFY(s.waitReady());
    QByteArray written;
    if (change == "missing") {
        QVERIFY(QFile::remove(s.registered));
    } else {
        QJsonObject r = json(Standin::readFile(s.registered));
        if (change == "garbage")
            written = "{\"url\":";
        else {
            r.insert(change, change == "id" ? QUuid::createUuid().toString(QUuid::WithoutBraces)
                                            : "changed");
            written = QJsonDocument(r).toJson(QJsonDocument::Compact);
        }
        writeFile(s.registered, written);
    }
    QVERIFY(!s.waitLine("^managed service registration (replaced|check failed); shutting down$")
                 .isEmpty());
    QVERIFY(tether::test::awaitExit(s.process, kLong));
    QCOMPARE(s.process.exitStatus(), QProcess::NormalExit);
    QCOMPARE(s.process.exitCode(), 0);
    if (change == "missing")
        QVERIFY(!QFile::exists(s.registered));
    else
        QCOMPARE(Standin::readFile(s.registered), written); // somebody else's: left alone
}

// A contender finds a compatible registered service answering at its URL and leaves, exit 0
// [R9] [R2]; the incumbent keeps running.
void TestStandinV2::incumbentAnswersSoContenderLeaves() {
    Standin a(*dir_);
    const QString port = QString::number(freeLoopbackPort());
    a.start({"--port", port});
    QVERIFY(a.waitRegistered());
    Standin b(*dir_);
    b.start({"--port", port});
    QVERIFY(!b.waitLine(QStringLiteral("^opencode service already running: pid %1 at ")
                            .arg(a.process.processId()))
                 .isEmpty());
    QVERIFY(tether::test::awaitExit(b.process, kLong));
    QCOMPARE(b.process.exitCode(), 0);
    QCOMPARE(a.process.state(), QProcess::Running);
    QCOMPARE(json(Standin::readFile(a.registered)).value("id").toString(), a.id);
}

// EADDRINUSE: the incumbent is asked again every 100 ms for up to 15 s, so one that answers late
// (here: stopped, then continued) still makes the contender leave quietly [R9].
void TestStandinV2::incumbentAwaitedWhilePortTaken() {
    Standin a(*dir_);
    const QString port = QString::number(freeLoopbackPort());
    a.start({"--port", port});
    QVERIFY(a.waitRegistered());
    ::kill(static_cast<pid_t>(a.process.processId()), SIGSTOP); // our own child
    Standin b(*dir_);
    b.start({"--port", port});
    const bool waiting =
        !b.waitLine("^port " + port + " on 127.0.0.1 is in use: waiting up to 15000 ms").isEmpty();
    ::kill(static_cast<pid_t>(a.process.processId()), SIGCONT);
    QVERIFY2(waiting, qPrintable(b.allErr()));
    QVERIFY(!b.waitLine("^opencode service already running: pid ").isEmpty());
    QVERIFY(tether::test::awaitExit(b.process, kLong));
    QCOMPARE(b.process.exitCode(), 0);
}

// MCP servers from opencode's config files, lowest priority first: global opencode.json then
// opencode.jsonc (comments, trailing commas), OPENCODE_CONFIG, the walk from the location ($HOME
// in --service mode) down from /, .opencode/, OPENCODE_CONFIG_CONTENT; native mcp.servers and
// legacy mcp.<name> (enabled:false -> disabled; enabled-only dropped) [R33] [R34] [R35] [R9].
// Children: command, cwd, environment over the service's, each leading its own group [R37] [R36].
void TestStandinV2::mcpFromConfigFilesBothShapesAndJsonc() {
    Standin s(*dir_);
    const QString global = mcpCommand("global");
    writeFile(s.configDir() + "/opencode.json",
              ("{\"mcp\":{\"servers\":{\"overridden\":{\"type\":\"local\",\"command\":" +
               mcpCommand("from-global") + "}}}}")
                  .toUtf8());
    writeFile(s.configDir() + "/opencode.jsonc",
              ("{\n  // native shape, with a comment\n  \"mcp\": {\n"
               "    \"servers\": {\n"
               "      \"global\": {\"type\": \"local\", \"command\": " +
               global +
               ", \"cwd\": \"sub\", \"environment\": {\"STANDIN_ENV\": \"yes\"},},\n"
               "      /* off until connected */\n"
               "      \"off\": {\"type\": \"local\", \"command\": " +
               mcpCommand("off") +
               ", \"disabled\": true},\n"
               "    },\n"
               "    \"legacy\": {\"type\": \"local\", \"command\": " +
               mcpCommand("legacy") +
               ", \"enabled\": true},\n"
               "    \"legacy-off\": {\"type\": \"local\", \"command\": " +
               mcpCommand("legacy-off") +
               ", \"enabled\": false},\n"
               "    \"toggle-only\": {\"enabled\": true},\n"
               "  },\n}\n")
                  .toUtf8());
    writeFile(
        dir_->filePath("explicit.json"),
        ("{\"mcp\":{\"explicit\":{\"type\":\"local\",\"command\":" + mcpCommand("explicit") + "}}}")
            .toUtf8());
    writeFile(s.home() + "/opencode.json",
              ("{\"mcp\":{\"servers\":{\"overridden\":{\"type\":\"local\",\"command\":" +
               mcpCommand("from-project") + "}}}}")
                  .toUtf8());
    writeFile(s.home() + "/.opencode/opencode.json",
              ("{\"mcp\":{\"servers\":{\"dot\":{\"type\":\"local\",\"command\":" +
               mcpCommand("dot") + "}}}}")
                  .toUtf8());
    writeFile(s.home() + "/opencode.jsonc", "{ \"mcp\": { broken"); // malformed: rejected whole
    QDir().mkpath(s.home() + "/sub");
    s.env.insert("OPENCODE_CONFIG", dir_->filePath("explicit.json"));
    s.env.insert("OPENCODE_CONFIG_CONTENT",
                 "{\"mcp\":{\"servers\":{\"inline\":{\"type\":\"local\",\"command\":" +
                     mcpCommand("inline") + "}}}}");
    s.env.insert("OPENCODE_PTY_HANDOFF", "not json"); // removed before any child starts
    s.start({"--port", QString::number(freeLoopbackPort())});
    QVERIFY(!s.waitLine("^pty handoff ignored").isEmpty()); // not a handoff: ignored, removed
    QVERIFY(s.waitRegistered());
    QVERIFY(s.waitReady());
    QVERIFY2(s.allErr().contains(s.home() + "/opencode.jsonc"), qPrintable(s.allErr()));

    const QStringList running{"global", "legacy", "explicit", "overridden", "dot", "inline"};
    QMap<QString, qint64> pids;
    for (int i = 0; i < running.size(); ++i) {
        const QStringList m = s.waitLine("^mcp (\\S+) pid (\\d+)$");
        QVERIFY(!m.isEmpty());
        pids.insert(m[1], m[2].toLongLong());
    }
    QCOMPARE(QSet<QString>(pids.keyBegin(), pids.keyEnd()),
             QSet<QString>(running.begin(), running.end()));
    for (auto it = pids.cbegin(); it != pids.cend(); ++it) {
        const ChildFacts f = childFacts(it.value());
        QVERIFY(f.alive);
        QCOMPARE(f.ppid, s.process.processId());
        QCOMPARE(f.pgid, it.value()); // leads its own group (and session): inferred [R36]
        QCOMPARE(f.sid, it.value());
        QVERIFY(!f.environ.join('\n').contains("OPENCODE_PTY_HANDOFF"));
        QCOMPARE(f.cwd, it.key() == "global" ? s.home() + "/sub" : s.home());
    }
    QVERIFY(childFacts(pids["global"]).environ.contains("STANDIN_ENV=yes"));
    QVERIFY(
        childFacts(pids["overridden"]).argv.contains("from-project")); // the walk outranks global
    const Reply r = s.get("/api/mcp");
    QCOMPARE(r.status, 200);
    const QJsonObject body = r.object();
    QCOMPARE(body.value("location").toObject().value("directory").toString(), s.home());
    const QJsonObject project = body.value("location").toObject().value("project").toObject();
    QVERIFY(project.value("id").isString());
    QVERIFY(project.value("directory").isString());
    QStringList names;
    for (const QJsonValue &v : body.value("data").toArray()) {
        QVERIFY(v.toObject().value("name").isString());
        names << v.toObject().value("name").toString();
    }
    QCOMPARE(QSet<QString>(names.begin(), names.end()),
             (QSet<QString>{"global", "legacy", "explicit", "overridden", "dot", "inline", "off",
                            "legacy-off"}));
    QCOMPARE(statusOf(body, "off"), (QJsonObject{{"status", "disabled"}}));
    QCOMPARE(statusOf(body, "legacy-off"), (QJsonObject{{"status", "disabled"}}));
    QTRY_COMPARE_WITH_TIMEOUT(statusOf(s.get("/api/mcp").object(), "global"),
                              (QJsonObject{{"status", "connected"}}), kLong);
    const QString pending = statusOf(body, "inline").value("status").toString();
    QVERIFY2(pending == "pending" || pending == "connected", qPrintable(pending));
    QVERIFY(s.terminate());
    for (const qint64 pid : std::as_const(pids))
        QVERIFY(!childFacts(pid).alive);
}

// POST /api/mcp/:server/connect|disconnect: 204, or 404 McpServerNotFoundError [R24] [SDK:2002].
void TestStandinV2::mcpConnectDisconnectNotFound() {
    Standin s(*dir_);
    s.env.insert("OPENCODE_CONFIG_DIR", dir_->filePath("custom-config"));
    writeFile(dir_->filePath("custom-config/opencode.json"),
              ("{\"mcp\":{\"servers\":{\"off\":{\"type\":\"local\",\"disabled\":true,\"command\":" +
               mcpCommand("off") + "}}}}")
                  .toUtf8());
    s.start({"--port", QString::number(freeLoopbackPort())});
    QVERIFY(s.waitRegistered());
    QVERIFY(s.waitReady());
    QCOMPARE(statusOf(s.get("/api/mcp").object(), "off"), (QJsonObject{{"status", "disabled"}}));
    QCOMPARE(s.post("/api/mcp/off/connect").status, 204);
    const qint64 pid = s.waitChild("off");
    QVERIFY(pid > 0);
    QTRY_COMPARE_WITH_TIMEOUT(statusOf(s.get("/api/mcp").object(), "off"),
                              (QJsonObject{{"status", "connected"}}), kLong);
    QCOMPARE(s.post("/api/mcp/off/disconnect").status, 204);
    QCOMPARE(statusOf(s.get("/api/mcp").object(), "off"), (QJsonObject{{"status", "disabled"}}));
    QTRY_VERIFY_WITH_TIMEOUT(!childFacts(pid).alive, kLong);
    const Reply missing = s.post("/api/mcp/nope/connect");
    QCOMPARE(missing.status, 404);
    QCOMPARE(missing.object().value("_tag").toString(), QStringLiteral("McpServerNotFoundError"));
    QCOMPARE(missing.object().value("name").toString(), QStringLiteral("nope"));
    QVERIFY(missing.object().value("message").isString());
    QCOMPARE(s.post("/api/mcp/nope/disconnect").status, 404);
}

// GET /api/event: SSE with the record's headers; server.connected first; `: heartbeat`
// comments; every other event {id evt_…, type, created epoch ms, data, location}; a tool call's
// events in order, and /api/session/active while it runs [R38] [R41] [R43] [R44].
void TestStandinV2::eventStreamShapesHeartbeatAndToolCall() {
    Standin s(*dir_);
    const int port = freeLoopbackPort();
    s.start({"--port", QString::number(port), "--heartbeat-ms", "100"});
    QVERIFY(s.waitRegistered());
    QVERIFY(s.waitReady());
    EventReader reader(quint16(port), basic(s.password));
    QTRY_VERIFY_WITH_TIMEOUT(reader.events().size() >= 1, kLong);
    const QByteArray head = reader.bytes.left(reader.bytes.indexOf("\r\n\r\n")).toLower();
    QVERIFY(head.startsWith("http/1.1 200"));
    QVERIFY(head.contains("content-type: text/event-stream"));
    QVERIFY(head.contains("cache-control: no-cache, no-transform"));
    QVERIFY(head.contains("x-accel-buffering: no"));
    QVERIFY(head.contains("x-content-type-options: nosniff"));
    const QJsonObject connected = reader.events().first();
    QCOMPARE(keys(connected), (QSet<QString>{"id", "type", "data"}));
    QCOMPARE(connected.value("type").toString(), QStringLiteral("server.connected"));
    QVERIFY(connected.value("id").toString().startsWith("evt_"));
    QCOMPARE(connected.value("data").toObject(), QJsonObject{});
    QTRY_VERIFY_WITH_TIMEOUT(reader.heartbeats() >= 2, kLong);

    const qint64 before = QDateTime::currentMSecsSinceEpoch();
    const Reply started = s.post("/demo/tool-call?tool=bash&seconds=1");
    QCOMPARE(started.status, 200);
    const QString session = started.object().value("sessionID").toString();
    const QString call = started.object().value("callID").toString();
    QCOMPARE(s.get("/api/session/active").object(),
             (QJsonObject{{"data", QJsonObject{{session, QJsonObject{{"type", "running"}}}}}}));
    const QStringList expected{"server.connected",
                               "session.status",
                               "session.execution.started",
                               "session.tool.input.started",
                               "session.tool.called",
                               "session.tool.success",
                               "session.execution.succeeded",
                               "session.status"};
    QTRY_COMPARE_WITH_TIMEOUT(reader.types(), expected, kLong);
    const qint64 after = QDateTime::currentMSecsSinceEpoch();
    const QList<QJsonObject> events = reader.events();
    QStringList ids;
    for (const QJsonObject &e : events.mid(1)) {
        QVERIFY(e.value("id").toString().startsWith("evt_"));
        ids << e.value("id").toString();
        QVERIFY(e.value("created").isDouble());
        QVERIFY(e.value("created").toInteger() >= before &&
                e.value("created").toInteger() <= after);
        QCOMPARE(e.value("location").toObject().value("directory").toString(), s.home());
        QCOMPARE(e.value("data").toObject().value("sessionID").toString(), session);
    }
    QCOMPARE(QSet<QString>(ids.begin(), ids.end()).size(), ids.size());
    QCOMPARE(events[1].value("data").toObject().value("status").toObject(),
             (QJsonObject{{"type", "busy"}}));
    const QJsonObject inputStarted = events[3].value("data").toObject();
    QCOMPARE(inputStarted.value("name").toString(), QStringLiteral("bash"));
    QCOMPARE(inputStarted.value("callID").toString(), call);
    QVERIFY(inputStarted.value("assistantMessageID").isString());
    const QJsonObject called = events[4].value("data").toObject();
    QCOMPARE(called.value("callID").toString(), call);
    QVERIFY(called.value("input").isObject());
    QCOMPARE(called.value("executed"), QJsonValue(false));
    QCOMPARE(events[5].value("data").toObject().value("callID").toString(), call);
    QCOMPARE(events[7].value("data").toObject().value("status").toObject(),
             (QJsonObject{{"type", "idle"}}));
    // The tool's own events are durable: aggregateID is the session [R41].
    QCOMPARE(events[3].value("durable").toObject().value("aggregateID").toString(), session);
    QCOMPARE(s.get("/api/session/active").object(), (QJsonObject{{"data", QJsonObject{}}}));
}

// POST /api/session/:id/interrupt: 204 and the call ends (failed, interrupted, idle); an
// unknown session is 404 SessionNotFoundError [SDK:10194, 2232] [R44].
void TestStandinV2::interruptEndsTheCall() {
    Standin s(*dir_);
    const int port = freeLoopbackPort();
    s.start({"--port", QString::number(port)});
    QVERIFY(s.waitRegistered());
    QVERIFY(s.waitReady());
    EventReader reader(quint16(port), basic(s.password));
    QTRY_VERIFY_WITH_TIMEOUT(reader.events().size() >= 1, kLong);
    const QString session =
        s.post("/demo/tool-call?tool=sleep&seconds=600").object().value("sessionID").toString();
    QTRY_COMPARE_WITH_TIMEOUT(reader.types().size(), 5, kLong);
    QCOMPARE(s.post("/api/session/" + session + "/interrupt").status, 204);
    QTRY_COMPARE_WITH_TIMEOUT(
        reader.types().mid(5),
        (QStringList{"session.tool.failed", "session.execution.interrupted", "session.status"}),
        kLong);
    const QList<QJsonObject> events = reader.events();
    QVERIFY(
        events[5].value("data").toObject().value("error").toObject().value("message").isString());
    QCOMPARE(events[6].value("data").toObject().value("reason").toString(), QStringLiteral("user"));
    QCOMPARE(events[7].value("data").toObject().value("status").toObject(),
             (QJsonObject{{"type", "idle"}}));
    QCOMPARE(s.get("/api/session/active").object(), (QJsonObject{{"data", QJsonObject{}}}));
    const Reply missing = s.post("/api/session/ses_nope/interrupt");
    QCOMPARE(missing.status, 404);
    QCOMPARE(missing.object().value("_tag").toString(), QStringLiteral("SessionNotFoundError"));
    QCOMPARE(missing.object().value("sessionID").toString(), QStringLiteral("ses_nope"));
}

// --busy-tool NAME:SECONDS: a call already running when the service is ready.
void TestStandinV2::busyToolAtStartIsActive() {
    Standin s(*dir_);
    s.start({"--port", QString::number(freeLoopbackPort()), "--busy-tool", "bash:600"});
    QVERIFY(s.waitRegistered());
    QVERIFY(s.waitReady());
    const QJsonObject active = s.get("/api/session/active").object().value("data").toObject();
    QCOMPARE(active.size(), 1);
    QCOMPARE(active.begin().value().toObject(), (QJsonObject{{"type", "running"}}));
}

// persistent-pty/handoff -> {handoff:{directory, instanceID, ticket, expiresAt}}, shutdown ->
// 204; a new service adopts OPENCODE_PTY_HANDOFF and removes it from its environment [R7] [R9].
void TestStandinV2::ptyHandoffShutdownAndAdoption() {
    Standin s(*dir_);
    s.start({"--port", QString::number(freeLoopbackPort())});
    QVERIFY(s.waitRegistered());
    QVERIFY(s.waitReady());
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const Reply r = s.post("/api/experimental/persistent-pty/handoff");
    QCOMPARE(r.status, 200);
    const QJsonObject handoff = r.object().value("handoff").toObject();
    QCOMPARE(keys(handoff), (QSet<QString>{"directory", "instanceID", "ticket", "expiresAt"}));
    QCOMPARE(handoff.value("instanceID").toString(), s.id);
    QVERIFY(handoff.value("directory").isString());
    QVERIFY(handoff.value("expiresAt").toInteger() > now);
    const QString ticket = handoff.value("ticket").toString();
    QVERIFY(
        !s.waitLine("^pty handoff ticket " + QRegularExpression::escape(ticket) + "$").isEmpty());
    QCOMPARE(s.post("/api/experimental/persistent-pty/shutdown").status, 204);
    QVERIFY(!s.waitLine("^pty shutdown$").isEmpty());
    QVERIFY(s.terminate());

    Standin next(*dir_);
    next.env.insert("OPENCODE_PTY_HANDOFF",
                    QString::fromUtf8(QJsonDocument(handoff).toJson(QJsonDocument::Compact)));
    next.start({"--port", QString::number(freeLoopbackPort())});
    QVERIFY(!next.waitLine("^pty adopted " + QRegularExpression::escape(ticket) + "$").isEmpty());
    QVERIFY(next.waitRegistered()); // what its children inherit: mcpFromConfigFiles... checks
}

// An older service has no handoff route: 404, so a client shuts the terminals down [R7] [R46].
void TestStandinV2::noPtyHandoffRoute() {
    Standin s(*dir_);
    s.start({"--port", QString::number(freeLoopbackPort()), "--no-pty-handoff"});
    QVERIFY(s.waitRegistered());
    QVERIFY(s.waitReady());
    QCOMPARE(s.post("/api/experimental/persistent-pty/handoff").status, 404);
    QCOMPARE(s.post("/api/experimental/persistent-pty/shutdown").status, 204);
}

// The stand-in's answers have the shapes of tests/fixtures/opencode2, the record Tether's
// contract test (tst_opencode2_contract) holds Tether's parsers to: the two cannot drift apart.
QJsonValue recorded(const char *name) {
    return QJsonValue(json(tether::test::opencode2Fixture(QString::fromLatin1(name))));
}
#define QVERIFY_SHAPE(actual, record, ...)                                                         \
    do {                                                                                           \
        const QString why_ =                                                                       \
            tether::test::shapeDifference(QJsonValue(actual), record, ##__VA_ARGS__);              \
        QVERIFY2(why_.isEmpty(), qPrintable(why_));                                                \
    } while (false)

void TestStandinV2::answersHaveTheRecordedShapes() {
    Standin s(*dir_);
    writeFile(
        s.configDir() + "/opencode.jsonc",
        ("{\"mcp\":{\"servers\":{\"alpha\":{\"type\":\"local\",\"command\":" + mcpCommand("alpha") +
         "},\"off\":{\"type\":\"local\",\"command\":" + mcpCommand("off") +
         ",\"disabled\":true}}}}")
            .toUtf8());
    const int port = freeLoopbackPort();
    s.start({"--port", QString::number(port), "--boot-ms", "3000", "--heartbeat-ms", "100"});
    QVERIFY(s.waitRegistered());
    QVERIFY_SHAPE(json(Standin::readFile(s.registered)), recorded("service.json"));
    const Reply starting = s.get("/api/info");
    QCOMPARE(starting.status, 503);
    QVERIFY_SHAPE(starting.object(), recorded("info_starting.json"));
    const Reply route = s.get("/api/mcp");
    QCOMPARE(route.status, 503);
    QCOMPARE(QJsonValue(route.object()), recorded("route_starting.json"));
    QVERIFY(s.waitReady());
    QVERIFY(s.waitChild("alpha") > 0);
    QVERIFY_SHAPE(s.get("/api/info").object(), recorded("info_ready.json"));
    QVERIFY_SHAPE(s.get("/api/health").object(), recorded("health_ready.json"));
    QVERIFY_SHAPE(s.get("/api/mcp").object(), recorded("mcp_list.json"));

    const QList<QByteArray> stream =
        tether::test::sseDataLines(tether::test::opencode2Fixture(QStringLiteral("events.sse")));
    QMap<QString, QJsonObject> byType;
    for (const QByteArray &line : stream) {
        const QJsonObject e = json(line);
        byType.insert(e.value("type").toString(), e);
    }
    EventReader reader(quint16(port), basic(s.password));
    QTRY_VERIFY_WITH_TIMEOUT(reader.events().size() >= 1 && reader.heartbeats() >= 1, kLong);
    QVERIFY(s.post("/demo/tool-call?tool=bash&seconds=1").status == 200);
    QVERIFY_SHAPE(s.get("/api/session/active").object(), recorded("session_active.json"), {"data"});
    QTRY_VERIFY_WITH_TIMEOUT(reader.types().size() >= 8, kLong);
    for (const QJsonObject &e : reader.events()) {
        const QString type = e.value("type").toString();
        QVERIFY2(byType.contains(type), qPrintable(type + " is not in the recorded stream"));
        QVERIFY_SHAPE(e, QJsonValue(byType.value(type)), {"input", "structured"});
    }
}

void TestStandinV2::failedBootAndChannelHaveTheRecordedShapes() {
    Standin s(*dir_);
    s.start({"--port", QString::number(freeLoopbackPort()), "--boot-fails", "--channel", "local"});
    QVERIFY(s.waitRegistered());
    QCOMPARE(QFileInfo(s.registered).fileName(), QStringLiteral("service-local.json"));
    QVERIFY_SHAPE(json(Standin::readFile(s.registered)), recorded("service-local.json"));
    QVERIFY(!s.waitLine("^background service boot failed$").isEmpty());
    const Reply info = s.get("/api/info");
    QCOMPARE(info.status, 500);
    QVERIFY_SHAPE(info.object(), recorded("info_failed.json"));
    const Reply route = s.get("/api/mcp");
    QCOMPARE(route.status, 503);
    QCOMPARE(QJsonValue(route.object()), recorded("route_failed.json"));
}

QTEST_GUILESS_MAIN(TestStandinV2)
#include "tst_standin_v2.moc"
