#include "demo/signal_pipe.h"

#include <QSocketNotifier>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
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

void SignalPipe::drain() {
    unsigned char byte = 0;
    while (::read(g_pipe[0], &byte, 1) == 1)
        emit received(byte);
}
#else
// Windows has no SIGTERM to route: the demo is stopped by TerminateProcess there.
SignalPipe::SignalPipe(std::initializer_list<int> signalNumbers, QObject *parent)
    : QObject(parent)
    , signals_(signalNumbers) {
}
SignalPipe::~SignalPipe() = default;
void SignalPipe::restoreDefaults() {
}
void SignalPipe::drain() {
}
#endif

} // namespace tether::demo
