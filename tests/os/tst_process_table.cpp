// OsProcessTable (core/supervision) against real processes, sockets and signals: the process
// table the executor and the stop-plan runner use on a real machine. Every helper process is a
// tether-testproc child of this test, killed and reaped on exit.
#include "os/process.h"
#include "policy/supervision.h"
#include "supervision/os_process_table.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSet>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace tether;
using namespace tether::supervision;
using os::Pid;

namespace {

// One tether-testproc child. Destruction SIGKILLs it (our own child) and reaps it; its own
// children die with it (PR_SET_PDEATHSIG in testproc).
class Helper {
public:
    explicit Helper(const QStringList &args, bool ownSession = false) {
        if (ownSession) proc.setChildProcessModifier([] { ::setsid(); });
        proc.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        proc.start(test::testprocBin(), QStringList{"--timeout", "120"} + args);
    }
    ~Helper() {
        if (proc.state() != QProcess::NotRunning) {
            proc.kill();
            proc.waitForFinished(10000);
        }
    }
    Helper(const Helper &) = delete;
    Helper &operator=(const Helper &) = delete;

    Pid pid() const { return proc.processId(); }
    os::Identity identity() const { return os::identityOf(pid()).value_or(os::Identity{}); }

    // The next stdout line starting with prefix; empty on timeout or exit.
    QString waitLine(const QString &prefix, int timeoutMs = 15000) {
        QElapsedTimer t;
        t.start();
        for (;;) {
            while (proc.canReadLine()) {
                const QString line = QString::fromUtf8(proc.readLine()).trimmed();
                if (line.startsWith(prefix)) return line;
            }
            const int left = timeoutMs - int(t.elapsed());
            if (left <= 0 || (proc.state() == QProcess::NotRunning && !proc.canReadLine()))
                return {};
            proc.waitForReadyRead(std::min(left, 200));
        }
    }
    qint64 waitField(const QString &prefix, int field) {
        return waitLine(prefix).split(' ').value(field).toLongLong();
    }

    QProcess proc;
};

QByteArray readFile(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QSet<Pid> pidsOf(const std::vector<os::ProcessInfo> &members) {
    QSet<Pid> out;
    for (const os::ProcessInfo &m : members)
        out.insert(m.pid);
    return out;
}

// A tree of `depth` processes leading their own group; returns the pids, top first.
std::vector<Pid> startGroup(Helper &h, int depth) {
    std::vector<Pid> pids;
    for (int level = 1; level <= depth; ++level)
        pids.push_back(h.waitField("node", 2));
    if (h.waitLine("ready").isEmpty()) return {};
    return pids;
}

QString testprocLabel(Pid pid) {
    return QString("PID %1 (%2)").arg(pid).arg(QFileInfo(test::testprocBin()).fileName());
}

} // namespace

class TestProcessTable : public QObject {
    Q_OBJECT

private slots:
    void selfAndInspect();
    void portFactsOfRealListener_data();
    void portFactsOfRealListener();
    void portFactsOfOwnListener();
    void portFactsOfFreeAndImpossiblePorts();
    void portFactsFromUnreadableOwners();
    void ownerLabels();
    void groupMembersOfRealGroup();
    void forgedIdentityIsRefusedAndSurvives();
    void groupGuard();
    void waitGroupEmpty();
    void signalAndWaitGone();
};

void TestProcessTable::selfAndInspect() {
    OsProcessTable table;
    QCOMPARE(table.selfPid(), Pid(::getpid()));
    QCOMPARE(table.selfGroup(), Pid(::getpgrp()));
    const os::Lookup self = table.inspect(table.selfPid());
    QCOMPARE(self.status, os::Lookup::Status::Found);
    QCOMPARE(self.info.pid, table.selfPid());
    QCOMPARE(table.inspect(0).status, os::Lookup::Status::NotFound);
}

void TestProcessTable::portFactsOfRealListener_data() {
    QTest::addColumn<QString>("host");
    QTest::addColumn<bool>("v6");
    QTest::newRow("127.0.0.1") << "127.0.0.1" << false;
    QTest::newRow("::1") << "::1" << true;
}

void TestProcessTable::portFactsOfRealListener() {
    QFETCH(QString, host);
    QFETCH(bool, v6);
    OsProcessTable table;
    int port = 0;
    {
        Helper holder({"listen", host, "0"});
        port = int(holder.waitField("listening", 1));
        QVERIFY(port > 0);
        const policy::PortFacts facts = table.portFacts(port);
        QVERIFY(facts.readable);
        QCOMPARE(facts.listeners.size(), size_t(1));
        const policy::Listener &l = facts.listeners.front();
        QCOMPARE(l.pid, holder.pid());
        QCOMPARE(l.family, v6 ? policy::Family::V6 : policy::Family::V4);
        QVERIFY(!l.wildcard);
        QCOMPARE(QString::fromStdString(l.owner), testprocLabel(holder.pid()));
        // What the policy makes of it: the holder is the service it would supervise...
        QCOMPARE(policy::portHolder(facts, holder.pid(), l.family), policy::PortHolder::Service);
        QCOMPARE(policy::serviceFamily(facts, holder.pid()), std::optional(l.family));
        // ...and another process for a launch.
        QCOMPARE(policy::portHolder(facts, 0, l.family), policy::PortHolder::Other);
    }
    QTRY_VERIFY_WITH_TIMEOUT(table.portFacts(port).listeners.empty(), 10000);
    QVERIFY(table.portFacts(port).readable);
}

// A listener of this very process, named after this test binary.
void TestProcessTable::portFactsOfOwnListener() {
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHostIPv6, 0));
    OsProcessTable table;
    const policy::PortFacts facts = table.portFacts(server.serverPort());
    QVERIFY(facts.readable);
    QCOMPARE(facts.listeners.size(), size_t(1));
    const policy::Listener &l = facts.listeners.front();
    QCOMPARE(l.pid, table.selfPid());
    QCOMPARE(l.family, policy::Family::V6);
    QVERIFY(!l.wildcard);
    QCOMPARE(QString::fromStdString(l.owner),
             QString("PID %1 (%2)")
                 .arg(table.selfPid())
                 .arg(QFileInfo(QCoreApplication::applicationFilePath()).fileName()));
}

void TestProcessTable::portFactsOfFreeAndImpossiblePorts() {
    OsProcessTable table;
    const policy::PortFacts free = table.portFacts(test::freeLoopbackPort());
    QVERIFY(free.readable);
    QVERIFY(free.listeners.empty());
    for (int port : {0, -1, 65536, 100000}) { // never "free": nothing can be said about them
        const policy::PortFacts none = table.portFacts(port);
        QVERIFY2(!none.readable, qPrintable(QString::number(port)));
        QVERIFY(none.listeners.empty());
    }
}

// The pure conversion: pid 0 (unreadable owner, wine) stays 0 with no name; each pid is
// described once however many sockets it holds; unreadable tables give unreadable facts.
void TestProcessTable::portFactsFromUnreadableOwners() {
    os::PortOwners owners;
    owners.ok = true;
    owners.listening = true;
    owners.pids = {42};
    owners.listeners = {{0, false, false}, {42, false, true}, {42, true, true}};
    QList<Pid> described;
    const auto describe = [&](Pid pid) {
        described.append(pid);
        return "PID " + std::to_string(pid) + " (node)";
    };
    const policy::PortFacts facts = portFactsFrom(owners, describe);
    QVERIFY(facts.readable);
    QCOMPARE(facts.listeners.size(), size_t(3));
    QCOMPARE(facts.listeners[0].pid, Pid(0));
    QVERIFY(facts.listeners[0].owner.empty());
    QCOMPARE(facts.listeners[0].family, policy::Family::V4);
    QCOMPARE(facts.listeners[1].owner, std::string("PID 42 (node)"));
    QVERIFY(facts.listeners[1].wildcard);
    QCOMPARE(facts.listeners[2].family, policy::Family::V6);
    QCOMPARE(facts.listeners[2].owner, std::string("PID 42 (node)"));
    QCOMPARE(described, QList<Pid>{42});
    QCOMPARE(policy::portHolder(portFactsFrom({}, describe), 0, policy::Family::V4),
             policy::PortHolder::Unknown);

    os::PortOwners unread;
    unread.error = "read /proc/net/tcp: Permission denied";
    const policy::PortFacts none = portFactsFrom(unread, describe);
    QVERIFY(!none.readable);
    QVERIFY(none.listeners.empty());
}

void TestProcessTable::ownerLabels() {
    os::Lookup l;
    l.status = os::Lookup::Status::Found;
    l.info.executable = "/usr/local/bin/node";
    l.info.argv = {"node", "server.js"};
    QCOMPARE(ownerLabel(12, l), std::string("PID 12 (node)"));
    l.info.executable.clear(); // exe unreadable: argv[0]
    l.info.argv = {"C:\\Program Files\\opencode\\opencode.exe", "serve"};
    QCOMPARE(ownerLabel(12, l), std::string("PID 12 (opencode.exe)"));
    l.info.argv.clear();
    QCOMPARE(ownerLabel(12, l), std::string("PID 12"));
    l.status = os::Lookup::Status::NotFound;
    l.info.executable = "/bin/sh";
    QCOMPARE(ownerLabel(7, l), std::string("PID 7"));
}

void TestProcessTable::groupMembersOfRealGroup() {
    OsProcessTable table;
    QVERIFY(table.groupMembers(0).empty());
    Helper h({"tree", "3"}, /*ownSession=*/true);
    const std::vector<Pid> pids = startGroup(h, 3);
    QCOMPARE(pids.size(), size_t(3));
    const Pid pgid = h.pid();
    QCOMPARE(pids.front(), pgid);

    const std::vector<os::ProcessInfo> members = table.groupMembers(pgid);
    QCOMPARE(pidsOf(members), QSet<Pid>(pids.begin(), pids.end()));
    for (const os::ProcessInfo &m : members) {
        QCOMPARE(m.pgid, pgid);
        QVERIFY(m.state != os::RunState::Zombie);
        QCOMPARE(m.startTime, os::identityOf(m.pid).value_or(os::Identity{}).startTime);
    }
    // The policy's verdict over the real members: the leader is the service, nobody predates it.
    const policy::GroupVerdict v =
        policy::mayKillGroup(pgid, h.identity(), members, table.selfPid(), table.selfGroup());
    QVERIFY2(v.signal, v.why.c_str());
    // Our own group is never one it would signal.
    QVERIFY(!policy::mayKillGroup(table.selfGroup(), h.identity(),
                                  table.groupMembers(table.selfGroup()), table.selfPid(),
                                  table.selfGroup())
                 .signal);
}

void TestProcessTable::forgedIdentityIsRefusedAndSurvives() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString record = dir.filePath("signals");
    Helper decoy({"decoy", record});
    QVERIFY(!decoy.waitLine("ready").isEmpty());
    const os::Identity real = decoy.identity();
    QVERIFY(real.pid > 0);

    OsProcessTable table;
    // The right pid with a wrong start time: a reused pid, as far as the table can tell.
    for (const os::Identity &forged :
         {os::Identity{real.pid, real.startTime + 1}, os::Identity{real.pid, real.startTime - 1},
          os::Identity{real.pid, 0}}) {
        for (os::Signal s :
             {os::Signal::Terminate, os::Signal::Continue, os::Signal::Stop, os::Signal::Kill}) {
            std::string error;
            QVERIFY(!table.signal(forged, s, &error));
            QVERIFY2(QString::fromStdString(error).contains("start time"), error.c_str());
        }
        QVERIFY(table.waitGone(forged, 0)); // "gone": that process is not there
    }
    // Fence: the decoy handles pending signals before it answers.
    decoy.proc.write("ping\n");
    QVERIFY(!decoy.waitLine("pong").isEmpty());
    QCOMPARE(readFile(record), QByteArray());
    QCOMPARE(os::alive(real), os::Liveness::Alive);
    QCOMPARE(table.inspect(real.pid).info.state, os::RunState::Running); // not stopped either
    QVERIFY(!table.waitGone(real, 20));

    // Positive control: the true identity is signalled.
    std::string error;
    QVERIFY2(table.signal(real, os::Signal::Continue, &error), error.c_str());
    decoy.proc.write("ping\n");
    QVERIFY(!decoy.waitLine("pong").isEmpty());
    QCOMPARE(readFile(record), QByteArray::number(real.pid) + " CONT\n");
}

void TestProcessTable::groupGuard() {
    OsProcessTable table;
    for (Pid pgid : {table.selfGroup(), table.selfPid(), Pid(0), Pid(1), Pid(-1)}) {
        std::string error;
        QVERIFY(!table.signalGroup(pgid, os::Signal::Continue, &error));
        QVERIFY2(QString::fromStdString(error).contains("guard"), error.c_str());
    }
    const std::optional<os::Identity> init = os::identityOf(1);
    QVERIFY(init.has_value());
    std::string error;
    QVERIFY(!table.signal(*init, os::Signal::Continue, &error));
    QVERIFY(!table.signal(*os::identityOf(table.selfPid()), os::Signal::Continue, &error));
}

void TestProcessTable::waitGroupEmpty() {
    OsProcessTable table;
    Helper h({"tree", "2"}, /*ownSession=*/true);
    const std::vector<Pid> pids = startGroup(h, 2);
    QCOMPARE(pids.size(), size_t(2));
    const Pid pgid = h.pid();

    QElapsedTimer t;
    t.start();
    QVERIFY(!table.waitGroupEmpty(pgid, 150)); // live members: the timeout passes
    const qint64 waited = t.elapsed();
    QVERIFY2(waited >= 150 && waited < 2000, qPrintable(QString::number(waited)));
    QVERIFY(!table.waitGroupEmpty(pgid, 0));

    std::string error;
    QVERIFY2(table.signalGroup(pgid, os::Signal::Kill, &error), error.c_str());
    t.restart();
    // Zombies nobody reaps (PID 1 here does not) count as gone.
    QVERIFY(table.waitGroupEmpty(pgid, 10000));
    qInfo("group of 2 empty %lld ms after SIGKILL", t.elapsed());
    QVERIFY(t.elapsed() < 5000);
    for (Pid pid : pids)
        QVERIFY(test::absentOrZombie(pid));
    QVERIFY(table.waitGroupEmpty(pgid, 0)); // and stays so
}

void TestProcessTable::signalAndWaitGone() {
    OsProcessTable table;
    Helper h({"sleep"});
    QVERIFY(!h.waitLine("ready").isEmpty());
    const os::Identity id = h.identity();
    QVERIFY(!table.waitGone(id, 0));
    std::string error;
    QVERIFY2(table.signal(id, os::Signal::Terminate, &error), error.c_str());
    QVERIFY(table.waitGone(id, 10000)); // zombie or reaped
    QVERIFY(!table.signal(id, os::Signal::Kill, &error));
    QVERIFY(h.proc.waitForFinished(10000));
}

QTEST_GUILESS_MAIN(TestProcessTable)
#include "tst_process_table.moc"
