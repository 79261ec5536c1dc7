// `tether demo-service --protocol v2`: the opencode 2.x managed service as a supervisor sees
// it. Registration protocol (DESIGN.md "Service profiles"): write service.json after listening,
// re-read it on a cadence, leave when it names another service, clean up only what is ours.
#include "demo/faults.h"
#include "demo/http_server.h"
#include "demo/mcp_fleet.h"
#include "demo/opencode_v2_api.h"
#include "demo/service_options.h"
#include "demo/signal_pipe.h"
#include "os/process.h"
#include "service/managed_registration.h"
#include "settings/storage.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QRandomGenerator>
#include <QTimer>
#include <QUuid>

#include <csignal>
#include <cstdio>

namespace tether::demo {

namespace {

void say(const QString &line) {
    std::fputs(qPrintable(line + QLatin1Char('\n')), stdout);
    std::fflush(stdout);
}

QByteArray randomPassword() {
    QByteArray bytes(24, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(bytes.data()),
                                          bytes.size() / 4);
    return bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

bool processAlive(qint64 pid) {
    const os::Lookup l = os::inspect(pid);
    return l.status != os::Lookup::Status::NotFound &&
           !(l.status == os::Lookup::Status::Found && l.info.state == os::RunState::Zombie);
}

// True while service.json still names this service (by its id).
bool stillOurs(const QString &path, const QString &id) {
    const ManagedRegistrationRead r = readManagedRegistration(path);
    return r.status == ManagedRegistrationRead::Status::Ok && r.registration.id == id;
}

} // namespace

int runDemoServiceV2(const DemoServiceOptions &o) {
#ifdef SIGPIPE
    std::signal(SIGPIPE, SIG_IGN);
#endif
    SignalPipe signalPipe({SIGTERM, SIGINT});
    QObject::connect(&signalPipe, &SignalPipe::received, qApp,
                     [](int) { QCoreApplication::exit(0); });

    const QString stateDir = managedStateDir(o.stateDir);
    const QString path = stateDir + QStringLiteral("/service.json");
    McpFleet fleet(
        withOwnProcessGroups(demoMcpChildSpecs(QCoreApplication::applicationFilePath(), o)));
    QObject::connect(&fleet, &McpFleet::childStarted, [](const QString &name, qint64 pid) {
        say(QStringLiteral("mcp %1 pid %2").arg(name).arg(pid));
    });

    ManagedRegistration me;
    me.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    me.version = o.version;
    me.pid = QCoreApplication::applicationPid();
    me.password = QString::fromLatin1(randomPassword());
    me.url = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(o.port));

    OpencodeV2Api api(V2Identity{o.version, me.pid, me.url.toString(), stateDir},
                      HealthAnswer{o.version, o.healthStatus, o.healthBody}, me.password.toUtf8(),
                      fleet);
    HttpServer server(api);
    bool registered = false;
    QTimer recheck;

    if (o.busyAfterMs >= 0)
        QTimer::singleShot(o.busyAfterMs, [ms = o.busyForMs] { blockMainThreadFor(ms); });
    if (o.crashAfterMs >= 0) QTimer::singleShot(o.crashAfterMs, [] { crashNow(); });
    if (o.freezeAfterMs >= 0)
        QTimer::singleShot(o.freezeAfterMs, [&signalPipe] {
            signalPipe.restoreDefaults();
            freezeForever();
        });

    QObject::connect(&recheck, &QTimer::timeout, [&] {
        if (stillOurs(path, me.id)) return;
        say(QStringLiteral("service.json no longer names this service (%1): shutting down")
                .arg(me.id));
        registered = false; // it is somebody else's now: never touch it again
        QCoreApplication::exit(0);
    });

    QTimer::singleShot(o.slowStartMs, qApp, [&] {
        QString error;
        const auto listened =
            server.listen(QHostAddress(QHostAddress::LocalHost), quint16(o.port), &error);
        if (listened != HttpServer::ListenResult::Ok) {
            const ManagedRegistrationRead other = readManagedRegistration(path);
            if (other.status == ManagedRegistrationRead::Status::Ok &&
                other.registration.port() == o.port && processAlive(other.registration.pid))
                std::fprintf(stderr,
                             "tether demo-service: port %d is in use by the registered opencode "
                             "service (pid %lld, %s)\n",
                             o.port, static_cast<long long>(other.registration.pid),
                             qPrintable(path));
            else
                std::fprintf(stderr, "tether demo-service: cannot listen on port %d: %s\n", o.port,
                             listened == HttpServer::ListenResult::AddressInUse
                                 ? "already in use"
                                 : qPrintable(error));
            QCoreApplication::exit(3);
            return;
        }
        // Listening first, registering second: a registered service always answers.
        QDir().mkpath(stateDir);
        QFile::setPermissions(stateDir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        if (!storage::writePrivateFile(path, serializeManagedRegistration(me), &error)) {
            std::fprintf(stderr, "tether demo-service: %s\n", qPrintable(error));
            QCoreApplication::exit(4);
            return;
        }
        registered = true;
        say(QStringLiteral("opencode service %1 listening on %2, registered in %3")
                .arg(me.id, me.url.toString(), path));
        recheck.start(o.registrationCheckMs);
        fleet.startAll();
    });

    const int code = QCoreApplication::exec();
    recheck.stop();
    fleet.stopAll();
    // Remove the registration only while it still names us: another service may own it now.
    if (registered && stillOurs(path, me.id)) QFile::remove(path);
    return code;
}

} // namespace tether::demo
