#include "testsupport.h"

#include "os/process.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTcpServer>
#include <QTest>
#include <QtGlobal>

namespace tether::test {

static QString requiredEnv(const char *name) {
    const QString value = qEnvironmentVariable(name);
    if (value.isEmpty()) qFatal("%s is not set: run the tests through ctest", name);
    return value;
}

QString tetherBin() {
    return requiredEnv("TETHER_BIN");
}
QString testprocBin() {
    return requiredEnv("TETHER_TESTPROC");
}
QString hostileBin() {
    return requiredEnv("TETHER_HOSTILE");
}

std::uint16_t freeLoopbackPort() {
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        qFatal("cannot bind 127.0.0.1: %s", qPrintable(server.errorString()));
    return server.serverPort();
}

CliRun runTether(const QStringList &args, const QProcessEnvironment &env, int timeoutMs,
                 const QStringList &wrapper) {
    QProcess p;
    p.setProcessEnvironment(env);
    QElapsedTimer t;
    t.start();
    if (wrapper.isEmpty())
        p.start(tetherBin(), args);
    else
        p.start(wrapper.first(), wrapper.mid(1) + QStringList{tetherBin()} + args);
    CliRun r;
    if (!p.waitForStarted(10000)) return r;
    if (!QTest::qWaitFor([&p] { return p.state() == QProcess::NotRunning; }, timeoutMs)) {
        p.kill(); // our own child
        p.waitForFinished();
        return r;
    }
    r.ms = t.elapsed();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

bool awaitExit(QProcess &process, int timeoutMs) {
    return QTest::qWaitFor([&] { return process.state() == QProcess::NotRunning; }, timeoutMs);
}

bool absentOrZombie(std::int64_t pid) {
    const os::Lookup l = os::inspect(pid);
    return l.status == os::Lookup::Status::NotFound ||
           (l.status == os::Lookup::Status::Found && l.info.state == os::RunState::Zombie);
}

} // namespace tether::test
