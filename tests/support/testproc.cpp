// tether-testproc: one small program, one mode per test role. Plain C++ (POSIX and Win32), no Qt.
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
//
// On Windows (no signals, no fork): decoy and tree FILE record console control events instead
// ("PID BREAK", "PID INT", "PID CLOSE"), which is how Tether stops a service gracefully there;
// ignore-term ignores CTRL_BREAK/CTRL_C, so only TerminateProcess ends it; tree starts a copy of
// itself per level and prints PGID 0 (a job, not a group, contains a tree there); the parent
// watch is a thread waiting on the parent's handle. The "pong" fence is weaker: Windows runs a
// control handler on a thread of its own, so "pong" only says the earlier lines were read.
// zombie and setsid-child are POSIX-only and fail.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <winsock2.h>
#include <ws2tcpip.h>
#include <windows.h>
#include <tlhelp32.h>
#else
#include <arpa/inet.h>
#include <csignal>
#include <ctime>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace {

int gTimeoutSec = 300;
bool gPdeathsig = true;
bool gAnswerPings = false; // decoy: answer each stdin line with "pong"
char gPidPrefix[32];       // "PID " of this process, formatted before any handler can run

[[noreturn]] void fail(const std::string &why) {
    std::fprintf(stderr, "tether-testproc: %s\n", why.c_str());
    std::exit(2);
}

double nowSec() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

#ifdef _WIN32

HANDLE gRecordFile = INVALID_HANDLE_VALUE;

void say(const std::string &line) {
    const std::string s = line + "\n";
    const HANDLE out = ::GetStdHandle(STD_OUTPUT_HANDLE);
    size_t off = 0;
    while (off < s.size()) {
        DWORD n = 0;
        if (!::WriteFile(out, s.data() + off, static_cast<DWORD>(s.size() - off), &n, nullptr) ||
            n == 0)
            return;
        off += n;
    }
}

std::string lastError(const char *what) {
    return std::string(what) + ": error " + std::to_string(::GetLastError());
}

std::uint64_t creationTime(HANDLE process) {
    FILETIME created{}, exited{}, kernel{}, user{};
    if (!::GetProcessTimes(process, &created, &exited, &kernel, &user)) return 0;
    return (std::uint64_t(created.dwHighDateTime) << 32) | created.dwLowDateTime;
}

DWORD parentPid() {
    const DWORD self = ::GetCurrentProcessId();
    const HANDLE snap = ::CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snap == INVALID_HANDLE_VALUE) return 0;
    PROCESSENTRY32W e{};
    e.dwSize = sizeof e;
    DWORD parent = 0;
    for (BOOL ok = ::Process32FirstW(snap, &e); ok; ok = ::Process32NextW(snap, &e))
        if (e.th32ProcessID == self) parent = e.th32ParentProcessID;
    ::CloseHandle(snap);
    return parent;
}

DWORD WINAPI dieWithParent(void *parent) {
    ::WaitForSingleObject(static_cast<HANDLE>(parent), INFINITE);
    ::TerminateProcess(::GetCurrentProcess(), 137); // as SIGKILL would end it
    return 0;
}

// The PR_SET_PDEATHSIG of Windows: a thread waiting on the parent's handle. As on Linux, a
// parent already gone (none found, or its pid reused by a process younger than this one) is
// not watched.
void watchParent() {
    const DWORD pid = parentPid();
    const HANDLE parent =
        pid ? ::OpenProcess(SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid) : nullptr;
    if (!parent) return;
    if (creationTime(parent) > creationTime(::GetCurrentProcess())) {
        ::CloseHandle(parent);
        return;
    }
    const HANDLE t = ::CreateThread(nullptr, 0, dieWithParent, parent, 0, nullptr);
    if (!t) fail(lastError("CreateThread"));
    ::CloseHandle(t);
}

// Called in every process this program creates, right after it starts.
void becomeSelf() {
    if (gPdeathsig) watchParent();
    std::snprintf(gPidPrefix, sizeof gPidPrefix, "%lu ", ::GetCurrentProcessId());
}

// One append of "PID NAME\n" (FILE_APPEND_DATA keeps lines whole across processes).
void record(const char *name) {
    if (gRecordFile == INVALID_HANDLE_VALUE) return;
    const std::string line = gPidPrefix + std::string(name) + "\n";
    DWORD n = 0;
    ::WriteFile(gRecordFile, line.data(), static_cast<DWORD>(line.size()), &n, nullptr);
}

BOOL WINAPI recordEvent(DWORD event) {
    switch (event) {
    case CTRL_C_EVENT:
        record("INT");
        return TRUE;
    case CTRL_BREAK_EVENT:
        record("BREAK");
        return TRUE;
    case CTRL_CLOSE_EVENT:
        record("CLOSE"); // the process ends when the handler returns, whatever it answers
        return TRUE;
    default:
        record("OTHER");
        return TRUE;
    }
}

BOOL WINAPI ignoreBreak(DWORD event) {
    return event == CTRL_C_EVENT || event == CTRL_BREAK_EVENT;
}

void recordSignalsInto(const char *file) {
    gRecordFile = ::CreateFileA(file, FILE_APPEND_DATA,
                                FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                                OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (gRecordFile == INVALID_HANDLE_VALUE) fail(lastError((std::string("open ") + file).c_str()));
    ::SetConsoleCtrlHandler(nullptr, FALSE); // a new process group starts with CTRL_C ignored
    ::SetConsoleCtrlHandler(recordEvent, TRUE);
}

DWORD WINAPI answerPings(void *) {
    const HANDLE in = ::GetStdHandle(STD_INPUT_HANDLE);
    char buf[256];
    DWORD n = 0;
    while (::ReadFile(in, buf, sizeof buf, &n, nullptr) && n > 0)
        for (DWORD i = 0; i < n; ++i)
            if (buf[i] == '\n') say("pong");
    return 0;
}

// Lives until the timeout (Windows has no zombies to reap).
[[noreturn]] void live(bool = true) {
    if (gAnswerPings) {
        const HANDLE t = ::CreateThread(nullptr, 0, answerPings, nullptr, 0, nullptr);
        if (!t) fail(lastError("CreateThread"));
        ::CloseHandle(t);
    }
    const double deadline = nowSec() + gTimeoutSec;
    while (nowSec() < deadline)
        ::Sleep(100);
    std::exit(0);
}

std::string netError(const char *what) {
    return std::string(what) + ": WSA error " + std::to_string(::WSAGetLastError());
}

using Socket = SOCKET;

Socket openStreamSocket(int family) {
    WSADATA wsa{};
    if (::WSAStartup(MAKEWORD(2, 2), &wsa) != 0) fail("WSAStartup failed");
    const SOCKET s = ::WSASocketW(family, SOCK_STREAM, IPPROTO_TCP, nullptr, 0,
                                  WSA_FLAG_OVERLAPPED | WSA_FLAG_NO_HANDLE_INHERIT);
    if (s == INVALID_SOCKET) fail(netError("socket"));
    return s;
}

// The next level of a tree: a copy of this program, sharing stdout (and so the "node" lines).
void startTreeLevel(int level, int depth, const char *file) {
    wchar_t exe[MAX_PATH];
    if (!::GetModuleFileNameW(nullptr, exe, MAX_PATH)) fail(lastError("GetModuleFileName"));
    std::wstring cmd = L"\"" + std::wstring(exe) + L"\" --timeout " + std::to_wstring(gTimeoutSec) +
                       (gPdeathsig ? L"" : L" --no-pdeathsig") + L" --tree-level " +
                       std::to_wstring(level) + L" tree " + std::to_wstring(depth);
    if (file) { // as main() got it: in the ANSI code page
        std::wstring f(MAX_PATH, L'\0');
        const int n = ::MultiByteToWideChar(CP_ACP, 0, file, -1, f.data(), MAX_PATH);
        if (n <= 0) fail(lastError("MultiByteToWideChar"));
        f.resize(static_cast<size_t>(n - 1));
        cmd += L" \"" + f + L"\"";
    }
    STARTUPINFOW si{};
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    for (HANDLE *h : {&si.hStdInput, &si.hStdOutput, &si.hStdError}) {
        const DWORD which = h == &si.hStdInput    ? STD_INPUT_HANDLE
                            : h == &si.hStdOutput ? STD_OUTPUT_HANDLE
                                                  : STD_ERROR_HANDLE;
        *h = ::GetStdHandle(which);
        ::SetHandleInformation(*h, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
    }
    PROCESS_INFORMATION pi{};
    if (!::CreateProcessW(exe, cmd.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &si, &pi))
        fail(lastError("CreateProcess"));
    ::CloseHandle(pi.hThread);
    ::CloseHandle(pi.hProcess);
}

[[noreturn]] void modeTree(int depth, const char *file, int level) {
    if (file) recordSignalsInto(file);
    say("node " + std::to_string(level) + " " + std::to_string(::GetCurrentProcessId()) + " 0");
    if (level >= depth) {
        say("ready");
        live();
    }
    startTreeLevel(level + 1, depth, file);
    live();
}

[[noreturn]] void modeIgnoreTerm() {
    ::SetConsoleCtrlHandler(ignoreBreak, TRUE);
    say("ready");
    live();
}

[[noreturn]] void modeZombie() {
    fail("zombie: Windows has no zombies");
}

[[noreturn]] void modeSetsidChild() {
    fail("setsid-child: Windows has no sessions");
}

#else // POSIX

int gRecordFd = -1;

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

// Called in every process this program creates, right after it starts.
void becomeSelf() {
#ifdef __linux__
    if (gPdeathsig) ::prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif // elsewhere (macOS) nothing ties it to its parent: --timeout ends it
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

std::string netError(const char *what) {
    return std::string(what) + ": " + std::strerror(errno);
}

using Socket = int;

// Close-on-exec set after the call: macOS has neither SOCK_CLOEXEC nor pipe2, and this program
// is single-threaded, so no exec can come in between.
int closeOnExec(int fd) {
    if (fd >= 0) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
}

Socket openStreamSocket(int family) {
    const int s = closeOnExec(::socket(family, SOCK_STREAM, 0));
    if (s < 0) fail(netError("socket"));
    return s;
}

pid_t forkChild() {
    const pid_t child = ::fork();
    if (child < 0) fail(std::string("fork: ") + std::strerror(errno));
    if (child == 0) becomeSelf();
    return child;
}

[[noreturn]] void modeTree(int depth, const char *file, int /*level: 1, fork counts on*/) {
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

[[noreturn]] void modeIgnoreTerm() {
    ::signal(SIGTERM, SIG_IGN);
    say("ready");
    live();
}

[[noreturn]] void modeZombie() {
    int pipeFds[2];
    if (::pipe(pipeFds) != 0) fail("pipe");
    closeOnExec(pipeFds[0]);
    closeOnExec(pipeFds[1]);
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
    if (::pipe(pipeFds) != 0) fail("pipe");
    closeOnExec(pipeFds[0]);
    closeOnExec(pipeFds[1]);
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

#endif

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
        len = static_cast<socklen_t>(sizeof *a6); // an int on Windows
    } else {
        auto *a4 = reinterpret_cast<sockaddr_in *>(&addr);
        a4->sin_family = AF_INET;
        a4->sin_port = htons(static_cast<uint16_t>(port));
        if (::inet_pton(AF_INET, host, &a4->sin_addr) != 1)
            fail(std::string("bad IPv4 address ") + host);
        len = static_cast<socklen_t>(sizeof *a4);
    }
    const Socket s = openStreamSocket(family);
    if (::bind(s, reinterpret_cast<sockaddr *>(&addr), len) != 0) fail(netError("bind"));
    if (::listen(s, 16) != 0) fail(netError("listen"));
    sockaddr_storage bound{};
    socklen_t boundLen = static_cast<socklen_t>(sizeof bound);
    ::getsockname(s, reinterpret_cast<sockaddr *>(&bound), &boundLen);
    const uint16_t actual = family == AF_INET6
                                ? ntohs(reinterpret_cast<sockaddr_in6 *>(&bound)->sin6_port)
                                : ntohs(reinterpret_cast<sockaddr_in *>(&bound)->sin_port);
    say("listening " + std::to_string(actual));
    live();
}

} // namespace

int main(int argc, char **argv) {
    int i = 1;
    int treeLevel = 1; // Windows: the level of a tree node started by its parent
    for (; i < argc && std::strncmp(argv[i], "--", 2) == 0; ++i) {
        if (std::strcmp(argv[i], "--timeout") == 0 && i + 1 < argc)
            gTimeoutSec = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--no-pdeathsig") == 0)
            gPdeathsig = false;
        else if (std::strcmp(argv[i], "--tree-level") == 0 && i + 1 < argc)
            treeLevel = std::max(1, std::atoi(argv[++i]));
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
    if (mode == "ignore-term") modeIgnoreTerm();
    if (mode == "listen" && nargs >= 2) modeListen(args[0], args[1]);
    if (mode == "tree" && nargs >= 1)
        modeTree(std::max(1, std::atoi(args[0])), nargs >= 2 ? args[1] : nullptr, treeLevel);
    if (mode == "zombie") modeZombie();
    if (mode == "setsid-child") modeSetsidChild();
    if (mode == "exit" && nargs >= 1) return std::atoi(args[0]);
    fail("unknown mode or missing arguments: " + mode);
}
