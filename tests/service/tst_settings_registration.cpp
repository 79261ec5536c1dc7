// Settings validation and the registration file: bad input gives a clear message and a safe
// default, never a crash and never lost state.
#include "service/profile.h"
#include "service/registration.h"
#include "settings/settings.h"
#include "settings/storage.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace tether;

class TestSettingsRegistration : public QObject {
    Q_OBJECT
private slots:
    void defaultsMatchTheDesign() {
        const Settings s;
        QCOMPARE(s.timings.probeIntervalMs, 5000);
        QCOMPARE(s.timings.probeTimeoutMs, 2000);
        QCOMPARE(s.timings.startupDeadlineMs, 30000);
        QCOMPARE(s.timings.windowMs, 30000);
        QCOMPARE(s.timings.graceMs, 5000);
        QCOMPARE(s.timings.backoffInitialMs, 1000);
        QCOMPARE(s.timings.backoffMaxMs, 30000);
        QCOMPARE(s.timings.burst, 5);
        QCOMPARE(s.timings.burstWindowMs, 600000);
        QCOMPARE(s.timings.stableResetMs, 600000);
        QCOMPARE(s.orphansOnLaunch, policy::OrphanMode::Ask);
        QCOMPARE(s.orphansWhileRunning, policy::OrphanMode::Clean);
        QVERIFY(!s.stopServiceOnQuit);
    }

    // The typed contracts keep the INI text: one name per value, both ways.
    void enumsKeepTheirIniNames() {
        for (policy::Dialect d : {policy::Dialect::Opencode1, policy::Dialect::Opencode2,
                                  policy::Dialect::Custom, policy::Dialect::Demo}) {
            policy::Dialect back{};
            QVERIFY(policy::fromString(policy::toString(d), &back));
            QVERIFY(back == d);
        }
        for (policy::OrphanMode m :
             {policy::OrphanMode::Ask, policy::OrphanMode::Clean, policy::OrphanMode::Ignore}) {
            policy::OrphanMode back{};
            QVERIFY(policy::fromString(policy::toString(m), &back));
            QVERIFY(back == m);
        }
        QCOMPARE(settingChoices(QStringLiteral("service/profile")),
                 QStringList({"auto", "opencode1", "opencode2", "custom", "demo"}));
        QCOMPARE(settingChoices(QStringLiteral("orphans/onLaunch")),
                 QStringList({"ask", "clean", "ignore"}));
        QCOMPARE(settingChoices(QStringLiteral("orphans/whileRunning")),
                 QStringList({"clean", "ask", "ignore"}));
        QVERIFY(settingChoices(QStringLiteral("service/port")).isEmpty());

        Settings s;
        s.profile = policy::Dialect::Opencode2;
        s.orphansOnLaunch = policy::OrphanMode::Ignore;
        const QMap<QString, QVariant> v = settingsToValues(s);
        QCOMPARE(v.value(QStringLiteral("service/profile")).toString(),
                 QStringLiteral("opencode2"));
        QCOMPARE(v.value(QStringLiteral("orphans/onLaunch")).toString(), QStringLiteral("ignore"));
        QCOMPARE(v.value(QStringLiteral("orphans/whileRunning")).toString(),
                 QStringLiteral("clean"));
        QCOMPARE(settingsToValues(Settings()).value(QStringLiteral("service/profile")).toString(),
                 QStringLiteral("auto"));

        const LoadedSettings l = settingsFromValues({
            {QStringLiteral("service/profile"), QStringLiteral(" Demo ")},
            {QStringLiteral("orphans/onLaunch"), QStringLiteral("clean")},
            {QStringLiteral("orphans/whileRunning"), QStringLiteral("sometimes")},
        });
        QVERIFY(l.settings.profile == policy::Dialect::Demo);
        QCOMPARE(l.settings.orphansOnLaunch, policy::OrphanMode::Clean);
        QCOMPARE(l.settings.orphansWhileRunning, policy::OrphanMode::Clean); // the default
        QCOMPARE(l.warnings.size(), 1);
        QVERIFY(l.warnings.first().contains(QLatin1String("orphans/whileRunning")));
        QVERIFY(l.warnings.first().contains(QLatin1String("must be one of clean, ask, ignore")));
    }

    void invalidValuesNameTheKeyAndKeepTheDefault() {
        const LoadedSettings l = settingsFromValues({
            {QStringLiteral("probe/intervalMs"), QStringLiteral("soon")},
            {QStringLiteral("recovery/windowMs"), QStringLiteral("-5")},
            {QStringLiteral("service/port"), QStringLiteral("70000")},
            {QStringLiteral("service/profile"), QStringLiteral("nonsense")},
            {QStringLiteral("app/stopServiceOnQuit"), QStringLiteral("perhaps")},
            {QStringLiteral("recovery/graceMs"), QStringLiteral("250")},
        });
        QCOMPARE(l.warnings.size(), 5);
        for (const char *key : {"probe/intervalMs", "recovery/windowMs", "service/port",
                                "service/profile", "app/stopServiceOnQuit"})
            QVERIFY2(l.warnings.join(QLatin1Char('\n')).contains(QLatin1String(key)), key);
        QCOMPARE(l.settings.timings.probeIntervalMs, 5000);
        QCOMPARE(l.settings.timings.windowMs, 30000);
        QCOMPARE(l.settings.port, 4096);
        QVERIFY(!l.settings.profile);              // auto
        QCOMPARE(l.settings.timings.graceMs, 250); // the valid one is taken
    }

    // A 300 KB `arguments` value was taken, and the launch then failed "(setting [service]
    // program)": the key at fault is the one named, and its default is used.
    void anOversizedArgumentsValueIsReportedAgainstItsKey() {
        const QString huge = QStringLiteral("--x ") + QString(300 * 1024, QLatin1Char('a'));
        const LoadedSettings l = settingsFromValues({
            {QStringLiteral("service/arguments"), huge},
            {QStringLiteral("service/program"), QStringLiteral("/usr/bin/true")},
        });
        QCOMPARE(l.problems.size(), 1);
        QCOMPARE(l.problems.first().keys, QStringList{QStringLiteral("service/arguments")});
        QVERIFY2(l.warnings.join(QLatin1Char('\n')).contains(QLatin1String("service/arguments")),
                 qPrintable(l.warnings.join(QLatin1Char('\n')).left(300)));
        QVERIFY(!l.warnings.join(QLatin1Char('\n')).contains(QLatin1String("service/program")));
        QVERIFY(l.settings.arguments.isEmpty());
        QCOMPARE(l.settings.program, QStringLiteral("/usr/bin/true"));
        const QString fine = QStringLiteral("--x ") + QString(20 * 1024, QLatin1Char('a'));
        QCOMPARE(settingsFromValues({{QStringLiteral("service/arguments"), fine}})
                     .settings.arguments.size(),
                 2);
    }

    void fileRoundTripAndCommandLineOverride() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tether.ini"));
        Settings s;
        s.port = 5123;
        s.profile = policy::Dialect::Demo;
        s.arguments = QStringList{QStringLiteral("--mcp"), QStringLiteral("2")};
        s.timings.windowMs = 3000;
        s.timings.probeIntervalMs = 1000; // several probes per window, or the three are rejected
        QString error;
        QVERIFY2(saveSettings(path, s, &error), qPrintable(error));
        const LoadedSettings back = loadSettings(path);
        QVERIFY2(back.warnings.isEmpty(), qPrintable(back.warnings.join(QLatin1Char('\n'))));
        QCOMPARE(back.settings.port, 5123);
        QVERIFY(back.settings.profile == policy::Dialect::Demo);
        QCOMPARE(back.settings.arguments, s.arguments);
        QCOMPARE(back.settings.timings.windowMs, 3000);
        QCOMPARE(back.settings.timings.probeIntervalMs, 1000);
    }

    void registrationRoundTripIsPrivate() {
        QTemporaryDir dir;
        qputenv("TETHER_DATA_DIR", dir.path().toUtf8());
        Registration r;
        r.pid = 4242;
        r.startTime = 18446744073709551000ull; // a 64-bit token survives JSON exactly
        r.port = 4096;
        r.version = QStringLiteral("1.18.33");
        r.password = QStringLiteral("s3cret");
        r.startedAt = QDateTime::currentDateTime();
        r.profile = QStringLiteral("opencode1");
        QString error;
        QVERIFY(writeRegistration(registrationPath(), r, &error));
        const QFile::Permissions file = QFileInfo(registrationPath()).permissions();
        QVERIFY(file.testFlag(QFile::ReadOwner) && file.testFlag(QFile::WriteOwner));
#ifndef Q_OS_WIN // Qt 6.4 maps only the read-only attribute there: privacy is the profile's ACL
        const QFile::Permissions others = QFile::ReadGroup | QFile::WriteGroup | QFile::ExeGroup |
                                          QFile::ReadOther | QFile::WriteOther | QFile::ExeOther;
        QCOMPARE(file & others, QFile::Permissions());
        QCOMPARE(QFileInfo(storage::dataDir()).permissions() & others, QFile::Permissions());
#endif
        const RegistrationRead back = readRegistration(registrationPath());
        QCOMPARE(back.status, RegistrationRead::Status::Ok);
        QCOMPARE(back.registration.pid, r.pid);
        QCOMPARE(back.registration.startTime, r.startTime);
        QCOMPARE(back.registration.password, r.password);
        QCOMPARE(back.registration.profile, r.profile);
    }

    void damagedRegistrationsAreStaleNotFatal_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated") << QByteArray("{\"pid\": 12, \"startTime\": \"99");
        QTest::newRow("garbage") << QByteArray("\x00\xff\xfe garbage \x01", 14);
        QTest::newRow("array") << QByteArray("[1,2,3]");
        QTest::newRow("pid 0") << QByteArray(R"({"pid":0,"startTime":"5","port":80})");
        QTest::newRow("pid -1") << QByteArray(R"({"pid":-1,"startTime":"5","port":80})");
        QTest::newRow("pid 1") << QByteArray(R"({"pid":1,"startTime":"5","port":80})");
        QTest::newRow("pid fraction") << QByteArray(R"({"pid":12.5,"startTime":"5","port":80})");
        QTest::newRow("pid string") << QByteArray(R"({"pid":"12","startTime":"5","port":80})");
        QTest::newRow("no start time") << QByteArray(R"({"pid":12,"port":80})");
        QTest::newRow("port 0") << QByteArray(R"({"pid":12,"startTime":"5","port":0})");
        QTest::newRow("port huge") << QByteArray(R"({"pid":12,"startTime":"5","port":1e300})");
    }
    void damagedRegistrationsAreStaleNotFatal() {
        QFETCH(QByteArray, bytes);
        const RegistrationRead r = parseRegistration(bytes);
        QCOMPARE(r.status, RegistrationRead::Status::Invalid);
        QVERIFY(!r.error.isEmpty());
    }

    void oversizedRegistrationIsRefusedWithoutReadingItAll() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("service.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.resize(100 * 1024 * 1024)); // sparse 100 MB
        f.close();
        const RegistrationRead r = readRegistration(path);
        QCOMPARE(r.status, RegistrationRead::Status::Invalid);
        QVERIFY(r.error.contains(QLatin1String("larger")));
    }

    void profileResolution() {
        Settings s; // auto
        const ProfileResolution demo = resolveProfile(s, {}, QStringLiteral("/bin/true"));
        QCOMPARE(demo.profile.dialect, policy::Dialect::Demo);
        QVERIFY(demo.profile.arguments.contains(QStringLiteral("demo-service")));
        QCOMPARE(demo.profile.installedVersion, QString::fromLatin1(kDemoServiceVersion));

        const ProfileResolution v1 =
            resolveProfile(s, {QStringLiteral("/bin/true"), QStringLiteral("1.18.33")}, {});
        QCOMPARE(v1.profile.dialect, policy::Dialect::Opencode1);
        QCOMPARE(v1.profile.arguments,
                 (QStringList{QStringLiteral("serve"), QStringLiteral("--hostname"),
                              QStringLiteral("127.0.0.1"), QStringLiteral("--port"),
                              QStringLiteral("4096")}));
        // A launch is given the port it is asked to use (the launcher ignored it before).
        QCOMPARE(v1.profile.argumentsFor(5151).mid(3),
                 (QStringList{QStringLiteral("--port"), QStringLiteral("5151")}));
        QVERIFY(demo.profile.argumentsFor(5151).contains(QStringLiteral("5151")));
        Settings custom;
        custom.profile = policy::Dialect::Custom;
        custom.program = QStringLiteral("/bin/true");
        custom.port = 7000;
        custom.arguments = QStringList{QStringLiteral("--listen=127.0.0.1:{port}")};
        const ProfileResolution c = resolveProfile(custom, {}, {});
        QCOMPARE(c.profile.arguments, QStringList{QStringLiteral("--listen=127.0.0.1:7000")});
        QCOMPARE(c.profile.argumentsFor(7001),
                 QStringList{QStringLiteral("--listen=127.0.0.1:7001")});
        QCOMPARE(v1.profile.passwordEnv, QStringLiteral("OPENCODE_SERVER_PASSWORD"));
        QCOMPARE(v1.profile.healthPath, QStringLiteral("/global/health"));

        const ProfileResolution v2 =
            resolveProfile(s, {QStringLiteral("/bin/true"), QStringLiteral("2.0.1")}, {});
        QCOMPARE(v2.profile.dialect, policy::Dialect::Opencode2);
        QCOMPARE(v2.profile.healthPath, QStringLiteral("/api/info"));
        QVERIFY(v2.profile.selfRegistering);

        Settings missing;
        missing.profile = policy::Dialect::Custom;
        missing.program = QStringLiteral("/nonexistent/service-binary");
        const ProfileResolution bad = resolveProfile(missing, {}, {});
        QVERIFY(bad.error.contains(QLatin1String("/nonexistent/service-binary")));
        QVERIFY(bad.error.contains(QLatin1String("[service] program")));

        QCOMPARE(parseVersionOutput("1.18.33\n"), QStringLiteral("1.18.33"));
        QCOMPARE(parseVersionOutput("opencode v2.0.1-beta.3"), QStringLiteral("2.0.1-beta.3"));
        QCOMPARE(majorVersion(QStringLiteral("2.0.1")), 2);
        QCOMPARE(majorVersion(QString()), -1);
    }

    // Where a person's opencode is found. Windows: an npm install puts only opencode.cmd on
    // PATH, the installer puts opencode.exe in %USERPROFILE%\.opencode\bin.
    void opencodeIsFoundWhereItsInstallersPutIt() {
        QTemporaryDir root;
        const QString npm = root.filePath(QStringLiteral("npm"));
        const QString bin = root.filePath(QStringLiteral("bin"));
        const QString home = root.filePath(QStringLiteral("home"));
        QVERIFY(QDir().mkpath(npm) && QDir().mkpath(bin) && QDir().mkpath(home + "/.opencode/bin"));
        const auto touch = [](const QString &path) {
            QFile f(path);
            return f.open(QIODevice::WriteOnly) &&
                   f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        };
        const QStringList path{bin, npm};
        QCOMPARE(findOpencode(path, home, true), QString());
        QVERIFY(touch(home + "/.opencode/bin/opencode.exe"));
        QCOMPARE(findOpencode(path, home, true), home + "/.opencode/bin/opencode.exe");
        QCOMPARE(findOpencode(path, home, false), QString()); // not the Windows name elsewhere
        QVERIFY(touch(npm + "/opencode.cmd"));
        QCOMPARE(findOpencode(path, home, true), npm + "/opencode.cmd"); // PATH comes first
        QVERIFY(touch(npm + "/opencode.exe"));
        QCOMPARE(findOpencode(path, home, true), npm + "/opencode.exe"); // the program itself
#ifndef Q_OS_WIN // Windows knows an executable by its suffix: a bare `opencode` never is one
        QVERIFY(touch(bin + "/opencode"));
        QCOMPARE(findOpencode(path, home, false), bin + "/opencode");
#endif
    }
};

QTEST_GUILESS_MAIN(TestSettingsRegistration)
#include "tst_settings_registration.moc"
