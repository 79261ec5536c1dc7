// opencode 2.x's persistent terminals across a replacement, as its own clients hand them over
// (docs/opencode2-protocol.md, Stop and replace): the handoff answer, the sidecar beside
// service.json, and what the next service is given.
#include "service/pty_handoff.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace tether;

namespace {

constexpr qint64 kNow = 1764410000000;

ManagedRegistration source() {
    ManagedRegistration r;
    r.id = QStringLiteral("6f1c2a34-9a57-4c6e-8f5e-1c2b3d4e5f60");
    r.pid = 4242;
    r.url = QUrl(QStringLiteral("http://127.0.0.1:49374"));
    r.password = QStringLiteral("pw");
    return r;
}

QByteArray ticket(qint64 expiresAt) {
    return QByteArray(
               R"({"handoff":{"directory":"/home/ann","instanceID":"pty_1","ticket":"t-123","expiresAt":)") +
           QByteArray::number(expiresAt) + "}}";
}

} // namespace

class TestPtyHandoff : public QObject {
    Q_OBJECT
private slots:
    void theAnswer() {
        const PtyHandoffAnswer a = parsePtyHandoffAnswer(ticket(kNow + 60000), kNow);
        QVERIFY2(a.ok, qPrintable(a.error));
        QCOMPARE(a.expiresAt, kNow + 60000);
        QVERIFY(a.handoff.contains("t-123"));
        QVERIFY(parsePtyHandoffAnswer(R"({"handoff":null})", kNow).ok);
        QVERIFY(!parsePtyHandoffAnswer(ticket(kNow - 1), kNow).ok); // expired on arrival
        QVERIFY(!parsePtyHandoffAnswer(R"({"handoff":{"ticket":"t"}})", kNow).ok);
        QVERIFY(!parsePtyHandoffAnswer(R"({})", kNow).ok);
        QVERIFY(!parsePtyHandoffAnswer("garbage", kNow).ok);
    }

    void theSidecarAndTheNextService() {
        const PtyHandoffAnswer a = parsePtyHandoffAnswer(ticket(kNow + 60000), kNow);
        const QByteArray sidecar = ptyHandoffSidecar(source(), a, kNow);
        const QJsonObject o = QJsonDocument::fromJson(sidecar).object();
        QCOMPARE(o.value("source").toObject().value("pid").toInt(), 4242);
        QCOMPARE(o.value("source").toObject().value("url").toString(),
                 QStringLiteral("http://127.0.0.1:49374"));
        QCOMPARE(qint64(o.value("expiresAt").toDouble()), kNow + 60000);
        // service.json is gone (the old one was stopped) or still names the source: handed on.
        const auto none = ptyHandoffForLaunch(sidecar, std::nullopt, kNow + 1000);
        QVERIFY(none);
        QCOMPARE(QJsonDocument::fromJson(*none).object().value("ticket").toString(),
                 QStringLiteral("t-123"));
        QVERIFY(ptyHandoffForLaunch(sidecar, source(), kNow + 1000));
        // Another service registered since, or the ticket ran out: nothing is handed on.
        ManagedRegistration other = source();
        other.pid = 5000;
        QVERIFY(!ptyHandoffForLaunch(sidecar, other, kNow + 1000));
        QVERIFY(!ptyHandoffForLaunch(sidecar, std::nullopt, kNow + 60000));
        // "Nothing to hand over" is published (30 s) but gives no variable.
        PtyHandoffAnswer empty;
        empty.ok = true;
        empty.handoff = "null";
        const QByteArray nothing = ptyHandoffSidecar(source(), empty, kNow);
        QCOMPARE(qint64(QJsonDocument::fromJson(nothing).object().value("expiresAt").toDouble()),
                 kNow + kPtyHandoffDefaultTtlMs);
        QVERIFY(!ptyHandoffForLaunch(nothing, std::nullopt, kNow));
        QVERIFY(!ptyHandoffForLaunch("garbage", std::nullopt, kNow));
        // Once another service is ready the sidecar has done its job; not before.
        QVERIFY(ptyHandoffDone(sidecar, other));
        QVERIFY(!ptyHandoffDone(sidecar, source()));
        QCOMPARE(ptyHandoffSidecarPath(QStringLiteral("/s/service.json")),
                 QStringLiteral("/s/service.json.pty-handoff"));
    }
};

QTEST_GUILESS_MAIN(TestPtyHandoff)
#include "tst_pty_handoff.moc"
