// Against a real `tether --headless` (demo profile, own data dir): the control socket refuses
// other users and survives hostile same-user clients (garbage, a disconnect mid-message, a
// flood of 64 KiB+ lines); files are private; the per-start password stays out of logs, status
// output and command lines; the service listens on loopback only.
#include "control/control_protocol.h"
#include "service/registration.h"
#include "testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>
#include <sys/stat.h>

namespace {

constexpr int kLong = 60000;

using Run = tether::test::CliRun;

} // namespace

class TestControlAndSecrets : public QObject {
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> root_;
    QString dataDir_, settingsPath_;
    QProcess tether_;
    int port_ = 0;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("TETHER_DATA_DIR"), dataDir_);
        return e;
    }
    // `tether ARGS`, optionally wrapped (e.g. setpriv as another user).
    Run cli(const QStringList &args, const QStringList &wrapper = {}) const {
        return tether::test::runTether(args, env(), 30000, wrapper);
    }
    QJsonObject status() const {
        const Run r = cli({QStringLiteral("status"), QStringLiteral("--json")});
        return QJsonDocument::fromJson(r.out).object();
    }
    bool healthy() const {
        return status().value(QLatin1String("state")).toString() == QLatin1String("healthy");
    }
    QString password() const {
        return tether::readRegistration(dataDir_ + QStringLiteral("/service.json"))
            .registration.password;
    }
    qint64 servicePid() const { return qint64(status().value(QLatin1String("pid")).toDouble()); }
    static QByteArray readAll(const QString &path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    void verifyStillAnswering() {
        QCOMPARE(tether_.state(), QProcess::Running);
        QTRY_VERIFY_WITH_TIMEOUT(healthy(), kLong);
    }

private slots:
    void initTestCase() {
        root_ = std::make_unique<QTemporaryDir>();
        QVERIFY(root_->isValid());
        // Only Tether's own dir is private: the way to it is open, so a refusal is Tether's.
        QVERIFY(QFile::setPermissions(root_->path(),
                                      QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                          QFileDevice::ExeOwner | QFileDevice::ReadOther |
                                          QFileDevice::ExeOther | QFileDevice::ReadGroup |
                                          QFileDevice::ExeGroup));
        dataDir_ = root_->filePath(QStringLiteral("data")); // Tether creates it
        qputenv("TETHER_DATA_DIR", dataDir_.toUtf8());
        port_ = tether::test::freeLoopbackPort();
        settingsPath_ = root_->filePath(QStringLiteral("tether.ini"));
        QFile ini(settingsPath_);
        QVERIFY(ini.open(QIODevice::WriteOnly));
        ini.write(QStringLiteral("[service]\nprofile=demo\nport=%1\n[probe]\nintervalMs=200\n")
                      .arg(port_)
                      .toUtf8());
        ini.close();
        tether_.setProcessEnvironment(env());
        tether_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        tether_.start(tether::test::tetherBin(),
                      {QStringLiteral("--headless"), QStringLiteral("--settings"), settingsPath_});
        QVERIFY(tether_.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(healthy(), kLong);
        QVERIFY(password().size() >= 16);
    }
    void cleanupTestCase() {
        if (tether_.state() == QProcess::Running) {
            cli({QStringLiteral("stop")});
            cli({QStringLiteral("quit")});
            if (!tether_.waitForFinished(kLong))
                tether_.kill(); // our own child, identified by QProcess
        }
    }

    void dataDirIsPrivateAndFilesAre0600() {
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(dataDir_).constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0700));
        QStringList checked;
        QDirIterator it(
            dataDir_, QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
            QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString p = it.next();
            QCOMPARE(::lstat(QFile::encodeName(p).constData(), &st), 0);
            // Nothing in the private dir is open to group or others.
            QVERIFY2(
                (st.st_mode & 077) == 0,
                qPrintable(QStringLiteral("%1 has mode %2").arg(p).arg(st.st_mode & 07777, 0, 8)));
            if (S_ISREG(st.st_mode)) QCOMPARE(st.st_mode & 0777, mode_t(0600));
            checked << QFileInfo(p).fileName();
        }
        QVERIFY2(checked.contains(QStringLiteral("service.json")), qPrintable(checked.join(' ')));
        QVERIFY2(checked.contains(QStringLiteral("tether.log")), qPrintable(checked.join(' ')));
    }

    // `tether status` made a shared TETHER_DATA_DIR private without a word (1777 -> 0700). A
    // verb changes nothing now; a Tether refuses a directory others may write to, saying why,
    // and leaves its mode as it found it.
    void aSharedDataDirIsNeverChmoddedButRefused() {
        const QString shared = root_->filePath(QStringLiteral("shared"));
        QVERIFY(QDir().mkpath(shared));
        QVERIFY(::chmod(QFile::encodeName(shared).constData(), 01777) == 0);
        QProcessEnvironment e = env();
        e.insert(QStringLiteral("TETHER_DATA_DIR"), shared);
        const Run status = tether::test::runTether({QStringLiteral("status")}, e);
        QCOMPARE(status.exitCode, 4);
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(shared).constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, mode_t(01777));
        const Run start = tether::test::runTether(
            {QStringLiteral("--headless"), QStringLiteral("--settings"), settingsPath_}, e);
        QCOMPARE(start.exitCode, 1);
        QVERIFY2(start.err.contains("writable by others"), start.err.constData());
        QCOMPARE(::stat(QFile::encodeName(shared).constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, mode_t(01777));
        QVERIFY(QDir(shared).isEmpty()); // nothing of Tether's left in it either
    }

    void passwordOnlyInTheEnvironmentAndTheRegistration() {
        const QByteArray pw = password().toUtf8();
        const qint64 pid = servicePid();
        QVERIFY(pid > 1);
        // The service has it in its environment (how it gets it) ...
        QVERIFY(readAll(QStringLiteral("/proc/%1/environ").arg(pid))
                    .contains("OPENCODE_SERVER_PASSWORD=" + pw));
        // ... and nowhere another user could read it.
        QVERIFY(!readAll(QStringLiteral("/proc/%1/cmdline").arg(pid)).contains(pw));
        QVERIFY(!readAll(QStringLiteral("/proc/%1/cmdline").arg(tether_.processId())).contains(pw));
        QVERIFY(!cli({QStringLiteral("status"), QStringLiteral("--json")}).out.contains(pw));
        QVERIFY(!cli({QStringLiteral("status")}).out.contains(pw));
        int logs = 0;
        QDirIterator it(dataDir_, {QStringLiteral("*.log*")}, QDir::Files,
                        QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString p = it.next();
            ++logs;
            QVERIFY2(!readAll(p).contains(pw), qPrintable(p));
            QVERIFY2(!readAll(p).contains(QByteArray(pw).toBase64()), qPrintable(p));
        }
        QVERIFY(logs >= 2); // tether.log and service.log
    }

    void serviceListensOnLoopbackOnly() {
        int listening = 0;
        for (const QString &table :
             {QStringLiteral("/proc/net/tcp"), QStringLiteral("/proc/net/tcp6")}) {
            for (const QByteArray &line : readAll(table).split('\n')) {
                const QList<QByteArray> f = line.simplified().split(' ');
                if (f.size() < 4 || f[3] != "0A") // 0A = LISTEN
                    continue;
                const QList<QByteArray> local = f[1].split(':');
                if (local.size() != 2 || local[1].toInt(nullptr, 16) != port_) continue;
                ++listening;
                QVERIFY2(local[0] == "0100007F" || local[0] == "00000000000000000000000001000000",
                         qPrintable(QStringLiteral("port %1 bound to %2")
                                        .arg(port_)
                                        .arg(QString::fromLatin1(local[0]))));
            }
        }
        QVERIFY(listening >= 1);
    }

    void anotherUserIsRefused_data() {
        QTest::addColumn<QStringList>("wrapper");
        const QStringList nobody{QStringLiteral("setpriv"), QStringLiteral("--reuid=65534"),
                                 QStringLiteral("--regid=65534"), QStringLiteral("--clear-groups")};
        QTest::newRow("nobody") << nobody;
        // With the power to ignore file modes, only the socket's peer-credential check is left.
        QTest::newRow("nobody+dac_override")
            << (QStringList(nobody) << QStringLiteral("--inh-caps=+dac_override")
                                    << QStringLiteral("--ambient-caps=+dac_override"));
    }
    void anotherUserIsRefused() {
        QFETCH(QStringList, wrapper);
        // Control: the same command as this user works.
        const Run self = cli({QStringLiteral("status"), QStringLiteral("--json")});
        QCOMPARE(self.exitCode, 0);
        QVERIFY(self.out.contains("\"state\""));
        const Run other = cli({QStringLiteral("status"), QStringLiteral("--json")}, wrapper);
        QVERIFY2(other.exitCode != 0, qPrintable(QString::fromUtf8(other.out + other.err)));
        QVERIFY2(!other.out.contains("\"state\""), qPrintable(QString::fromUtf8(other.out)));
        QVERIFY(!other.out.contains(password().toUtf8()));
        const Run stop = cli({QStringLiteral("stop")}, wrapper);
        QVERIFY(stop.exitCode != 0);
        verifyStillAnswering();
    }

    // One verb table (control/verbs.h): every verb has one row and a unique name, a request
    // carries the enum, and the wire text stays {"verb":"<name>",...}.
    void verbTableIsTheWireFormat() {
        using namespace tether::control;
        QSet<QString> names;
        for (const VerbInfo &v : kVerbTable) {
            QVERIFY2(!names.contains(QLatin1String(v.name)), v.name);
            names.insert(QLatin1String(v.name));
            QCOMPARE(&verbInfo(v.verb), &v);
            const QByteArray line =
                QByteArray("{\"verb\":\"") + v.name + "\",\"args\":{\"name\":\"x\"}}";
            const ParsedRequest p = parseRequest(line);
            QVERIFY2(p.ok, v.name);
            QVERIFY(p.request.verb == v.verb);
            QCOMPARE(p.request.args.value(QLatin1String("name")).toString(), QStringLiteral("x"));
        }
        const Request connect{Verb::McpConnect, {{QStringLiteral("name"), QStringLiteral("d1")}}};
        QCOMPARE(serializeRequest(connect),
                 QByteArray("{\"args\":{\"name\":\"d1\"},\"verb\":\"mcp-connect\"}\n"));
        QCOMPARE(serializeRequest({Verb::Status, {}}), QByteArray("{\"verb\":\"status\"}\n"));
        QVERIFY(!parseRequest("{\"verb\":\"STATUS\"}").ok); // names are exact, as on the wire
        QVERIFY(!parseRequest("{\"verb\":\"help\"}").ok);
    }

    void hostileSameUserClientsDoNotStopIt() {
        const QString name = tether::control::serverName();
        auto connectOne = [&name]() {
            auto s = std::make_unique<QLocalSocket>();
            s->connectToServer(name);
            return s->waitForConnected(10000) ? std::move(s) : nullptr;
        };
        // Garbage lines: each answered with an error (or the connection closed), never a crash.
        for (const QByteArray &junk :
             {QByteArray("\x00\x01\xff\xfe garbage\n", 14), QByteArray("{\"verb\":42}\n"),
              QByteArray("[]\n"), QByteArray("{\"verb\":\"status\",\"args\":[1]}\n"),
              QByteArray("\n\n\n")}) {
            auto s = connectOne();
            QVERIFY(s);
            s->write(junk);
            s->waitForBytesWritten(5000);
            s->waitForReadyRead(3000);
            const QByteArray reply = s->readAll();
            QVERIFY2(reply.isEmpty() || reply.contains("\"ok\":false"), reply.constData());
        }
        // Disconnect mid-message.
        for (int i = 0; i < 20; ++i) {
            auto s = connectOne();
            QVERIFY(s);
            s->write("{\"verb\":\"sta");
            s->waitForBytesWritten(5000);
            s->abort();
        }
        // Flood: lines longer than 64 KiB, with and without a newline; many at once.
        std::vector<std::unique_ptr<QLocalSocket>> flood;
        for (int i = 0; i < 8; ++i) {
            auto s = connectOne();
            QVERIFY(s);
            s->write(QByteArray(256 * 1024, 'A') + (i % 2 ? "\n" : ""));
            flood.push_back(std::move(s));
        }
        for (auto &s : flood) {
            // The server cuts an over-long line off: the connection ends.
            QTRY_VERIFY_WITH_TIMEOUT(
                s->state() == QLocalSocket::UnconnectedState ||
                    (s->waitForDisconnected(100), s->state() == QLocalSocket::UnconnectedState),
                kLong);
        }
        verifyStillAnswering();
        const Run r = cli({QStringLiteral("status")});
        QCOMPARE(r.exitCode, 0);
    }
};

QTEST_GUILESS_MAIN(TestControlAndSecrets)
#include "tst_control_and_secrets.moc"
