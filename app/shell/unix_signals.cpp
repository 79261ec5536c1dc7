#include "shell/unix_signals.h"

#ifdef Q_OS_UNIX
#include <QSocketNotifier>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace {
int g_pipe[2] = {-1, -1};
extern "C" void onQuitSignal(int sig) {
    const char byte = char(sig);
    [[maybe_unused]] ssize_t n = ::write(g_pipe[1], &byte, 1);
}
} // namespace
#endif

namespace tether {

QuitSignals::QuitSignals(QObject *parent)
    : QObject(parent) {
#ifdef Q_OS_UNIX
    // pipe() + fcntl, not pipe2: macOS has no pipe2 (the flags are set before any fork).
    if (g_pipe[0] < 0) {
        if (::pipe(g_pipe) != 0) return;
        for (int fd : g_pipe) {
            ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        }
    }
    auto *notifier = new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, this);
    connect(notifier, &QSocketNotifier::activated, this, [this] {
        char byte = 0;
        while (::read(g_pipe[0], &byte, 1) == 1)
            emit quitRequested(int(byte));
    });
    struct sigaction sa {};
    sa.sa_handler = onQuitSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int sig : {SIGTERM, SIGINT, SIGHUP})
        ::sigaction(sig, &sa, nullptr);
#endif
}

} // namespace tether
