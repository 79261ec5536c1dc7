// Tether's own parsers on opencode 2.x's recorded answers and files (tests/fixtures/opencode2,
// each written from opencode's source: its README.md names the file and commit). What is
// asserted is what a person sees from them: the MCP rows, the health verdict with its cause,
// the busy sessions and running tools, the registration's pid/port/url and the channel's file.
#include "mcp/mcp_config.h"
#include "mcp/opencode_config.h"
#include "opencode2_fixtures.h"
#include "policy/activity.h"
#include "service/activity_events_v2.h"
#include "service/health.h"
#include "service/managed_registration.h"
#include "service/sse_parser.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace tether;
using policy::Boot;
using policy::Dialect;
using test::opencode2Fixture;

namespace {

constexpr qint64 kRecordedPid = 48213; // service.json's pid, and the one /api/info reports

const mcp::McpServerStatus *row(const mcp::StatusParse &p, const char *name) {
    for (const auto &s : p.servers)
        if (s.name == name) return &s;
    return nullptr;
}

const mcp::McpEntry *entry(const std::vector<mcp::McpEntry> &entries, const char *name) {
    for (const auto &e : entries)
        if (e.name == name) return &e;
    return nullptr;
}

} // namespace

class TestOpencode2Contract : public QObject {
    Q_OBJECT
private slots:
    // Every fixture the README lists is built in, and the README lists every fixture.
    void everyFixtureIsNamedWithItsSource() {
        const QStringList names = test::opencode2FixtureNames();
        QVERIFY2(names.size() >= 14, qPrintable(names.join(' ')));
        QFile readme(QStringLiteral(":/opencode2/README.md"));
        QVERIFY2(readme.open(QIODevice::ReadOnly), "the fixtures' README.md is not built in");
        const QString table = QString::fromUtf8(readme.readAll());
        for (const QString &name : names) {
            if (name == QLatin1String("README.md")) continue;
            const QString rowStart = QStringLiteral("| `%1` |").arg(name);
            QVERIFY2(table.contains(rowStart), qPrintable(name + " has no row in README.md"));
            const QString line = table.mid(table.indexOf(rowStart)).section('\n', 0, 0);
            QVERIFY2(line.contains(QRegularExpression("@ [0-9a-f]{8}")) || line.contains("SDK"),
                     qPrintable(name + " names no source commit"));
        }
    }

    // GET /api/mcp: one row per server with its status, the failing ones with their error.
    void mcpRowsFromTheEnvelope() {
        const mcp::StatusParse p = mcp::parseStatusV2(opencode2Fixture("mcp_list.json"));
        QVERIFY2(p.ok, p.error.c_str());
        QVERIFY(p.warnings.empty());
        QCOMPARE(p.servers.size(), std::size_t(6));
        QCOMPARE(p.directory, std::string("/home/ann"));
        QCOMPARE(p.projectDirectory, std::string("/home/ann"));
        const std::vector<std::pair<const char *, const char *>> expected{
            {"everything", mcp::status::Connected},
            {"filesystem", mcp::status::Pending},
            {"github", mcp::status::NeedsAuth},
            {"memory", mcp::status::Disabled},
            {"linear", mcp::status::NeedsClientRegistration},
            {"sqlite", mcp::status::Failed}};
        for (const auto &[name, status] : expected) {
            const auto *r = row(p, name);
            QVERIFY2(r, name);
            QCOMPARE(r->status, std::string(status));
        }
        QCOMPARE(row(p, "sqlite")->error, std::string("MCP error -32000: Connection closed"));
        QVERIFY(row(p, "linear")->error.find("dynamic client registration") != std::string::npos);
        QCOMPARE(row(p, "github")->integrationId, std::string("int_01JQ8K2M4N6P8R0T2V4X6Z8B0D"));
        QVERIFY(row(p, "everything")->error.empty());
        // Sorted by name, as the rows show.
        QCOMPARE(p.servers.front().name, std::string("everything"));
        QCOMPARE(p.servers.back().name, std::string("sqlite"));
    }

    // GET /api/info as Service.ensure() probes it: ready with the registered pid, starting,
    // failed; and an answer from another pid is not the registered service.
    void healthVerdictsFromInfo() {
        const HealthVerdict ready =
            judgeHealth(Dialect::Opencode2, 200, opencode2Fixture("info_ready.json"), kRecordedPid);
        QVERIFY2(ready.healthy, qPrintable(ready.error));
        QCOMPARE(ready.boot, Boot::Ready);
        QCOMPARE(ready.version, QStringLiteral("2.0.17"));
        QCOMPARE(ready.reportedPid, kRecordedPid);

        const HealthVerdict starting = judgeHealth(
            Dialect::Opencode2, 503, opencode2Fixture("info_starting.json"), kRecordedPid);
        QVERIFY(!starting.healthy);
        QCOMPARE(starting.boot, Boot::Starting);
        QVERIFY2(starting.error.contains(QStringLiteral("starting")), qPrintable(starting.error));

        const HealthVerdict failed = judgeHealth(
            Dialect::Opencode2, 500, opencode2Fixture("info_failed.json"), kRecordedPid);
        QVERIFY(!failed.healthy);
        QCOMPARE(failed.boot, Boot::Failed);
        QVERIFY2(failed.error.contains(QStringLiteral("start failed")), qPrintable(failed.error));

        // Another process on the registered port: ensure() takes its answer, whatever the
        // status, as no registered service (service.ts probeResult: pid !== info.pid).
        for (const auto &[status, file] :
             {std::pair{200, "info_ready.json"}, std::pair{503, "info_starting.json"},
              std::pair{500, "info_failed.json"}}) {
            const HealthVerdict other =
                judgeHealth(Dialect::Opencode2, status, opencode2Fixture(file), 4242);
            QVERIFY(!other.healthy);
            QVERIFY2(other.boot == Boot::Ready, qPrintable(QString::number(status)));
            QVERIFY2(other.error.contains(QStringLiteral("not the registered pid 4242")),
                     qPrintable(other.error));
        }
        // A 503 that is not the info body (another route's, or not opencode's): not a boot.
        const HealthVerdict foreign = judgeHealth(
            Dialect::Opencode2, 503, opencode2Fixture("route_starting.json"), kRecordedPid);
        QCOMPARE(foreign.boot, Boot::Ready);
        QVERIFY(!foreign.healthy);
        // A pid no process can have is no pid (and no overflow converting it).
        const HealthVerdict huge = judgeHealth(Dialect::Opencode2, 503,
                                               R"({"version":"2.0.17","pid":1e30})", kRecordedPid);
        QCOMPARE(huge.boot, Boot::Ready);
    }

    // /api/health (the protocol group's route, beside /api/info): Tether does not probe it, but
    // its body would be judged healthy with the same version and pid.
    void healthRouteBody() {
        const QJsonObject o =
            QJsonDocument::fromJson(opencode2Fixture("health_ready.json")).object();
        QCOMPARE(o.value("healthy"), QJsonValue(true));
        const HealthVerdict v = judgeHealth(Dialect::Opencode2, 200,
                                            opencode2Fixture("health_ready.json"), kRecordedPid);
        QVERIFY2(v.healthy, qPrintable(v.error));
        QCOMPARE(v.version, QStringLiteral("2.0.17"));
        QCOMPARE(v.reportedPid, kRecordedPid);
    }

    // The recorded stream through Tether's SSE reader and the activity fold: heartbeats count as
    // life; mid-way one busy session runs the named tool; at the end nothing runs.
    void eventStreamToActivity() {
        const QByteArray stream = opencode2Fixture("events.sse");
        SseParser sse;
        QList<QByteArray> events;
        int comments = 0;
        QVERIFY2(sse.feed(stream, &events, &comments), qPrintable(sse.error()));
        QCOMPARE(comments, 3);
        QCOMPARE(events.size(), 9);
        constexpr qint64 kWall = 1795000040000; // 40 s after the recorded run began
        policy::Activity a;
        policy::Ms now = 1000;
        bool sawRunning = false;
        for (const QByteArray &data : events) {
            const auto e = parseActivityEventV2(data, kWall);
            QVERIFY2(e, data.constData());
            a = policy::applyActivityEvent(a, *e, now += 10);
            if (e->kind == policy::ActivityEventKind::ToolRunning) {
                sawRunning = true;
                QVERIFY(policy::isBusy(a));
                QVERIFY(policy::runsToolCalls(a));
                QCOMPARE(a.sessions.size(), std::size_t(1));
                QCOMPARE(a.sessions.front().id, std::string("ses_7a1c2e9f0001ZQx4bK2mN8pR"));
                QCOMPARE(a.tools.size(), std::size_t(1));
                QCOMPARE(a.tools.front().tool,
                         std::string("everything_trigger-long-running-operation"));
                QCOMPARE(a.tools.front().part, std::string("call_01JQ8M3X9A4B7C2D5E8F1G6H0K"));
            }
        }
        QVERIFY(sawRunning);
        QVERIFY(!policy::isBusy(a));
        QVERIFY(a.tools.empty());
        QVERIFY(a.lastEventAt >= 0);
        // The first event is server.connected.
        QCOMPARE(parseActivityEventV2(events.front(), kWall)->kind,
                 policy::ActivityEventKind::Connected);
    }

    // GET /api/session/active: the sessions already at work when the stream (re)connects.
    void activeSessions() {
        QCOMPARE(parseActiveSessionsV2(opencode2Fixture("session_active.json")),
                 QStringList{QStringLiteral("ses_7a1c2e9f0001ZQx4bK2mN8pR")});
    }

    // service.json of a release: pid, port and url as Tether adopts them; no startedAt needed.
    void registrationOfARelease() {
        const ManagedRegistrationRead r =
            parseManagedRegistration(opencode2Fixture("service.json"));
        QVERIFY2(r.status == ManagedRegistrationRead::Status::Ok, qPrintable(r.error));
        QCOMPARE(r.registration.pid, kRecordedPid);
        QCOMPARE(r.registration.port(), 49374);
        QCOMPARE(r.registration.url, QUrl(QStringLiteral("http://127.0.0.1:49374")));
        QCOMPARE(r.registration.version, QStringLiteral("2.0.17"));
        QCOMPARE(r.registration.id, QStringLiteral("0b6f4a52-3c1e-4d8a-9f27-5e8c1b7d2a90"));
        QVERIFY(!r.registration.password.isEmpty());
        QCOMPARE(opencodeChannel(r.registration.version), QStringLiteral("latest"));
        QCOMPARE(managedRegistrationFileName(QStringLiteral("latest")),
                 QStringLiteral("service.json"));
        QCOMPARE(defaultServicePort(QStringLiteral("latest")), std::optional<int>(49374));
    }

    // A build run from source registers in service-local.json and listens on 49375.
    void channelFile() {
        const ManagedRegistrationRead r =
            parseManagedRegistration(opencode2Fixture("service-local.json"));
        QVERIFY2(r.status == ManagedRegistrationRead::Status::Ok, qPrintable(r.error));
        QCOMPARE(r.registration.pid, 51877);
        QCOMPARE(r.registration.port(), 49375);
        const QString channel = opencodeChannel(r.registration.version);
        QCOMPARE(channel, QStringLiteral("local"));
        QCOMPARE(managedRegistrationFileName(channel), QStringLiteral("service-local.json"));
        QCOMPARE(defaultServicePort(channel), std::optional<int>(49375));
        // A preview's channel names its file the same way; the release channels share one.
        QCOMPARE(managedRegistrationFileName(opencodeChannel(QStringLiteral("0.0.0-beta-202611"))),
                 QStringLiteral("service.json"));
        QCOMPARE(managedRegistrationFileName(opencodeChannel(QStringLiteral("0.0.0-nightly-1"))),
                 QStringLiteral("service-nightly.json"));
    }

    // The user's config files: the native and the 1.x shape, merged; the local servers'
    // commands are what Tether matches the service's children against.
    void userConfigMcpServers() {
        const mcp::ConfigParse native =
            mcp::parseOpencodeConfig(opencode2Fixture("opencode.jsonc"));
        QVERIFY2(native.ok, native.error.c_str());
        const mcp::ConfigParse legacy =
            mcp::parseOpencodeConfig(opencode2Fixture("opencode_legacy.json"));
        QVERIFY2(legacy.ok, legacy.error.c_str());
        const mcp::OpencodeMcpConfig merged =
            mcp::mergeOpencodeConfigs({{QStringLiteral("opencode.jsonc"), native},
                                       {QStringLiteral("opencode_legacy.json"), legacy}});
        QCOMPARE(merged.entries.size(), std::size_t(5));
        const auto *everything = entry(merged.entries, "everything");
        QVERIFY(everything);
        QCOMPARE(everything->type, mcp::McpEntry::Type::Local);
        QCOMPARE(everything->command, (std::vector<std::string>{
                                          "npx", "-y", "@modelcontextprotocol/server-everything"}));
        QVERIFY(everything->enabled);
        QVERIFY(!entry(merged.entries, "memory")->enabled); // disabled: true
        QCOMPARE(entry(merged.entries, "github")->type, mcp::McpEntry::Type::Remote);
        QCOMPARE(entry(merged.entries, "github")->url,
                 std::string("https://api.githubcopilot.com/mcp/"));
        QCOMPARE(entry(merged.entries, "filesystem")->command.back(),
                 std::string("/home/ann/work"));
        QVERIFY(entry(merged.entries, "filesystem")->enabled);
        QVERIFY(!entry(merged.entries, "sqlite")->enabled); // enabled: false
    }
};

QTEST_GUILESS_MAIN(TestOpencode2Contract)
#include "tst_opencode2_contract.moc"
