// `tether demo-service`: a stand-in for the opencode 1.x server, with fault switches; with
// --protocol v2, the opencode 2.x stand-in (standin_v2/), which has options of its own.
#include "demo/activity.h"
#include "demo/demo.h"
#include "demo/common/event_stream.h"
#include "demo/common/faults.h"
#include "demo/common/http_server.h"
#include "demo/common/mcp_fleet.h"
#include "demo/demo_mcp_specs.h"
#include "demo/opencode1_api.h"
#include "demo/service_options.h"
#include "demo/standin_v2/options.h"
#include "demo/standin_v2/standin.h"
#include "demo/common/signal_pipe.h"

#include <QCoreApplication>
#include <QDir>
#include <QHostAddress>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <memory>

namespace tether::demo {

namespace {

#ifdef Q_OS_WIN
constexpr const char *kStopRequestName = "CTRL_BREAK";
#else
constexpr const char *kStopRequestName = "SIGTERM";
#endif

void printLine(const QString &line) {
    std::fputs(qPrintable(line + QLatin1Char('\n')), stdout);
    std::fflush(stdout); // stdout is a pipe to the supervisor: no block buffering
}

QHostAddress listenAddress(const QString &hostname) {
    return hostname == QLatin1String("localhost") ? QHostAddress(QHostAddress::LocalHost)
                                                  : QHostAddress(hostname);
}

} // namespace

int runDemoService(int argc, char **argv) {
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    if (requestsProtocolV2(arguments)) return standin_v2::runStandin(argc, argv);

    QCoreApplication app(argc, argv);
    const ParsedServiceOptions parsed = parseDemoServiceOptions(QCoreApplication::arguments());
    if (!parsed.error.isEmpty()) {
        std::fprintf(stderr, "tether demo-service: %s\n%s\n%s", qPrintable(parsed.error),
                     qPrintable(demoServiceUsage()), qPrintable(standin_v2::standinUsage()));
        return 2;
    }
    const DemoServiceOptions &o = parsed.options;
    if (o.printVersion) {
        printLine(o.version);
        return 0;
    }
#ifdef SIGPIPE
    std::signal(SIGPIPE, SIG_IGN); // a client that hangs up mid-response must not kill us
#endif
    SignalPipe signalPipe({SIGTERM, SIGINT}); // Windows: CTRL_BREAK arrives as SIGTERM
    if (o.ignoreTerm) signalPipe.ignore(SIGTERM);
    QObject::connect(&signalPipe, &SignalPipe::received, &app, [](int signalNumber) {
        // Said in the log, and exit code 0: a graceful stop, never confused with a kill.
        printLine(
            QStringLiteral("demo-service: stopping on %1")
                .arg(signalNumber == SIGTERM
                         ? QStringLiteral("stop request (%1)").arg(QLatin1String(kStopRequestName))
                         : QStringLiteral("signal %1").arg(signalNumber)));
        QCoreApplication::exit(0);
    });

    McpFleet fleet(demoMcpChildSpecs(QCoreApplication::applicationFilePath(), o));
    announceChildren(fleet, printLine);
    // The password is never printed, and McpFleet keeps it from the children.
    const QByteArray password = qgetenv("OPENCODE_SERVER_PASSWORD");
    EventStream events(o.heartbeatMs, opencode1StreamFraming());
    DemoActivity activity(events);
    Opencode1Api api(HealthAnswer{o.version, o.healthStatus, o.healthBody}, password, fleet, events,
                     activity);
    HttpServer server(api);

    scheduleFaults({o.busyAfterMs, o.busyForMs, o.crashAfterMs, o.freezeAfterMs, o.ignoreTerm},
                   signalPipe);
    QTimer::singleShot(o.slowStartMs, Qt::PreciseTimer, &app, [&] {
        QString error;
        switch (server.listen(listenAddress(o.hostname), static_cast<quint16>(o.port), &error)) {
        case HttpServer::ListenResult::Ok:
            break;
        case HttpServer::ListenResult::AddressInUse:
            std::fprintf(stderr, "tether demo-service: port %d already in use\n", o.port);
            QCoreApplication::exit(3);
            return;
        case HttpServer::ListenResult::OtherError:
            std::fprintf(stderr, "tether demo-service: cannot listen on %s port %d: %s\n",
                         qPrintable(o.hostname), o.port, qPrintable(error));
            QCoreApplication::exit(3);
            return;
        }
        const QString host = o.hostname.contains(QLatin1Char(':'))
                                 ? QLatin1Char('[') + o.hostname + QLatin1Char(']')
                                 : o.hostname;
        printLine(
            QStringLiteral("opencode server listening on http://%1:%2").arg(host).arg(o.port));
        fleet.startAll();
        if (!o.busyTool.isEmpty())
            activity.startToolCall(QDir::currentPath(), o.busyTool, o.busyToolSeconds);
    });

    const int code = QCoreApplication::exec();
    fleet.stopAll(); // stdin EOF, then SIGKILL after 1 s for the stubborn ones
    return code;
}

} // namespace tether::demo
