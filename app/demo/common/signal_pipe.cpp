#include "demo/common/signal_pipe.h"

#include <QSocketNotifier>

#include <csignal>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#else
#include <QMetaObject>

#include <atomic>
#include <windows.h>
#endif

namespace tether::demo {

#ifdef Q_OS_UNIX
namespace {
int g_pipe[2] = {-1, -1};

extern "C" void writeSignalToPipe(int signalNumber) {
    const int savedErrno = errno;
    const auto byte = static_cast<unsigned char>(signalNumber);
    [[maybe_unused]] const ssize_t n = ::write(g_pipe[1], &byte, 1); // full pipe: drop, fine
    errno = savedErrno;
}
} // namespace

SignalPipe::SignalPipe(std::initializer_list<int> signalNumbers, QObject *parent)
    : QObject(parent)
    , signals_(signalNumbers) {
    if (::pipe(g_pipe) != 0) qFatal("signal pipe: %s", strerror(errno));
    for (int fd : g_pipe) {
        ::fcntl(fd, F_SETFD, FD_CLOEXEC); // the MCP children must not inherit it
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    notifier_ = new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, this);
    connect(notifier_, &QSocketNotifier::activated, this, &SignalPipe::drain);
    struct sigaction action = {};
    action.sa_handler = writeSignalToPipe;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (int s : std::as_const(signals_))
        ::sigaction(s, &action, nullptr);
}

SignalPipe::~SignalPipe() {
    restoreDefaults();
    delete notifier_;
    ::close(g_pipe[0]);
    ::close(g_pipe[1]);
    g_pipe[0] = g_pipe[1] = -1;
}

void SignalPipe::restoreDefaults() {
    for (int s : std::as_const(signals_))
        ::signal(s, SIG_DFL);
}

void SignalPipe::ignore(int signalNumber) {
    ::signal(signalNumber, SIG_IGN);
}

void SignalPipe::drain() {
    unsigned char byte = 0;
    while (::read(g_pipe[0], &byte, 1) == 1)
        emit received(byte);
}
#else
namespace {
// The handler runs on a thread the system starts for each event: it only posts to the loop.
std::atomic<SignalPipe *> g_instance{nullptr};
std::atomic<unsigned> g_handled{0}; // bit per signal number: posted to the loop
std::atomic<unsigned> g_ignored{0}; // bit per signal number: swallowed

unsigned bit(int signalNumber) {
    return signalNumber > 0 && signalNumber < 32 ? 1u << signalNumber : 0u;
}

BOOL WINAPI onConsoleControl(DWORD type) {
    const int s = type == CTRL_BREAK_EVENT ? SIGTERM : type == CTRL_C_EVENT ? SIGINT : 0;
    if (s == 0) return FALSE;
    if (g_ignored & bit(s)) return TRUE;
    SignalPipe *pipe = g_instance;
    if (!pipe || !(g_handled & bit(s))) return FALSE; // the default: ExitProcess
    QMetaObject::invokeMethod(
        pipe, [pipe, s] { emit pipe->received(s); }, Qt::QueuedConnection);
    return TRUE;
}
} // namespace

SignalPipe::SignalPipe(std::initializer_list<int> signalNumbers, QObject *parent)
    : QObject(parent)
    , signals_(signalNumbers) {
    unsigned handled = 0;
    for (int s : std::as_const(signals_))
        handled |= bit(s);
    g_handled = handled;
    g_ignored = 0;
    g_instance = this;
    ::SetConsoleCtrlHandler(onConsoleControl, TRUE);
}
SignalPipe::~SignalPipe() {
    ::SetConsoleCtrlHandler(onConsoleControl, FALSE);
    g_instance = nullptr;
}
void SignalPipe::restoreDefaults() {
    for (int s : std::as_const(signals_)) {
        g_handled &= ~bit(s);
        g_ignored &= ~bit(s);
    }
}
void SignalPipe::ignore(int signalNumber) {
    g_ignored |= bit(signalNumber);
}
void SignalPipe::drain() {
}
#endif

} // namespace tether::demo
