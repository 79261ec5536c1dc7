// opencode 2.x service.json: parsing (damaged, hostile and valid files), the path, channel and
// port rules, and the pure judgement of the process a registration names. The file's fields are
// the five opencode writes (docs/opencode2-protocol.md, Registration): no start time.
#include "service/managed_registration.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace tether;

namespace {
const char kGood[] = R"({"id":"6f1c2a34-9a57-4c6e-8f5e-1c2b3d4e5f60","version":"2.0.1",)"
                     R"("url":"http://127.0.0.1:49374","pid":4242,"password":"s3cret"})";
}

class TestManagedRegistration : public QObject {
    Q_OBJECT
private slots:
    void parsesAValidFile() {
        const ManagedRegistrationRead r = parseManagedRegistration(kGood);
        QCOMPARE(r.status, ManagedRegistrationRead::Status::Ok);
        QCOMPARE(r.registration.id, QStringLiteral("6f1c2a34-9a57-4c6e-8f5e-1c2b3d4e5f60"));
        QCOMPARE(r.registration.pid, 4242);
        QCOMPARE(r.registration.port(), 49374);
        QCOMPARE(r.registration.password, QStringLiteral("s3cret"));
        QCOMPARE(r.registration.version, QStringLiteral("2.0.1"));
    }

    void roundTripsOpencodesFiveFields() {
        ManagedRegistration m = parseManagedRegistration(kGood).registration;
        const QByteArray bytes = serializeManagedRegistration(m);
        QCOMPARE(QJsonDocument::fromJson(bytes).object().keys(),
                 (QStringList{"id", "password", "pid", "url", "version"}));
        const ManagedRegistrationRead again = parseManagedRegistration(bytes);
        QCOMPARE(again.status, ManagedRegistrationRead::Status::Ok);
        QCOMPARE(again.registration.id, m.id);
        QCOMPARE(again.registration.url, m.url);
    }

    // opencode writes no start time: the file's own stamp says when it was written.
    void theFilesModificationTimeIsWhenItWasWritten() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("service.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kGood);
        QVERIFY(f.flush()); // a write after the stamp would move it again
        const QDateTime then = QDateTime::currentDateTime().addSecs(-3600);
        QVERIFY(f.setFileTime(then, QFileDevice::FileModificationTime));
        f.close();
        const ManagedRegistrationRead r = readManagedRegistration(path);
        QCOMPARE(r.status, ManagedRegistrationRead::Status::Ok);
        QVERIFY(qAbs(r.registration.writtenAtMs - then.toMSecsSinceEpoch()) < 1000);
    }

    void channelsNameTheFileAndThePort() {
        QCOMPARE(opencodeChannel(QStringLiteral("2.0.17")), QStringLiteral("latest"));
        QCOMPARE(opencodeChannel(QString()), QStringLiteral("latest"));
        QCOMPARE(opencodeChannel(QStringLiteral("0.0.0-beta-202611011200")),
                 QStringLiteral("beta"));
        QCOMPARE(opencodeChannel(QStringLiteral("0.0.0-feat/x-1.2")), QStringLiteral("feat/x"));
        QCOMPARE(opencodeChannel(QStringLiteral("local")), QStringLiteral("local"));
        for (const char *release : {"latest", "dev", "beta", "next"}) {
            QCOMPARE(managedRegistrationFileName(QLatin1String(release)),
                     QStringLiteral("service.json"));
            QCOMPARE(defaultServicePort(QLatin1String(release)), std::optional<int>(49374));
        }
        QCOMPARE(managedRegistrationFileName(QStringLiteral("local")),
                 QStringLiteral("service-local.json"));
        QCOMPARE(defaultServicePort(QStringLiteral("local")), std::optional<int>(49375));
        QCOMPARE(managedRegistrationFileName(QStringLiteral("feat/x y")),
                 QStringLiteral("service-feat-x-y.json"));
        QCOMPARE(defaultServicePort(QStringLiteral("feat/x")), std::nullopt);
        QCOMPARE(managedRegistrationPath(QStringLiteral("/s"), QStringLiteral("local")),
                 QStringLiteral("/s/service-local.json"));
    }

    void theServiceConfigsPort() {
        QCOMPARE(parseServiceConfigPort(R"({"port": 5000, "password": "x"})"),
                 std::optional<int>(5000));
        QCOMPARE(parseServiceConfigPort(R"({"hostname": "127.0.0.1"})"), std::nullopt);
        QCOMPARE(parseServiceConfigPort(R"({"port": 70000})"), std::nullopt);
        QCOMPARE(parseServiceConfigPort(R"({"port": "5000"})"), std::nullopt);
        QCOMPARE(parseServiceConfigPort("garbage"), std::nullopt);
        QTemporaryDir dir;
        const QByteArray saved = qgetenv("XDG_CONFIG_HOME");
        qputenv("XDG_CONFIG_HOME", dir.path().toUtf8());
        QCOMPARE(serviceConfigPath(QStringLiteral("latest")),
                 dir.path() + QStringLiteral("/opencode/service.json"));
        QCOMPARE(expectedServicePort(QStringLiteral("latest")), std::optional<int>(49374));
        QDir().mkpath(dir.filePath(QStringLiteral("opencode")));
        QFile f(dir.filePath(QStringLiteral("opencode/service-local.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"port": 6123})");
        f.close();
        QCOMPARE(expectedServicePort(QStringLiteral("local")), std::optional<int>(6123));
        QCOMPARE(expectedServicePort(QStringLiteral("latest")), std::optional<int>(49374));
        if (saved.isEmpty())
            qunsetenv("XDG_CONFIG_HOME");
        else
            qputenv("XDG_CONFIG_HOME", saved);
    }

    void rejectsDamage_data() {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::newRow("truncated") << QByteArray(",\"password\"") << QByteArray("");
        QTest::newRow("id not a uuid")
            << QByteArray("6f1c2a34-9a57-4c6e-8f5e-1c2b3d4e5f60") << QByteArray("abc");
        QTest::newRow("pid 1") << QByteArray("4242") << QByteArray("1");
        QTest::newRow("pid negative") << QByteArray("4242") << QByteArray("-5");
        QTest::newRow("pid fraction") << QByteArray("4242") << QByteArray("42.5");
        QTest::newRow("pid string") << QByteArray("4242") << QByteArray("\"4242\"");
        QTest::newRow("remote host") << QByteArray("127.0.0.1") << QByteArray("192.0.2.7");
        QTest::newRow("https") << QByteArray("http://") << QByteArray("https://");
        QTest::newRow("no port") << QByteArray(":49374") << QByteArray("");
        QTest::newRow("no password") << QByteArray("\"password\"") << QByteArray("\"passwd\"");
        // Found by fuzz_managed_registration: an empty password was taken as credentials.
        QTest::newRow("empty password") << QByteArray("\"s3cret\"") << QByteArray("\"\"");
    }
    void rejectsDamage() {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QByteArray b(kGood);
        QVERIFY(b.contains(from));
        b.replace(from, to);
        const ManagedRegistrationRead r = parseManagedRegistration(b);
        QCOMPARE(r.status, ManagedRegistrationRead::Status::Invalid);
        QVERIFY(!r.error.isEmpty());
    }

    void rejectsNonObjectsAndOversize() {
        for (const QByteArray &b :
             {QByteArray(), QByteArray("[]"), QByteArray("null"), QByteArray("\xff\xfe{")})
            QCOMPARE(parseManagedRegistration(b).status, ManagedRegistrationRead::Status::Invalid);
        QByteArray huge(kGood);
        huge.insert(1, "\"pad\":\"" + QByteArray(kManagedRegistrationMaxBytes, 'x') + "\",");
        QCOMPARE(parseManagedRegistration(huge).status, ManagedRegistrationRead::Status::Invalid);
    }

    void readerCapsAndReportsMissing() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("service.json"));
        QCOMPARE(readManagedRegistration(path).status, ManagedRegistrationRead::Status::Missing);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(kManagedRegistrationMaxBytes + 1, ' '));
        f.close();
        QCOMPARE(readManagedRegistration(path).status, ManagedRegistrationRead::Status::Invalid);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(kGood);
        f.close();
        QCOMPARE(readManagedRegistration(path).status, ManagedRegistrationRead::Status::Ok);
    }

    void stampSeesRewrites() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("service.json"));
        QVERIFY(!stampOf(path).exists);
        // Both files get the same last write, to the millisecond: a rewrite within one is
        // common, and only the inode (the file index on Windows) can tell them apart.
        const QDateTime sameMs = QDateTime::fromMSecsSinceEpoch(1700000000123);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kGood);
        QVERIFY(f.flush() && f.setFileTime(sameMs, QFileDevice::FileModificationTime));
        f.close();
        const FileStamp a = stampOf(path);
        QVERIFY(a.exists);
        QCOMPARE(stampOf(path), a);
        // A writer renames a new file over the old: same size, same mtime, new inode.
        const QString tmp = path + QStringLiteral(".tmp");
        QFile g(tmp);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write(kGood);
        QVERIFY(g.flush() && g.setFileTime(sameMs, QFileDevice::FileModificationTime));
        g.close();
        // std::filesystem::rename replaces an existing target on Windows too (MoveFileEx).
        std::error_code ec;
        std::filesystem::rename(tmp.toStdU16String(), path.toStdU16String(), ec);
        QVERIFY2(!ec, ec.message().c_str());
        QVERIFY(stampOf(path) != a);
    }

    void stateDirRules() {
        QCOMPARE(managedRegistrationPath(QStringLiteral("/x/y/")),
                 QStringLiteral("/x/y/service.json"));
        const QByteArray saved = qgetenv("XDG_STATE_HOME");
        qputenv("XDG_STATE_HOME", "/xdg/state");
        QCOMPARE(managedStateDir({}), QStringLiteral("/xdg/state/opencode"));
        qputenv("XDG_STATE_HOME", "relative/state"); // invalid per the XDG spec: ignored
        QCOMPARE(managedStateDir({}), QDir::homePath() + QStringLiteral("/.local/state/opencode"));
        qunsetenv("XDG_STATE_HOME");
        QCOMPARE(managedStateDir({}), QDir::homePath() + QStringLiteral("/.local/state/opencode"));
        if (!saved.isEmpty()) qputenv("XDG_STATE_HOME", saved);
    }

    void judgesTheOwner() {
        using L = OwnerFacts::Life;
        using P = OwnerFacts::Port;
        auto facts = [](L life, P port, std::optional<qint64> start, qint64 startedAt) {
            OwnerFacts f;
            f.life = life;
            f.port = port;
            f.processStartMs = start;
            f.registeredAtMs = startedAt;
            return f;
        };
        const qint64 at = 1000000;
        QCOMPARE(judgeOwner(facts(L::Gone, P::OwnedByOther, {}, at)), OwnerVerdict::ProvablyGone);
        QCOMPARE(judgeOwner(facts(L::Unknown, P::OwnedByPid, at, at)), OwnerVerdict::Unknown);
        QCOMPARE(judgeOwner(facts(L::Alive, P::OwnedByPid, at - 500, at)), OwnerVerdict::Adopt);
        // The edge: a start up to the tolerance after the file was written is its writer; one ms
        // later is not.
        QCOMPARE(judgeOwner(facts(L::Alive, P::OwnedByPid, at + kStartToleranceMs, at)),
                 OwnerVerdict::Adopt);
        QCOMPARE(judgeOwner(facts(L::Alive, P::OwnedByPid, at + kStartToleranceMs + 1, at)),
                 OwnerVerdict::ProvablyGone);
        // Unknown start time or write time: the port decides.
        QCOMPARE(judgeOwner(facts(L::Alive, P::OwnedByPid, {}, at)), OwnerVerdict::Adopt);
        QCOMPARE(judgeOwner(facts(L::Alive, P::OwnedByPid, at * 5, 0)), OwnerVerdict::Adopt);
        QCOMPARE(judgeOwner(facts(L::Alive, P::Free, at, at)), OwnerVerdict::Wait);
        QCOMPARE(judgeOwner(facts(L::Alive, P::OwnedByOther, at, at)), OwnerVerdict::PortHeld);
        QCOMPARE(judgeOwner(facts(L::Alive, P::Unknown, at, at)), OwnerVerdict::Unknown);
    }
};

QTEST_GUILESS_MAIN(TestManagedRegistration)
#include "tst_managed_registration.moc"
