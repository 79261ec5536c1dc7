// `tether demo-mcp`: an MCP-like stdio server, the demo service's child. With --stubborn it
// behaves like the MCP servers that leak: ignores stdin EOF, SIGTERM and SIGHUP.
#include "demo/common/option_values.h"
#include "demo/demo.h"
#include "demo/mcp_jsonrpc.h"
#include "demo/common/signal_pipe.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#ifdef Q_OS_UNIX
#include <unistd.h>
#else
#include <QMetaObject>
#include <thread>
#include <windows.h>
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
    QString leakWhileFile; // grow only while it exists (a test's switch); empty = always
};

bool parseMcpOptions(const QStringList &arguments, McpOptions &o, QString &error) {
    const QCommandLineOption name{"name", "MCP server name (required).", "name"};
    const QCommandLineOption stubborn{"stubborn", "Ignore stdin EOF, SIGTERM and SIGHUP."};
    const QCommandLineOption setsid{"setsid", "Leave the parent's session and process group."};
    const QCommandLineOption leak{"leak-kib-per-s", "Grow by K KiB every second.", "k"};
    const QCommandLineOption leakWhile{"leak-while-file", "...only while PATH exists.", "path"};
    const QCommandLineOption tag{"tag", "A label on the command line, nothing else.", "text"};
    QCommandLineParser p;
    p.addOptions({name, stubborn, setsid, leak, leakWhile, tag});
    if (!parseOptionsOnly(p, arguments, error)) return false;
    o.name = p.value(name);
    if (o.name.isEmpty()) {
        error = QStringLiteral("--name is required");
        return false;
    }
    o.stubborn = p.isSet(stubborn);
    o.setsid = p.isSet(setsid);
    o.leakWhileFile = p.value(leakWhile);
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

#ifdef Q_OS_UNIX
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

// Hands each chunk read from stdin to onChunk on the event loop, then an empty one at its end.
void readStdin(QObject *context, std::function<void(const QByteArray &)> onChunk) {
    auto *input = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, context);
    QObject::connect(input, &QSocketNotifier::activated, context, [input, onChunk] {
        char chunk[65536];
        const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
        if (n <= 0) input->setEnabled(false);
        onChunk(n > 0 ? QByteArray(chunk, n) : QByteArray());
    });
}
#else
// Windows (not built here: Qt for Windows is not on the Linux build machine): a pipe cannot be
// watched by a QSocketNotifier, so a thread reads it and posts each chunk to the event loop.
bool writeOut(const QByteArray &data) {
    DWORD written = 0;
    return WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), data.constData(), DWORD(data.size()),
                     &written, nullptr) &&
           written == DWORD(data.size());
}

void readStdin(QObject *context, std::function<void(const QByteArray &)> onChunk) {
    std::thread([context, onChunk] {
        char chunk[65536];
        DWORD n = 0;
        for (;;) {
            const bool ok =
                ReadFile(GetStdHandle(STD_INPUT_HANDLE), chunk, sizeof chunk, &n, nullptr);
            const QByteArray data = ok ? QByteArray(chunk, qsizetype(n)) : QByteArray();
            QMetaObject::invokeMethod(context, [onChunk, data] { onChunk(data); });
            if (data.isEmpty()) return; // end of input (or an error: the same to a client)
        }
    }).detach();
}
#endif

} // namespace

int runDemoMcp(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    McpOptions o;
    QString error;
    if (!parseMcpOptions(QCoreApplication::arguments(), o, error)) {
        std::fprintf(stderr,
                     "tether demo-mcp: %s\nusage: tether demo-mcp --name N [--stubborn] "
                     "[--setsid] [--leak-kib-per-s K [--leak-while-file PATH]] [--tag TEXT]\n",
                     qPrintable(error));
        return 2;
    }

#ifdef Q_OS_UNIX
    if (o.setsid && ::setsid() < 0)
        std::fprintf(stderr, "tether demo-mcp %s: setsid failed: %s\n", qPrintable(o.name),
                     std::strerror(errno));
    std::signal(SIGPIPE, SIG_IGN); // a vanished reader shows up as a write error instead
    const std::initializer_list<int> endSignals{SIGTERM, SIGHUP};
#else
    if (o.setsid) std::fprintf(stderr, "tether demo-mcp: --setsid is POSIX only; ignored\n");
    const std::initializer_list<int> endSignals{SIGTERM};
#endif

    std::unique_ptr<SignalPipe> signalPipe;
    if (o.stubborn) {
        for (int sig : endSignals)
            std::signal(sig, SIG_IGN);
        QTimer::singleShot(kStubbornLifetimeMs, &app, [] { QCoreApplication::exit(0); });
    } else {
        signalPipe = std::make_unique<SignalPipe>(endSignals);
        QObject::connect(signalPipe.get(), &SignalPipe::received, &app,
                         [](int) { QCoreApplication::exit(0); });
    }

    // stdin EOF is how an MCP client says goodbye; the stubborn child does not listen.
    const auto endOfInput = [&o] {
        if (!o.stubborn) QCoreApplication::exit(0);
    };
    const McpServerInfo info{o.name, QStringLiteral(TETHER_VERSION)};
    QByteArray pending;
    readStdin(&app, [&](const QByteArray &chunk) {
        if (chunk.isEmpty()) {
            endOfInput();
            return;
        }
        pending.append(chunk);
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
        QObject::connect(&leakTimer, &QTimer::timeout, [&] {
            if (o.leakWhileFile.isEmpty() || QFile::exists(o.leakWhileFile))
                leak.grow(o.leakKibPerSecond);
        });
        leakTimer.start(1000);
    }

    return QCoreApplication::exec();
}

} // namespace tether::demo
