// The service's PATH from the login shell (service/login_path.h): an app started from Finder or
// launchd has PATH=/usr/bin:/bin:/usr/sbin:/sbin. Shells here are fake scripts this test writes:
// one that answers, one whose rc file chatters, one that refuses -i, one that hangs, one that
// floods, one that prints junk only.
#include "os/process.h"
#include "service/login_path.h"
#include "service/service_launcher.h"
#include "service/status.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace tether;

namespace {

// A fake shell: `body` runs with the flags in $1.. and Tether's script as the last argument.
QString writeShell(const QTemporaryDir &dir, const QString &name, const QByteArray &body) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write("#!/bin/sh\nfor a; do last=$a; done\n" + body + "\n");
    f.close();
    f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

QByteArray readAll(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestLoginPath : public QObject {
    Q_OBJECT
    QByteArray savedPath_;
    QByteArray savedShell_;

private slots:
    void init() {
        savedPath_ = qgetenv("PATH");
        savedShell_ = qgetenv("SHELL");
    }
    void cleanup() {
        qputenv("PATH", savedPath_);
        qputenv("SHELL", savedShell_);
    }

    void extractsThePathBetweenTheMarkers() {
        const QByteArray out = QByteArray("Last login: today\nwelcome!\n") + kPathBegin +
                               "/opt/homebrew/bin:/usr/bin" + kPathEnd + "\nbye\n";
        QCOMPARE(extractMarkedPath(out), std::optional<QString>("/opt/homebrew/bin:/usr/bin"));
        // An rc file that prints the markers first cannot win over our printf, the last word.
        const QByteArray faked = QByteArray(kPathBegin) + "/evil" + kPathEnd + "\n" + kPathBegin +
                                 "/usr/local/bin" + kPathEnd;
        QCOMPARE(extractMarkedPath(faked), std::optional<QString>("/usr/local/bin"));
    }

    void rejectsWhatIsNoPath() {
        QCOMPARE(extractMarkedPath("no markers at all"), std::nullopt);
        QCOMPARE(extractMarkedPath(QByteArray(kPathBegin) + "/usr/bin"), std::nullopt); // no end
        QCOMPARE(extractMarkedPath(QByteArray(kPathBegin) + kPathEnd), std::nullopt);   // empty
        QCOMPARE(extractMarkedPath(QByteArray(kPathBegin) + "bin:sbin" + kPathEnd), std::nullopt);
        QCOMPARE(extractMarkedPath(QByteArray(kPathBegin) + "/usr/bin\x1b[0m" + kPathEnd),
                 std::nullopt);
    }

    void mergeKeepsTheLoginOrderAndWhatWasInheritedToo() {
        QCOMPARE(mergePath("/opt/homebrew/bin:/usr/bin:/bin", "/usr/bin:/bin:/usr/sbin:/sbin"),
                 QStringLiteral("/opt/homebrew/bin:/usr/bin:/bin:/usr/sbin:/sbin"));
        QCOMPARE(mergePath("/a::/b", ""), QStringLiteral("/a:/b"));
        QCOMPARE(mergePath("/c:/a:/c", "/a:/d"), QStringLiteral("/c:/a:/d"));
    }

    void asksAnInteractiveLoginShellFirst() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString args = dir.filePath("args");
        const QString shell =
            writeShell(dir, "zsh",
                       "printf '%s %s %s\\n' \"$1\" \"$2\" \"$3\" >> '" + args.toUtf8() +
                           "'\necho 'oh-my-zsh says hi'\nPATH=/opt/homebrew/bin:/usr/bin:/bin\n"
                           "export PATH\nexec /bin/sh -c \"$last\"");
        QString why;
        QCOMPARE(queryLoginShellPath({shell}, &why),
                 std::optional<QString>("/opt/homebrew/bin:/usr/bin:/bin"));
        QCOMPARE(readAll(args), QByteArray("-l -i -c\n")); // one shell, interactive login
    }

    void fallsBackToALoginShellWhenInteractiveFails() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString shell =
            writeShell(dir, "picky",
                       "[ \"$2\" = -i ] && { echo 'no tty' >&2; exit 1; }\n"
                       "PATH=/usr/local/bin:/usr/bin\nexport PATH\nexec /bin/sh -c \"$last\"");
        QString why;
        QCOMPARE(queryLoginShellPath({shell}, &why),
                 std::optional<QString>("/usr/local/bin:/usr/bin"));
    }

    void aHangingShellIsKilledAtTheTimeoutWithWhatItStarted() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString pidFile = dir.filePath("pid");
        // The rc file starts a child that would keep the pipe open, then waits forever.
        const QString shell =
            writeShell(dir, "hang",
                       "sleep 300 &\necho $! > '" + pidFile.toUtf8() + ".tmp'\nmv '" +
                           pidFile.toUtf8() + ".tmp' '" + pidFile.toUtf8() + "'\nwait");
        QElapsedTimer clock;
        clock.start();
        QString why;
        QCOMPARE(queryLoginShellPath({shell, 300}, &why), std::nullopt);
        const qint64 took = clock.elapsed();
        QVERIFY2(took >= 600 && took < 3000, qPrintable(QString::number(took))); // 2 x 300 ms
        QVERIFY2(why.contains(QLatin1String("gave no PATH within 300 ms")), qPrintable(why));
        // The second attempt's sleep (the file names the last one): dead, or a zombie.
        const qint64 sleeper = readAll(pidFile).trimmed().toLongLong();
        QVERIFY(sleeper > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!os::identityOf(sleeper) ||
                                     os::alive(*os::identityOf(sleeper)) == os::Liveness::Gone,
                                 5000);
    }

    void aFloodIsCutAtTheCap() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString shell = writeShell(dir, "flood", "while :; do echo junkjunkjunkjunk; done");
        QElapsedTimer clock;
        clock.start();
        QString why;
        QCOMPARE(queryLoginShellPath({shell, 5000, 4096}, &why), std::nullopt);
        QVERIFY2(clock.elapsed() < 5000, "the cap, not the timeout, ended it");
        QVERIFY2(why.contains(QLatin1String("more than 4096 bytes")), qPrintable(why));
    }

    void junkWithoutAPathLeavesTheInheritedOne() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString shell = writeShell(dir, "junk", "echo 'command not found: printf'; exit 127");
        qputenv("PATH", "/usr/bin:/bin:/usr/sbin:/sbin");
        const ServicePath p = resolveServicePath(true, {shell});
        QCOMPARE(p.source, QStringLiteral("inherited"));
        QCOMPARE(p.value, QStringLiteral("/usr/bin:/bin:/usr/sbin:/sbin"));
        QVERIFY2(p.note.contains(QLatin1String("printed no PATH (exit 127)")), qPrintable(p.note));
        // A shell that does not exist: the same.
        QCOMPARE(resolveServicePath(true, {dir.filePath("nosuchshell")}).source,
                 QStringLiteral("inherited"));
    }

    void disabledMeansInheritedWithoutRunningAShell() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString ran = dir.filePath("ran");
        const QString shell = writeShell(dir, "sh", "touch '" + ran.toUtf8() + "'");
        const ServicePath p = resolveServicePath(false, {shell});
        QCOMPARE(p.source, QStringLiteral("inherited"));
        QCOMPARE(p.value, qEnvironmentVariable("PATH"));
        QVERIFY(!QFile::exists(ran));
    }

    void theShellComesFromThePasswordDatabaseWhenShellIsEmpty() {
        qputenv("SHELL", "/bin/fish-of-env");
        QCOMPARE(loginShell(), QStringLiteral("/bin/fish-of-env"));
        qunsetenv("SHELL");
        const QString shell = loginShell();
        QVERIFY2(shell.startsWith(QLatin1Char('/')), qPrintable(shell));
        QVERIFY2(QFileInfo(shell).isExecutable(), qPrintable(shell));
    }

    // The Finder case end to end: a bare PATH, opencode only in the login shell's PATH; the
    // service is found by name and runs with the login PATH; the status says which PATH.
    void theServiceRunsWithTheLoginShellsPath() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkdir("brew"));
        const QString brew = dir.filePath("brew");
        const QString seen = dir.filePath("seen");
        QFile service(brew + "/fake-opencode");
        QVERIFY(service.open(QIODevice::WriteOnly));
        service.write("#!/bin/sh\nprintf %s \"$PATH\" > '" + seen.toUtf8() + ".tmp'\nmv '" +
                      seen.toUtf8() + ".tmp' '" + seen.toUtf8() + "'\n");
        service.close();
        service.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QString shell = writeShell(
            dir, "zsh",
            "PATH='" + brew.toUtf8() + "':/usr/bin:/bin\nexport PATH\nexec /bin/sh -c \"$last\"");
        qputenv("PATH", "/usr/bin:/bin:/usr/sbin:/sbin"); // what launchd gives

        const ServicePath path = resolveServicePath(true, {shell});
        QCOMPARE(path.source, QStringLiteral("login shell ") + shell);
        QCOMPARE(path.value, brew + ":/usr/bin:/bin:/usr/sbin:/sbin");
        applyServicePath(path);

        ServiceLauncher::Config config;
        config.profile.program = QStringLiteral("fake-opencode"); // by name, as detected
        config.containment = false;
        bool failed = false;
        ServiceLauncher launcher(config, [&](const policy::Event &e) {
            failed = failed || std::holds_alternative<policy::LaunchFailed>(e);
        });
        launcher.launch(0);
        QTRY_VERIFY_WITH_TIMEOUT(failed || QFile::exists(seen), 10000);
        QVERIFY(!failed);
        QCOMPARE(QString::fromUtf8(readAll(seen)), path.value);

        ServiceStatus st;
        st.servicePath = path;
        const QJsonObject json = st.toJson().value("servicePath").toObject();
        QCOMPARE(json.value("source").toString(), QStringLiteral("login shell ") + shell);
        QCOMPARE(json.value("value").toString(), path.value);
    }
};

QTEST_MAIN(TestLoginPath)
#include "tst_login_path.moc"
