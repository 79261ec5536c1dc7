// The event-stream client against a loopback server of this test that speaks opencode 1.18.33's
// /global/event framing (data: <json>\n\n, the {payload} envelope, sync duplicates): what a
// person sees in `tether status` comes from here.
#include "service/activity_monitor.h"
#include "service/http_client.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

using namespace tether;

namespace {

// One stream connection at a time; the test writes raw bytes to it.
class FakeStream : public QObject {
public:
    FakeStream() {
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        connect(&server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [this, s] {
                    const QByteArray head = s->property("head").toByteArray() + s->readAll();
                    s->setProperty("head", head);
                    if (!head.contains("\r\n\r\n") || s->property("answered").toBool()) return;
                    s->setProperty("answered", true);
                    const QByteArray target = head.mid(0, head.indexOf("\r\n")).split(' ').value(1);
                    if (!target.startsWith("/global/event")) { // a catch-up's question
                        asked << QString::fromUtf8(QByteArray::fromPercentEncoding(target));
                        const QByteArray path = target.left(target.indexOf('?'));
                        const QByteArray query =
                            QByteArray::fromPercentEncoding(target.mid(path.size()));
                        const QByteArray body = answers.value(path + query, answers.value(path));
                        s->write((body.isNull() ? QByteArray("HTTP/1.1 404 No\r\n")
                                                : QByteArray("HTTP/1.1 200 OK\r\n")) +
                                 "Content-Type: application/json\r\nContent-Length: " +
                                 QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" +
                                 body);
                        s->disconnectFromHost();
                        return;
                    }
                    ++connections;
                    request += head;
                    if (status != 200) {
                        s->write("HTTP/1.1 " + QByteArray::number(status) +
                                 " No\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                        s->disconnectFromHost();
                        return;
                    }
                    s->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                             "Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n");
                    socket = s;
                    if (silentConnections > 0) { // headers, then nothing: a hung start-up
                        --silentConnections;
                        return;
                    }
                    send(R"({"payload":{"id":"evt_0","type":"server.connected","properties":{}}})");
                    if (!afterConnect.isEmpty()) raw(afterConnect);
                });
            }
        });
    }
    void raw(const QByteArray &bytes) {
        QVERIFY(socket);
        socket->write(QByteArray::number(bytes.size(), 16) + "\r\n" + bytes + "\r\n");
        socket->flush();
    }
    void send(const QByteArray &json) { raw("data: " + json + "\n\n"); }
    void close() {
        if (socket) socket->disconnectFromHost();
        socket = nullptr;
    }
    QUrl url() const {
        return QUrl(QStringLiteral("http://127.0.0.1:%1/global/event").arg(server.serverPort()));
    }

    QTcpServer server;
    QPointer<QTcpSocket> socket;
    QByteArray request;  // the stream requests' heads
    int connections = 0; // stream connections
    // The catch-up's questions (path?query, decoded) and the answers: by path and decoded query,
    // else by path; 404 for anything else.
    QStringList asked;
    QHash<QByteArray, QByteArray> answers;
    int status = 200;
    int silentConnections = 0; // the first N connections answer but never send an event
    QByteArray afterConnect;   // raw bytes each connection sends after server.connected
};

const QByteArray kBusy =
    R"({"directory":"/p","project":"global","payload":{"id":"evt_1","type":"session.status","properties":{"sessionID":"ses_A","status":{"type":"busy"}}}})";
const QByteArray kSync =
    R"({"directory":"/p","project":"global","payload":{"type":"sync","syncEvent":{"id":"evt_1","type":"session.status.1","seq":1,"aggregateID":"ses_A","data":{}}}})";
QByteArray toolPart(const char *status) {
    return QByteArray(
               R"({"directory":"/p","project":"global","payload":{"type":"message.part.updated","id":"evt_2","properties":{"sessionID":"ses_A","part":{"id":"prt_1","sessionID":"ses_A","type":"tool","tool":"everything_trigger-long-running-operation","callID":"c","state":{"status":")") +
           status + R"(","input":{}}},"time":1}}})";
}
const QByteArray kIdle =
    R"({"directory":"/p","project":"global","payload":{"id":"evt_3","type":"session.idle","properties":{"sessionID":"ses_A"}}})";
const QByteArray kHeartbeat =
    R"({"payload":{"id":"evt_4","type":"server.heartbeat","properties":{}}})";

} // namespace

class TestActivityMonitor : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<ActivityMonitor> monitor(qint64 maxLine = 4 * 1024 * 1024) {
        ActivityMonitor::Config c;
        c.clock = [this] { return clock; };
        c.maxLineBytes = maxLine;
        c.maxEventBytes = maxLine;
        c.backoffInitialMs = 50;
        c.backoffMaxMs = 200;
        c.firstEventMs = firstEventMs;
        return std::make_unique<ActivityMonitor>(c);
    }
    qint64 clock = 1000;
    int firstEventMs = 5000;

private slots:
    void aToolCallAppearsAndEndsWithTheStream() {
        FakeStream fake;
        auto m = monitor();
        m->follow(fake.url(), basicAuth(QStringLiteral("opencode"), QStringLiteral("pw")), "1@1");
        QTRY_VERIFY(m->connected());
        QVERIFY2(fake.request.contains("Authorization: Basic b3BlbmNvZGU6cHc="),
                 fake.request.constData());
        fake.send(kBusy);
        fake.send(kSync); // the duplicate must not count twice
        fake.send(toolPart("pending"));
        QTRY_COMPARE(m->activity().tools.size(), std::size_t(1));
        clock = 1100; // running later: the call is timed from its first sighting
        fake.send(toolPart("running"));
        QTRY_COMPARE(m->activity().tools.size(), std::size_t(1));
        QCOMPARE(m->activity().sessions.size(), std::size_t(1));
        QCOMPARE(policy::describeActivity(m->activity(), 46000),
                 std::string("busy: 1 session, tool everything_trigger-long-running-operation "
                             "for 45 s"));
        fake.send(toolPart("completed"));
        fake.send(kIdle);
        QTRY_VERIFY(!policy::isBusy(m->activity()));
    }

    // A tool call that started before Tether followed the stream (a Tether restart): the
    // monitor asks the service, sees it at once with its age, and says it has caught up.
    void workRunningBeforeTheConnectIsCaughtUp() {
        FakeStream fake;
        const qint64 startedAt = QDateTime::currentMSecsSinceEpoch() - 45000;
        fake.answers.insert("/session",
                            R"([{"id":"ses_A","directory":"/p","time":{"updated":5}}])");
        fake.answers.insert("/session/status?directory=/p", R"({"ses_A":{"type":"busy"}})");
        fake.answers.insert("/session/status", "{}"); // the service's own directory: nothing
        fake.answers.insert(
            "/session/ses_A/message",
            R"([{"info":{"id":"m"},"parts":[{"id":"prt_1","sessionID":"ses_A","type":"tool","tool":"everything_trigger-long-running-operation","state":{"status":"running","time":{"start":)" +
                QByteArray::number(startedAt) +
                R"(}}},{"id":"prt_0","sessionID":"ses_A","type":"tool","tool":"read","state":{"status":"completed"}}]}])");
        auto m = monitor();
        m->follow(fake.url(), basicAuth(QStringLiteral("opencode"), QStringLiteral("pw")), "1@1");
        QTRY_VERIFY(m->caughtUp());
        QCOMPARE(m->activity().tools.size(), std::size_t(1));
        QCOMPARE(m->activity().tools[0].tool,
                 std::string("everything_trigger-long-running-operation"));
        const std::string said = policy::describeActivity(m->activity(), clock);
        QVERIFY2(
            said == "busy: 1 session, tool everything_trigger-long-running-operation for 45 s" ||
                said == "busy: 1 session, tool everything_trigger-long-running-operation for 46 s",
            said.c_str());
        QVERIFY2(fake.asked.contains(QStringLiteral("/session/status?directory=/p")),
                 qPrintable(fake.asked.join(u' ')));
        // The stream then ends it as any other call.
        fake.send(toolPart("completed"));
        fake.send(kIdle);
        QTRY_VERIFY(!policy::isBusy(m->activity()));
    }

    // The directories the stream named are asked about on the next connect, even when the
    // service's session list does not name them; a service without these routes (404) is
    // still followed, and the catch-up ends.
    void aReconnectAsksAboutTheDirectoriesTheStreamNamed() {
        FakeStream fake;
        auto m = monitor();
        m->follow(fake.url(), {}, "1@1");
        QTRY_VERIFY(m->caughtUp()); // every question answered 404: nothing learnt, still followed
        QVERIFY(!policy::isBusy(m->activity()));
        fake.send(kBusy); // directory /p
        QTRY_VERIFY(policy::isBusy(m->activity()));
        fake.answers.insert("/session/status?directory=/p", R"({"ses_A":{"type":"busy"}})");
        fake.answers.insert("/session/ses_A/message", "[]");
        fake.asked.clear();
        fake.close();
        QTRY_VERIFY(!m->connected());
        QTRY_VERIFY(m->caughtUp());
        QVERIFY2(fake.asked.contains(QStringLiteral("/session/status?directory=/p")),
                 qPrintable(fake.asked.join(u' ')));
        QCOMPARE(policy::busySessionCount(m->activity()), std::size_t(1)); // learnt again
    }

    // A hostile answer cannot grow Tether's memory: over the cap it is dropped, and the
    // catch-up ends with what it has.
    void anOversizedAnswerIsDropped() {
        FakeStream fake;
        fake.answers.insert("/session", "[" + QByteArray(9 * 1024 * 1024, ' ') + "]");
        auto m = monitor();
        m->follow(fake.url(), {}, "1@1");
        QTRY_VERIFY_WITH_TIMEOUT(m->caughtUp(), 10000);
        QVERIFY2(m->catchUpError().contains(QStringLiteral("more than")),
                 qPrintable(m->catchUpError()));
    }

    void aHeartbeatIsProofOfLife() {
        FakeStream fake;
        auto m = monitor();
        QSignalSpy alive(m.get(), &ActivityMonitor::alive);
        m->follow(fake.url(), {}, "1@1");
        QTRY_VERIFY(m->connected());
        clock = 11000;
        fake.send(kHeartbeat);
        QTRY_COMPARE(m->activity().lastHeartbeatAt, qint64(11000));
        QVERIFY(!alive.isEmpty());
        QCOMPARE(alive.last().at(0).toLongLong(), qint64(11000));
    }

    void anEventSplitAcrossChunksIsReadWhole() {
        FakeStream fake;
        auto m = monitor();
        m->follow(fake.url(), {}, "1@1");
        QTRY_VERIFY(m->connected());
        const QByteArray whole = "data: " + kBusy + "\r\n\r\n";
        fake.raw(whole.left(17));
        QTest::qWait(50); // the first half alone must not yield anything
        QVERIFY(m->activity().sessions.empty());
        fake.raw(whole.mid(17));
        QTRY_COMPARE(m->activity().sessions.size(), std::size_t(1));
    }

    void anOversizedLineDropsTheStreamAndReconnects() {
        FakeStream fake;
        auto m = monitor(1024);
        m->follow(fake.url(), {}, "1@1");
        QTRY_VERIFY(m->connected());
        fake.send(kBusy);
        QTRY_COMPARE(m->activity().sessions.size(), std::size_t(1));
        fake.raw("data: " + QByteArray(4096, 'x')); // no newline: must not be buffered forever
        QTRY_COMPARE(fake.connections, 2);
        QVERIFY(m->lastError().contains(QLatin1String("larger than 1024")));
        QTRY_VERIFY(m->connected());
        // The new stream knows nothing of before: the busy session is not kept stale.
        QVERIFY(!policy::isBusy(m->activity()));
    }

    // Every server.connected reset the back-off: a stream that says it and then sends one
    // oversized line was fetched again every half second (65 times a minute with opencode's
    // 500 ms); only a connection that held longer than the longest back-off starts it over.
    void aConnectedEventDoesNotResetTheBackOff() {
        FakeStream fake;
        fake.afterConnect = "data: " + QByteArray(4096, 'x') + "\n"; // over the 1 KiB cap
        auto m = monitor(1024); // back-off 50 ms doubling to 200 ms
        m->follow(fake.url(), {}, "1@1");
        QTest::qWait(2000);
        // 50 + 100 + 200 + 200 ... ms apart: about 11 in 2 s; reset each time, 40.
        QVERIFY2(fake.connections <= 14,
                 qPrintable(QStringLiteral("%1 connections in 2 s").arg(fake.connections)));
        QVERIFY2(fake.connections >= 4, "not tried again at all");
    }

    void anEndedStreamIsFollowedAgainWithBackOff() {
        FakeStream fake;
        auto m = monitor();
        m->follow(fake.url(), {}, "1@1");
        QTRY_VERIFY(m->connected());
        fake.close();
        QTRY_VERIFY(!m->connected());
        QTRY_COMPARE(fake.connections, 2);
        QTRY_VERIFY(m->connected());
    }

    // A connection that answers but never brings an event (a start-up hang) is dropped at its
    // deadline and tried again; without the deadline it would be followed by nobody, forever.
    void aSilentConnectionIsDroppedAtItsDeadline() {
        FakeStream fake;
        fake.silentConnections = 1;
        firstEventMs = 300;
        auto m = monitor();
        QElapsedTimer t;
        t.start();
        m->follow(fake.url(), {}, "1@1");
        QTRY_VERIFY_WITH_TIMEOUT(m->connected(), 5000);
        QVERIFY2(t.elapsed() >= 300, qPrintable(QString::number(t.elapsed())));
        QCOMPARE(fake.connections, 2);
        QVERIFY(m->lastError().contains(QLatin1String("no event within 300 ms")));
    }

    void aRefusedStreamIsRetriedNotTrusted() {
        FakeStream fake;
        fake.status = 401;
        auto m = monitor();
        m->follow(fake.url(), {}, "1@1");
        QTRY_VERIFY(fake.connections >= 3); // 50, 100, 200 ms apart
        QVERIFY(!m->connected());
        QVERIFY(m->lastError().contains(QLatin1String("401")));
        fake.status = 200;
        QTRY_VERIFY(m->connected());
    }

    void aNewServiceIdentityForgetsTheOldWork() {
        FakeStream fake;
        auto m = monitor();
        m->follow(fake.url(), {}, "1@1");
        QTRY_VERIFY(m->connected());
        fake.send(toolPart("running"));
        QTRY_VERIFY(policy::runsToolCalls(m->activity()));
        m->follow(fake.url(), {}, "2@2");
        QVERIFY(!policy::isBusy(m->activity()));
    }

    void parseIgnoresWhatIsNotAnEvent() {
        QVERIFY(!parseActivityEvent("not json"));
        QVERIFY(!parseActivityEvent("[1,2]"));
        QVERIFY(!parseActivityEvent(R"({"payload":{}})"));
        const auto text = parseActivityEvent(
            R"({"payload":{"type":"message.part.updated","properties":{"part":{"type":"text","id":"p"}}}})");
        QVERIFY(text);
        QCOMPARE(int(text->kind), int(policy::ActivityEventKind::Other));
        const auto err = parseActivityEvent(toolPart("error"));
        QVERIFY(err);
        QCOMPARE(int(err->kind), int(policy::ActivityEventKind::ToolEnded));
        QCOMPARE(err->session, std::string("ses_A"));
        // A running part carries its start (epoch ms): its age by the service's clock.
        const auto running = parseActivityEvent(
            R"({"directory":"/p","payload":{"type":"message.part.updated","properties":{"part":{"id":"prt_1","sessionID":"ses_A","type":"tool","tool":"t","state":{"status":"running","time":{"start":1000000}}}}}})",
            1045000);
        QVERIFY(running);
        QCOMPARE(running->runningMs, qint64(45000));
        QCOMPARE(running->directory, std::string("/p"));
        QCOMPARE(parseActivityEvent(toolPart("pending"))->runningMs, qint64(-1));
    }
};

QTEST_GUILESS_MAIN(TestActivityMonitor)
#include "tst_activity_monitor.moc"
