// The CLI verbs a person reaches for when something is wrong, run as a person runs them (the
// real `tether` binary, a private data dir): `status` tells "not running" (4) from "running but
// not answering" (5); `diagnostics FILE` writes one report with no password or token in it, with
// and without a running Tether; `cleanup` sweeps the orphans of a dead Tether by itself.
#include "control/control_client.h"
#include "control/control_protocol.h"
#include "os/process.h"
#include "service/registration.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalServer>
#include <QLocalSocket>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <memory>

using namespace tether;

namespace {

constexpr int kLong = 30000;

using Run = test::CliRun;

// The lines of CLI output, run under the pseudo-language (every catalogue string marked ⟦…⟧),
// that keep a word of plain ASCII letters once the marked parts, the command line's own words
// (options, verb names, "tether") and the data it quotes are taken out: each came from outside
// the catalogue, so a person reads it in English whatever their language.
QStringList untranslatedLines(const QByteArray &output, const QStringList &data) {
    QString text = QString::fromUtf8(output);
    static const QRegularExpression marked(QStringLiteral("⟦[^⟧]*⟧"));
    text.replace(marked, QStringLiteral(" ")); // before splitting: Qt wraps a long one
    QStringList byLength = data;
    std::sort(byLength.begin(), byLength.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
    for (const QString &d : std::as_const(byLength))
        if (!d.isEmpty()) text.replace(d, QStringLiteral(" "));
    static const QRegularExpression commandWords(
        QStringLiteral("--?[A-Za-z][A-Za-z-]*|\\b(tether|status|start|stop|restart|cleanup|"
                       "mcp-connect|mcp-disconnect|quit|diagnostics)\\b"));
    text.replace(commandWords, QStringLiteral(" "));
    static const QRegularExpression word(QStringLiteral("[A-Za-z]{2,}"));
    QStringList out;
    for (const QString &line : text.split(QLatin1Char('\n')))
        if (word.match(line).hasMatch()) out << line.trimmed();
    return out;
}

// Secrets planted where a report could pick them up; none may appear in it.
const QString kRegPassword = QStringLiteral("PLANTED-registration-pw-81");
const QString kIniPassword = QStringLiteral("PLANTED-settings-pw-82");
const QString kEnvPassword = QStringLiteral("PLANTED-environment-pw-83");
const QString kLogPassword = QStringLiteral("PLANTED-tetherlog-pw-84");
const QString kServiceLogToken = QStringLiteral("PLANTED-servicelog-token-85");
const QString kBasic = QStringLiteral("UExBTlRFRC1iYXNpYy04Ng==");

} // namespace

class TestCliDoctor : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> root_;
    QString dataDir_;
    std::unique_ptr<QProcess> tether_;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("TETHER_DATA_DIR"), dataDir_);
        e.insert(QStringLiteral("XDG_STATE_HOME"), root_->filePath(QStringLiteral("state")));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), root_->filePath(QStringLiteral("config")));
        e.insert(QStringLiteral("OPENCODE_SERVER_PASSWORD"), kEnvPassword);
        e.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        return e;
    }
    Run cli(const QStringList &args, int timeoutMs = 60000) const {
        return test::runTether(args, env(), timeoutMs);
    }
    QString writeIni(const QStringList &arguments, int port) {
        const QString path = root_->filePath(QStringLiteral("tether.ini"));
        QSettings ini(path, QSettings::IniFormat);
        ini.setValue(QStringLiteral("service/profile"), QStringLiteral("demo"));
        ini.setValue(QStringLiteral("service/port"), port);
        ini.setValue(QStringLiteral("service/arguments"), arguments.join(QLatin1Char(' ')));
        ini.setValue(QStringLiteral("probe/intervalMs"), 200);
        ini.setValue(QStringLiteral("orphans/onLaunch"), QStringLiteral("ask"));
        ini.sync();
        return path;
    }
    void startTether(const QString &ini) {
        tether_ = std::make_unique<QProcess>();
        tether_->setProcessEnvironment(env());
        tether_->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        tether_->setStandardOutputFile(QProcess::nullDevice());
        tether_->start(test::tetherBin(),
                       {QStringLiteral("--headless"), QStringLiteral("--settings"), ini});
        QVERIFY(tether_->waitForStarted(10000));
    }
    QJsonObject status() const {
        return QJsonDocument::fromJson(
                   cli({QStringLiteral("status"), QStringLiteral("--json")}).out)
            .object();
    }
    static QString readAll(const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }
    static void append(const QString &path, const QString &text) {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        QVERIFY(f.open(QIODevice::Append));
        f.write(text.toUtf8());
    }
    void verifyNoSecret(const QString &report, const QStringList &more = {}) {
        for (const QString &s : QStringList{kRegPassword, kIniPassword, kEnvPassword, kLogPassword,
                                            kServiceLogToken, kBasic} +
                                    more)
            QVERIFY2(!report.contains(s),
                     qPrintable(QStringLiteral("%1 leaked:\n%2").arg(s, report)));
    }

private slots:
    void init() {
        root_ = std::make_unique<QTemporaryDir>();
        dataDir_ = root_->filePath(QStringLiteral("data"));
        QDir().mkpath(dataDir_);
        // This process reaches the same socket name as the CLI it starts.
        qputenv("TETHER_DATA_DIR", dataDir_.toUtf8());
    }
    void cleanup() {
        if (tether_ && tether_->state() != QProcess::NotRunning) {
            cli({QStringLiteral("stop")});
            cli({QStringLiteral("quit")});
            if (!tether_->waitForFinished(kLong)) {
                tether_->kill(); // our own child, when quit did not end it
                tether_->waitForFinished();
            }
        }
        tether_.reset();
    }

    // Issue 27 (11): `tether --help`, a verb's help and `status --details` are in the person's
    // language: under the pseudo-language no line of them escapes the catalogue (they were
    // English whatever the language). German is checked complete by tst_translations.
    void helpAndDetailsComeThroughTheCatalogue() {
        QProcessEnvironment pseudo = env();
        pseudo.insert(QStringLiteral("TETHER_LANGUAGE"), QStringLiteral("pseudo"));
        for (const QStringList &args :
             {QStringList{QStringLiteral("--help")},
              QStringList{QStringLiteral("status"), QStringLiteral("--help")},
              QStringList{QStringLiteral("status"), QStringLiteral("--no-such-option")}}) {
            const Run r = test::runTether(args, pseudo);
            QVERIFY2(r.exitCode == 0 || r.exitCode == 2, qPrintable(args.join(QLatin1Char(' '))));
            const QByteArray shown = r.out + r.err;
            QVERIFY2(shown.contains("⟦"), shown.constData()); // the pseudo-language is on
            const QStringList left = untranslatedLines(shown, {QStringLiteral("no-such-option")});
            QVERIFY2(left.isEmpty(), qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") +
                                                left.join(QStringLiteral(" | "))));
        }
        const int port = test::freeLoopbackPort();
        startTether(writeIni({QStringLiteral("--mcp"), QStringLiteral("2")}, port));
        QTRY_VERIFY_WITH_TIMEOUT(status().value(QLatin1String("mcp")).toArray().size() == 2, kLong);
        const QJsonObject st = status();
        QStringList data{st.value(QLatin1String("version")).toString(),
                         st.value(QLatin1String("lastError")).toString(),
                         st.value(QLatin1String("activity"))
                             .toObject()
                             .value(QLatin1String("summary"))
                             .toString(),
                         dataDir_, root_->path()};
        const QJsonObject failure = st.value(QLatin1String("failure")).toObject();
        data << failure.value(QLatin1String("cause")).toString()
             << failure.value(QLatin1String("logPath")).toString();
        for (const QJsonValue &m : st.value(QLatin1String("mcp")).toArray())
            data << m.toObject().value(QLatin1String("name")).toString();
        const Run r =
            test::runTether({QStringLiteral("status"), QStringLiteral("--details")}, pseudo);
        QCOMPARE(r.exitCode, 0);
        // The service's and both MCP servers' process IDs are there, labelled.
        QVERIFY2(r.out.count("\n") >= 3, r.out.constData());
        const QStringList left = untranslatedLines(r.out, data);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QStringLiteral(" | "))));
    }

    void aFailedConnectIsClassified() {
        using S = control::Reply::Status;
        QCOMPARE(control::connectFailure(QLocalSocket::ServerNotFoundError), S::NotRunning);
        QCOMPARE(control::connectFailure(QLocalSocket::ConnectionRefusedError), S::NotRunning);
        QCOMPARE(control::connectFailure(QLocalSocket::SocketTimeoutError), S::NotAnswering);
        QCOMPARE(control::connectFailure(QLocalSocket::SocketAccessError), S::NoAnswer);
    }

    void statusSaysNotRunningWhenNobodyListens() {
        const Run r = cli({QStringLiteral("status")});
        QCOMPARE(r.exitCode, 4);
        QVERIFY2(r.err.contains("not running"), r.err.constData());
        const Run json = cli({QStringLiteral("status"), QStringLiteral("--json")});
        QCOMPARE(json.exitCode, 4);
        QCOMPARE(QJsonDocument::fromJson(json.out).object().value(QLatin1String("running")),
                 QJsonValue(false));
    }

    void statusSaysNotAnsweringWhenATetherHoldsTheSocket() {
        // A listener on the control socket that accepts and never answers: a stalled Tether.
        QLocalServer stalled;
        stalled.setSocketOptions(QLocalServer::UserAccessOption);
        QVERIFY2(stalled.listen(control::serverName()), qPrintable(stalled.errorString()));
        QList<QLocalSocket *> held;
        connect(&stalled, &QLocalServer::newConnection, this, [&] {
            while (QLocalSocket *s = stalled.nextPendingConnection())
                held << s; // read nothing, answer nothing
        });
        QProcess p; // run while our event loop accepts
        p.setProcessEnvironment(env());
        QElapsedTimer t;
        t.start();
        p.start(test::tetherBin(), {QStringLiteral("status")});
        QVERIFY(p.waitForStarted(10000));
        QTRY_VERIFY_WITH_TIMEOUT(p.state() == QProcess::NotRunning, kLong);
        QCOMPARE(p.exitCode(), 5);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains("running but not answering"), err.constData());
        QVERIFY(!err.contains("not running ("));
        QVERIFY(!held.isEmpty());
        qDeleteAll(held);
    }

    void diagnosticsWithoutTetherHaveNoSecret() {
        // Planted: the registration, the settings, the environment (env()), both logs.
        Registration reg;
        reg.pid = 999999; // long gone
        reg.startTime = 1;
        reg.port = 4096;
        reg.version = QStringLiteral("1.18.33-demo");
        reg.password = kRegPassword;
        reg.startedAt = QDateTime::currentDateTime();
        reg.profile = QStringLiteral("demo");
        reg.program = test::tetherBin();
        QString error;
        QVERIFY2(writeRegistration(registrationPath(), reg, &error), qPrintable(error));
        const QString ini = writeIni({QStringLiteral("--password"), kIniPassword}, 4096);
        append(dataDir_ + QStringLiteral("/logs/tether.log"),
               QStringLiteral("2026-12-01T10:00:00 state starting -> healthy\n"
                              "2026-12-01T10:00:01 password=%1 (a careless line)\n"
                              "2026-12-01T10:00:02 Authorization: Basic %2\n")
                   .arg(kLogPassword, kBasic));
        append(dataDir_ + QStringLiteral("/logs/service.log"),
               QStringLiteral("service says hello\n{\"token\": \"%1\"}\nlistening on %2\n")
                   .arg(kServiceLogToken, QStringLiteral("127.0.0.1:4096")));

        const QString file = root_->filePath(QStringLiteral("report.txt"));
        const Run r = cli({QStringLiteral("diagnostics"), file, QStringLiteral("--settings"), ini});
        QCOMPARE(r.exitCode, 0);
        const QString report = readAll(file);
        for (const char *part :
             {"== Versions ==", "tether 0.1.0", "== Tether ==\nnot running", "== Settings (",
              "[service]", "== Status ==", "== Transitions ==", "state starting -> healthy",
              "== Tether log", "== Service log", "service says hello", "== Registration (",
              "\"port\": 4096", "== Port 4096 ==", "== Service process tree =="})
            QVERIFY2(report.contains(QString::fromUtf8(part)),
                     qPrintable(QStringLiteral("no \"%1\" in:\n%2").arg(part, report)));
        verifyNoSecret(report);
    }

    void diagnosticsOfARunningTetherNameTheTreeAndHaveNoSecret() {
        const int port = test::freeLoopbackPort();
        startTether(writeIni({QStringLiteral("--mcp"), QStringLiteral("2")}, port));
        QTRY_VERIFY_WITH_TIMEOUT(status().value(QLatin1String("mcp")).toArray().size() == 2, kLong);
        const RegistrationRead reg = readRegistration(registrationPath());
        QCOMPARE(reg.status, RegistrationRead::Status::Ok);
        QVERIFY(reg.registration.password.size() >= 16);

        const QString file = root_->filePath(QStringLiteral("running.txt"));
        const Run r = cli({QStringLiteral("diagnostics"), file});
        QCOMPARE(r.exitCode, 0);
        const QString report = readAll(file);
        QVERIFY2(report.contains(
                     QStringLiteral("== Tether ==\nrunning (pid %1)").arg(tether_->processId())),
                 qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("healthy")), qPrintable(report));
        // The service's process tree: the service itself, and (where argv is readable: not
        // under wine) its demo MCP children by their command.
        const QString tree = report.section(QStringLiteral("== Service process tree ==\n"), 1);
        QVERIFY2(tree.contains(QStringLiteral("pid %1 ppid").arg(reg.registration.pid)),
                 qPrintable(tree));
#ifndef Q_OS_WIN
        QCOMPARE(tree.count(QStringLiteral("demo-mcp")), 2);
#endif
        verifyNoSecret(report, {reg.registration.password});
    }

#ifndef Q_OS_WIN // the service's MCP children left by a killed Tether: POSIX groups here
    void cleanupWithoutTetherSweepsWhatADeadOneLeft() {
        const int port = test::freeLoopbackPort();
        // Tagged: the cleanup verb looks at the whole machine, and suites beside this one leave
        // stubborn children of the same command whose parent is gone.
        startTether(
            writeIni({QStringLiteral("--mcp"), QStringLiteral("2"), QStringLiteral("--stubborn"),
                      QStringLiteral("--mcp-tag"), QFileInfo(root_->path()).fileName()},
                     port));
        QList<os::Identity> children;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                children.clear();
                for (const QJsonValue &v : status().value(QLatin1String("mcp")).toArray()) {
                    const auto id =
                        os::identityOf(v.toObject().value(QLatin1String("pid")).toInteger());
                    if (id && id->pid > 1) children << *id;
                }
                return children.size() == 2;
            }(),
            kLong);
        QTRY_VERIFY_WITH_TIMEOUT(readAll(dataDir_ + QStringLiteral("/mcp-ledger.json"))
                                     .contains(QString::number(children.first().pid)),
                                 kLong);
        const std::vector<std::string> childArgv = os::inspect(children.first().pid).info.argv;
        QVERIFY(!childArgv.empty());
        const qint64 servicePid = status().value(QLatin1String("pid")).toInteger();
        const auto service = os::identityOf(servicePid);
        QVERIFY(service);
        // Ours: the service this test's Tether started (its parent), identified before the kill.
        QCOMPARE(os::inspect(service->pid).info.ppid, os::Pid(tether_->processId()));
        tether_->kill(); // a crash of Tether itself: nothing cleans up
        QVERIFY(tether_->waitForFinished(kLong));
        QVERIFY(os::signalIdentity(*service, os::Signal::Kill));
        QTRY_VERIFY_WITH_TIMEOUT(test::absentOrZombie(service->pid), kLong);
        for (const os::Identity &c : children)
            QCOMPARE(os::alive(c), os::Liveness::Alive); // orphans now

        const Run dry =
            cli({QStringLiteral("cleanup"), QStringLiteral("--dry-run"), QStringLiteral("--json")});
        QCOMPARE(dry.exitCode, 0);
        const QJsonArray found =
            QJsonDocument::fromJson(dry.out).object().value(QLatin1String("found")).toArray();
        QCOMPARE(found.size(), 2);
        for (const os::Identity &c : children)
            QCOMPARE(os::alive(c), os::Liveness::Alive); // a dry run kills nothing

        const Run real = cli({QStringLiteral("cleanup")});
        QCOMPARE(real.exitCode, 0);
        for (const os::Identity &c : children)
            QTRY_VERIFY2_WITH_TIMEOUT(test::absentOrZombie(c.pid), real.out.constData(), kLong);
        QVERIFY2(real.out.contains("killed") || real.out.contains("exited"), real.out.constData());
        const Run again = cli({QStringLiteral("cleanup")});
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(again.out.contains("No orphaned MCP processes."), again.out.constData());

        // A possible orphan: the same MCP command, its parent gone (startDetached double-forks),
        // in no ledger. Listed and kept; removed only with --yes.
        QStringList argv;
        for (const std::string &a : childArgv)
            argv << QString::fromStdString(a);
        qint64 pid = 0;
        QVERIFY(QProcess::startDetached(argv.first(), argv.mid(1), QString(), &pid));
        QTRY_VERIFY_WITH_TIMEOUT(os::identityOf(pid).has_value(), kLong);
        const os::Identity possible = *os::identityOf(pid);
        const Run kept = cli({QStringLiteral("cleanup")});
        QCOMPARE(kept.exitCode, 0);
        QVERIFY2(kept.out.contains(QStringLiteral("pid %1").arg(pid).toUtf8()) &&
                     kept.out.contains("possible orphan") && kept.out.contains("--yes"),
                 kept.out.constData());
        QCOMPARE(os::alive(possible), os::Liveness::Alive);
        const Run yes = cli({QStringLiteral("cleanup"), QStringLiteral("--yes")});
        QCOMPARE(yes.exitCode, 0);
        QTRY_VERIFY2_WITH_TIMEOUT(test::absentOrZombie(pid), yes.out.constData(), kLong);
    }
#endif
};

QTEST_GUILESS_MAIN(TestCliDoctor)
#include "tst_cli_doctor.moc"
