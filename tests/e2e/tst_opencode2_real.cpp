// opencode 2.x for real (issue 24, point 6): the binary TETHER_OPENCODE2_BIN (the GitHub workflow
// installs @opencode/cli), under the real `tether --headless`, driven over its control socket as
// a person's `tether` commands are. Started, adopted by a second Tether, its MCP rows (two
// `tether demo-mcp` servers in opencode.jsonc), a SIGKILLed service's MCP servers gone, and a
// busy session (the fake model calls server-everything's long tool) refusing a plain stop.
// Registered only when TETHER_OPENCODE2_BIN is set at configure time (tests/CMakeLists.txt);
// scripts/test.sh says when it was not run and why. Anything it needs and lacks fails it.
// Not yet run against a real 2.x: @opencode/cli is not on this machine's npm registry. Shapes the
// record does not fix are marked "assumed" and their failure says so.
#include "opencode_home.h"
#include "os/process.h"
#include "service/managed_registration.h"
#include "testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <vector>

using namespace tether;

namespace {

constexpr int kStart = 180000; // ensure() waits 120 s; a shared CI machine may need more
const QString kTool = QStringLiteral("everything_trigger-long-running-operation");

QString opencode2Bin() {
    return qEnvironmentVariable("TETHER_OPENCODE2_BIN");
}

QString compact(const QJsonObject &o) {
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

QJsonObject mcpRow(const QJsonObject &s, const QString &name) {
    for (const QJsonValue &v : s.value(QLatin1String("mcp")).toArray())
        if (v.toObject().value(QLatin1String("name")).toString() == name) return v.toObject();
    return {};
}

bool healthy(const QJsonObject &s) {
    return s.value(QLatin1String("state")).toString() == QLatin1String("healthy");
}

bool rowsConnected(const QJsonObject &s) {
    if (!healthy(s)) return false;
    for (const char *name : {"alpha", "beta"}) {
        const QJsonObject r = mcpRow(s, QString::fromLatin1(name));
        if (r.value(QLatin1String("status")).toString() != QLatin1String("connected") ||
            r.value(QLatin1String("pid")).toInteger() <= 0)
            return false;
    }
    return true;
}

} // namespace

class TestOpencode2Real : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> dir_;
    QProcessEnvironment env_;
    QString settings_;
    std::unique_ptr<QProcess> tether_;
    std::unique_ptr<QProcess> model_;
    std::vector<os::Identity> spawned_; // verified service and MCP processes of this scenario

    QString path(const QString &rel) const { return dir_->filePath(rel); }
    static bool write(const QString &file, const QByteArray &data) {
        QDir().mkpath(QFileInfo(file).absolutePath());
        QFile f(file);
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
    }

    // A HOME of its own: opencode's service config (its port), its config with two MCP servers
    // (and, when given, the fake model as its provider), and Tether's settings.
    void prepare(int modelPort = 0) {
        dir_ = std::make_unique<QTemporaryDir>();
        QVERIFY(dir_->isValid());
        const int port = test::freeLoopbackPort();
        // ~/.config/opencode/service.json `port` [R14]
        QVERIFY(write(path(".config/opencode/service.json"),
                      QStringLiteral("{\"port\": %1}").arg(port).toUtf8()));
        const auto demoMcp = [](const char *name) {
            return QJsonObject{{"type", "local"},
                               {"command", QJsonArray{test::tetherBin(), "demo-mcp", "--name",
                                                      QString::fromLatin1(name)}}};
        };
        QJsonObject servers{{"alpha", demoMcp("alpha")}, {"beta", demoMcp("beta")}};
        QJsonObject config{{"$schema", "https://opencode.ai/config.json"}};
        if (modelPort > 0) {
            servers.insert(
                "everything",
                QJsonObject{{"type", "local"},
                            {"command", QJsonArray{"node", e2e::everythingJs(), "stdio"}}});
            // Assumed: 2.x still reads 1.x's provider block and "model" (not in the record).
            config.insert(
                "provider",
                QJsonObject{
                    {"fake",
                     QJsonObject{
                         {"npm", "@ai-sdk/openai-compatible"},
                         {"options",
                          QJsonObject{{"baseURL",
                                       QStringLiteral("http://127.0.0.1:%1/v1").arg(modelPort)}}},
                         {"models", QJsonObject{{"fake", QJsonObject{}}}}}}});
            config.insert("model", "fake/fake");
        }
        config.insert("mcp", QJsonObject{{"servers", servers}}); // native 2.x shape [R32]
        QVERIFY(write(path(".config/opencode/opencode.jsonc"),
                      "// tst_opencode2_real\n" + QJsonDocument(config).toJson()));
        settings_ = path("tether.ini");
        QVERIFY(write(settings_, QStringLiteral("[service]\nprofile=opencode2\nprogram=%1\n"
                                                "[probe]\nintervalMs=500\ntimeoutMs=3000\n"
                                                "[recovery]\nwindowMs=20000\ngraceMs=1000\n"
                                                "[orphans]\ngraceMs=300\n")
                                     .arg(opencode2Bin())
                                     .toUtf8()));
        env_ = QProcessEnvironment::systemEnvironment();
        for (const QString &k : env_.keys())
            if (k.startsWith(QLatin1String("OPENCODE_"))) env_.remove(k);
        const QString home = dir_->path();
        env_.insert("HOME", home);
        env_.insert("XDG_CONFIG_HOME", home + "/.config");
        env_.insert("XDG_DATA_HOME", home + "/.local/share");
        env_.insert("XDG_STATE_HOME", home + "/.local/state");
        env_.insert("XDG_CACHE_HOME", home + "/.cache");
        env_.insert("XDG_RUNTIME_DIR", home + "/run");
        QDir().mkpath(home + "/run");
        QFile::setPermissions(home + "/run",
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        env_.insert("TETHER_DATA_DIR", home + "/tether");
        env_.insert("QT_QPA_PLATFORM", "offscreen");
        env_.insert("OPENCODE_DISABLE_AUTOUPDATE", "1");
    }

    void startTether() {
        tether_ = std::make_unique<QProcess>();
        tether_->setProcessEnvironment(env_);
        tether_->setWorkingDirectory(dir_->path());
        tether_->setProcessChannelMode(QProcess::MergedChannels);
        tether_->setStandardOutputFile(path("tether.out"), QIODevice::Append);
        tether_->start(test::tetherBin(), {"--headless", "--settings", settings_});
        QVERIFY(tether_->waitForStarted(30000));
    }

    QByteArray cli(const QStringList &args, int *exitCode = nullptr,
                   QByteArray *errorOut = nullptr) const {
        return e2e::tetherCli(env_, args, exitCode, 60000, errorOut);
    }
    QJsonObject status() const {
        return QJsonDocument::fromJson(cli({"status", "--json"})).object();
    }
    bool waitFor(const std::function<bool(const QJsonObject &)> &condition, int timeoutMs,
                 QJsonObject *last) const {
        QDeadlineTimer deadline(timeoutMs);
        do {
            *last = status();
            if (condition(*last)) return true;
            QTest::qWait(500);
        } while (!deadline.hasExpired());
        return false;
    }
    QString explain(const QJsonObject &s) const {
        QFile out(path("tether.out"));
        return QStringLiteral("status --json: %1\n--- tether output\n%2")
            .arg(compact(s), out.open(QIODevice::ReadOnly)
                                 ? QString::fromUtf8(out.readAll().right(6000))
                                 : QString());
    }

    // opencode's registration, whatever its channel's file name [R14].
    ManagedRegistration registration() const {
        QDirIterator it(path(".local/state/opencode"), {"service*.json"}, QDir::Files);
        while (it.hasNext()) {
            const ManagedRegistrationRead r = readManagedRegistration(it.next());
            if (r.status == ManagedRegistrationRead::Status::Ok) return r.registration;
        }
        return {};
    }

    // A process of this scenario, verified by its command line before it is remembered.
    std::optional<os::Identity> verified(qint64 pid, const QString &argvContains) {
        const os::Lookup l = os::inspect(os::Pid(pid));
        if (l.status != os::Lookup::Status::Found) return std::nullopt;
        bool match = false;
        for (const std::string &a : l.info.argv)
            match |= QString::fromStdString(a).contains(argvContains);
        if (!match) return std::nullopt;
        const auto id = os::identityOf(os::Pid(pid));
        if (id) spawned_.push_back(*id);
        return id;
    }

    QByteArray request(const QByteArray &method, const QString &route, const QJsonObject &body) {
        const ManagedRegistration reg = registration();
        QNetworkAccessManager nam;
        nam.setProxy(QNetworkProxy::NoProxy);
        QNetworkRequest r(reg.url.resolved(QUrl(route)));
        r.setRawHeader("Authorization",
                       "Basic " + ("opencode:" + reg.password.toUtf8()).toBase64());
        r.setHeader(QNetworkRequest::ContentTypeHeader, "application/json");
        r.setTransferTimeout(30000);
        std::unique_ptr<QNetworkReply> reply(
            nam.sendCustomRequest(r, method, QJsonDocument(body).toJson(QJsonDocument::Compact)));
        if (!QTest::qWaitFor([&] { return reply->isFinished(); }, 31000)) reply->abort();
        const QByteArray out = reply->readAll();
        if (reply->error() != QNetworkReply::NoError)
            qWarning("%s %s: %s %s", method.constData(), qPrintable(route),
                     qPrintable(reply->errorString()), out.constData());
        return out;
    }

private slots:
    void initTestCase() {
        const QString bin = opencode2Bin();
        QVERIFY2(!bin.isEmpty(), "TETHER_OPENCODE2_BIN is unset: it names opencode 2.x's binary "
                                 "(npm install @opencode/cli; node_modules/.bin/opencode)");
        QVERIFY2(QFileInfo(bin).isExecutable(), qPrintable(bin + " is not an executable file"));
        QProcess v;
        v.start(bin, {"--version"});
        QVERIFY2(v.waitForFinished(60000), "opencode --version did not finish");
        const QString version = QString::fromUtf8(v.readAllStandardOutput());
        QVERIFY2(version.contains(QRegularExpression("\\b(2\\.\\d+\\.\\d+|0\\.0\\.0-|local)")),
                 qPrintable("not opencode 2.x: " + version));
        qInfo("opencode: %s", qPrintable(version.trimmed()));
    }

    void cleanup() {
        if (tether_ && tether_->state() != QProcess::NotRunning) {
            cli({"stop", "--force"});
            QJsonObject s;
            waitFor([](const QJsonObject &x) { return x.value("state").toString() == "stopped"; },
                    30000, &s);
            cli({"quit"});
            if (!test::awaitExit(*tether_, 30000)) tether_->kill();
        }
        tether_.reset();
        if (model_) {
            model_->kill(); // the test's own child
            model_->waitForFinished(10000);
        }
        model_.reset();
        for (const os::Identity &id : spawned_)
            if (os::alive(id) == os::Liveness::Alive) os::signalIdentity(id, os::Signal::Kill);
        spawned_.clear();
    }

    // Tether starts opencode 2.x (`serve --service`), shows its MCP rows from /api/mcp with the
    // pids matched through opencode.jsonc; a second Tether adopts the same service.
    void startsShowsMcpRowsAndIsAdopted() {
        prepare();
        startTether();
        QJsonObject s;
        QVERIFY2(waitFor(rowsConnected, kStart, &s), qPrintable(explain(s)));
        const qint64 pid = s.value("pid").toInteger();
        QVERIFY(verified(pid, QStringLiteral("serve")));
        const ManagedRegistration reg = registration();
        QCOMPARE(reg.pid, pid);
        QVERIFY(reg.url.isValid());
        cli({"quit"}); // the service keeps running (the default)
        QVERIFY(test::awaitExit(*tether_, 30000));
        QCOMPARE(os::alive(spawned_.front()), os::Liveness::Alive);
        startTether();
        QVERIFY2(waitFor(rowsConnected, kStart, &s), qPrintable(explain(s)));
        QCOMPARE(s.value("pid").toInteger(), pid); // adopted, not started again
        QCOMPARE(registration().id, reg.id);
    }

    // A SIGKILLed service leaves no MCP server behind: Tether's crash sweep ends them.
    void sigkilledServiceLeavesNoMcpServers() {
        prepare();
        startTether();
        QJsonObject s;
        QVERIFY2(waitFor(rowsConnected, kStart, &s), qPrintable(explain(s)));
        const auto service = verified(s.value("pid").toInteger(), QStringLiteral("serve"));
        QVERIFY(service);
        std::vector<os::Identity> mcp;
        for (const char *name : {"alpha", "beta"}) {
            const auto id = verified(mcpRow(s, QString::fromLatin1(name)).value("pid").toInteger(),
                                     QStringLiteral("demo-mcp"));
            QVERIFY2(id, name);
            mcp.push_back(*id);
        }
        QVERIFY(os::signalIdentity(*service, os::Signal::Kill));
        QTRY_VERIFY_WITH_TIMEOUT(os::alive(*service) == os::Liveness::Gone, 30000);
        for (const os::Identity &id : mcp)
            QTRY_VERIFY2_WITH_TIMEOUT(os::alive(id) == os::Liveness::Gone,
                                      qPrintable(explain(status())), 60000);
    }

    // A session at work (the fake model calls a 60 s tool): a plain stop is refused, naming
    // the tool; --force stops.
    void busySessionRefusesAPlainStop() {
        QVERIFY2(!QStandardPaths::findExecutable("node").isEmpty(), "node is not installed");
        QVERIFY2(QFileInfo::exists(e2e::everythingJs()),
                 qPrintable(e2e::everythingJs() + " missing: run scripts/e2e-deps.sh"));
        const QString fake = QFINDTESTDATA("fake_model_server.mjs");
        QVERIFY2(!fake.isEmpty(), "tests/e2e/fake_model_server.mjs missing");
        model_ = std::make_unique<QProcess>();
        model_->start("node", {fake, "--args", "{\"duration\": 60, \"steps\": 3}"});
        QVERIFY(model_->waitForReadyRead(30000));
        const QByteArray first = model_->readLine().trimmed(); // "listening PORT"
        const int modelPort = first.mid(first.indexOf(' ') + 1).toInt();
        QVERIFY2(modelPort > 0, first.constData());
        prepare(modelPort);
        startTether();
        QJsonObject s;
        QVERIFY2(waitFor(healthy, kStart, &s), qPrintable(explain(s)));
        verified(s.value("pid").toInteger(), QStringLiteral("serve"));
        // POST /api/session, then POST /api/session/{id}/prompt {text} (protocol groups/session.ts
        // @ 01fd0c85; the session's data.id is assumed to be its id).
        const QJsonObject created =
            QJsonDocument::fromJson(request("POST", "/api/session", {})).object();
        const QString session = created.value("data").toObject().value("id").toString();
        QVERIFY2(!session.isEmpty(), qPrintable("assumed {data: {id}}: " + compact(created)));
        request("POST", QStringLiteral("/api/session/%1/prompt").arg(session),
                QJsonObject{{"text", "run it"}});
        const auto running = [](const QJsonObject &x) {
            for (const QJsonValue &t :
                 x.value("activity").toObject().value("runningTools").toArray())
                if (t.toObject().value("tool").toString() == kTool) return true;
            return false;
        };
        QVERIFY2(waitFor(running, 60000, &s), qPrintable(explain(s)));
        QVERIFY(s.value("activity").toObject().value("busySessions").toInteger() >= 1);
        int rc = 0;
        QByteArray said;
        cli({"stop"}, &rc, &said);
        QCOMPARE(rc, 3);
        QVERIFY2(said.contains(kTool.toUtf8()), said.constData());
        QVERIFY(running(status())); // nothing was interrupted
        cli({"stop", "--force"}, &rc);
        QCOMPARE(rc, 0);
        QVERIFY2(
            waitFor([](const QJsonObject &x) { return x.value("state").toString() == "stopped"; },
                    30000, &s),
            qPrintable(explain(s)));
    }
};

QTEST_GUILESS_MAIN(TestOpencode2Real)
#include "tst_opencode2_real.moc"
