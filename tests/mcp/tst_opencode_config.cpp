// opencode 2.x's MCP commands from its own config files: JSONC, the native and the 1.x shape,
// which files are read for a location and which one wins (docs/opencode2-protocol.md, MCP).
#include "mcp/opencode_config.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace tether::mcp;

namespace {

const McpEntry *find(const std::vector<McpEntry> &entries, const char *name) {
    for (const McpEntry &e : entries)
        if (e.name == name) return &e;
    return nullptr;
}

std::vector<std::string> v(std::initializer_list<const char *> items) {
    return std::vector<std::string>(items.begin(), items.end());
}

bool write(const QString &path, const QByteArray &text) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

} // namespace

class TestOpencodeConfig : public QObject {
    Q_OBJECT
private slots:
    void jsoncCommentsAndTrailingCommasGoStringsStay() {
        const QByteArray jsonc =
            "{\n"
            "          // a line comment, \"quoted\"\n"
            "          \"a\": \"http://x//y /* not a comment */\", /* a block\n"
            "             comment */ \"b\": [1, 2, ],\n"
            "          \"c\": {\"d\": \"\\\"//\\\"\", },\n"
            "        }";
        QJsonParseError e{};
        const QJsonDocument doc = QJsonDocument::fromJson(jsoncToJson(jsonc), &e);
        QVERIFY2(e.error == QJsonParseError::NoError, qPrintable(e.errorString()));
        QCOMPARE(doc.object().value("a").toString(),
                 QStringLiteral("http://x//y /* not a comment */"));
        QCOMPARE(doc.object().value("b").toArray().size(), 2);
        QCOMPARE(doc.object().value("c").toObject().value("d").toString(),
                 QStringLiteral("\"//\""));
        // Valid JSON is left as it is.
        const QByteArray plain = "{\"a\":[1,2],\"b\":\"x,]\"}";
        QCOMPARE(jsoncToJson(plain), plain);
        // Unterminated strings and comments end the text; nothing reads past it.
        QVERIFY(jsoncToJson("{\"a\": \"open").size() <= 12);
        QVERIFY(jsoncToJson("{/* open").size() <= 8);
    }

    void nativeShapeWithDisabled() {
        const ConfigParse r = parseOpencodeConfig(
            "{\n"
            "          \"mcp\": {\n"
            "            \"timeout\": {\"startup\": 5000},\n"
            "            \"servers\": {\n"
            "              \"fs\": {\"type\": \"local\", \"command\": [\"npx\", \"-y\", \"@x/fs\", "
            "\"/tmp\"],\n"
            "                     \"environment\": {\"K\": \"v\"}, \"cwd\": \"sub\"},\n"
            "              \"off\": {\"type\": \"local\", \"command\": [\"off\"], \"disabled\": "
            "true},\n"
            "              \"web\": {\"type\": \"remote\", \"url\": "
            "\"https://example.invalid/mcp\"}\n"
            "            }\n"
            "          }\n"
            "        }");
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(r.warnings.empty());
        QCOMPARE(r.entries.size(), std::size_t(3));
        QCOMPARE(find(r.entries, "fs")->command, v({"npx", "-y", "@x/fs", "/tmp"}));
        QVERIFY(find(r.entries, "fs")->enabled);
        QVERIFY(!find(r.entries, "off")->enabled);
        QCOMPARE(find(r.entries, "web")->type, McpEntry::Type::Remote);
    }

    void legacyShapeAndTheNativeOneWinsOnTheSameName() {
        const ConfigParse r = parseOpencodeConfig(
            "{\n"
            "          \"mcp\": {\n"
            "            \"gh\": {\"type\": \"local\", \"command\": [\"gh-mcp\"], \"enabled\": "
            "false},\n"
            "            \"fs\": {\"type\": \"local\", \"command\": [\"old-fs\"]},\n"
            "            \"servers\": {\"fs\": {\"type\": \"local\", \"command\": [\"new-fs\"]}}\n"
            "          }\n"
            "        }");
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.entries.size(), std::size_t(2));
        QVERIFY(!find(r.entries, "gh")->enabled);
        QCOMPARE(find(r.entries, "fs")->command, v({"new-fs"}));
    }

    void badEntriesAreSkippedWithAWordAndBadFilesSaySo() {
        const ConfigParse r =
            parseOpencodeConfig("{\"mcp\": {\"servers\": {\"x\": {\"type\": \"local\"}, \"y\": "
                                "{\"type\": \"local\", \"command\": [\"y\"], \"disabled\": "
                                "\"no\"}, \"ok\": {\"type\": \"local\", \"command\": [\"ok\"]}}}}");
        QVERIFY(r.ok);
        QCOMPARE(r.entries.size(), std::size_t(1));
        QCOMPARE(r.warnings.size(), std::size_t(2));
        QVERIFY(parseOpencodeConfig("{\"model\": \"x\"}").ok); // no "mcp": nothing, fine
        QVERIFY(!parseOpencodeConfig("not json").ok);
        QVERIFY(!parseOpencodeConfig(QByteArray(kMaxConfigFileBytes + 1, ' ')).ok);
    }

    void filesForALocationFromTheGlobalFolderToTheNearestProject() {
        // "/" here, a drive's root on Windows: the walk ends there either way.
        const QString root = QDir::rootPath();
        OpencodeConfigEnvironment env;
        env.home = root + QStringLiteral("home/ann");
        env.configHome = root + QStringLiteral("home/ann/.config");
        env.configFile = root + QStringLiteral("etc/oc.json");
        const QString work = root + QStringLiteral("home/ann/work");
        const QStringList files = opencodeConfigFiles(env, work);
        QStringList expected;
        for (const char *f :
             {"home/ann/.config/opencode/opencode.json", "home/ann/.config/opencode/opencode.jsonc",
              "etc/oc.json", "opencode.json", "opencode.jsonc", "home/opencode.json",
              "home/opencode.jsonc", "home/ann/opencode.json", "home/ann/opencode.jsonc",
              "home/ann/work/opencode.json", "home/ann/work/opencode.jsonc",
              ".opencode/opencode.json", ".opencode/opencode.jsonc", "home/.opencode/opencode.json",
              "home/.opencode/opencode.jsonc", "home/ann/.opencode/opencode.json",
              "home/ann/.opencode/opencode.jsonc", "home/ann/work/.opencode/opencode.json",
              "home/ann/work/.opencode/opencode.jsonc"})
            expected << root + QLatin1String(f);
        QCOMPARE(files, expected);
        // OPENCODE_CONFIG_DIR replaces the global folder.
        env.configDir = root + QStringLiteral("opt/oc");
        QCOMPARE(opencodeConfigFiles(env, work).first(),
                 root + QStringLiteral("opt/oc/opencode.json"));
        env.projects = false;
        QCOMPARE(opencodeConfigFiles(env, work).size(), 3);
        // A relative location (or none) adds no project files.
        env.projects = true;
        QCOMPARE(opencodeConfigFiles(env, QStringLiteral("work")).size(), 3);
    }

    void readFromDiskTheNearestWinsAndTheInlineContentLast() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString root = dir.path();
        OpencodeConfigEnvironment env;
        env.home = root + "/home";
        env.configHome = root + "/home/.config";
        QVERIFY(write(env.configHome + "/opencode/opencode.jsonc",
                      "{ // global\n"
                      "                         \"mcp\": {\"servers\": {\"fs\": {\"type\": "
                      "\"local\", \"command\": [\"global-fs\"]},\n"
                      "                                             \"gh\": {\"type\": \"local\", "
                      "\"command\": [\"gh\"]}, }}}"));
        QVERIFY(write(root + "/home/work/opencode.json",
                      "{\"mcp\": {\"fs\": {\"type\": \"local\", \"command\": [\"project-fs\"]}}}"));
        QVERIFY(write(root + "/home/work/.opencode/opencode.json", "{ broken"));
        OpencodeMcpConfig c = readOpencodeMcpConfig(env, root + "/home/work");
        QCOMPARE(c.entries.size(), std::size_t(2));
        QCOMPARE(find(c.entries, "fs")->command, v({"project-fs"}));
        QCOMPARE(find(c.entries, "gh")->command, v({"gh"}));
        QCOMPARE(c.sources.size(), 3);
        QCOMPARE(c.warnings.size(), std::size_t(1)); // the broken file, by name
        QVERIFY(QString::fromStdString(c.warnings[0]).contains(".opencode/opencode.json"));
        env.content =
            "{\"mcp\": {\"servers\": {\"fs\": {\"type\": \"local\", \"command\": [\"inline\"]}}}}";
        c = readOpencodeMcpConfig(env, root + "/home/work");
        QCOMPARE(find(c.entries, "fs")->command, v({"inline"}));
        QVERIFY(c.sources.contains(QStringLiteral("OPENCODE_CONFIG_CONTENT")));
    }
};

QTEST_GUILESS_MAIN(TestOpencodeConfig)
#include "tst_opencode_config.moc"
