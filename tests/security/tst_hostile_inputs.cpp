// Hostile files: Tether's registration and MCP ledger truncated, empty, binary garbage, 100 MB,
// naming pid 0 / -1 / 1 / Tether's own pid / a live unrelated process; settings with
// out-of-range and wrong-type values. Each has one clear outcome: reported, kept aside (nothing
// lost), never a crash, never a signal.
#include "mcp/ledger.h"
#include "os/process.h"
#include "service/registration.h"
#include "service/supervisor.h"
#include "settings/settings.h"
#include "testsupport.h"

#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace tether;
using policy::State;

namespace {

constexpr int kLong = 30000;
constexpr qint64 kHundredMiB = 100LL * 1024 * 1024;

// A 100 MB file that costs no disk: one byte at the end of a hole.
void writeSparse(const QString &path, qint64 size) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QVERIFY(f.seek(size - 1));
    QCOMPARE(f.write("}", 1), qint64(1));
}

QByteArray readAll(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QByteArray garbage() {
    QByteArray g;
    for (int i = 0; i < 4096; ++i)
        g.append(char((i * 131 + 7) % 256));
    return g;
}

} // namespace

class TestHostileInputs : public QObject {
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> dir_;

private slots:
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        QVERIFY(dir_->isValid());
        qputenv("TETHER_DATA_DIR", dir_->path().toUtf8());
    }

    // --- registration, pure
    void registrationDamageIsInvalidWithAReason_data() {
        QTest::addColumn<QByteArray>("bytes");
        const QByteArray good = serializeRegistration(Registration{4242,
                                                                   99,
                                                                   4096,
                                                                   QStringLiteral("1"),
                                                                   QStringLiteral("pw"),
                                                                   {},
                                                                   QStringLiteral("demo"),
                                                                   0,
                                                                   {}});
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("truncated") << good.left(good.size() / 2);
        QTest::newRow("garbage") << garbage();
        QTest::newRow("nul bytes") << QByteArray(64, '\0');
        for (const char *pid : {"0", "-1", "1", "4294967296", "1e300", "2.5", "\"42\"", "null"})
            QTest::newRow(qPrintable(QStringLiteral("pid %1").arg(QLatin1String(pid))))
                << QByteArray(R"({"pid":)" + QByteArray(pid) + R"(,"startTime":"9","port":4096})");
    }
    void registrationDamageIsInvalidWithAReason() {
        QFETCH(QByteArray, bytes);
        const RegistrationRead r = parseRegistration(bytes);
        QCOMPARE(r.status, RegistrationRead::Status::Invalid);
        QVERIFY(!r.error.isEmpty());
    }

    void hundredMegabyteRegistrationIsRefusedUnread() {
        const QString path = registrationPath();
        writeSparse(path, kHundredMiB);
        const RegistrationRead r = readRegistration(path);
        QCOMPARE(r.status, RegistrationRead::Status::Invalid);
        QVERIFY2(!r.error.isEmpty(), qPrintable(r.error));
    }

    // --- registration through the Supervisor: a bad file is reported and kept aside, the
    // processes it names (ours, a live decoy) receive nothing, and a fresh service starts.
    void supervisorSetsBadRegistrationAsideAndSignalsNothing_data() {
        QTest::addColumn<QString>("kind");
        for (const char *k : {"empty", "truncated", "garbage", "huge", "pid0", "pidMinus1", "pid1",
                              "ownPid", "decoyPid", "decoyPidOwnStart"})
            QTest::newRow(k) << QString::fromLatin1(k);
    }
    void supervisorSetsBadRegistrationAsideAndSignalsNothing() {
        QFETCH(QString, kind);
        const QString record = dir_->filePath(QStringLiteral("decoy.signals"));
        QProcess decoy;
        decoy.start(test::testprocBin(), {QStringLiteral("decoy"), record});
        QVERIFY(decoy.waitForReadyRead(10000));
        QVERIFY(decoy.readLine().startsWith("ready"));
        const auto decoyId = os::identityOf(decoy.processId());
        QVERIFY(decoyId);
        const auto selfId = os::identityOf(QCoreApplication::applicationPid());
        QVERIFY(selfId);

        const int port = test::freeLoopbackPort();
        const QString path = registrationPath();
        auto reg = [&](qint64 pid, quint64 start) {
            Registration r;
            r.pid = pid;
            r.startTime = start;
            r.port = port;
            r.password = QStringLiteral("x");
            r.profile = QStringLiteral("demo");
            return serializeRegistration(r);
        };
        QByteArray bytes;
        if (kind == "empty")
            bytes = "";
        else if (kind == "truncated")
            bytes = reg(decoyId->pid, decoyId->startTime).left(40);
        else if (kind == "garbage")
            bytes = garbage();
        else if (kind == "pid0")
            bytes = reg(0, 5);
        else if (kind == "pidMinus1")
            bytes = reg(-1, 5);
        else if (kind == "pid1")
            bytes = reg(1, 5);
        else if (kind == "ownPid")
            bytes = reg(selfId->pid, selfId->startTime); // alive, not on the port
        else if (kind == "decoyPid")
            bytes = reg(decoyId->pid, decoyId->startTime + 7);
        else if (kind == "decoyPidOwnStart")
            bytes = reg(decoyId->pid, decoyId->startTime);
        if (kind == "huge") {
            writeSparse(path, kHundredMiB);
        } else {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        }
        const bool invalid =
            !(kind == "ownPid" || kind == "decoyPid" || kind == "decoyPidOwnStart");

        Settings s;
        s.profile = policy::Dialect::Demo;
        s.port = port;
        s.timings.probeIntervalMs = 100;
        s.timings.probeTimeoutMs = 500;
        s.timings.startupDeadlineMs = 15000;
        s.timings.windowMs = 1500;
        s.timings.graceMs = 500;
        const ProfileResolution pr = resolveProfile(s, {}, test::tetherBin());
        Supervisor::Config c;
        c.settings = s;
        c.profile = pr.profile;
        c.registrationPath = path;
        c.serviceLogPath = dir_->filePath(QStringLiteral("service.log"));
        QStringList log;
        auto sup = std::make_unique<Supervisor>(c);
        connect(sup.get(), &Supervisor::logLine, this, [&log](const QString &l) { log << l; });
        sup->start();
        QTRY_VERIFY2_WITH_TIMEOUT(sup->status().state == State::Healthy, qPrintable(log.join('\n')),
                                  kLong);
        QVERIFY(sup->status().pid != decoyId->pid && sup->status().pid != selfId->pid);
        if (invalid) {
            // Reported, and the bad bytes kept for a person to look at.
            QVERIFY2(log.join('\n').contains(QLatin1String("registration")),
                     qPrintable(log.join('\n')));
            QVERIFY2(QFile::exists(path + QStringLiteral(".bad")),
                     "bad registration not kept aside");
            if (kind == "huge")
                QCOMPARE(QFileInfo(path + QStringLiteral(".bad")).size(), kHundredMiB);
            else
                QCOMPARE(readAll(path + QStringLiteral(".bad")), bytes);
        }
        // Fence: after "pong" every signal sent earlier is recorded.
        decoy.write("ping\n");
        QVERIFY(decoy.waitForReadyRead(10000));
        QCOMPARE(readAll(record), QByteArray());
        QCOMPARE(os::alive(*decoyId), os::Liveness::Alive);
        sup->stop();
        QTRY_VERIFY2_WITH_TIMEOUT(sup->status().state == State::Stopped, qPrintable(log.join('\n')),
                                  kLong);
        decoy.kill();
        decoy.waitForFinished();
    }

    // --- ledger: anything malformed loads as empty with an error and is moved aside intact
    void badLedgerIsReportedAndKeptAside_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("huge");
        std::vector<policy::LedgerEntry> one(1);
        one[0].process = {4242, 77};
        one[0].pgid = 4242;
        one[0].argv = {"node", "x"};
        one[0].name = "fs";
        one[0].service = {4000, 5};
        const QByteArray good = mcp::serializeLedger(one);
        QTest::newRow("empty") << QByteArray() << false;
        QTest::newRow("truncated") << good.left(good.size() / 2) << false;
        QTest::newRow("garbage") << garbage() << false;
        QTest::newRow("huge") << QByteArray() << true;
        QByteArray pid = good;
        for (const char *p : {"0", "-1", "1", "1e300", "4.5"})
            QTest::newRow(qPrintable(QStringLiteral("pid %1").arg(QLatin1String(p))))
                << QByteArray(good).replace("\"pid\": 4242", "\"pid\": " + QByteArray(p)) << false;
        // Found by fuzz_ledger: an integer beyond int64 was cast before its range check (UB).
        QTest::newRow("fuzz: huge pgid")
            << QByteArray(good).replace("\"pgid\": 4242", "\"pgid\": 5" + QByteArray(120, '5'))
            << false;
    }
    void badLedgerIsReportedAndKeptAside() {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, huge);
        const QString path = dir_->filePath(QStringLiteral("mcp-ledger.json"));
        if (huge) {
            writeSparse(path, kHundredMiB);
        } else {
            // The row really is bad: its pid, or (the fuzz case) its pgid.
            QVERIFY(!bytes.contains("\"pid\": 4242") || bytes.contains("\"pgid\": 5555"));
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(bytes);
        }
        mcp::Ledger ledger(path);
        QVERIFY(!ledger.load());
        QVERIFY(!ledger.error().isEmpty());
        QVERIFY(ledger.entries().empty());
        const QString aside = path + QStringLiteral(".bad");
        QVERIFY2(QFile::exists(aside), qPrintable(ledger.error()));
        if (huge)
            QCOMPARE(QFileInfo(aside).size(), kHundredMiB);
        else
            QCOMPARE(readAll(aside), bytes);
    }

    void ledgerPidOutsidePidRangeNeverAliasesALiveProcess() {
        // 2^32 + our pid: a truncating cast would name us. Either refused, or never alive.
        const qint64 aliased = (qint64(1) << 32) + QCoreApplication::applicationPid();
        std::vector<policy::LedgerEntry> one(1);
        one[0].process = {aliased, os::identityOf(QCoreApplication::applicationPid())->startTime};
        one[0].argv = {"x"};
        one[0].name = "fs";
        one[0].service = {4000, 5};
        std::vector<policy::LedgerEntry> out;
        QString error;
        if (mcp::parseLedger(mcp::serializeLedger(one), &out, &error)) {
            QCOMPARE(out.size(), size_t(1));
            QVERIFY(os::alive(out[0].process) != os::Liveness::Alive);
        }
    }

    // --- settings
    void settingsOutOfRangeAndWrongTypeFallBackToDefaults() {
        const QString path = dir_->filePath(QStringLiteral("tether.ini"));
        {
            QSettings ini(path, QSettings::IniFormat);
            ini.setValue("service/port", 70000);
            ini.setValue("service/profile", "nonsense");
            ini.setValue("service/containment", "maybe");
            ini.setValue("probe/intervalMs", "fast");
            ini.setValue("probe/timeoutMs", -5);
            ini.setValue("recovery/burst", 1e12);
            ini.setValue("recovery/windowMs", "1e400");
            ini.setValue("orphans/onLaunch", QStringList{"ask", "clean"});
            ini.setValue("orphans/graceMs", "12abc");
            ini.setValue("mcp/memoryWarnMiB", "");
        }
        const LoadedSettings l = loadSettings(path);
        const Settings d;
        QCOMPARE(l.settings.port, d.port);
        QVERIFY(l.settings.profile == d.profile);
        QCOMPARE(l.settings.containment, d.containment);
        QCOMPARE(l.settings.timings.probeIntervalMs, d.timings.probeIntervalMs);
        QCOMPARE(l.settings.timings.probeTimeoutMs, d.timings.probeTimeoutMs);
        QCOMPARE(l.settings.timings.burst, d.timings.burst);
        QCOMPARE(l.settings.timings.windowMs, d.timings.windowMs);
        QCOMPARE(l.settings.orphansOnLaunch, d.orphansOnLaunch);
        QCOMPARE(l.settings.orphanGraceMs, d.orphanGraceMs);
        QCOMPARE(l.settings.memoryWarnMiB, d.memoryWarnMiB);
        const QString all = l.warnings.join('\n');
        for (const char *key :
             {"service/port", "service/profile", "service/containment", "probe/intervalMs",
              "probe/timeoutMs", "recovery/burst", "recovery/windowMs", "orphans/onLaunch",
              "orphans/graceMs", "mcp/memoryWarnMiB"})
            QVERIFY2(all.contains(QLatin1String(key)),
                     qPrintable(QStringLiteral("%1 not warned:\n%2").arg(key, all)));
    }

    void binarySettingsFileNeverStopsTether() {
        const QString path = dir_->filePath(QStringLiteral("tether.ini"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(garbage());
        f.close();
        const LoadedSettings l = loadSettings(path);
        QCOMPARE(l.settings.port, Settings().port); // defaults, whatever the garbage said
    }
};

QTEST_GUILESS_MAIN(TestHostileInputs)
#include "tst_hostile_inputs.moc"
