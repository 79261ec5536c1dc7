// Issue 15 end to end: the real opencode 1.18.33 under `tether --headless` runs a real MCP tool
// call (server-everything's trigger-long-running-operation), driven by the fake model server
// fixture (fake_model_server.mjs: one tool call, then a text), with no network.
// Asserts through `tether status --json`'s "activity" object, the act-core contract:
//   {"busySessions": N, "runningTools": [{"session": "...", "tool": "...", "runningMs": N}]}
// and "lastInterrupted": [...] after a replacement. Missing packages fail; nothing skips.
#include "opencode_home.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QUrlQuery>
#include <QtTest>

#include <csignal>

using namespace tether;
using e2e::OpencodeHome;

namespace {

constexpr int kStart = 180000; // opencode needs 20+ s to start on this shared machine
const QString kTool = QStringLiteral("everything_trigger-long-running-operation");

QString dumpStatus(const QJsonObject &s) {
    return QString::fromUtf8(QJsonDocument(s).toJson(QJsonDocument::Compact));
}
QJsonObject activity(const QJsonObject &s) {
    return s.value(QLatin1String("activity")).toObject();
}
qint64 busySessions(const QJsonObject &s) {
    return activity(s).value(QLatin1String("busySessions")).toInteger();
}
// The running tool call of that name, or an empty object.
QJsonObject runningTool(const QJsonObject &s, const QString &tool) {
    for (const QJsonValue &v : activity(s).value(QLatin1String("runningTools")).toArray())
        if (v.toObject().value(QLatin1String("tool")).toString() == tool) return v.toObject();
    return {};
}

// The fake model server, our own node child; the port it chose is on its first line.
class FakeModel {
public:
    bool start(const QString &script, int seconds, QString *why) {
        process.setProgram(QStandardPaths::findExecutable(QStringLiteral("node")));
        process.setArguments({script, QStringLiteral("--tool"), kTool, QStringLiteral("--args"),
                              QStringLiteral(R"({"duration": %1, "steps": 3})").arg(seconds)});
        process.setProcessChannelMode(QProcess::SeparateChannels);
        process.start();
        QDeadlineTimer deadline(20000);
        while (!process.canReadLine() && !deadline.hasExpired() &&
               process.state() != QProcess::NotRunning)
            process.waitForReadyRead(100);
        const auto m = QRegularExpression(QStringLiteral("^listening (\\d+)"))
                           .match(QString::fromUtf8(process.readLine()));
        port = m.hasMatch() ? m.captured(1).toInt() : 0;
        if (port == 0 && why)
            *why = QStringLiteral("fake model server did not start: ") +
                   QString::fromUtf8(process.readAllStandardError());
        return port != 0;
    }
    ~FakeModel() {
        if (process.state() != QProcess::NotRunning) {
            process.kill(); // our own direct child
            process.waitForFinished(10000);
        }
    }
    QProcess process;
    int port = 0;
};

} // namespace

class TstOpencodeActivity : public QObject {
    Q_OBJECT

    std::unique_ptr<OpencodeHome> home_;
    std::unique_ptr<FakeModel> model_;
    qint64 servicePid_ = 0;

    // opencode.json gains the fake provider as the default model, and the MCP entry of
    // server-everything a timeout above the call (opencode's default fails it at 60 s).
    bool configureModel(QString *why) {
        const QString file = home_->path(QStringLiteral(".config/opencode/opencode.json"));
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) return (*why = QStringLiteral("no opencode.json"), false);
        QJsonObject config = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        const QJsonObject provider{
            {QStringLiteral("npm"), QStringLiteral("@ai-sdk/openai-compatible")},
            {QStringLiteral("name"), QStringLiteral("Fake")},
            {QStringLiteral("options"),
             QJsonObject{{QStringLiteral("baseURL"),
                          QStringLiteral("http://127.0.0.1:%1/v1").arg(model_->port)},
                         {QStringLiteral("apiKey"), QStringLiteral("unused")}}},
            {QStringLiteral("models"),
             QJsonObject{{QStringLiteral("fake"),
                          QJsonObject{{QStringLiteral("name"), QStringLiteral("Fake")},
                                      {QStringLiteral("tool_call"), true}}}}}};
        config.insert(QStringLiteral("provider"), QJsonObject{{QStringLiteral("fake"), provider}});
        config.insert(QStringLiteral("model"), QStringLiteral("fake/fake"));
        config.insert(QStringLiteral("small_model"), QStringLiteral("fake/fake"));
        QJsonObject mcp = config.value(QStringLiteral("mcp")).toObject();
        QJsonObject everything = mcp.value(QStringLiteral("everything")).toObject();
        everything.insert(QStringLiteral("timeout"), 300000);
        mcp.insert(QStringLiteral("everything"), everything);
        config.insert(QStringLiteral("mcp"), mcp);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            f.write(QJsonDocument(config).toJson()) <= 0)
            return (*why = QStringLiteral("cannot write opencode.json"), false);
        return true;
    }

    QJsonObject bringUp(int toolSeconds, const e2e::Timings &t = {}) {
        home_ = std::make_unique<OpencodeHome>();
        model_ = std::make_unique<FakeModel>();
        QString why;
        const QString source = QFileInfo(QFINDTESTDATA("stubborn-mcp.sh")).absolutePath();
        if (!home_->prepare(source, t, &why) ||
            !model_->start(source + QStringLiteral("/fake_model_server.mjs"), toolSeconds, &why) ||
            !configureModel(&why)) {
            qWarning("%s", qPrintable(why));
            return {};
        }
        if (!home_->startTether()) return {};
        QJsonObject s;
        if (!home_->waitFor(&OpencodeHome::allConnected, kStart, &s)) {
            qWarning("not healthy: %s\n%s", qPrintable(dumpStatus(s)),
                     qPrintable(home_->tetherLog()));
            return {};
        }
        // "followed": the stream is connected and what ran before it is known (the catch-up);
        // a person sees "idle" then.
        const auto follows = [](const QJsonObject &x) {
            return x.value(QLatin1String("activity"))
                .toObject()
                .value(QLatin1String("followed"))
                .toBool();
        };
        if (!home_->waitFor(follows, kStart, &s)) {
            qWarning("the event stream is not followed: %s", qPrintable(dumpStatus(s)));
            return {};
        }
        servicePid_ = s.value(QLatin1String("pid")).toInteger();
        if (!home_->service(servicePid_)) return {};
        for (const QJsonValue &v : s.value(QLatin1String("mcp")).toArray())
            home_->remember(v.toObject().value(QLatin1String("pid")).toInteger());
        return s;
    }

    // The password Tether gave this opencode, read from its environment (our own child's).
    QByteArray servicePassword() const {
        QFile environ(QStringLiteral("/proc/%1/environ").arg(servicePid_));
        if (!environ.open(QIODevice::ReadOnly)) return {};
        for (const QByteArray &kv : environ.readAll().split('\0'))
            if (kv.startsWith("OPENCODE_SERVER_PASSWORD=")) return kv.mid(25);
        return {};
    }

    // POST to opencode's API as a client would; returns the body (null on failure).
    QByteArray post(const QString &path, const QJsonObject &body) {
        QNetworkAccessManager nam;
        QUrl url(QStringLiteral("http://127.0.0.1:%1%2").arg(home_->port).arg(path));
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("directory"), home_->path(QStringLiteral("project")));
        url.setQuery(q);
        QNetworkRequest request(url);
        request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        request.setRawHeader("Authorization",
                             "Basic " + ("opencode:" + servicePassword()).toBase64());
        request.setTransferTimeout(30000);
        std::unique_ptr<QNetworkReply> reply(nam.post(request, QJsonDocument(body).toJson()));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        if (!finished.wait(35000) || reply->error() != QNetworkReply::NoError) return {};
        const QByteArray data = reply->readAll();
        return data.isNull() ? QByteArray("") : data;
    }

    // GET with the service's password (for diagnostics: what opencode itself says).
    QByteArray get(const QString &path) {
        QNetworkAccessManager nam;
        QUrl url(QStringLiteral("http://127.0.0.1:%1%2").arg(home_->port).arg(path));
        QUrlQuery q;
        q.addQueryItem(QStringLiteral("directory"), home_->path(QStringLiteral("project")));
        url.setQuery(q);
        QNetworkRequest request(url);
        request.setRawHeader("Authorization",
                             "Basic " + ("opencode:" + servicePassword()).toBase64());
        request.setTransferTimeout(10000);
        std::unique_ptr<QNetworkReply> reply(nam.get(request));
        QSignalSpy finished(reply.get(), &QNetworkReply::finished);
        finished.wait(15000);
        return reply->readAll();
    }
    // Tether's status and opencode's own view, for a failure message.
    QString explain(const QJsonObject &s) {
        QString parts;
        for (const QJsonValue &v : activity(s).value(QLatin1String("runningTools")).toArray())
            parts +=
                QStringLiteral("\nopencode's parts of %1: %2")
                    .arg(v.toObject().value(QLatin1String("session")).toString(),
                         toolParts(v.toObject().value(QLatin1String("session")).toString(), true)
                             .join(QStringLiteral("; ")));
        return QStringLiteral("status --json: %1\nopencode /session/status: %2%3\nwall clock %4")
            .arg(dumpStatus(s), QString::fromUtf8(get(QStringLiteral("/session/status"))), parts)
            .arg(QDateTime::currentMSecsSinceEpoch());
    }
    // The tool parts opencode reports for a session: "tool status" per part.
    QStringList toolParts(const QString &session, bool detail = false) {
        QStringList out;
        const QJsonArray messages =
            QJsonDocument::fromJson(get(QStringLiteral("/session/%1/message").arg(session)))
                .array();
        for (const QJsonValue &m : messages)
            for (const QJsonValue &p : m.toObject().value(QLatin1String("parts")).toArray())
                if (p.toObject().value(QLatin1String("type")).toString() == QLatin1String("tool")) {
                    const QJsonObject state = p.toObject().value(QLatin1String("state")).toObject();
                    out << p.toObject().value(QLatin1String("tool")).toString() + QLatin1Char(' ') +
                               state.value(QLatin1String("status")).toString();
                    if (detail)
                        out.last() += QStringLiteral(" (part %1, started %2)")
                                          .arg(p.toObject().value(QLatin1String("id")).toString())
                                          .arg(qint64(state.value(QLatin1String("time"))
                                                          .toObject()
                                                          .value(QLatin1String("start"))
                                                          .toDouble()));
                }
        return out;
    }
    bool waitRunning(QJsonObject *s) {
        return home_->waitFor([](const QJsonObject &x) { return !runningTool(x, kTool).isEmpty(); },
                              20000, s);
    }

    // A session in the project directory, prompted: the fake model makes it call the tool.
    QString startToolCall() {
        const QString session = QJsonDocument::fromJson(post(QStringLiteral("/session"), {}))
                                    .object()
                                    .value(QLatin1String("id"))
                                    .toString();
        if (session.isEmpty()) return {};
        const QJsonObject prompt{
            {QStringLiteral("model"), QJsonObject{{QStringLiteral("providerID"), "fake"},
                                                  {QStringLiteral("modelID"), "fake"}}},
            {QStringLiteral("parts"),
             QJsonArray{QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                    {QStringLiteral("text"), QStringLiteral("run it")}}}}};
        if (post(QStringLiteral("/session/%1/prompt_async").arg(session), prompt).isNull())
            return {};
        return session;
    }

private slots:
    void initTestCase() {
        const QString missing = e2e::missingDependencies();
        QVERIFY2(missing.isEmpty(), qPrintable(missing));
        QVERIFY2(QFileInfo::exists(QFINDTESTDATA("fake_model_server.mjs")),
                 "tests/e2e/fake_model_server.mjs missing");
    }
    void cleanup() {
        if (home_) home_->tearDown();
        home_.reset();
        model_.reset();
    }

    // A 30 s tool call shows in status --json within seconds, completes under Tether with the
    // same service pid, and then the service is idle again.
    void toolCallShowsAndCompletesWithoutRestart() {
        QVERIFY(!bringUp(30).isEmpty());
        QElapsedTimer clock;
        clock.start();
        const QString session = startToolCall();
        QVERIFY2(!session.isEmpty(), "could not prompt opencode");
        // The fixture works: opencode itself runs the tool (its own API says so).
        QTRY_VERIFY_WITH_TIMEOUT(toolParts(session).contains(kTool + QStringLiteral(" running")),
                                 20000);
        qInfo("opencode reports the tool running %lld ms after the prompt", clock.elapsed());
        QJsonObject s;
        if (!waitRunning(&s)) qWarning("%s", qPrintable(explain(s))); // QtTest truncates
        QVERIFY(waitRunning(&s));
        qInfo("tool call in status --json %lld ms after the prompt", clock.elapsed());
        QCOMPARE(runningTool(s, kTool).value(QLatin1String("session")).toString(), session);
        QVERIFY(busySessions(s) >= 1);
        // runningMs grows while it runs.
        const qint64 first = runningTool(s, kTool).value(QLatin1String("runningMs")).toInteger();
        QVERIFY2(
            home_->waitFor(
                [&](const QJsonObject &x) {
                    return runningTool(x, kTool).value(QLatin1String("runningMs")).toInteger() >=
                           first + 2000;
                },
                10000, &s),
            qPrintable(dumpStatus(s)));
        // Completed: no running tool, no busy session, the same opencode.
        QVERIFY2(home_->waitFor(
                     [](const QJsonObject &x) {
                         return runningTool(x, kTool).isEmpty() && busySessions(x) == 0;
                     },
                     60000, &s),
                 qPrintable(dumpStatus(s)));
        QVERIFY2(clock.elapsed() >= 30000, "the tool call ended early: interrupted?");
        QCOMPARE(s.value(QLatin1String("pid")).toInteger(), servicePid_);
        QCOMPARE(s.value(QLatin1String("state")).toString(), QStringLiteral("healthy"));
    }

    // A plain stop during a tool call is refused with exit 3, naming the tool; --force stops.
    void stopDuringToolCallNeedsForce() {
        QVERIFY(!bringUp(60).isEmpty());
        QVERIFY(!startToolCall().isEmpty());
        QJsonObject s;
        if (!waitRunning(&s)) qWarning("%s", qPrintable(explain(s))); // QtTest truncates
        QVERIFY(waitRunning(&s));
        int rc = 0;
        QByteArray said; // the refusal is said on stderr
        home_->cli({QStringLiteral("stop")}, &rc, 30000, &said);
        QCOMPARE(rc, 3);
        QVERIFY2(said.contains(kTool.toUtf8()), said.constData());
        s = home_->status();
        QCOMPARE(s.value(QLatin1String("pid")).toInteger(), servicePid_);
        QVERIFY(!runningTool(s, kTool).isEmpty()); // still running: nothing was interrupted

        home_->cli({QStringLiteral("stop"), QStringLiteral("--force")}, &rc);
        QCOMPARE(rc, 0);
        QVERIFY2(home_->waitFor(
                     [](const QJsonObject &x) {
                         return x.value(QLatin1String("state")).toString() ==
                                QLatin1String("stopped");
                     },
                     30000, &s),
                 qPrintable(dumpStatus(s)));
    }

    // Tether quits (leaving the service, the default) while a tool call runs, and starts
    // again: opencode replays nothing, so the new Tether asks it, shows the call with its age
    // within seconds of adopting the service, and refuses a plain stop.
    void toolCallRunningBeforeTetherStartsIsCaughtUp() {
        QVERIFY(!bringUp(90).isEmpty());
        QVERIFY(!startToolCall().isEmpty());
        QJsonObject s;
        if (!waitRunning(&s)) qWarning("%s", qPrintable(explain(s))); // QtTest truncates
        QVERIFY(waitRunning(&s));
        QElapsedTimer known; // the call has run at least this long: it ran when we asked
        known.start();
        int rc = 0;
        home_->cli({QStringLiteral("quit")}, &rc);
        QCOMPARE(rc, 0);
        QVERIFY(home_->tether->waitForFinished(20000));
        const auto service = home_->service(servicePid_);
        QVERIFY(service);
        QCOMPARE(os::alive(*service), os::Liveness::Alive);

        QElapsedTimer clock;
        clock.start();
        QVERIFY(home_->startTether());
        const auto caughtUp = [](const QJsonObject &x) {
            return x.value(QLatin1String("activity"))
                       .toObject()
                       .value(QLatin1String("followed"))
                       .toBool() &&
                   !runningTool(x, kTool).isEmpty();
        };
        QVERIFY2(home_->waitFor(caughtUp, 20000, &s), qPrintable(explain(s)));
        qInfo("the running tool call in status --json %lld ms after Tether started again",
              clock.elapsed());
        QCOMPARE(s.value(QLatin1String("pid")).toInteger(), servicePid_); // adopted, not replaced
        // Its age is the service's: at least as long as we have known it to run, which is
        // longer than this Tether has existed (by the quit and the restart).
        const qint64 atLeast = known.elapsed();
        s = home_->status();
        QVERIFY2(runningTool(s, kTool).value(QLatin1String("runningMs")).toInteger() >= atLeast,
                 qPrintable(QStringLiteral("known to run for %1 ms\n").arg(atLeast) + explain(s)));
        QByteArray said;
        home_->cli({QStringLiteral("stop")}, &rc, 30000, &said);
        QCOMPARE(rc, 3);
        QVERIFY2(said.contains(kTool.toUtf8()), said.constData());
        home_->cli({QStringLiteral("stop"), QStringLiteral("--force")}, &rc);
        QCOMPARE(rc, 0);
    }

    // SIGSTOP beyond the recovery window during a tool call: Tether replaces the frozen
    // service and names the interrupted tool call in lastInterrupted.
    void frozenDuringToolCallIsReplacedAndReported() {
        e2e::Timings t;
        t.windowMs = 8000;
        QVERIFY(!bringUp(60, t).isEmpty());
        const QString session = startToolCall();
        QVERIFY(!session.isEmpty());
        QJsonObject s;
        if (!waitRunning(&s)) qWarning("%s", qPrintable(explain(s))); // QtTest truncates
        QVERIFY(waitRunning(&s));
        const auto old = home_->service(servicePid_);
        QVERIFY(old);
        QVERIFY(os::signalIdentity(*old, os::Signal::Stop)); // the opencode we verified
        QVERIFY2(home_->waitFor(
                     [&](const QJsonObject &x) {
                         const qint64 pid = x.value(QLatin1String("pid")).toInteger();
                         return pid > 0 && pid != servicePid_ &&
                                x.value(QLatin1String("state")).toString() ==
                                    QLatin1String("healthy");
                     },
                     kStart, &s),
                 qPrintable(dumpStatus(s)));
        home_->service(s.value(QLatin1String("pid")).toInteger());
        bool named = false;
        for (const QJsonValue &v : s.value(QLatin1String("lastInterrupted")).toArray())
            named |= v.toObject().value(QLatin1String("tool")).toString() == kTool &&
                     v.toObject().value(QLatin1String("session")).toString() == session;
        QVERIFY2(named, qPrintable(dumpStatus(s)));
        QVERIFY(e2e::goneOrZombie(*old));
    }
};

int main(int argc, char **argv) {
    if (qEnvironmentVariableIsEmpty("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "900000");
    QCoreApplication app(argc, argv);
    TstOpencodeActivity test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_opencode_activity.moc"
