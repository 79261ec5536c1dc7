// `tether demo-mcp`: an MCP-like stdio server, the demo service's child. With --stubborn it
// behaves like the MCP servers that leak: ignores stdin EOF, SIGTERM and SIGHUP.
#include "demo/demo.h"
#include "demo/mcp_jsonrpc.h"
#include "demo/signal_pipe.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

namespace tether::demo {

namespace {

// A stubborn child outlives its service on purpose; this bounds how long a broken test leaks it.
constexpr int kStubbornLifetimeMs = 600 * 1000;
// --leak-kib-per-s stops growing here, so a forgotten child cannot exhaust the machine.
constexpr qint64 kLeakCapKib = 1024 * 1024;

struct McpOptions {
    QString name;
    bool stubborn = false;
    bool setsid = false;
    int leakKibPerSecond = 0;
};

bool parseMcpOptions(const QStringList &arguments, McpOptions &o, QString &error) {
    const QCommandLineOption name{"name", "MCP server name (required).", "name"};
    const QCommandLineOption stubborn{"stubborn", "Ignore stdin EOF, SIGTERM and SIGHUP."};
    const QCommandLineOption setsid{"setsid", "Leave the parent's session and process group."};
    const QCommandLineOption leak{"leak-kib-per-s", "Grow by K KiB every second.", "k"};
    QCommandLineParser p;
    p.addOptions({name, stubborn, setsid, leak});
    if (!p.parse(arguments)) {
        error = p.errorText();
        return false;
    }
    if (!p.positionalArguments().isEmpty()) {
        error = QStringLiteral("unexpected argument \"%1\"").arg(p.positionalArguments().first());
        return false;
    }
    o.name = p.value(name);
    if (o.name.isEmpty()) {
        error = QStringLiteral("--name is required");
        return false;
    }
    o.stubborn = p.isSet(stubborn);
    o.setsid = p.isSet(setsid);
    if (p.isSet(leak)) {
        bool ok = false;
        o.leakKibPerSecond = p.value(leak).toInt(&ok);
        if (!ok || o.leakKibPerSecond < 0 || o.leakKibPerSecond > 1024 * 1024) {
            error = QStringLiteral("--leak-kib-per-s must be an integer from 0 to 1048576");
            return false;
        }
    }
    return true;
}

// Grows resident memory by a fixed amount per second (every page written, so it counts in RSS).
class MemoryLeak {
public:
    void grow(int kib) {
        if (kib <= 0 || totalKib_ >= kLeakCapKib) return;
        const std::size_t bytes = static_cast<std::size_t>(kib) * 1024;
        auto block = std::make_unique<char[]>(bytes);
        std::memset(block.get(), 0x5a, bytes);
        blocks_.push_back(std::move(block));
        totalKib_ += kib;
    }

private:
    std::vector<std::unique_ptr<char[]>> blocks_;
    qint64 totalKib_ = 0;
};

// Writes all of `data` to stdout; false when the reader is gone.
bool writeOut(const QByteArray &data) {
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(STDOUT_FILENO, data.constData() + done,
                                  static_cast<size_t>(data.size() - done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += n;
    }
    return true;
}

} // namespace

int runDemoMcp(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    McpOptions o;
    QString error;
    if (!parseMcpOptions(QCoreApplication::arguments(), o, error)) {
        std::fprintf(stderr,
                     "tether demo-mcp: %s\nusage: tether demo-mcp --name N [--stubborn] "
                     "[--setsid] [--leak-kib-per-s K]\n",
                     qPrintable(error));
        return 2;
    }

    if (o.setsid && ::setsid() < 0)
        std::fprintf(stderr, "tether demo-mcp %s: setsid failed: %s\n", qPrintable(o.name),
                     std::strerror(errno));
    std::signal(SIGPIPE, SIG_IGN); // a vanished reader shows up as a write error instead

    std::unique_ptr<SignalPipe> signalPipe;
    if (o.stubborn) {
        std::signal(SIGTERM, SIG_IGN);
        std::signal(SIGHUP, SIG_IGN);
        QTimer::singleShot(kStubbornLifetimeMs, &app, [] { QCoreApplication::exit(0); });
    } else {
        signalPipe = std::make_unique<SignalPipe>(std::initializer_list<int>{SIGTERM, SIGHUP});
        QObject::connect(signalPipe.get(), &SignalPipe::received, &app,
                         [](int) { QCoreApplication::exit(0); });
    }

    // stdin EOF is how an MCP client says goodbye; the stubborn child does not listen.
    const auto endOfInput = [&o] {
        if (!o.stubborn) QCoreApplication::exit(0);
    };
    const McpServerInfo info{o.name, QStringLiteral(TETHER_VERSION)};
    QByteArray pending;
    QSocketNotifier input(STDIN_FILENO, QSocketNotifier::Read);
    QObject::connect(&input, &QSocketNotifier::activated, &app, [&] {
        char chunk[65536];
        const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
        if (n <= 0) {
            input.setEnabled(false);
            endOfInput();
            return;
        }
        pending.append(chunk, n);
        for (qsizetype nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
            const QByteArray line = pending.left(nl);
            pending.remove(0, nl + 1);
            if (const auto reply = answerMcpMessage(line, info)) {
                if (!writeOut(*reply + '\n') && !o.stubborn) QCoreApplication::exit(0);
            }
        }
    });

    MemoryLeak leak;
    QTimer leakTimer;
    if (o.leakKibPerSecond > 0) {
        QObject::connect(&leakTimer, &QTimer::timeout, [&] { leak.grow(o.leakKibPerSecond); });
        leakTimer.start(1000);
    }

    return QCoreApplication::exec();
}

} // namespace tether::demo
