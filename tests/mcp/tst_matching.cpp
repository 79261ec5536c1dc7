// Matching processes to MCP entries, as plain data: the shapes seen with opencode 1.18.33.
#include "mcp/matching.h"

#include <QtTest>

using namespace tether;
using namespace tether::mcp;
using Argv = std::vector<std::string>;

namespace {

os::ProcessInfo proc(os::Pid pid, os::Pid ppid, Argv argv, std::uint64_t start = 1000,
                     std::uint64_t rss = 0, std::uint64_t cpu = 0) {
    os::ProcessInfo p;
    p.pid = pid;
    p.ppid = ppid;
    p.pgid = ppid;
    p.state = os::RunState::Running;
    p.startTime = start;
    p.argv = std::move(argv);
    p.rssKiB = rss;
    p.cpuTimeMs = cpu;
    return p;
}

constexpr os::Pid kService = 100;

std::vector<os::ProcessInfo> withService(std::vector<os::ProcessInfo> rest) {
    rest.insert(rest.begin(), proc(kService, 1, {"opencode", "serve"}, 500));
    return rest;
}

} // namespace

class TestMatching : public QObject {
    Q_OBJECT
private slots:
    void argvShapes_data() {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<int>("expected");
        const int none = int(ArgvMatch::None), exact = int(ArgvMatch::Exact),
                  interp = int(ArgvMatch::Interpreter), launcher = int(ArgvMatch::Launcher);
        QTest::newRow("exact") << QStringList{"/abs/tether", "demo-mcp", "--name", "demo-1"}
                               << QStringList{"/abs/tether", "demo-mcp", "--name", "demo-1"}
                               << exact;
        QTest::newRow("other args")
            << QStringList{"/abs/tether", "demo-mcp", "--name", "demo-2"}
            << QStringList{"/abs/tether", "demo-mcp", "--name", "demo-1"} << none;
        QTest::newRow("shebang") << QStringList{"node", "/x/bin/mcp-server-filesystem", "/tmp"}
                                 << QStringList{"/x/bin/mcp-server-filesystem", "/tmp"} << interp;
        QTest::newRow("shebang via env + flag")
            << QStringList{"/usr/bin/python3", "-u", "/x/srv.py", "--port", "0"}
            << QStringList{"/x/srv.py", "--port", "0"} << interp;
        QTest::newRow("shebang wrong script")
            << QStringList{"node", "/y/bin/mcp-server-filesystem", "/tmp"}
            << QStringList{"/x/bin/mcp-server-filesystem", "/tmp"} << none;
        QTest::newRow("bare name via PATH, shebang")
            << QStringList{"node", "/usr/local/bin/mcp-server-x", "--flag"}
            << QStringList{"mcp-server-x", "--flag"} << interp;
        QTest::newRow("bare name via PATH, binary")
            << QStringList{"/usr/local/bin/mcp-server-x", "--flag"}
            << QStringList{"mcp-server-x", "--flag"} << exact;
        QTest::newRow("bare name, other program")
            << QStringList{"/usr/local/bin/mcp-server-xy", "--flag"}
            << QStringList{"mcp-server-x", "--flag"} << none;
        QTest::newRow("absolute path does not match by basename")
            << QStringList{"/other/mcp-server-x"} << QStringList{"/x/mcp-server-x"} << none;
        QTest::newRow("npx retitled")
            << QStringList{"npm exec @mcp/server-filesystem /tmp"}
            << QStringList{"npx", "-y", "@mcp/server-filesystem", "/tmp"} << launcher;
        QTest::newRow("npx as node script")
            << QStringList{"node", "/usr/bin/npx", "-y", "@mcp/server-filesystem", "/tmp"}
            << QStringList{"npx", "-y", "@mcp/server-filesystem", "/tmp"}
            << interp; // the npx script itself, run by node
        QTest::newRow("npx other args")
            << QStringList{"npm exec @mcp/server-filesystem /home"}
            << QStringList{"npx", "-y", "@mcp/server-filesystem", "/tmp"} << none;
        QTest::newRow("npx other package")
            << QStringList{"npm exec @mcp/server-git /tmp"}
            << QStringList{"npx", "-y", "@mcp/server-filesystem", "/tmp"} << none;
        QTest::newRow("too many interpreter words")
            << QStringList{"a", "b", "c", "d", "e", "/x/s"} << QStringList{"/x/s"} << none;
        QTest::newRow("empty argv") << QStringList{} << QStringList{"/x/s"} << none;
        QTest::newRow("empty command") << QStringList{"/x/s"} << QStringList{} << none;
    }
    void argvShapes() {
        QFETCH(QStringList, argv);
        QFETCH(QStringList, command);
        QFETCH(int, expected);
        Argv a, c;
        for (const QString &s : argv)
            a.push_back(s.toStdString());
        for (const QString &s : command)
            c.push_back(s.toStdString());
        QCOMPARE(int(matchArgv(a, c)), expected);
    }

    // What the Windows process table shows against what a person configures: separators,
    // case and the extension PATHEXT adds are not differences there (and are on POSIX).
    void windowsPaths_data() {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<int>("windows");
        QTest::addColumn<int>("posix");
        const int none = int(ArgvMatch::None), exact = int(ArgvMatch::Exact),
                  interp = int(ArgvMatch::Interpreter), launcher = int(ArgvMatch::Launcher);
        QTest::newRow("slashes and case")
            << QStringList{R"(Z:\work\build\tether.exe)", "demo-mcp", "demo-1"}
            << QStringList{"z:/work/build/tether.exe", "demo-mcp", "demo-1"} << exact << none;
        QTest::newRow("configured without .exe")
            << QStringList{R"(C:\Tools\mcp-server.exe)", "--stdio"}
            << QStringList{"C:/Tools/mcp-server", "--stdio"} << exact << none;
        QTest::newRow("bare node is node.exe")
            << QStringList{R"(C:\Program Files\nodejs\node.exe)", R"(C:\srv\weather.js)"}
            << QStringList{"node", R"(C:\srv\weather.js)"} << exact << none;
        QTest::newRow("script run by node.exe")
            << QStringList{R"(C:\Program Files\nodejs\node.exe)", R"(C:\srv\weather.js)", "--port",
                           "0"}
            << QStringList{"C:/srv/weather.js", "--port", "0"} << interp << none;
        QTest::newRow("npx.cmd is npx")
            << QStringList{"npm exec @mcp/server-filesystem C:/tmp"}
            << QStringList{"npx.cmd", "-y", "@mcp/server-filesystem", "C:/tmp"} << launcher << none;
        QTest::newRow("another program stays another")
            << QStringList{R"(C:\Tools\mcp-server-x.exe)", "--stdio"}
            << QStringList{"C:/Tools/mcp-server", "--stdio"} << none << none;
        QTest::newRow("arguments keep their case")
            << QStringList{R"(C:\Tools\srv.exe)", "--Name", "A"}
            << QStringList{"C:/Tools/srv.exe", "--name", "a"} << none << none;
    }
    void windowsPaths() {
        QFETCH(QStringList, argv);
        QFETCH(QStringList, command);
        QFETCH(int, windows);
        QFETCH(int, posix);
        Argv a, c;
        for (const QString &s : argv)
            a.push_back(s.toStdString());
        for (const QString &s : command)
            c.push_back(s.toStdString());
        QCOMPARE(int(matchArgv(a, c, tether::policy::PathStyle::Windows)), windows);
        QCOMPARE(int(matchArgv(a, c, tether::policy::PathStyle::Posix)), posix);
    }

    void demoChildrenMatchExactly() {
        const auto snap = withService({
            proc(201, kService, {"/abs/tether", "demo-mcp", "--name", "demo-1"}, 600, 1000, 5),
            proc(202, kService, {"/abs/tether", "demo-mcp", "--name", "demo-2"}, 601, 2000, 7),
            proc(203, kService, {"/usr/bin/rg", "foo"}, 602), // not an MCP server
        });
        const auto trees =
            matchMcpProcesses(kService, snap,
                              {{"demo-2", {"/abs/tether", "demo-mcp", "--name", "demo-2"}},
                               {"demo-1", {"/abs/tether", "demo-mcp", "--name", "demo-1"}},
                               {"demo-3", {"/abs/tether", "demo-mcp", "--name", "demo-3"}}});
        QCOMPARE(trees.size(), std::size_t(3));
        QCOMPARE(trees[0].name, std::string("demo-2"));
        QCOMPARE(trees[0].rootPid, os::Pid(202));
        QCOMPARE(trees[0].rootStartTime, std::uint64_t(601));
        QCOMPARE(trees[0].rssKiB, std::uint64_t(2000));
        QCOMPARE(trees[1].rootPid, os::Pid(201));
        QCOMPARE(trees[1].pids, std::vector<os::Pid>{201});
        QCOMPARE(trees[2].rootPid, os::Pid(0));
        QVERIFY(trees[2].pids.empty());
    }

    void shebangAndBareName() {
        const auto snap = withService({
            proc(201, kService, {"node", "/x/bin/mcp-server-filesystem", "/tmp"}, 600),
            proc(202, kService, {"/usr/bin/node", "/usr/lib/node_modules/.bin/mcp-server-git"},
                 601),
        });
        const auto trees = matchMcpProcesses(
            kService, snap,
            {{"fs", {"/x/bin/mcp-server-filesystem", "/tmp"}}, {"git", {"mcp-server-git"}}});
        QCOMPARE(trees[0].rootPid, os::Pid(201));
        QCOMPARE(trees[1].rootPid, os::Pid(202));
    }

    // npx -y pkg: npm exec pkg -> sh -c bin -> node /.../bin: the direct child and its
    // whole subtree are the server; rss and cpu are summed over the tree.
    void npxSubtree() {
        const auto snap = withService({
            proc(201, kService, {"npm exec @mcp/server-filesystem /tmp"}, 600, 50000, 100),
            proc(202, 201, {"sh", "-c", "mcp-server-filesystem /tmp"}, 610, 1000, 1),
            proc(203, 202,
                 {"node", "/home/u/.npm/_npx/abc/node_modules/.bin/mcp-server-filesystem", "/tmp"},
                 620, 40000, 50),
            proc(300, 1, {"node", "unrelated"}, 630, 9999, 9),
        });
        const auto trees = matchMcpProcesses(
            kService, snap, {{"fs", {"npx", "-y", "@mcp/server-filesystem", "/tmp"}}});
        QCOMPARE(trees[0].rootPid, os::Pid(201));
        auto pids = trees[0].pids;
        QCOMPARE(pids.front(), os::Pid(201));
        std::sort(pids.begin(), pids.end());
        QCOMPARE(pids, (std::vector<os::Pid>{201, 202, 203}));
        QCOMPARE(trees[0].rssKiB, std::uint64_t(91000));
        QCOMPARE(trees[0].cpuTimeMs, std::uint64_t(151));
    }

    // A wrapper as the direct child (sh -c) whose descendant runs the command exactly.
    void wrapperChildMatchesThroughItsDescendant() {
        const auto snap = withService({
            proc(201, kService, {"/bin/sh", "-c", "exec-later"}, 600),
            proc(202, 201, {"/x/srv", "--a"}, 610),
        });
        const auto trees = matchMcpProcesses(kService, snap, {{"srv", {"/x/srv", "--a"}}});
        QCOMPARE(trees[0].rootPid, os::Pid(201));
        QCOMPARE(trees[0].pids.size(), std::size_t(2));
    }

    // Grandchildren never become roots, strangers are never matched, zombies are not counted.
    void onlyLiveDirectChildrenOfTheService() {
        auto zombie = proc(202, kService, {"/x/srv", "--b"}, 601);
        zombie.state = os::RunState::Zombie;
        const auto snap = withService({
            proc(201, 999, {"/x/srv", "--a"}, 600), // same command, another parent
            zombie,
            // A stale ppid: "child" older than the service cannot be its child.
            proc(203, kService, {"/x/srv", "--c"}, 100),
        });
        const auto trees = matchMcpProcesses(
            kService, snap,
            {{"a", {"/x/srv", "--a"}}, {"b", {"/x/srv", "--b"}}, {"c", {"/x/srv", "--c"}}});
        for (const auto &t : trees)
            QCOMPARE(t.rootPid, os::Pid(0));
    }

    // Two entries with the same command get two different processes, oldest first.
    void identicalCommandsGetDistinctProcesses() {
        const auto snap = withService({
            proc(202, kService, {"/x/srv"}, 700),
            proc(201, kService, {"/x/srv"}, 600),
        });
        const auto trees =
            matchMcpProcesses(kService, snap, {{"a", {"/x/srv"}}, {"b", {"/x/srv"}}});
        QCOMPARE(trees[0].rootPid, os::Pid(201));
        QCOMPARE(trees[1].rootPid, os::Pid(202));
    }

    // An exact match wins over a weaker one for the same process.
    void strongestMatchWins() {
        const auto snap = withService({proc(201, kService, {"node", "/x/s", "a"}, 600)});
        const auto trees = matchMcpProcesses(
            kService, snap, {{"interp", {"/x/s", "a"}}, {"exact", {"node", "/x/s", "a"}}});
        QCOMPARE(trees[0].rootPid, os::Pid(0));
        QCOMPARE(trees[1].rootPid, os::Pid(201));
    }

    void localCommandsSkipsRemote() {
        McpEntry local;
        local.name = "l";
        local.command = {"/x"};
        McpEntry remote;
        remote.name = "r";
        remote.type = McpEntry::Type::Remote;
        remote.url = "http://x";
        const auto cmds = localCommands({local, remote});
        QCOMPARE(cmds.size(), std::size_t(1));
        QCOMPARE(cmds[0].name, std::string("l"));
    }
};

QTEST_GUILESS_MAIN(TestMatching)
#include "tst_matching.moc"
