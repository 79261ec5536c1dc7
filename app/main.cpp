// tether: the tray companion, its headless mode, its CLI verbs and the bundled demo service.
#include "control/control_client.h"
#include "demo/demo.h"
#include "shell/cli.h"
#include "shell/runtime.h"
#include "shell/unix_signals.h"
#include "tray/tray_app.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSessionManager>
#include <cstdio>
#include <cstring>

namespace {

struct MainOptions {
    bool headless = false;
    bool autostart = false;
    QString settingsPath;
};

MainOptions parseMainOptions(const QCoreApplication &app) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral(
            "Tray companion that supervises a local AI-agent service and its MCP servers.\n\n") +
        tether::cli::verbHelp());
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption headless(QStringLiteral("headless"),
                                      QStringLiteral("Run the supervisor without a tray."));
    const QCommandLineOption autostart(QStringLiteral("autostart"),
                                       QStringLiteral("Started at login: quietly, no window."));
    const QCommandLineOption settings(
        QStringLiteral("settings"), QStringLiteral("Use this settings file instead of the user's."),
        QStringLiteral("file"));
    parser.addOptions({headless, autostart, settings});
    parser.process(app);
    if (parser.positionalArguments().value(0) == QLatin1String("help")) parser.showHelp(0);
    return MainOptions{parser.isSet(headless), parser.isSet(autostart), parser.value(settings)};
}

int runHeadless(const MainOptions &options) {
    tether::Runtime runtime({options.settingsPath, true});
    QString error;
    switch (runtime.init(&error)) {
    case tether::Runtime::Init::AnotherInstance:
        std::fprintf(stderr, "tether: already running for this user (see `tether status`)\n");
        return 1;
    case tether::Runtime::Init::Error:
        std::fprintf(stderr, "tether: %s\n", qPrintable(error));
        return 1;
    case tether::Runtime::Init::Ok:
        break;
    }
    tether::QuitSignals quitSignals;
    // Not qApp: in this file that is a QApplication cast, and headless runs a QCoreApplication.
    QObject::connect(&quitSignals, &tether::QuitSignals::quitRequested,
                     QCoreApplication::instance(), &QCoreApplication::quit);
    QObject::connect(&runtime, &tether::Runtime::quitRequested, QCoreApplication::instance(),
                     &QCoreApplication::quit);
    runtime.supervisor()->start();
    const int code = QCoreApplication::exec();
    runtime.shutdown();
    return code;
}

} // namespace

int main(int argc, char **argv) {
    // The demo service and its MCP children are console programs: no GUI application object.
    if (argc > 1 && std::strcmp(argv[1], "demo-service") == 0)
        return tether::demo::runDemoService(argc - 1, argv + 1);
    if (argc > 1 && std::strcmp(argv[1], "demo-mcp") == 0)
        return tether::demo::runDemoMcp(argc - 1, argv + 1);

    QCoreApplication::setApplicationName(QStringLiteral("tether"));
    QCoreApplication::setOrganizationName(QStringLiteral("tether"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TETHER_VERSION));

    const bool verb = argc > 1 && tether::cli::isVerb(QString::fromLocal8Bit(argv[1]));
    // `tether help` is `tether --help`: the options and the verbs of control/verbs.h.
    bool headless = verb || (argc > 1 && std::strcmp(argv[1], "help") == 0);
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--headless") == 0 || std::strcmp(argv[i], "--version") == 0 ||
            std::strcmp(argv[i], "-v") == 0 || std::strcmp(argv[i], "--help") == 0 ||
            std::strcmp(argv[i], "-h") == 0)
            headless = true;

    if (headless) {
        QCoreApplication app(argc, argv);
        if (verb) return tether::cli::runVerb(app.arguments().mid(1));
        return runHeadless(parseMainOptions(app));
    }

    QApplication app(argc, argv);
    QApplication::setQuitOnLastWindowClosed(false);
    const MainOptions options = parseMainOptions(app);
    tether::Runtime runtime({options.settingsPath, false});
    QString error;
    switch (runtime.init(&error)) {
    case tether::Runtime::Init::AnotherInstance: {
        // One Tether per user: hand over to the running one (it shows its window) and leave.
        const auto reply = tether::control::call({tether::control::Verb::Show, {}});
        return reply.status == tether::control::Reply::Status::Ok ? 0 : 1;
    }
    case tether::Runtime::Init::Error:
        std::fprintf(stderr, "tether: %s\n", qPrintable(error));
        return 1;
    case tether::Runtime::Init::Ok:
        break;
    }
    tether::QuitSignals quitSignals;
    tether::TrayApp tray(&runtime, options.autostart);
    QObject::connect(&quitSignals, &tether::QuitSignals::quitRequested, &app,
                     &QCoreApplication::quit);
    QObject::connect(&runtime, &tether::Runtime::quitRequested, &app, &QCoreApplication::quit);
    // Logout or shutdown: answer at once (never cancel, never block the session manager), leave
    // the service as configured, and ask to be started by autostart rather than by session restore.
    QObject::connect(&app, &QGuiApplication::commitDataRequest, &runtime,
                     [&runtime](QSessionManager &manager) {
                         manager.setRestartHint(QSessionManager::RestartNever);
                         runtime.sessionEnding();
                     });
    // Quitting (also when the platform ends the session without asking): no start from here on.
    QObject::connect(&app, &QCoreApplication::aboutToQuit, &runtime, &tether::Runtime::beginQuit);
    tray.show();
    runtime.supervisor()->start();
    const int code = QApplication::exec();
    runtime.shutdown();
    return code;
}
