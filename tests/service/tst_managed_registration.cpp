// opencode 2.x service.json: parsing (damaged, hostile and valid files), the path rules, and the
// pure judgement of the process a registration names.
#include "service/managed_registration.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using namespace tether;

namespace {
const char kGood[] = R"({"id":"6f1c2a34-9a57-4c6e-8f5e-1c2b3d4e5f60","version":"2.0.1",)"
                     R"("url":"http://127.0.0.1:49374","pid":4242,"password":"s3cret",)"
                     R"("startedAt":1764410000123})";
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
        QCOMPARE(r.registration.startedAtMs, 1764410000123);
    }

    void startedAtAsIsoString() {
        QByteArray b(kGood);
        b.replace("1764410000123", "\"2025-11-29T10:00:00.500Z\"");
        const ManagedRegistrationRead r = parseManagedRegistration(b);
        QCOMPARE(r.status, ManagedRegistrationRead::Status::Ok);
        QCOMPARE(r.registration.startedAtMs,
                 QDateTime(QDate(2025, 11, 29), QTime(10, 0, 0, 500), Qt::UTC).toMSecsSinceEpoch());
    }

    void roundTripsTheDemoForm() {
        ManagedRegistration m = parseManagedRegistration(kGood).registration;
        const ManagedRegistrationRead again =
            parseManagedRegistration(serializeManagedRegistration(m));
        QCOMPARE(again.status, ManagedRegistrationRead::Status::Ok);
        QCOMPARE(again.registration.id, m.id);
        QCOMPARE(again.registration.url, m.url);
        QCOMPARE(again.registration.startedAtMs, m.startedAtMs);
    }

    void rejectsDamage_data() {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::newRow("truncated") << QByteArray(",\"startedAt\"") << QByteArray("");
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
            f.registeredStartedAtMs = startedAt;
            return f;
        };
        const qint64 at = 1000000;
        QCOMPARE(judgeOwner(facts(L::Gone, P::OwnedByOther, {}, at)), OwnerVerdict::ProvablyGone);
        QCOMPARE(judgeOwner(facts(L::Unknown, P::OwnedByPid, at, at)), OwnerVerdict::Unknown);
        QCOMPARE(judgeOwner(facts(L::Alive, P::OwnedByPid, at - 500, at)), OwnerVerdict::Adopt);
        // The edge: a start up to the tolerance after startedAt is the writer; one ms later is not.
        QCOMPARE(judgeOwner(facts(L::Alive, P::OwnedByPid, at + kStartToleranceMs, at)),
                 OwnerVerdict::Adopt);
        QCOMPARE(judgeOwner(facts(L::Alive, P::OwnedByPid, at + kStartToleranceMs + 1, at)),
                 OwnerVerdict::ProvablyGone);
        // Unknown start time or no startedAt: the port decides.
        QCOMPARE(judgeOwner(facts(L::Alive, P::OwnedByPid, {}, at)), OwnerVerdict::Adopt);
        QCOMPARE(judgeOwner(facts(L::Alive, P::OwnedByPid, at * 5, 0)), OwnerVerdict::Adopt);
        QCOMPARE(judgeOwner(facts(L::Alive, P::Free, at, at)), OwnerVerdict::Wait);
        QCOMPARE(judgeOwner(facts(L::Alive, P::OwnedByOther, at, at)), OwnerVerdict::PortHeld);
        QCOMPARE(judgeOwner(facts(L::Alive, P::Unknown, at, at)), OwnerVerdict::Unknown);
    }
};

QTEST_GUILESS_MAIN(TestManagedRegistration)
#include "tst_managed_registration.moc"
