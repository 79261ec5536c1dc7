#include "demo/standin_v2/standin.h"

#include "demo/common/event_stream.h"
#include "demo/common/faults.h"
#include "demo/common/http_server.h"
#include "demo/common/signal_pipe.h"
#include "demo/standin_v2/api.h"
#include "demo/standin_v2/events.h"
#include "demo/standin_v2/files.h"
#include "demo/standin_v2/incumbent.h"
#include "demo/standin_v2/locations.h"
#include "demo/standin_v2/mcp_servers.h"
#include "demo/standin_v2/options.h"
#include "demo/standin_v2/sessions.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTimer>
#include <QUuid>

#include <csignal>
#include <cstdio>

namespace tether::standin_v2 {

namespace {

void say(const QString &line) {
    std::fputs(qPrintable(line + QLatin1Char('\n')), stdout);
    std::fflush(stdout); // a test reads it through a pipe: no block buffering
}

void warn(const QString &line) {
    std::fprintf(stderr, "tether demo-service: %s\n", qPrintable(line));
}

// A random 32-byte base64url password, unless the service config has one [R9].
QString randomPassword() {
    QByteArray bytes(32, Qt::Uninitialized);
    for (char &c : bytes)
        c = static_cast<char>(QRandomGenerator::system()->bounded(256));
    return QString::fromLatin1(
        bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

// OPENCODE_PTY_HANDOFF {directory, instanceID, ticket, expiresAt}: the ticket, if it decodes.
std::optional<QString> handoffTicket(const QByteArray &json) {
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    if (!o.value("directory").isString() || !o.value("instanceID").isString() ||
        !o.value("ticket").isString() || !o.value("expiresAt").isDouble())
        return std::nullopt;
    return o.value("ticket").toString();
}

demo::StreamFraming opencode2Framing() {
    return {[](const QString &id) { return demo::sseFrame(connectedEvent(id)); },
            [](const QString &) { return QByteArray(kHeartbeatFrame); },
            {{"X-Accel-Buffering", "no"}, {"X-Content-Type-Options", "nosniff"}}}; // [R38]
}

// The service's life: listen, register, boot; and its one way out, shutdown().
class Lifecycle : public QObject {
public:
    Lifecycle(const StandinOptions &o, Registration me, QString registrationPath,
              QString serviceConfigPath, ServiceConfig config, QHostAddress address, int port,
              Api &api, demo::HttpServer &server, McpServers &mcp, Sessions &sessions,
              demo::EventStream &events)
        : o_(o)
        , me_(std::move(me))
        , path_(std::move(registrationPath))
        , configPath_(std::move(serviceConfigPath))
        , config_(std::move(config))
        , address_(address)
        , port_(port)
        , api_(api)
        , server_(server)
        , mcp_(mcp)
        , sessions_(sessions)
        , events_(events) {
        connect(&recheck_, &QTimer::timeout, this, &Lifecycle::checkRegistration);
    }

    // Before binding, and again while the port is taken: a compatible registered service
    // already answering there means this one is not needed (exit 0) [R9].
    void start() {
        probe_.check(path_, me_.url, [this](std::optional<Incumbent> found) {
            if (found) return leaveFor(*found);
            listen();
        });
    }

    void shutdown(const QString &why) {
        if (stopping_) return;
        stopping_ = true;
        recheck_.stop();
        if (!listening_) {
            QCoreApplication::exit(0);
            return;
        }
        // Stopping: every route answers 503 service_stopping while the MCP servers close;
        // the registration goes last, and only while it still names this service [R17] [R12].
        api_.setState(ServiceState::Stopping);
        say(QStringLiteral("opencode service %1 stopping: %2").arg(me_.id, why));
        events_.closeAll();
        mcp_.stopAll([this] {
            const std::optional<RegistrationRead> now = readRegistration(path_);
            if (now && owns(*now, me_)) QFile::remove(path_);
            say(QStringLiteral("opencode service %1 stopped").arg(me_.id));
            QCoreApplication::exit(0);
        });
    }

private:
    void leaveFor(const Incumbent &found) {
        say(QStringLiteral("opencode service already running: pid %1 at %2")
                .arg(found.pid)
                .arg(me_.url));
        QCoreApplication::exit(0);
    }

    void listen() {
        if (stopping_) return;
        QString error;
        switch (server_.listen(address_, static_cast<quint16>(port_), &error)) {
        case demo::HttpServer::ListenResult::Ok:
            return onListening();
        case demo::HttpServer::ListenResult::AddressInUse:
            break;
        case demo::HttpServer::ListenResult::OtherError:
            warn(QStringLiteral("cannot listen on %1: %2").arg(me_.url, error));
            QCoreApplication::exit(1);
            return;
        }
        // EADDRINUSE: the incumbent is asked every 100 ms for up to 15 s [R9].
        say(QStringLiteral("port %1 on %2 is in use: waiting up to %3 ms for a registered "
                           "service to answer")
                .arg(port_)
                .arg(address_.toString())
                .arg(o_.portWaitMs));
        waitingForPort_ = true;
        QTimer::singleShot(o_.portWaitMs, Qt::PreciseTimer, this, [this] { portTaken(); });
        retryIncumbent();
    }

    void retryIncumbent() {
        probe_.check(path_, me_.url, [this](std::optional<Incumbent> found) {
            if (!waitingForPort_) return; // given up already
            if (found) return leaveFor(*found);
            QTimer::singleShot(100, this, [this] { retryIncumbent(); });
        });
    }

    void portTaken() {
        waitingForPort_ = false;
        std::fprintf(stderr,
                     "Managed service port %d on %s is already in use by another process. "
                     "Configure another port with `opencode service set port <port>` and start "
                     "the service again.\n",
                     port_, qPrintable(address_.toString()));
        QCoreApplication::exit(1);
    }

    void onListening() {
        listening_ = true;
        api_.setState(ServiceState::Starting);
        QString error;
        // The password is kept for the next start before the first registration [R9].
        if (!config_.password &&
            !writeServiceConfigPassword(configPath_, config_, me_.password, &error))
            warn(error);
        if (!writeRegistration(path_, me_, &error)) {
            warn(error);
            QCoreApplication::exit(1);
            return;
        }
        say(QStringLiteral("opencode service %1 listening on %2, registered in %3")
                .arg(me_.id, me_.url, path_));
        checkRegistration(); // at once, then on the cadence [R12]
        recheck_.start(o_.registrationCheckMs);
        // Precise: a coarse timer of 2 s or more may fire up to 5 % early, and a boot of 3 s then
        // ended after 2.85 (tst_opencode2 measures it from the launch).
        QTimer::singleShot(o_.bootMs, Qt::PreciseTimer, this, [this] { boot(); });
    }

    // Boot builds the application; a failure keeps the process up, answering 500 [R17].
    void boot() {
        if (stopping_) return;
        if (o_.bootFails) {
            api_.setState(ServiceState::Failed);
            say(QStringLiteral("background service boot failed"));
            return;
        }
        api_.setState(ServiceState::Ready);
        say(QStringLiteral("server listening on %1").arg(me_.url)); // [R9]
        mcp_.startEnabled();
        if (!o_.busyTool.isEmpty())
            sessions_.startToolCall(QDir::currentPath(), o_.busyTool, o_.busyToolSeconds);
    }

    // Missing, unreadable, or any of the five fields changed: shut down [R12].
    void checkRegistration() {
        if (stopping_) return;
        const std::optional<RegistrationRead> found = readRegistration(path_);
        if (!found) {
            say(QStringLiteral("managed service registration check failed; shutting down"));
            shutdown(QStringLiteral("registration check failed"));
        } else if (!owns(*found, me_)) {
            say(QStringLiteral("managed service registration replaced; shutting down"));
            shutdown(QStringLiteral("registration replaced"));
        }
    }

    const StandinOptions &o_;
    const Registration me_;
    const QString path_, configPath_;
    const ServiceConfig config_;
    const QHostAddress address_;
    const int port_;
    Api &api_;
    demo::HttpServer &server_;
    McpServers &mcp_;
    Sessions &sessions_;
    demo::EventStream &events_;
    IncumbentProbe probe_;
    QTimer recheck_;
    bool waitingForPort_ = false;
    bool listening_ = false;
    bool stopping_ = false;
};

} // namespace

int runStandin(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const ParsedStandinOptions parsed = parseStandinOptions(QCoreApplication::arguments());
    if (!parsed.error.isEmpty()) {
        std::fprintf(stderr, "tether demo-service: %s\n%s", qPrintable(parsed.error),
                     qPrintable(standinUsage()));
        return 2;
    }
    const StandinOptions &o = parsed.options;
    if (o.printVersion) {
        say(o.version);
        return 0;
    }
#ifdef SIGPIPE
    std::signal(SIGPIPE, SIG_IGN); // a client that hangs up mid-response must not kill us
#endif
    demo::SignalPipe signalPipe({SIGTERM, SIGINT});
    if (o.ignoreTerm) signalPipe.ignore(SIGTERM);
    demo::scheduleFaults(
        {o.busyAfterMs, o.busyForMs, o.crashAfterMs, o.freezeAfterMs, o.ignoreTerm}, signalPipe);

    // Terminals handed over by the service this one replaces; the variable is read once and
    // removed, so no child inherits it [R9] [R7].
    if (qEnvironmentVariableIsSet("OPENCODE_PTY_HANDOFF")) {
        const std::optional<QString> ticket = handoffTicket(qgetenv("OPENCODE_PTY_HANDOFF"));
        qunsetenv("OPENCODE_PTY_HANDOFF");
        if (ticket)
            say(QStringLiteral("pty adopted %1").arg(*ticket));
        else
            say(QStringLiteral("pty handoff ignored: Ignoring invalid PTY restart handoff; "
                               "persistent terminals will start fresh"));
    }

    // --service mode works from the home directory: the default MCP location [R9] [R30].
    const QString home = QDir::homePath();
    QDir::setCurrent(home);
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString fileName = channelFileName(o.channel);
    const QString registrationPath = stateDirectory(env, home) + QLatin1Char('/') + fileName;
    const QString configPath = configDirectory(env, home) + QLatin1Char('/') + fileName;
    const ServiceConfig config = readServiceConfig(configPath);

    const std::optional<int> port = o.port        ? o.port
                                    : config.port ? config.port
                                                  : defaultPort(o.channel);
    if (!port) {
        warn(QStringLiteral("channel \"%1\" has a hashed default port (Hash.fast, not in the "
                            "record): give --port or a port in %2")
                 .arg(o.channel, configPath));
        return 2;
    }
    const QString hostname =
        !o.hostname.isEmpty() ? o.hostname : config.hostname.value_or(QStringLiteral("127.0.0.1"));
    const QHostAddress address = hostname == QLatin1String("localhost")
                                     ? QHostAddress(QHostAddress::LocalHost)
                                     : QHostAddress(hostname);
    if (address.isNull()) {
        warn(QStringLiteral("hostname \"%1\" from %2 is not an IP address")
                 .arg(hostname, configPath));
        return 1;
    }

    Registration me;
    me.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    me.version = o.version;
    me.url = serviceUrl(hostname, *port);
    me.pid = QCoreApplication::applicationPid();
    me.password =
        config.password && !config.password->isEmpty() ? *config.password : randomPassword();

    const LoadedMcpConfig mcpConfig =
        loadMcpConfig(configDocuments(home, configDirectory(env, home), home, env));
    for (const QString &source : mcpConfig.rejected)
        warn(QStringLiteral("config %1 rejected: malformed JSON or JSONC document").arg(source));

    demo::EventStream events(o.heartbeatMs, opencode2Framing());
    Sessions sessions(events);
    McpServers mcp(mcpConfig.servers, home);
    demo::announceChildren(mcp.fleet(), say);

    ServiceIdentity identity{me.id,
                             me.version,
                             me.pid,
                             me.url,
                             me.password,
                             home,
                             QDir::tempPath() + QStringLiteral("/opencode"),
                             o.ptyHandoff};
    Api api(identity, mcp, sessions, events, say);
    demo::HttpServer server(api);
    Lifecycle life(o, me, registrationPath, configPath, config, address, *port, api, server, mcp,
                   sessions, events);
    QObject::connect(&signalPipe, &demo::SignalPipe::received, &life, [&life](int signalNumber) {
        life.shutdown(signalNumber == SIGTERM ? QStringLiteral("stop request (SIGTERM)")
                                              : QStringLiteral("signal %1").arg(signalNumber));
    });
    QTimer::singleShot(o.slowStartMs, Qt::PreciseTimer, &life, [&life] { life.start(); });
    return QCoreApplication::exec();
}

} // namespace tether::standin_v2
