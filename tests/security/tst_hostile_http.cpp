// Hostile health answers from a "service" that is a tiny QTcpServer in this test: a 100 MB body,
// invalid UTF-8, a slow drip (one byte per second), a redirect to another host. The probe
// (tether::sendHttp + judgeHealth) must end each within its deadline, bounded in memory, never
// follow the redirect, and never send the Authorization header anywhere else.
#include "service/health.h"
#include "service/http_client.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>
#include <QtTest>

#include <functional>
#include <memory>

using namespace tether;

namespace {

// One handler per accepted connection; it sees the request head once it is complete.
class FakeService : public QObject {
public:
    using Handler = std::function<void(QTcpSocket *, const QByteArray &head)>;
    QTcpServer server;
    QList<QByteArray> heads; // every request head received
    int connections = 0;
    Handler handler;

    bool listen(const QHostAddress &a) {
        connect(&server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = server.nextPendingConnection()) {
                ++connections;
                auto buf = std::make_shared<QByteArray>();
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
                connect(s, &QTcpSocket::readyRead, s, [this, s, buf] {
                    buf->append(s->readAll());
                    const qsizetype end = buf->indexOf("\r\n\r\n");
                    if (end < 0 || buf->isNull()) return;
                    const QByteArray head = buf->left(end);
                    *buf = QByteArray(); // null: answered
                    heads << head;
                    if (handler) handler(s, head);
                });
            }
        });
        return server.listen(a, 0);
    }
    QUrl url(const QString &path = QStringLiteral("/global/health")) const {
        return QUrl(QStringLiteral("http://%1:%2%3")
                        .arg(server.serverAddress().toString())
                        .arg(server.serverPort())
                        .arg(path));
    }
};

struct Outcome {
    bool done = false;
    HttpResult result;
    qint64 elapsedMs = 0;
};

constexpr int kTimeoutMs = 1500;
const QByteArray kAuth = basicAuth(QStringLiteral("opencode"), QStringLiteral("per-start-secret"));

} // namespace

class TestHostileHttp : public QObject {
    Q_OBJECT

    Outcome probe(const QUrl &url, qint64 maxBody = 64 * 1024) {
        HttpCall call;
        call.url = url;
        call.authorization = kAuth;
        call.timeoutMs = kTimeoutMs;
        call.maxBodyBytes = maxBody;
        auto out = std::make_shared<Outcome>();
        QElapsedTimer t;
        t.start();
        sendHttp(call, this, [out, t](const HttpResult &r) {
            out->done = true;
            out->result = r;
            out->elapsedMs = t.elapsed();
        });
        [&] { QTRY_VERIFY_WITH_TIMEOUT(out->done, 30000); }();
        return *out;
    }

private slots:
    void hundredMegabyteBodyIsCutOffAtTheCap_data() {
        QTest::addColumn<bool>("declared");
        // Declared in Content-Length: refused on the headers, before the body is read.
        QTest::newRow("declared length") << true;
        // Undeclared (read to the close): cut off once the cap is passed.
        QTest::newRow("read to close") << false;
    }
    void hundredMegabyteBodyIsCutOffAtTheCap() {
        QFETCH(bool, declared);
        FakeService svc;
        qint64 sent = 0;
        const qint64 total = 100LL * 1024 * 1024;
        // 1 MiB every 10 ms: a client that reads it all has it in about a second, well before
        // the probe's deadline, while one that stops at the cap is gone after a few chunks.
        // (Pumped as fast as the socket takes it, Qt's reader thread could drain all 100 MB on
        // loopback before the main thread's abort reached it.)
        svc.handler = [&sent, total, declared](QTcpSocket *s, const QByteArray &) {
            s->write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" +
                     (declared ? "Content-Length: " + QByteArray::number(total) + "\r\n"
                               : QByteArray("Connection: close\r\n")) +
                     "\r\n{\"healthy\":true,\"version\":\"");
            auto *pump = new QTimer(s);
            QObject::connect(pump, &QTimer::timeout, s, [s, &sent, total] {
                static const QByteArray chunk(1024 * 1024, 'x');
                if (s->bytesToWrite() < chunk.size() && sent < total &&
                    s->state() == QAbstractSocket::ConnectedState) {
                    s->write(chunk);
                    sent += chunk.size();
                }
            });
            pump->start(10);
        };
        QVERIFY(svc.listen(QHostAddress::LocalHost));
        const Outcome o = probe(svc.url());
        QVERIFY(!o.result.transportOk);
        QVERIFY2(!o.result.error.isEmpty(), "no reason given");
        QVERIFY(o.result.body.size() <= 64 * 1024);
        QVERIFY2(sent < total / 4,
                 qPrintable(QStringLiteral("client kept reading: %1 bytes sent").arg(sent)));
        // A declared length is refused on the headers, naming it; a body read to the close is
        // refused when the cap is passed.
        QVERIFY2(o.result.error.contains(QString::number(total)) == declared,
                 qPrintable(o.result.error));
        QVERIFY(!judgeHealth(policy::Dialect::Demo, o.result.status, o.result.body).healthy);
    }

    void reportedPidIsAWholeNumberAboveOne_data() {
        QTest::addColumn<QByteArray>("pid");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("whole") << QByteArray("4242") << qint64(4242);
        // Found by fuzz_health: 1.3 was truncated to 1, init's pid.
        QTest::newRow("fraction above 1") << QByteArray("1.3") << qint64(0);
        QTest::newRow("fraction") << QByteArray("4242.5") << qint64(0);
        QTest::newRow("one") << QByteArray("1") << qint64(0);
        QTest::newRow("negative") << QByteArray("-7") << qint64(0);
        QTest::newRow("beyond 32 bits") << QByteArray("4294967296") << qint64(0);
        QTest::newRow("string") << QByteArray("\"4242\"") << qint64(0);
    }
    void reportedPidIsAWholeNumberAboveOne() {
        QFETCH(QByteArray, pid);
        QFETCH(qint64, expected);
        const HealthVerdict v = judgeHealth(policy::Dialect::Opencode2, 200,
                                            "{\"version\":\"2.0.1\",\"pid\":" + pid + "}");
        QVERIFY(v.healthy);
        QCOMPARE(v.reportedPid, expected);
    }

    void invalidUtf8BodyIsNotHealthy() {
        FakeService svc;
        const QByteArray body = "{\"healthy\":true,\"version\":\"\xc3\x28\xff\xfe\xed\xa0\x80\"}";
        svc.handler = [body](QTcpSocket *s, const QByteArray &) {
            s->write("HTTP/1.1 200 OK\r\nContent-Length: " + QByteArray::number(body.size()) +
                     "\r\n\r\n" + body);
        };
        QVERIFY(svc.listen(QHostAddress::LocalHost));
        const Outcome o = probe(svc.url());
        QVERIFY2(o.result.transportOk, qPrintable(o.result.error));
        QCOMPARE(o.result.body, body);
        // Qt's JSON parser rejects invalid UTF-8 in strings; either way the verdict is clear.
        const HealthVerdict v = judgeHealth(policy::Dialect::Demo, o.result.status, o.result.body);
        QVERIFY(v.healthy ? v.version.size() <= 64 : !v.error.isEmpty());
        QVERIFY(!v.healthy);
    }

    void slowDripIsAbortedAtTheProbeDeadline() {
        FakeService svc;
        svc.handler = [](QTcpSocket *s, const QByteArray &) {
            const QByteArray all =
                "HTTP/1.1 200 OK\r\nContent-Length: 31\r\n\r\n{\"healthy\":true,\"version\":\"1\"}";
            auto pos = std::make_shared<int>(0);
            auto *timer = new QTimer(s);
            QObject::connect(timer, &QTimer::timeout, s, [s, all, pos] {
                if (*pos < all.size()) s->write(all.mid((*pos)++, 1));
            });
            timer->start(1000);
        };
        QVERIFY(svc.listen(QHostAddress::LocalHost));
        const Outcome o = probe(svc.url());
        QVERIFY(!o.result.transportOk);
        QVERIFY(!o.result.error.isEmpty());
        QVERIFY2(o.elapsedMs >= kTimeoutMs - 100 && o.elapsedMs < kTimeoutMs + 3000,
                 qPrintable(QStringLiteral("ended after %1 ms").arg(o.elapsedMs)));
        QVERIFY(!judgeHealth(policy::Dialect::Demo, o.result.status, o.result.body).healthy);
    }

    void redirectToAnotherHostIsNotFollowedAndLeaksNoCredentials_data() {
        QTest::addColumn<int>("code");
        for (int c : {301, 302, 303, 307, 308})
            QTest::newRow(qPrintable(QString::number(c))) << c;
    }
    void redirectToAnotherHostIsNotFollowedAndLeaksNoCredentials() {
        QFETCH(int, code);
        // "Another host": 127.0.0.2 is loopback on Linux but not the registered address.
        FakeService elsewhere;
        elsewhere.handler = [](QTcpSocket *s, const QByteArray &) {
            s->write("HTTP/1.1 200 OK\r\nContent-Length: 16\r\n\r\n{\"healthy\":true}");
        };
        QVERIFY(elsewhere.listen(QHostAddress(QStringLiteral("127.0.0.2"))));
        FakeService svc;
        const QByteArray location = elsewhere.url().toEncoded();
        svc.handler = [code, location](QTcpSocket *s, const QByteArray &) {
            s->write("HTTP/1.1 " + QByteArray::number(code) + " Moved\r\nLocation: " + location +
                     "\r\nContent-Length: 0\r\n\r\n");
        };
        QVERIFY(svc.listen(QHostAddress::LocalHost));
        const Outcome o = probe(svc.url());
        QCOMPARE(o.result.status, code);
        QVERIFY(!judgeHealth(policy::Dialect::Demo, o.result.status, o.result.body).healthy);
        // The registered URL got the credentials, exactly once.
        QCOMPARE(svc.heads.size(), 1);
        QVERIFY(svc.heads[0].contains("Authorization: " + kAuth));
        // Nothing reached the other host: a second, clean probe to it is the first it sees.
        const Outcome fence = probe(elsewhere.url());
        QVERIFY(fence.result.transportOk);
        QCOMPARE(elsewhere.connections, 1);
        QCOMPARE(elsewhere.heads.size(), 1);
        QVERIFY(elsewhere.heads[0].contains("Authorization: " + kAuth)); // the fence itself
    }
};

QTEST_GUILESS_MAIN(TestHostileHttp)
#include "tst_hostile_http.moc"
