// tether-testproc: one small program, one mode per test role. Plain C++ (POSIX), no Qt.
//
//   tether-testproc [--timeout SEC] [--no-pdeathsig] MODE [ARGS...]
//
//   sleep [ANY...]        prints "ready", lives (extra args are ignored: for argv tests)
//   decoy FILE            records every catchable signal as a line "PID SIGNAME" in FILE and keeps
//                         living (TERM, HUP, INT, QUIT, USR1, USR2, CONT, ALRM, PIPE, WINCH, TSTP,
//                         TTIN, TTOU); prints "ready" once the handlers are installed. Answers each
//                         stdin line with "pong": a fence, since pending signals are handled before
//                         it returns to user mode, so after "pong" every signal sent earlier is in
//                         FILE
//   ignore-term           ignores SIGTERM (SIGKILL is needed); prints "ready"
//   listen HOST PORT      binds HOST:PORT (PORT 0 = any free), listens, prints "listening PORT"
//   tree DEPTH [FILE]     a chain of DEPTH processes (top, child, grandchild, ...); each prints
//                         "node LEVEL PID PGID"; the deepest prints "ready". With FILE every node
//                         records signals like decoy and survives them
//   zombie                forks a child and prints "child PID"; on a line (or EOF) on stdin the
//                         child exits and is never reaped; prints "zombie PID"
//   setsid-child          forks a child that leaves the group (setsid), prints "child PID PGID"
//   exit CODE             exits at once with CODE
//
// Every mode ends by itself after --timeout seconds (default 300) so nothing outlives a dead
// test for long, and (unless --no-pdeathsig) dies with its parent via PR_SET_PDEATHSIG.
#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <string>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

int gTimeoutSec = 300;
bool gPdeathsig = true;
bool gAnswerPings = false; // decoy: answer each stdin line with "pong"
int gRecordFd = -1;
char gPidPrefix[32]; // "PID " of this process, formatted before any handler can run

void say(const std::string &line) {
    const std::string s = line + "\n";
    ssize_t off = 0;
    while (off < static_cast<ssize_t>(s.size())) {
        const ssize_t n = ::write(STDOUT_FILENO, s.data() + off, s.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        off += n;
    }
}

[[noreturn]] void fail(const std::string &why) {
    std::fprintf(stderr, "tether-testproc: %s\n", why.c_str());
    std::exit(2);
}

// Called in every process this program creates, right after it starts.
void becomeSelf() {
    if (gPdeathsig) ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    std::snprintf(gPidPrefix, sizeof gPidPrefix, "%ld ", static_cast<long>(::getpid()));
}

const char *nameOf(int sig) {
    switch (sig) {
    case SIGTERM:
        return "TERM";
    case SIGHUP:
        return "HUP";
    case SIGINT:
        return "INT";
    case SIGQUIT:
        return "QUIT";
    case SIGUSR1:
        return "USR1";
    case SIGUSR2:
        return "USR2";
    case SIGCONT:
        return "CONT";
    case SIGALRM:
        return "ALRM";
    case SIGPIPE:
        return "PIPE";
    case SIGWINCH:
        return "WINCH";
    case SIGTSTP:
        return "TSTP";
    case SIGTTIN:
        return "TTIN";
    case SIGTTOU:
        return "TTOU";
    default:
        return "OTHER";
    }
}

// Async-signal-safe: one write() of "PID NAME\n" (O_APPEND keeps lines whole across processes).
void record(int sig) {
    if (gRecordFd < 0) return;
    char line[64];
    size_t n = 0;
    for (const char *p = gPidPrefix; *p && n < sizeof line - 1; ++p)
        line[n++] = *p;
    for (const char *p = nameOf(sig); *p && n < sizeof line - 1; ++p)
        line[n++] = *p;
    line[n++] = '\n';
    const int saved = errno;
    (void)!::write(gRecordFd, line, n);
    errno = saved;
}

void recordSignalsInto(const char *file) {
    gRecordFd = ::open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (gRecordFd < 0) fail(std::string("cannot open ") + file + ": " + std::strerror(errno));
    struct sigaction sa {};
    sa.sa_handler = record;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGCONT, SIGALRM, SIGPIPE,
                    SIGWINCH, SIGTSTP, SIGTTIN, SIGTTOU})
        ::sigaction(sig, &sa, nullptr);
}

double nowSec() {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// Waits up to 100 ms; with gAnswerPings, answers stdin lines meanwhile (stops at EOF).
void idle() {
    if (!gAnswerPings) {
        timespec pause{0, 100 * 1000 * 1000};
        ::nanosleep(&pause, nullptr); // signals interrupt it; the caller re-checks
        return;
    }
    pollfd in{STDIN_FILENO, POLLIN, 0};
    if (::poll(&in, 1, 100) <= 0) return;
    char buf[256];
    const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n <= 0) {
        gAnswerPings = n < 0 && errno == EINTR;
        return;
    }
    for (ssize_t i = 0; i < n; ++i)
        if (buf[i] == '\n') say("pong");
}

// Lives until the timeout. Reaps its children unless asked to leave zombies behind.
[[noreturn]] void live(bool reapChildren = true) {
    const double deadline = nowSec() + gTimeoutSec;
    while (nowSec() < deadline) {
        if (reapChildren)
            while (::waitpid(-1, nullptr, WNOHANG) > 0) {
            }
        idle();
    }
    std::exit(0);
}

pid_t forkChild() {
    const pid_t child = ::fork();
    if (child < 0) fail(std::string("fork: ") + std::strerror(errno));
    if (child == 0) becomeSelf();
    return child;
}

[[noreturn]] void modeListen(const char *host, const char *portText) {
    const int port = std::atoi(portText);
    sockaddr_storage addr{};
    socklen_t len = 0;
    int family = AF_INET;
    if (std::strchr(host, ':')) {
        family = AF_INET6;
        auto *a6 = reinterpret_cast<sockaddr_in6 *>(&addr);
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons(static_cast<uint16_t>(port));
        if (::inet_pton(AF_INET6, host, &a6->sin6_addr) != 1)
            fail(std::string("bad IPv6 address ") + host);
        len = sizeof *a6;
    } else {
        auto *a4 = reinterpret_cast<sockaddr_in *>(&addr);
        a4->sin_family = AF_INET;
        a4->sin_port = htons(static_cast<uint16_t>(port));
        if (::inet_pton(AF_INET, host, &a4->sin_addr) != 1)
            fail(std::string("bad IPv4 address ") + host);
        len = sizeof *a4;
    }
    const int s = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) fail(std::string("socket: ") + std::strerror(errno));
    if (::bind(s, reinterpret_cast<sockaddr *>(&addr), len) != 0)
        fail(std::string("bind: ") + std::strerror(errno));
    if (::listen(s, 16) != 0) fail(std::string("listen: ") + std::strerror(errno));
    sockaddr_storage bound{};
    socklen_t boundLen = sizeof bound;
    ::getsockname(s, reinterpret_cast<sockaddr *>(&bound), &boundLen);
    const uint16_t actual = family == AF_INET6
                                ? ntohs(reinterpret_cast<sockaddr_in6 *>(&bound)->sin6_port)
                                : ntohs(reinterpret_cast<sockaddr_in *>(&bound)->sin_port);
    say("listening " + std::to_string(actual));
    live();
}

[[noreturn]] void modeTree(int depth, const char *file) {
    for (int level = 1;; ++level) {
        if (file) recordSignalsInto(file);
        say("node " + std::to_string(level) + " " + std::to_string(::getpid()) + " " +
            std::to_string(::getpgrp()));
        if (level >= depth) {
            say("ready");
            live();
        }
        if (forkChild() != 0) live();
        if (gRecordFd >= 0) ::close(gRecordFd); // the child reopens it with its own handlers
    }
}

[[noreturn]] void modeZombie() {
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) fail("pipe");
    const pid_t child = forkChild();
    if (child == 0) {
        ::close(pipeFds[1]);
        char c;
        while (::read(pipeFds[0], &c, 1) < 0 && errno == EINTR) {
        }
        ::_exit(0);
    }
    ::close(pipeFds[0]);
    say("child " + std::to_string(child));
    pollfd in{STDIN_FILENO, POLLIN, 0};
    ::poll(&in, 1, gTimeoutSec * 1000);
    ::close(pipeFds[1]); // the child sees EOF and exits; it is never reaped
    say("zombie " + std::to_string(child));
    live(false);
}

[[noreturn]] void modeSetsidChild() {
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) fail("pipe");
    const pid_t child = forkChild();
    if (child == 0) {
        ::setsid();
        char ok = 1;
        (void)!::write(pipeFds[1], &ok, 1);
        live();
    }
    char ok = 0;
    while (::read(pipeFds[0], &ok, 1) < 0 && errno == EINTR) {
    }
    say("child " + std::to_string(child) + " " + std::to_string(child));
    say("ready");
    live();
}

} // namespace

int main(int argc, char **argv) {
    int i = 1;
    for (; i < argc && std::strncmp(argv[i], "--", 2) == 0; ++i) {
        if (std::strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
            gTimeoutSec = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--no-pdeathsig") == 0)
            gPdeathsig = false;
        else
            fail(std::string("unknown option ") + argv[i]);
    }
    if (i >= argc) fail("usage: tether-testproc [--timeout SEC] [--no-pdeathsig] MODE [ARGS...]");
    becomeSelf();
    const std::string mode = argv[i];
    const int nargs = argc - i - 1;
    char **args = argv + i + 1;

    if (mode == "sleep") {
        say("ready");
        live();
    }
    if (mode == "decoy" && nargs >= 1) {
        recordSignalsInto(args[0]);
        gAnswerPings = true;
        say("ready");
        live();
    }
    if (mode == "ignore-term") {
        ::signal(SIGTERM, SIG_IGN);
        say("ready");
        live();
    }
    if (mode == "listen" && nargs >= 2) modeListen(args[0], args[1]);
    if (mode == "tree" && nargs >= 1)
        modeTree(std::max(1, std::atoi(args[0])), nargs >= 2 ? args[1] : nullptr);
    if (mode == "zombie") modeZombie();
    if (mode == "setsid-child") modeSetsidChild();
    if (mode == "exit" && nargs >= 1) return std::atoi(args[0]);
    fail("unknown mode or missing arguments: " + mode);
}
