#include "testsupport.h"

#include "os/process.h"

#include <QTcpServer>
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

std::uint16_t freeLoopbackPort() {
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        qFatal("cannot bind 127.0.0.1: %s", qPrintable(server.errorString()));
    return server.serverPort();
}

bool absentOrZombie(std::int64_t pid) {
    const os::Lookup l = os::inspect(pid);
    return l.status == os::Lookup::Status::NotFound ||
           (l.status == os::Lookup::Status::Found && l.info.state == os::RunState::Zombie);
}

} // namespace tether::test
