// tether: the tray companion, its headless mode, its CLI verbs and the bundled demo service.
#include "control/control_client.h"
#include "demo/demo.h"
#include "shell/cli.h"
#include "shell/console.h"
#include "shell/runtime.h"
#include "i18n.h"
#include "service/words.h"
#include "shell/unix_signals.h"
#include "tray/tray_app.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSessionManager>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

struct MainOptions {
    bool headless = false;
    bool autostart = false;
    QString settingsPath;
};

// printHere: our own output reaches a terminal, file or pipe. Otherwise (the tray, or tether.exe
// started with nowhere to print) Qt's parser reports help and errors, in a message box on Windows.
MainOptions parseMainOptions(const QCoreApplication &app, bool printHere) {
    QCommandLineParser parser;
    using tether::Words;
    parser.setApplicationDescription(
        Words::tr("Tray companion that supervises a local AI-agent service and its MCP servers.") +
        QStringLiteral("\n\n") + tether::cli::verbHelp());
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const QCommandLineOption headless(QStringLiteral("headless"),
                                      Words::tr("Run the supervisor without a tray."));
    const QCommandLineOption autostart(QStringLiteral("autostart"),
                                       Words::tr("Started at login: quietly, no window."));
    const QCommandLineOption settings(QStringLiteral("settings"),
                                      Words::tr("Use this settings file instead of the user's."),
                                      Words::tr("file"));
    parser.addOptions({headless, autostart, settings});
    if (!printHere) {
        parser.process(app);
        if (parser.positionalArguments().value(0) == QLatin1String("help")) parser.showHelp(0);
    } else if (!parser.parse(app.arguments())) {
        tether::console::writeLine(tether::console::Stream::Err,
                                   QStringLiteral("tether: ") + parser.errorText());
        std::exit(tether::cli::kExitUsage);
    } else if (parser.isSet(help) ||
               parser.positionalArguments().value(0) == QLatin1String("help")) {
        tether::console::writeLine(tether::console::Stream::Out, parser.helpText().trimmed());
        std::exit(tether::cli::kExitOk);
    } else if (parser.isSet(version)) {
        tether::console::writeLine(tether::console::Stream::Out,
                                   QStringLiteral("tether ") +
                                       QCoreApplication::applicationVersion());
        std::exit(tether::cli::kExitOk);
    }
    return MainOptions{parser.isSet(headless), parser.isSet(autostart), parser.value(settings)};
}

// Ctrl+C in Tether's terminal, or another signal (policy/quit.h).
tether::policy::QuitBy quitBy(int signalNumber) {
    return signalNumber == SIGINT ? tether::policy::QuitBy::Interrupt
                                  : tether::policy::QuitBy::Signal;
}

int runHeadless(const MainOptions &options) {
    tether::Runtime runtime({options.settingsPath, true});
    QString error;
    switch (runtime.init(&error)) {
    case tether::Runtime::Init::AnotherInstance:
        tether::console::writeLine(
            tether::console::Stream::Err,
            QStringLiteral("tether: already running for this user (see `tether status`)"));
        return 1;
    case tether::Runtime::Init::Error:
        tether::console::writeLine(tether::console::Stream::Err,
                                   QStringLiteral("tether: ") + error);
        return 1;
    case tether::Runtime::Init::Ok:
        break;
    }
    tether::QuitSignals quitSignals;
    // Not qApp: in this file that is a QApplication cast, and headless runs a QCoreApplication.
    QObject::connect(&quitSignals, &tether::QuitSignals::quitRequested,
                     QCoreApplication::instance(), [&runtime](int signalNumber) {
                         runtime.setQuitBy(quitBy(signalNumber));
                         QCoreApplication::quit();
                     });
    QObject::connect(&runtime, &tether::Runtime::quitRequested, QCoreApplication::instance(),
                     &QCoreApplication::quit);
    runtime.holdQuitsUntilReady(QCoreApplication::instance());
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
    bool answers = verb || (argc > 1 && std::strcmp(argv[1], "help") == 0);
    bool headless = answers;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--version") == 0 || std::strcmp(argv[i], "-v") == 0 ||
            std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0)
            answers = true;
        if (std::strcmp(argv[i], "--headless") == 0) headless = true;
    }
    headless = headless || answers;

#if defined(TETHER_CONSOLE_EXE)
    // tether-cli.exe is for a terminal: a tray from it would hold the shell (and die with the
    // console window), so without a verb it says where the tray is.
    if (!headless) {
        QCoreApplication app(argc, argv);
        tether::i18n::install(&app);
        tether::console::writeLine(
            tether::console::Stream::Err,
            tether::Words::tr("tether-cli runs the verbs; start the tray with tether.exe.") +
                QStringLiteral("\n\n") + tether::cli::verbHelp());
        return tether::cli::kExitUsage;
    }
#endif

    if (headless) {
        QCoreApplication app(argc, argv);
        tether::i18n::install(&app); // what a verb prints; the log stays in English
        // Verbs, help and version print to the shell that ran us (tether.exe is a GUI program
        // on Windows). --headless alone stays off that console: closing it would end us.
#if defined(TETHER_CONSOLE_EXE)
        const bool prints = true;
#else
        const bool prints = answers && tether::console::attachParentConsole();
#endif
        if (verb) return tether::cli::runVerb(app.arguments().mid(1));
        return runHeadless(parseMainOptions(app, prints));
    }

    QApplication app(argc, argv);
    QApplication::setQuitOnLastWindowClosed(false);
    tether::i18n::install(&app);
    const MainOptions options = parseMainOptions(app, false);
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
                     [&runtime](int signalNumber) {
                         runtime.setQuitBy(quitBy(signalNumber));
                         QCoreApplication::quit();
                     });
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
    runtime.holdQuitsUntilReady(&app);
    tray.show();
    runtime.supervisor()->start();
    const int code = QApplication::exec();
    runtime.shutdown();
    return code;
}
