// opencode 2.x's event stream and catch-up answer, in the shapes of its own source
// (docs/opencode2-protocol.md, Events and Sessions), folded into the activity a person sees.
#include "policy/activity.h"
#include "service/activity_events_v2.h"

#include <QtTest>

using namespace tether;
using K = policy::ActivityEventKind;

namespace {

constexpr qint64 kWall = 1764410000000; // "now" on the service's clock in these events

QByteArray v2Event(const char *type, const QByteArray &data, qint64 created = kWall - 7000) {
    return QByteArray(R"({"id":"evt_1","type":")") + type + R"(","created":)" +
           QByteArray::number(created) + R"(,"data":)" + data +
           R"(,"location":{"directory":"/home/ann/work"}})";
}

policy::ActivityEvent parsed(const QByteArray &line) {
    const auto e = parseActivityEventV2(line, kWall);
    return e.value_or(policy::ActivityEvent{});
}

} // namespace

class TestOpencode2Events : public QObject {
    Q_OBJECT
private slots:
    void connectedAndSessionStatus() {
        QCOMPARE(parsed(R"({"id":"evt_0","type":"server.connected","data":{}})").kind,
                 K::Connected);
        const auto busy =
            parsed(v2Event("session.status", R"({"sessionID":"ses_1","status":{"type":"busy"}})"));
        QCOMPARE(busy.kind, K::SessionBusy);
        QCOMPARE(busy.session, std::string("ses_1"));
        QCOMPARE(busy.directory, std::string("/home/ann/work"));
        for (const char *still : {"retry", "waiting"}) {
            const QByteArray data =
                QByteArray("{\"sessionID\":\"s\",\"status\":{\"type\":\"") + still + "\"}}";
            QCOMPARE(parsed(v2Event("session.status", data)).kind, K::SessionBusy);
        }
        QCOMPARE(
            parsed(v2Event("session.status", R"({"sessionID":"s","status":{"type":"idle"}})")).kind,
            K::SessionIdle);
        QCOMPARE(parsed(v2Event("session.idle", R"({"sessionID":"s"})")).kind, K::SessionIdle);
        QCOMPARE(
            parsed(v2Event("session.execution.interrupted", R"({"sessionID":"s","reason":"user"})"))
                .kind,
            K::SessionIdle);
        QCOMPARE(parsed(v2Event("session.text.delta", R"({"sessionID":"s"})")).kind, K::Other);
        QVERIFY(!parseActivityEventV2("not json", kWall));
        QVERIFY(!parseActivityEventV2(R"({"data":{}})", kWall));
    }

    // A call's name comes with its first event; its start is the event's `created`.
    void aToolCallFromInputToSuccess() {
        const auto pending = parsed(v2Event(
            "session.tool.input.started",
            R"({"sessionID":"ses_1","assistantMessageID":"msg_1","callID":"call_1","name":"everything_trigger-long-running-operation"})",
            kWall - 45000));
        QCOMPARE(pending.kind, K::ToolPending);
        QCOMPARE(pending.part, std::string("call_1"));
        QCOMPARE(pending.tool, std::string("everything_trigger-long-running-operation"));
        QCOMPARE(pending.runningMs, 45000);
        const auto called = parsed(v2Event(
            "session.tool.called",
            R"({"sessionID":"ses_1","assistantMessageID":"msg_1","callID":"call_1","input":{},"executed":false})"));
        QCOMPARE(called.kind, K::ToolRunning);
        QCOMPARE(called.tool, std::string()); // the name is not repeated: the fold keeps it
        const auto done = parsed(v2Event(
            "session.tool.success",
            R"({"sessionID":"ses_1","assistantMessageID":"msg_1","callID":"call_1","executed":true})"));
        QCOMPARE(done.kind, K::ToolEnded);
        QCOMPARE(parsed(v2Event("session.tool.failed", R"({"sessionID":"s","callID":"c"})")).kind,
                 K::ToolEnded);
        // The SDK 1.19.3 names: session.next.tool.*, the name in `tool`.
        const auto sdk = parsed(v2Event("session.next.tool.called",
                                        R"({"sessionID":"s","callID":"c2","tool":"bash"})"));
        QCOMPARE(sdk.kind, K::ToolRunning);
        QCOMPARE(sdk.tool, std::string("bash"));
        // A tool event without a call id cannot be followed.
        QCOMPARE(parsed(v2Event("session.tool.called", R"({"sessionID":"s"})")).kind, K::Other);

        // Folded, the call reads as a person sees it: named, its age from its real start.
        policy::Activity a;
        const policy::Ms now = 100000;
        a = policy::applyActivityEvent(a, pending, now);
        a = policy::applyActivityEvent(a, called, now + 10);
        QVERIFY(policy::runsToolCalls(a));
        QCOMPARE(a.tools.size(), std::size_t(1));
        QCOMPARE(a.tools[0].tool, std::string("everything_trigger-long-running-operation"));
        QCOMPARE(a.tools[0].since, now - 45000);
        a = policy::applyActivityEvent(a, done, now + 20);
        QVERIFY(!policy::runsToolCalls(a));
    }

    void activeSessions() {
        QCOMPARE(parseActiveSessionsV2(
                     R"({"data":{"ses_1":{"type":"running"},"ses_2":{"type":"running"}}})"),
                 (QStringList{"ses_1", "ses_2"}));
        QCOMPARE(parseActiveSessionsV2(R"({"data":{}})"), QStringList());
        QCOMPARE(parseActiveSessionsV2("[]"), QStringList());
        QCOMPARE(parseActiveSessionsV2(R"({"ses_1":{"type":"running"}})"), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestOpencode2Events)
#include "tst_opencode2_events.moc"
