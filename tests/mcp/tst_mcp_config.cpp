// MCP config and status parsing: good bodies, wrong types, garbage.
#include "mcp/mcp_config.h"

#include <QRandomGenerator>
#include <QtTest>

using namespace tether::mcp;

class TestMcpConfig : public QObject {
    Q_OBJECT
private slots:
    // (No "//" inside raw strings: moc would read it as a comment; JSON "\/" is "/".)
    void parsesLocalAndRemoteEntries() {
        const QByteArray body = R"({
          "$schema": "https:\/\/opencode.ai/config.json",
          "model": "x/y",
          "mcp": {
            "filesystem": {"type": "local", "command": ["/x/bin/mcp-server-filesystem", "/tmp"],
                           "environment": {"DEBUG": "1"}},
            "off": {"type": "local", "command": ["npx", "-y", "pkg"], "enabled": false},
            "web": {"type": "remote", "url": "https:\/\/example.invalid/mcp", "headers": {}}
          }
        })";
        const ConfigParse r = parseConfig(body);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.warnings.empty());
        QCOMPARE(r.entries.size(), std::size_t(3));
        const McpEntry &fs = r.entries[0];
        QCOMPARE(fs.name, std::string("filesystem"));
        QVERIFY(fs.type == McpEntry::Type::Local);
        QVERIFY(fs.enabled);
        QCOMPARE(fs.command, (std::vector<std::string>{"/x/bin/mcp-server-filesystem", "/tmp"}));
        QCOMPARE(fs.environment.size(), std::size_t(1));
        QCOMPARE(fs.environment[0].first, std::string("DEBUG"));
        QCOMPARE(r.entries[1].name, std::string("off"));
        QVERIFY(!r.entries[1].enabled);
        QVERIFY(r.entries[2].type == McpEntry::Type::Remote);
        QCOMPARE(r.entries[2].url, std::string("https://example.invalid/mcp"));
        QVERIFY(r.entries[2].command.empty());
    }

    void configWithoutMcpHasNoEntries() {
        const ConfigParse r = parseConfig(R"({"model":"a"})");
        QVERIFY(r.ok);
        QVERIFY(r.entries.empty());
    }

    void malformedEntriesAreSkippedWithAWarning() {
        const QByteArray body = R"({"mcp": {
            "good": {"type": "local", "command": ["a"]},
            "noType": {"command": ["a"]},
            "badType": {"type": 7, "command": ["a"]},
            "weirdType": {"type": "carrier-pigeon"},
            "cmdString": {"type": "local", "command": "a b"},
            "cmdEmpty": {"type": "local", "command": []},
            "cmdNumber": {"type": "local", "command": ["a", 3]},
            "emptyProgram": {"type": "local", "command": [""]},
            "enabledString": {"type": "local", "command": ["a"], "enabled": "yes"},
            "remoteNoUrl": {"type": "remote"},
            "notObject": [1, 2]
        }})";
        const ConfigParse r = parseConfig(body);
        QVERIFY(r.ok);
        QCOMPARE(r.entries.size(), std::size_t(1));
        QCOMPARE(r.entries[0].name, std::string("good"));
        QCOMPARE(r.warnings.size(), std::size_t(10));
        for (const std::string &w : r.warnings)
            QVERIFY2(w.find("skipped") != std::string::npos, w.c_str());
    }

    void wholeBodyErrors_data() {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("needle");
        QTest::newRow("empty") << QByteArray() << "empty";
        QTest::newRow("blank") << QByteArray("  \n ") << "empty";
        QTest::newRow("html") << QByteArray("<html>502 Bad Gateway</html>") << "not JSON";
        QTest::newRow("truncated") << QByteArray(R"({"mcp": {"a": {"type": "lo)") << "not JSON";
        QTest::newRow("array") << QByteArray("[1,2]") << "not a JSON object";
        QTest::newRow("mcp is array") << QByteArray(R"({"mcp": []})") << "\"mcp\" is an array";
        QTest::newRow("mcp is string") << QByteArray(R"({"mcp": "x"})") << "\"mcp\" is a string";
        QTest::newRow("huge") << QByteArray(kMaxBodyBytes + 1, ' ') << "too large";
    }
    void wholeBodyErrors() {
        QFETCH(QByteArray, body);
        QFETCH(QString, needle);
        const ConfigParse r = parseConfig(body);
        QVERIFY(!r.ok);
        QVERIFY(r.entries.empty());
        QVERIFY2(QString::fromStdString(r.error).contains(needle), r.error.c_str());
    }

    void statusV1() {
        const QByteArray body = R"({
          "fs": {"status": "connected"},
          "gh": {"status": "failed", "error": "spawn ENOENT"},
          "auth": {"status": "needs_auth"},
          "reg": {"status": "needs_client_registration", "error": "no client id"},
          "off": {"status": "disabled"},
          "new": {"status": "warming_up"},
          "nostatus": {},
          "numstatus": {"status": 3},
          "junk": "connected"
        })";
        const StatusParse r = parseStatusV1(body);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.warnings.size(), std::size_t(1)); // "junk"
        QCOMPARE(r.servers.size(), std::size_t(8));
        auto find = [&](const char *name) {
            for (const McpServerStatus &s : r.servers)
                if (s.name == name) return s;
            qFatal("missing %s", name);
        };
        QCOMPARE(find("fs").status, std::string("connected"));
        QVERIFY(find("fs").error.empty());
        QCOMPARE(find("gh").status, std::string("failed"));
        QCOMPARE(find("gh").error, std::string("spawn ENOENT"));
        QCOMPARE(find("auth").status, std::string("needs_auth"));
        QCOMPARE(find("reg").status, std::string("needs_client_registration"));
        QCOMPARE(find("reg").error, std::string("no client id"));
        QCOMPARE(find("off").status, std::string("disabled"));
        QCOMPARE(find("new").status, std::string("unknown"));
        QVERIFY(find("new").error.find("warming_up") != std::string::npos);
        QCOMPARE(find("nostatus").status, std::string("unknown"));
        QCOMPARE(find("numstatus").status, std::string("unknown"));
        QVERIFY(find("numstatus").error.find("number") != std::string::npos);
    }

    // The shape opencode 2.x's source gives: Location.response(Array<Mcp.Server>), Mcp.Status
    // a union tagged by "status" (docs/opencode2-protocol.md, MCP).
    void statusV2() {
        const QByteArray body = R"({
          "location": {"directory": "/home/ann/work",
                       "project": {"id": "prj_1", "directory": "/home/ann/work"}},
          "data": [
            {"name": "fs", "status": {"status": "connected"}, "integrationID": "int_1"},
            {"name": "gh", "status": {"status": "failed", "error": "boom"}},
            {"name": "later", "status": {"status": "pending"}},
            {"name": "odd", "status": {"status": "sleeping"}},
            {"name": "flat", "status": "connected"},
            {"status": {"status": "connected"}},
            {"name": 5, "status": {"status": "connected"}},
            42
          ]})";
        const StatusParse r = parseStatusV2(body);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.directory, std::string("/home/ann/work"));
        QCOMPARE(r.projectDirectory, std::string("/home/ann/work"));
        QCOMPARE(r.servers.size(), std::size_t(5));
        QCOMPARE(r.warnings.size(), std::size_t(3));
        auto find = [&](const char *name) {
            for (const McpServerStatus &m : r.servers)
                if (m.name == name) return m;
            return McpServerStatus{};
        };
        QCOMPARE(find("fs").status, std::string("connected"));
        QCOMPARE(find("fs").integrationId, std::string("int_1"));
        QCOMPARE(find("gh").status, std::string("failed"));
        QCOMPARE(find("gh").error, std::string("boom"));
        QCOMPARE(find("later").status, std::string("pending"));
        QCOMPARE(find("odd").status, std::string("unknown"));
        QVERIFY(find("odd").error.find("sleeping") != std::string::npos);
        // A bare string is not the 2.x shape: shown as unknown, saying why, never as connected.
        QCOMPARE(find("flat").status, std::string("unknown"));
    }

    void statusV2TheGuessedBareArrayIsRefusedWithAReason() {
        const StatusParse r = parseStatusV2(R"([{"name":"fs","status":"connected"}])");
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("location") != std::string::npos, r.error.c_str());
    }

    void statusWrongShapes() {
        QVERIFY(!parseStatusV1("[]").ok);
        QVERIFY(!parseStatusV2("[]").ok);
        QVERIFY(!parseStatusV2(R"({"location":{}})").ok);
        QVERIFY(!parseStatusV2(R"({"data":{}})").ok);
        QVERIFY(!parseStatusV1("").ok);
        QVERIFY(!parseStatusV2("nul").ok);
        QVERIFY(!parseStatusV1(QByteArray(kMaxBodyBytes + 1, '{')).ok);
        QVERIFY(parseStatusV1("{}").ok);
        QVERIFY(parseStatusV2(R"({"data":[]})").ok);
    }

    // Random bytes and mutated valid bodies: every call returns; none crashes (ASan run too).
    void garbageNeverCrashes() {
        QRandomGenerator rng(4242);
        const QByteArray seed = R"({"mcp":{"a":{"type":"local","command":["x","y"]},)"
                                R"("b":{"type":"remote","url":"u"}}})";
        for (int i = 0; i < 3000; ++i) {
            QByteArray body;
            if (i % 2) {
                body = seed;
                for (int k = 0; k < 1 + int(rng.bounded(6)); ++k)
                    body[int(rng.bounded(body.size()))] = char(rng.bounded(256));
            } else {
                body.resize(int(rng.bounded(200)));
                for (char &c : body)
                    c = char(rng.bounded(256));
            }
            const ConfigParse c = parseConfig(body);
            QVERIFY(c.ok || !c.error.empty());
            const StatusParse s1 = parseStatusV1(body);
            QVERIFY(s1.ok || !s1.error.empty());
            const StatusParse s2 = parseStatusV2(body);
            QVERIFY(s2.ok || !s2.error.empty());
        }
        // Deep nesting.
        const QByteArray deep = QByteArray(100000, '[') + QByteArray(100000, ']');
        QVERIFY(!parseConfig(deep).ok);
    }
};

QTEST_GUILESS_MAIN(TestMcpConfig)
#include "tst_mcp_config.moc"
