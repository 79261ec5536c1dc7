// Windows OS-layer tests against real processes, sockets and job objects. Plain C++ with a tiny
// harness (no Qt): cross-compiled with mingw-w64 and run under wine. The program spawns copies
// of itself ("child <mode> ...") as the processes under test. Prints one line per test and ends
// with "N passed, N failed"; the exit code is non-zero on any failure.
#include "os/process.h"
#include "os/windows_tcp_table.h"

// NOMINMAX and WIN32_LEAN_AND_MEAN come from CMake, for every Windows target.
#include <winsock2.h>
#include <ws2tcpip.h>
// winsock2 must come before windows.h
#include <windows.h>

#include <iphlpapi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace tether::os;
using namespace std::chrono_literals;

namespace {

// ---- harness --------------------------------------------------------------------------------

struct Failure {
    int line;
    std::string what;
};

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) throw Failure{__LINE__, #cond};                                               \
    } while (0)
#define CHECK_MSG(cond, msg)                                                                       \
    do {                                                                                           \
        if (!(cond)) throw Failure{__LINE__, std::string(#cond) + " (" + (msg) + ")"};             \
    } while (0)

// Closes a HANDLE the test opened itself.
class Handle {
public:
    explicit Handle(HANDLE h)
        : h_(h) {}
    ~Handle() {
        if (h_) CloseHandle(h_);
    }
    Handle(const Handle &) = delete;
    Handle &operator=(const Handle &) = delete;
    HANDLE get() const { return h_; }

private:
    HANDLE h_;
};

std::string g_note; // extra information a test wants on its result line
void note(const std::string &s) {
    g_note += (g_note.empty() ? "" : "; ") + s;
}

// Polls until `cond` holds or the deadline passes: no fixed sleeps in the tests.
bool waitUntil(const std::function<bool()> &cond, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!cond()) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(5ms);
    }
    return true;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return char(c >= 'A' && c <= 'Z' ? c + 32 : c); });
    return s;
}

bool endsWith(const std::string &s, const std::string &tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

template <typename T> bool contains(const std::vector<T> &v, const T &x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

std::wstring selfPath() {
    std::vector<wchar_t> buf(32768);
    const DWORD n = GetModuleFileNameW(nullptr, buf.data(), DWORD(buf.size()));
    return std::wstring(buf.data(), n);
}

std::wstring quoted(const std::wstring &arg) {
    return arg.find_first_of(L" \t") == std::wstring::npos ? arg : L"\"" + arg + L"\"";
}

// How Tether starts a service: its own (windowless) console, leading a new process group.
constexpr DWORD kServiceConsole = CREATE_NO_WINDOW | CREATE_NEW_PROCESS_GROUP;

// A child process this test started: the handle positively identifies it. Leftovers are
// terminated through that handle when the test ends. It has no console unless the flags give it
// one (kServiceConsole): a console would make terminate() ask it with CTRL_BREAK first.
class Child {
public:
    explicit Child(const std::vector<std::wstring> &args, DWORD flags = 0) {
        if (!(flags & (CREATE_NO_WINDOW | CREATE_NEW_CONSOLE))) flags |= DETACHED_PROCESS;
        std::wstring cmd = quoted(selfPath()) + L" child";
        for (const auto &a : args)
            cmd += L" " + quoted(a);
        STARTUPINFOW si{};
        si.cb = sizeof si;
        std::vector<wchar_t> line(cmd.begin(), cmd.end());
        line.push_back(L'\0');
        if (!CreateProcessW(nullptr, line.data(), nullptr, nullptr, FALSE, flags, nullptr, nullptr,
                            &si, &pi_))
            throw Failure{__LINE__, "CreateProcessW failed: " + std::to_string(GetLastError())};
    }
    ~Child() {
        if (WaitForSingleObject(pi_.hProcess, 0) == WAIT_TIMEOUT) {
            TerminateProcess(pi_.hProcess, 99);
            WaitForSingleObject(pi_.hProcess, 5000);
        }
        CloseHandle(pi_.hThread);
        CloseHandle(pi_.hProcess);
    }
    Child(const Child &) = delete;
    Child &operator=(const Child &) = delete;

    Pid pid() const { return Pid(pi_.dwProcessId); }
    HANDLE handle() const { return pi_.hProcess; }
    void resume() const { ResumeThread(pi_.hThread); }
    bool running() const { return WaitForSingleObject(pi_.hProcess, 0) == WAIT_TIMEOUT; }
    bool waitExit(DWORD ms) const { return WaitForSingleObject(pi_.hProcess, ms) == WAIT_OBJECT_0; }
    DWORD exitCode() const {
        DWORD code = 0;
        GetExitCodeProcess(pi_.hProcess, &code);
        return code;
    }
    // The start time straight from the OS, independent of the layer under test.
    std::uint64_t creationTime() const {
        FILETIME c{}, e{}, k{}, u{};
        GetProcessTimes(pi_.hProcess, &c, &e, &k, &u);
        return (std::uint64_t(c.dwHighDateTime) << 32) | c.dwLowDateTime;
    }
    Identity identity() const { return {pid(), creationTime()}; }

private:
    PROCESS_INFORMATION pi_{};
};

std::string jobName(const char *what) {
    return "tether-test-" + std::string(what) + "-" + std::to_string(GetCurrentProcessId()) + "-" +
           std::to_string(GetTickCount64());
}

// ---- child modes ----------------------------------------------------------------------------

int childCheckOwnArgv(); // defined next to the test that uses it
SOCKET listenOnLoopback(int family, std::uint16_t port, std::uint16_t *bound);

constexpr DWORD kChildLifetimeMs = 120000; // self-limit: nothing outlives a broken run for long

std::wstring selfCommand(const wchar_t *mode) {
    return quoted(selfPath()) + L" child " + mode;
}

bool spawnDetached(const std::wstring &cmd, DWORD flags = 0) {
    STARTUPINFOW si{};
    si.cb = sizeof si;
    PROCESS_INFORMATION pi{};
    std::vector<wchar_t> line(cmd.begin(), cmd.end());
    line.push_back(L'\0');
    if (!CreateProcessW(nullptr, line.data(), nullptr, nullptr, FALSE, flags, nullptr, nullptr, &si,
                        &pi))
        return false;
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    return true;
}

constexpr int kBreakawayRefused = 10; // "breakaway" child: CREATE_BREAKAWAY_FROM_JOB failed
constexpr int kExitedOnBreak = 42;    // "on-break" / "attach" child: its handler saw CTRL_BREAK
constexpr DWORD kControlCExit = 0xC000013A; // STATUS_CONTROL_C_EXIT: the default handler's exit

std::wstring readyEventName(DWORD pid) {
    return L"Local\\tether-test-ready-" + std::to_wstring(pid);
}

// Tells the parent that this child's console control handler is in place.
void signalReady() {
    HANDLE ready = CreateEventW(nullptr, TRUE, TRUE, readyEventName(GetCurrentProcessId()).c_str());
    (void)ready; // kept open for the child's lifetime, so the parent can find it
}

HANDLE g_breakSeen = nullptr;
BOOL WINAPI onCtrlBreak(DWORD type) {
    if (type != CTRL_BREAK_EVENT) return FALSE;
    SetEvent(g_breakSeen); // the main thread exits with kExitedOnBreak: a graceful stop
    return TRUE;
}
BOOL WINAPI ignoreCtrlBreakInChild(DWORD type) {
    return type == CTRL_BREAK_EVENT ? TRUE : FALSE;
}

// Until it saw CTRL_BREAK (exit kExitedOnBreak) or its lifetime ran out.
int exitOnBreak() {
    g_breakSeen = CreateEventW(nullptr, TRUE, FALSE, nullptr);
    SetConsoleCtrlHandler(onCtrlBreak, TRUE);
    signalReady();
    return WaitForSingleObject(g_breakSeen, kChildLifetimeMs) == WAIT_OBJECT_0 ? kExitedOnBreak : 0;
}

LRESULT CALLBACK closingWindowProc(HWND hwnd, UINT msg, WPARAM w, LPARAM l) {
    if (msg == WM_CLOSE) {
        DestroyWindow(hwnd);
        return 0;
    }
    if (msg == WM_DESTROY) {
        PostQuitMessage(0);
        return 0;
    }
    return DefWindowProcW(hwnd, msg, w, l);
}

int childMain(int argc, wchar_t **argv) {
    const std::wstring mode = argc > 2 ? argv[2] : L"";
    if (mode == L"sleep") { // also used with extra arguments for the argv test
        Sleep(kChildLifetimeMs);
        return 0;
    }
    if (mode == L"selfargv") return childCheckOwnArgv();
    if (mode == L"exit-code") return _wtoi(argv[3]);
    if (mode == L"on-break") return exitOnBreak(); // a service that stops on CTRL_BREAK
    if (mode == L"default-break") {                // no handler of its own: the default one ends it
        signalReady();
        Sleep(kChildLifetimeMs);
        return 0;
    }
    if (mode == L"ignore-break") { // one that does not: killed after the grace
        SetConsoleCtrlHandler(ignoreCtrlBreakInChild, TRUE);
        signalReady();
        Sleep(kChildLifetimeMs);
        return 0;
    }
    if (mode == L"attach") { // joins the console of pid argv[3]: a process outside its tree
        FreeConsole();
        if (!AttachConsole(DWORD(_wtoi(argv[3])))) return 11;
        return exitOnBreak();
    }
    if (mode == L"listen") { // holds 127.0.0.1:<port> until it is ended
        WSADATA wsa;
        WSAStartup(MAKEWORD(2, 2), &wsa);
        std::uint16_t bound = 0;
        if (listenOnLoopback(AF_INET, std::uint16_t(_wtoi(argv[3])), &bound) == INVALID_SOCKET)
            return 6;
        Sleep(kChildLifetimeMs);
        return 0;
    }
    if (mode == L"exit-after") {
        Sleep(DWORD(_wtoi(argv[3])));
        return 7;
    }
    if (mode == L"tree") { // parent -> middle -> leaf, all sleeping
        spawnDetached(selfCommand(L"middle"));
        Sleep(kChildLifetimeMs);
        return 0;
    }
    if (mode == L"breakaway") { // one child leaves the job (as a browser would), one stays
        if (!spawnDetached(selfCommand(L"sleep"), CREATE_BREAKAWAY_FROM_JOB))
            return kBreakawayRefused;
        spawnDetached(selfCommand(L"sleep"));
        Sleep(kChildLifetimeMs);
        return 0;
    }
    if (mode == L"middle") {
        spawnDetached(selfCommand(L"sleep"));
        Sleep(kChildLifetimeMs);
        return 0;
    }
    if (mode == L"window") { // exits 0 when asked to close, so a graceful stop is visible
        WNDCLASSW wc{};
        wc.lpfnWndProc = closingWindowProc;
        wc.hInstance = GetModuleHandleW(nullptr);
        wc.lpszClassName = L"TetherTestWindow";
        if (!RegisterClassW(&wc)) return 3;
        HWND hwnd = CreateWindowExW(0, wc.lpszClassName, L"tether test", WS_OVERLAPPEDWINDOW, 0, 0,
                                    100, 100, nullptr, nullptr, wc.hInstance, nullptr);
        if (!hwnd) return 4;
        ShowWindow(hwnd, SW_SHOWNORMAL);
        SetTimer(nullptr, 0, kChildLifetimeMs, nullptr);
        MSG msg;
        while (GetMessageW(&msg, nullptr, 0, 0) > 0) {
            if (msg.message == WM_TIMER) return 5;
            DispatchMessageW(&msg);
        }
        return 0;
    }
    return 2;
}

// ---- tests ----------------------------------------------------------------------------------

void testGuard() {
    for (Pid pid : {Pid(-5), Pid(0), Pid(1), Pid(4), currentPid()})
        CHECK_MSG(!maySignalPid(pid), std::to_string(pid));
    Child child({L"sleep"});
    CHECK(maySignalPid(child.pid()));
    for (Pid g : {Pid(0), Pid(1), child.pid(), Pid(12345)})
        CHECK(!maySignalGroup(g));
    std::string error;
    CHECK(!signalGroup(child.pid(), Signal::Kill, &error));
    CHECK(!error.empty());
    CHECK(currentProcessGroup() == 0);
    // terminate() of our own identity is refused by the guard, whatever the identity says.
    const auto self = identityOf(currentPid());
    CHECK(self.has_value());
    const TerminateResult r = terminate(*self, 100ms);
    CHECK(r.outcome == TerminateOutcome::Refused);
    CHECK(!signalIdentity(*self, Signal::Kill, &error));
    CHECK(!signalIdentity({4, 0}, Signal::Kill, &error));
    CHECK(child.running());
}

void testSnapshotFindsChild() {
    Child child({L"sleep"});
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<ProcessInfo> snap = snapshot();
    const auto ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0);
    auto it = std::find_if(snap.begin(), snap.end(),
                           [&](const ProcessInfo &p) { return p.pid == child.pid(); });
    CHECK(it != snap.end());
    CHECK(it->ppid == currentPid());
    CHECK(it->pgid == 0);
    CHECK(it->state == RunState::Running);
    CHECK(it->startTime != 0);
    CHECK(it->startTime == child.creationTime());
    CHECK_MSG(endsWith(lower(it->executable), "test_os_windows.exe"), it->executable);
    CHECK(!it->argv.empty());
    CHECK(it->rssKiB > 0);
    // Another process's command line needs NtQueryInformationProcess class 60 (Windows 8.1+);
    // where that is missing (wine 8) argv is exactly the executable, never a guess.
    if (it->argv.size() == 1)
        CHECK(it->argv[0] == it->executable);
    else
        CHECK_MSG(it->argv.size() == 3 && it->argv[1] == "child" && it->argv[2] == "sleep",
                  std::to_string(it->argv.size()) + " args");
    note(it->argv.size() == 1 ? "other processes' argv: {exe} only" : "full argv of others");
    const bool selfSeen = std::any_of(snap.begin(), snap.end(),
                                      [](const ProcessInfo &p) { return p.pid == currentPid(); });
    CHECK(selfSeen);
    // Once more, warm: the first call also pays for loading DLLs (shell32, psapi) under wine.
    const auto t1 = std::chrono::steady_clock::now();
    const std::size_t count = snapshot().size();
    const auto warm =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t1);
    char buf[128];
    std::snprintf(buf, sizeof buf, "snapshot of %zu processes: %.2f ms first, %.2f ms warm", count,
                  ms.count(), warm.count());
    note(buf);
}

const std::vector<std::string> kTrickyArgs{"two words", "x)y (z", "caf\xc3\xa9", "a\\b"};

// Child side: its own argv, read through inspect(), must be exactly what the parent passed.
int childCheckOwnArgv() {
    const Lookup self = inspect(currentPid());
    if (self.status != Lookup::Status::Found || self.info.argv.size() != kTrickyArgs.size() + 3)
        return 1;
    const bool exact =
        self.info.argv[1] == "child" && self.info.argv[2] == "selfargv" &&
        std::equal(kTrickyArgs.begin(), kTrickyArgs.end(), self.info.argv.begin() + 3);
    return exact ? 0 : 1;
}

void testArgvExact() {
    Child child({L"selfargv", L"two words", L"x)y (z", L"caf\u00e9", L"a\\b"});
    CHECK(child.waitExit(30000));
    CHECK_MSG(child.exitCode() == 0, "child saw a different argv");
    // From outside: the full argv where the OS gives it, else exactly the executable.
    Child other({L"sleep", L"two words", L"x)y (z"});
    const Lookup l = inspect(other.pid());
    CHECK(l.status == Lookup::Status::Found);
    CHECK(l.info.ppid == currentPid());
    if (l.info.argv.size() == 1) {
        CHECK(l.info.argv[0] == l.info.executable);
    } else {
        const std::vector<std::string> want{"child", "sleep", "two words", "x)y (z"};
        CHECK_MSG(l.info.argv.size() == want.size() + 1, std::to_string(l.info.argv.size()));
        CHECK(std::equal(want.begin(), want.end(), l.info.argv.begin() + 1));
    }
}

void testStartTimeStableAndDistinct() {
    Child a({L"sleep"});
    Child b({L"sleep"});
    const Lookup a1 = inspect(a.pid());
    const Lookup a2 = inspect(a.pid());
    const Lookup b1 = inspect(b.pid());
    CHECK(a1.status == Lookup::Status::Found && a2.status == Lookup::Status::Found);
    CHECK(b1.status == Lookup::Status::Found);
    CHECK(a1.info.startTime != 0);
    CHECK(a1.info.startTime == a2.info.startTime);
    CHECK(a1.info.startTime != b1.info.startTime);
    const auto id = identityOf(a.pid());
    CHECK(id.has_value() && *id == a.identity());
    CHECK(alive(a.identity()) == Liveness::Alive);
    CHECK(alive({a.pid(), a.identity().startTime + 1}) == Liveness::Gone); // a reused pid
}

void testExitedChildNotAliveWhileHandleOpen() {
    Child child({L"exit-after", L"1500"});
    const Identity id = child.identity();
    CHECK(alive(id) == Liveness::Alive);
    CHECK(child.waitExit(30000));
    CHECK(child.exitCode() == 7);
    // We still hold the handle, so the process object (and its pid) still exist.
    CHECK(alive(id) == Liveness::Gone);
    const Lookup l = inspect(id.pid);
    CHECK(l.status != Lookup::Status::Error);
    if (l.status == Lookup::Status::Found) CHECK(l.info.state == RunState::Zombie);
    note(l.status == Lookup::Status::Found ? "exited process still openable: state Zombie"
                                           : "exited process not openable: NotFound");
    CHECK(!identityOf(id.pid).has_value());
    CHECK(waitGone(id, 1000ms));
    CHECK(terminate(id, 100ms).outcome == TerminateOutcome::AlreadyGone);
}

// 259 is STILL_ACTIVE: an exit code cannot tell such a process from a running one, its handle can.
void testExitCode259IsGone() {
    Child child({L"exit-code", L"259"});
    const Identity id = child.identity();
    CHECK(child.waitExit(30000));
    CHECK(child.exitCode() == STILL_ACTIVE);
    CHECK_MSG(alive(id) == Liveness::Gone, "an exit code of 259 read as alive");
    const Lookup l = inspect(id.pid);
    CHECK(l.status != Lookup::Status::Error);
    if (l.status == Lookup::Status::Found) CHECK(l.info.state == RunState::Zombie);
    const std::vector<ProcessInfo> snap = snapshot();
    for (const ProcessInfo &p : snap)
        if (p.pid == id.pid) CHECK(p.state == RunState::Zombie);
    CHECK(!identityOf(id.pid).has_value());
    CHECK(waitGone(id, 1000ms));
    CHECK(terminate(id, 100ms).outcome == TerminateOutcome::AlreadyGone);
    std::string error;
    CHECK(!ExitWatch::open(id, &error));
}

// The memory column of the MCP rows: GetProcessMemoryInfo needs PROCESS_VM_READ.
void testRssOfLiveChild() {
    Child child({L"sleep"});
    const Lookup l = inspect(child.pid());
    CHECK(l.status == Lookup::Status::Found);
    CHECK_MSG(l.info.rssKiB > 0, "inspect: rss 0");
    const std::vector<ProcessInfo> snap = snapshot();
    const auto it = std::find_if(snap.begin(), snap.end(),
                                 [&](const ProcessInfo &p) { return p.pid == child.pid(); });
    CHECK(it != snap.end());
    CHECK_MSG(it->rssKiB > 0, "snapshot: rss 0");
    note("rss " + std::to_string(l.info.rssKiB) + " KiB");
}

void testInspectMissingPid() {
    // Windows pids are multiples of 4; 0xFFFFFFF0 is never handed out in practice.
    const Lookup l = inspect(Pid(0xFFFFFFF0u));
    CHECK(l.status == Lookup::Status::NotFound);
    CHECK(alive({Pid(0xFFFFFFF0u), 1}) == Liveness::Gone);
    CHECK(inspect(-3).status == Lookup::Status::NotFound);
}

void testForgedIdentityRefused() {
    Child child({L"sleep"});
    const Identity real = child.identity();
    const Identity forged{real.pid, real.startTime + 10'000'000}; // one second off
    const TerminateResult r = terminate(forged, 200ms);
    CHECK_MSG(r.outcome == TerminateOutcome::Refused, toString(r.outcome));
    std::string error;
    CHECK(!signalIdentity(forged, Signal::Kill, &error));
    CHECK(error.find("mismatch") != std::string::npos);
    CHECK(!signalIdentity({real.pid, real.startTime - 1}, Signal::Kill, &error));
    CHECK(!signalIdentity(forged, Signal::Terminate, &error));
    // The decoy received nothing: it is still running a while later.
    CHECK(!child.waitExit(500));
    CHECK(alive(real) == Liveness::Alive);
}

// The process handle is the exit notification: not signalled while the child runs, signalled
// once it is ended; a forged identity is never watched.
void testExitWatchSignalledOnExit() {
    Child child({L"sleep"});
    const Identity real = child.identity();
    std::string error;
    CHECK(!ExitWatch::open({real.pid, real.startTime + 10'000'000}, &error));
    CHECK(!error.empty());
    const std::unique_ptr<ExitWatch> w = ExitWatch::open(real, &error);
    CHECK_MSG(w != nullptr, error);
    CHECK(w->handle() != nullptr && w->fd() == -1);
    CHECK(!w->exited());
    CHECK(WaitForSingleObject(static_cast<HANDLE>(w->handle()), 100) == WAIT_TIMEOUT);
    CHECK(terminate(real, 100ms).outcome == TerminateOutcome::Killed);
    CHECK(WaitForSingleObject(static_cast<HANDLE>(w->handle()), 5000) == WAIT_OBJECT_0);
    CHECK(w->exited());
}

void testTerminateEndsChild() {
    Child child({L"sleep"}); // no console, no window: nothing to ask
    const Identity id = child.identity();
    const auto t0 = std::chrono::steady_clock::now();
    const TerminateResult r = terminate(id, 30000ms);
    const auto ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0);
    CHECK_MSG(r.outcome == TerminateOutcome::Killed, toString(r.outcome) + (": " + r.detail));
    CHECK(child.waitExit(0));
    CHECK(alive(id) == Liveness::Gone);
    // Nothing to ask: no pointless wait for the grace period (the margin covers user32's first
    // start-up under wine, which can take a second or two).
    CHECK_MSG(ms.count() < 15000, r.detail);
    CHECK(terminate(id, 100ms).outcome == TerminateOutcome::AlreadyGone);
    char buf[64];
    std::snprintf(buf, sizeof buf, "terminate took %.1f ms", ms.count());
    note(buf);
}

// wine's version, empty on Windows.
std::string wineVersion() {
    using Fn = const char *(*)();
    const HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    const auto fn = reinterpret_cast<Fn>(
        reinterpret_cast<void (*)()>(ntdll ? GetProcAddress(ntdll, "wine_get_version") : nullptr));
    return fn ? fn() : "";
}

// wine 8.0 cannot deliver CTRL_BREAK_EVENT: its server answers GenerateConsoleCtrlEvent with
// STATUS_NOT_IMPLEMENTED for anything but CTRL_C (seen with WINEDEBUG=+server). There, and only
// there, terminate() is expected to say so and kill at once; anywhere else the send must work.
bool ctrlBreakUnsupportedHere(const TerminateResult &r) {
    return !wineVersion().empty() &&
           r.detail.find("not asked first: GenerateConsoleCtrlEvent") != std::string::npos;
}

// What a run on wine 8 can check of a stop that should have been graceful: refused by the
// platform, the process is killed at once (no grace wait for an ask that never went out).
void checkKilledAtOnceWithoutCtrlBreak(const TerminateResult &r, double ms, const Child &child) {
    CHECK_MSG(r.outcome == TerminateOutcome::Killed, toString(r.outcome) + (": " + r.detail));
    CHECK(child.waitExit(5000));
    CHECK_MSG(ms < 10000, std::to_string(ms) + " ms: waited for a grace it had no reason for");
    note("wine " + wineVersion() +
         " does not implement CTRL_BREAK_EVENT: graceful exit not shown, killed at once");
}

// The child has set up its console control handler.
bool waitReady(const Child &child) {
    return waitUntil(
               [&] {
                   HANDLE e =
                       OpenEventW(SYNCHRONIZE, FALSE, readyEventName(DWORD(child.pid())).c_str());
                   if (e) CloseHandle(e);
                   return e != nullptr || !child.running();
               },
               20000ms) &&
           child.running();
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// A console service is asked with CTRL_BREAK (through its console: the test, like GUI Tether,
// has none) and stops on its own: ExitedOnTerm, its own exit code, well inside the grace.
void testTerminateStopsConsoleServiceWithCtrlBreak() {
    Child child({L"on-break"}, kServiceConsole);
    CHECK_MSG(waitReady(child), "child not ready; exit code " + std::to_string(child.exitCode()));
    const auto t0 = std::chrono::steady_clock::now();
    const TerminateResult r = terminate(child.identity(), 20000ms);
    const double ms = msSince(t0);
    if (ctrlBreakUnsupportedHere(r)) return checkKilledAtOnceWithoutCtrlBreak(r, ms, child);
    CHECK_MSG(r.outcome == TerminateOutcome::ExitedOnTerm, toString(r.outcome) + (": " + r.detail));
    CHECK(r.detail.find("CTRL_BREAK") != std::string::npos);
    CHECK(child.waitExit(5000));
    CHECK_MSG(child.exitCode() == DWORD(kExitedOnBreak), std::to_string(child.exitCode()));
    CHECK_MSG(ms < 10000, std::to_string(ms) + " ms");
    char buf[64];
    std::snprintf(buf, sizeof buf, "stopped on CTRL_BREAK in %.1f ms", ms);
    note(buf);
}

// Without a handler of its own, CTRL_BREAK ends a console program (as node without a SIGBREAK
// listener): still a stop it was asked for, not a kill.
void testCtrlBreakDefaultHandlerEndsProcess() {
    Child child({L"default-break"}, kServiceConsole);
    CHECK_MSG(waitReady(child), "child not ready; exit code " + std::to_string(child.exitCode()));
    const auto t0 = std::chrono::steady_clock::now();
    const TerminateResult r = terminate(child.identity(), 20000ms);
    if (ctrlBreakUnsupportedHere(r))
        return checkKilledAtOnceWithoutCtrlBreak(r, msSince(t0), child);
    CHECK_MSG(r.outcome == TerminateOutcome::ExitedOnTerm, toString(r.outcome) + (": " + r.detail));
    CHECK(child.waitExit(5000));
    CHECK_MSG(child.exitCode() == kControlCExit, std::to_string(child.exitCode()));
}

// A service that ignores CTRL_BREAK is killed once the grace has passed, not before.
void testTerminateKillsCtrlBreakIgnorerAfterGrace() {
    Child child({L"ignore-break"}, kServiceConsole);
    CHECK_MSG(waitReady(child), "child not ready; exit code " + std::to_string(child.exitCode()));
    const auto t0 = std::chrono::steady_clock::now();
    const TerminateResult r = terminate(child.identity(), 1500ms);
    const double ms = msSince(t0);
    if (ctrlBreakUnsupportedHere(r)) return checkKilledAtOnceWithoutCtrlBreak(r, ms, child);
    CHECK_MSG(r.outcome == TerminateOutcome::Killed, toString(r.outcome) + (": " + r.detail));
    CHECK(r.detail.find("ignored CTRL_BREAK") != std::string::npos);
    CHECK(child.waitExit(5000));
    CHECK_MSG(child.exitCode() == 1, std::to_string(child.exitCode()));
    CHECK_MSG(ms >= 1500 && ms < 10000, std::to_string(ms) + " ms");
    char buf[64];
    std::snprintf(buf, sizeof buf, "killed after %.1f ms (grace 1500)", ms);
    note(buf);
}

// CTRL_BREAK reaches every process on a console: a console that a process outside the target's
// tree shares gets none. The target is killed without a grace wait; the stranger hears nothing.
void testCtrlBreakNeverSentToASharedConsole() {
    Child target({L"ignore-break"}, kServiceConsole);
    CHECK_MSG(waitReady(target), "target not ready");
    Child stranger({L"attach", std::to_wstring(target.pid())});
    CHECK_MSG(waitReady(stranger),
              "stranger did not attach; exit code " + std::to_string(stranger.exitCode()));
    const auto t0 = std::chrono::steady_clock::now();
    const TerminateResult r = terminate(target.identity(), 20000ms);
    const double ms = msSince(t0);
    CHECK_MSG(r.outcome == TerminateOutcome::Killed, toString(r.outcome) + (": " + r.detail));
    CHECK_MSG(r.detail.find("outside its tree") != std::string::npos, r.detail);
    CHECK_MSG(ms < 10000, std::to_string(ms) + " ms: waited for a grace it had no reason for");
    CHECK_MSG(!stranger.waitExit(500),
              "the stranger got the CTRL_BREAK, exit code " + std::to_string(stranger.exitCode()));
    note(r.detail);
}

void testTerminateClosesWindowGracefully() {
    Child child({L"window"}); // a window, no console: asked with WM_CLOSE
    const Identity id = child.identity();
    // Wait for the window to exist before asking it to close.
    struct Find {
        DWORD pid;
        bool found = false;
    } find{DWORD(child.pid())};
    const bool hasWindow = waitUntil(
        [&] {
            EnumWindows(
                [](HWND hwnd, LPARAM p) -> BOOL {
                    auto *f = reinterpret_cast<Find *>(p);
                    DWORD owner = 0;
                    GetWindowThreadProcessId(hwnd, &owner);
                    if (owner == f->pid && IsWindowVisible(hwnd)) f->found = true;
                    return TRUE;
                },
                reinterpret_cast<LPARAM>(&find));
            return find.found || !child.running();
        },
        20000ms);
    // Headless wine needs its null display driver for this (scripts/test.sh selects it:
    // HKCU\Software\Wine\Drivers Graphics=null, effective from the next wineserver session).
    CHECK_MSG(hasWindow && find.found,
              "no window; child exit code " + std::to_string(child.exitCode()) +
                  " (headless wine: set HKCU\\Software\\Wine\\Drivers Graphics=null)");
    const TerminateResult r = terminate(id, 10000ms);
    CHECK_MSG(r.outcome == TerminateOutcome::ExitedOnTerm, toString(r.outcome) + (": " + r.detail));
    CHECK(child.waitExit(5000));
    CHECK_MSG(child.exitCode() == 0,
              std::to_string(child.exitCode()) + ", " +
                  r.detail); // it closed itself; TerminateProcess would have left 1
}

void testSignalIdentity() {
    Child child({L"sleep"}); // no console, no window: nothing can ask it to exit
    const Identity id = child.identity();
    std::string error;
    CHECK(!signalIdentity(id, Signal::Stop, &error));
    CHECK(!error.empty());
    CHECK(signalIdentity(id, Signal::Continue, &error)); // a no-op: nothing is ever stopped
    CHECK(child.running());
    // The sweep's TERM: a process that cannot be asked is ended at once, not waited for.
    CHECK(signalIdentity(id, Signal::Terminate, &error));
    CHECK(child.waitExit(10000));
    CHECK_MSG(child.exitCode() == 1, std::to_string(child.exitCode()));
    CHECK(waitGone(id, 5000ms));
    Child other({L"sleep"});
    CHECK(signalIdentity(other.identity(), Signal::Kill, &error));
    CHECK(other.waitExit(10000));
}

void testTerminateSignalAsksAWindowToClose() {
    Child child({L"window"});
    const Identity id = child.identity();
    CHECK(waitUntil(
        [&] {
            bool found = false;
            std::pair<DWORD, bool *> look{DWORD(child.pid()), &found};
            EnumWindows(
                [](HWND hwnd, LPARAM p) -> BOOL {
                    auto *f = reinterpret_cast<std::pair<DWORD, bool *> *>(p);
                    DWORD owner = 0;
                    GetWindowThreadProcessId(hwnd, &owner);
                    if (owner == f->first && IsWindowVisible(hwnd)) *f->second = true;
                    return TRUE;
                },
                reinterpret_cast<LPARAM>(&look));
            return found || !child.running();
        },
        20000ms));
    std::string error;
    CHECK(signalIdentity(id, Signal::Terminate, &error));
    CHECK(child.waitExit(10000));
    CHECK_MSG(child.exitCode() == 0, std::to_string(child.exitCode())); // closed itself
}

// The job's pids, once `n` are in it.
std::vector<Pid> waitForJobPids(const Job &job, std::size_t n) {
    std::vector<Pid> pids;
    waitUntil(
        [&] {
            pids = job.pids();
            return pids.size() >= n;
        },
        20000ms);
    return pids;
}

void testJobEndsTreeWithGrandchild() {
    std::string error;
    const std::string name = jobName("tree");
    auto job = Job::create(name, &error);
    CHECK_MSG(job != nullptr, error);
    Child parent({L"tree"}, CREATE_SUSPENDED); // assigned before it can spawn anything
    CHECK_MSG(job->assign(parent.pid(), &error), error);
    parent.resume();
    const std::vector<Pid> pids = waitForJobPids(*job, 3);
    CHECK_MSG(pids.size() == 3, std::to_string(pids.size()) + " in the job");
    CHECK(contains(pids, parent.pid()));
    // The job holds exactly the tree: parent, its child and its grandchild.
    const std::vector<Pid> tree = descendants(parent.pid());
    CHECK_MSG(tree.size() == 2, std::to_string(tree.size()) + " descendants");
    for (Pid p : tree)
        CHECK(contains(pids, p));
    std::vector<Identity> ids;
    for (Pid p : pids) {
        const auto id = identityOf(p);
        CHECK(id.has_value());
        ids.push_back(*id);
    }
    CHECK_MSG(job->terminate(1, &error), error);
    for (const Identity &id : ids)
        CHECK_MSG(waitGone(id, 10000ms), "pid " + std::to_string(id.pid) + " survived");
    CHECK(parent.waitExit(5000));
    CHECK(waitUntil([&] { return job->pids().empty(); }, 10000ms));
}

// How Tether starts a service on Windows: created suspended, put in its job, then resumed by the
// layer (not through the creator's thread handle, which QProcess keeps to itself).
void testJobAssignsAndResumesASuspendedStart() {
    std::string error;
    auto job = Job::create(jobName("suspended"), &error);
    CHECK_MSG(job != nullptr, error);
    Child parent({L"tree"}, CREATE_SUSPENDED);
    CHECK(descendants(parent.pid()).empty()); // suspended: it has started nothing yet
    CHECK_MSG(job->assign(parent.pid(), &error), error);
    CHECK_MSG(resumeSuspended(parent.pid(), &error), error);
    // It runs, and what it starts is born in the job.
    const std::vector<Pid> pids = waitForJobPids(*job, 3);
    CHECK_MSG(pids.size() == 3, std::to_string(pids.size()) + " in the job");
    CHECK(contains(pids, parent.pid()));
    CHECK(!resumeSuspended(currentPid(), &error)); // never Tether itself
    CHECK(error.find("guard") != std::string::npos);
    CHECK(!resumeSuspended(Pid(0x7ffffff0), &error)); // no such process: said, not pretended
    CHECK_MSG(job->terminate(1, &error), error);
    CHECK(parent.waitExit(10000));
    CHECK(waitUntil([&] { return job->pids().empty(); }, 10000ms));
}

// endServiceJob's wait: once waitEmpty says so, the job's processes are gone and the port the
// service held is free at once, so a relaunch on the same port does not meet its predecessor.
void testJobWaitEmptyFreesThePort() {
    std::uint16_t port = 0;
    {
        SOCKET probe = listenOnLoopback(AF_INET, 0, &port); // a free port, for the child
        CHECK(probe != INVALID_SOCKET);
        closesocket(probe);
    }
    std::string error;
    auto job = Job::create(jobName("empty"), &error);
    CHECK_MSG(job != nullptr, error);
    Child holder({L"listen", std::to_wstring(port)}, CREATE_SUSPENDED);
    CHECK_MSG(job->assign(holder.pid(), &error), error);
    holder.resume();
    CHECK_MSG(waitUntil([&] { return listeningPortOwners(port).listening || !holder.running(); },
                        20000ms) &&
                  holder.running(),
              "the child did not listen; exit code " + std::to_string(holder.exitCode()));
    CHECK_MSG(!job->waitEmpty(200ms), "a job with a running process reads as empty");
    CHECK_MSG(job->terminate(1, &error), error);
    const auto t0 = std::chrono::steady_clock::now();
    const bool emptied = job->waitEmpty(5000ms);
    const auto ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0);
    CHECK(emptied);
    CHECK(job->pids().empty());
    CHECK(holder.waitExit(0)); // no further wait: it is gone already
    // The port, right away: bind it as the next service would.
    std::uint16_t again = 0;
    SOCKET next = listenOnLoopback(AF_INET, port, &again);
    const int bindError = WSAGetLastError();
    if (next != INVALID_SOCKET) closesocket(next);
    CHECK_MSG(next != INVALID_SOCKET, "port still held: " + std::to_string(bindError));
    char buf[96];
    std::snprintf(buf, sizeof buf, "port %u free after waitEmpty %.1f ms", unsigned(port),
                  ms.count());
    note(buf);
}

// A job Tether makes allows breakaway: what the service starts with CREATE_BREAKAWAY_FROM_JOB (a
// browser for an OAuth login) survives the end of the job; what it starts normally does not.
void testJobBreakawaySurvivesNormalChildDoesNot() {
    std::string error;
    auto job = Job::create(jobName("breakaway"), &error);
    CHECK_MSG(job != nullptr, error);
    Child parent({L"breakaway"}, CREATE_SUSPENDED);
    CHECK_MSG(job->assign(parent.pid(), &error), error);
    parent.resume();
    std::vector<Pid> below;
    CHECK(waitUntil(
        [&] {
            // Our own copies only: wine may start a conhost.exe for a console-less child.
            below.clear();
            for (Pid p : descendants(parent.pid())) {
                const Lookup l = inspect(p);
                if (l.status == Lookup::Status::Found &&
                    endsWith(lower(l.info.executable), "test_os_windows.exe"))
                    below.push_back(p);
            }
            return below.size() >= 2 || !parent.running();
        },
        20000ms));
    CHECK_MSG(parent.running(),
              "exit code " + std::to_string(parent.exitCode()) +
                  (parent.exitCode() == kBreakawayRefused ? " (breakaway refused)" : ""));
    CHECK_MSG(below.size() == 2, std::to_string(below.size()) + " children");
    std::vector<Pid> inJob;
    waitUntil(
        [&] {
            inJob.clear();
            for (Pid p : job->pids()) // ours only, again: not a conhost.exe of wine's
                if (p == parent.pid() || contains(below, p)) inJob.push_back(p);
            return inJob.size() >= 2;
        },
        20000ms);
    CHECK_MSG(inJob.size() == 2, std::to_string(inJob.size()) + " in the job");
    CHECK(contains(inJob, parent.pid()));
    std::vector<Identity> left, stayed;
    for (Pid p : below) {
        const auto id = identityOf(p);
        CHECK(id.has_value());
        (contains(inJob, p) ? stayed : left).push_back(*id);
    }
    CHECK_MSG(left.size() == 1 && stayed.size() == 1,
              std::to_string(left.size()) + " left the job, " + std::to_string(stayed.size()) +
                  " stayed");
    CHECK_MSG(job->terminate(1, &error), error);
    CHECK(parent.waitExit(10000));
    CHECK_MSG(waitGone(stayed[0], 10000ms), "the normal child survived the job");
    CHECK_MSG(alive(left[0]) == Liveness::Alive, "the breakaway child died with the job");
    // Ours to end: started by our child, identity verified by terminate() itself.
    CHECK(terminate(left[0], 100ms).outcome == TerminateOutcome::Killed);
}

// Negative control: in a job without JOB_OBJECT_LIMIT_BREAKAWAY_OK the same child cannot leave.
void testJobWithoutBreakawayOkRefusesBreakaway() {
    Handle raw(CreateJobObjectW(nullptr, nullptr));
    CHECK(raw.get() != nullptr);
    Child parent({L"breakaway"}, CREATE_SUSPENDED);
    CHECK(AssignProcessToJobObject(raw.get(), parent.handle()));
    parent.resume();
    const bool exited = parent.waitExit(20000);
    if (!exited) { // it broke away: end what our child started, each identity verified
        for (Pid p : descendants(parent.pid()))
            if (const auto id = identityOf(p)) terminate(*id, 0ms);
        TerminateJobObject(raw.get(), 1);
    }
    CHECK_MSG(exited && parent.exitCode() == DWORD(kBreakawayRefused),
              "breakaway allowed without BREAKAWAY_OK");
}

// What keeps a job reopenable after Tether's own handle is closed (Tether quit) is the handle
// duplicated into the service. On Windows a job's name goes with its last handle; wine keeps the
// name while the job has processes, so there the negative control cannot fail and the proof is
// the duplicate itself, fetched back from the service's handle table and queried.
void testJobKeptOpenByItsService() {
    std::string error;
    const std::string name = jobName("kept");
    bool withoutDuplicateReopens = false;
    {
        Child service({L"sleep"}, CREATE_SUSPENDED);
        {
            auto job = Job::create(name, &error);
            CHECK_MSG(job != nullptr, error);
            CHECK_MSG(job->assign(service.pid(), &error), error);
            CHECK(!job->keepOpenIn({service.pid(), service.creationTime() + 1}, &error));
            CHECK(error.find("mismatch") != std::string::npos); // a forgery gets no handle
            const auto value = job->keepOpenIn(service.identity(), &error);
            CHECK_MSG(value.has_value(), error);
            service.resume();
            // From the service's side: its handle table holds a handle to exactly this job.
            HANDLE back = nullptr;
            CHECK_MSG(DuplicateHandle(service.handle(),
                                      reinterpret_cast<HANDLE>(std::uintptr_t(*value)),
                                      GetCurrentProcess(), &back, 0, FALSE, DUPLICATE_SAME_ACCESS),
                      "no such handle in the service: " + std::to_string(GetLastError()));
            Handle fetched(back);
            BOOL inJob = FALSE;
            CHECK(IsProcessInJob(service.handle(), fetched.get(), &inJob) && inJob);
            JOBOBJECT_BASIC_ACCOUNTING_INFORMATION acct{};
            CHECK(QueryInformationJobObject(fetched.get(), JobObjectBasicAccountingInformation,
                                            &acct, sizeof acct, nullptr));
            CHECK(acct.ActiveProcesses == 1);
        } // Tether's handle is closed: only the service's keeps the job
        auto reopened = Job::open(name, &error);
        CHECK_MSG(reopened != nullptr, error);
        CHECK(reopened->pids() == std::vector<Pid>{service.pid()});

        // Negative control: the same job without the duplicate.
        const std::string bare = jobName("bare");
        Child other({L"sleep"}, CREATE_SUSPENDED);
        {
            auto job = Job::create(bare, &error);
            CHECK_MSG(job != nullptr, error);
            CHECK_MSG(job->assign(other.pid(), &error), error);
            other.resume();
        }
        if (auto j = Job::open(bare, &error)) {
            withoutDuplicateReopens = true; // wine's leniency; Windows refuses here
            CHECK(j->terminate(1, &error));
        }
        CHECK_MSG(reopened->terminate(1, &error), error);
        CHECK(reopened->waitEmpty(10000ms));
        CHECK(service.waitExit(5000) && other.waitExit(5000));
    } // the service's process object released: with it went its handle to the job
    CHECK_MSG(waitUntil([&] { return Job::open(name, &error) == nullptr; }, 10000ms),
              "the job outlived its service");
    note(withoutDuplicateReopens
             ? "wine keeps a job's name while it has processes: negative control not shown"
             : "without the duplicate the job could not be reopened (Windows semantics)");
}

void testJobReopenedByName() {
    std::string error;
    const std::string name = jobName("reopen");
    CHECK(Job::open(name, &error) == nullptr); // nothing by that name yet
    CHECK(!error.empty());
    Child a({L"sleep"}, CREATE_SUSPENDED);
    Child b({L"sleep"}, CREATE_SUSPENDED);
    {
        auto job = Job::create(name, &error);
        CHECK_MSG(job != nullptr, error);
        CHECK_MSG(job->assign(a.pid(), &error), error);
        CHECK_MSG(job->assign(b.pid(), &error), error);
        CHECK_MSG(job->keepOpenIn(a.identity(), &error).has_value(), error); // as for a service
        a.resume();
        b.resume();
        CHECK(!job->assign(currentPid(), &error));   // Tether never joins its own job
        CHECK(Job::create(name, &error) == nullptr); // a name in use is not silently reused
    } // the creating handle is closed, like a Tether that quit: a's handle keeps the job
    CHECK(a.running() && b.running());
    auto reopened = Job::open(name, &error);
    CHECK_MSG(reopened != nullptr, error);
    const std::vector<Pid> pids = reopened->pids();
    CHECK_MSG(pids.size() == 2, std::to_string(pids.size()));
    CHECK(contains(pids, a.pid()) && contains(pids, b.pid()));
    CHECK_MSG(reopened->terminate(3, &error), error);
    CHECK(a.waitExit(10000) && b.waitExit(10000));
    CHECK(a.exitCode() == 3 && b.exitCode() == 3);
}

// A hand-built GetExtendedTcpTable buffer: proves the walk, the state filter, the byte order of
// the port and the pid mapping, independently of what wine fills in.
void testTcpTableDecoding() {
    using namespace tether::os::windows;
    {
        std::vector<unsigned char> buf(offsetof(MIB_TCPTABLE_OWNER_PID, table) +
                                       3 * sizeof(MIB_TCPROW_OWNER_PID));
        const DWORD n = 3;
        std::memcpy(buf.data(), &n, sizeof n);
        auto put = [&](int i, DWORD state, std::uint16_t port, DWORD pid,
                       DWORD addr = htonl(INADDR_LOOPBACK)) {
            MIB_TCPROW_OWNER_PID row{};
            row.dwState = state;
            row.dwLocalAddr = addr;
            row.dwLocalPort = htons(port); // network order in the low word, as the OS writes it
            row.dwOwningPid = pid;
            std::memcpy(buf.data() + offsetof(MIB_TCPTABLE_OWNER_PID, table) +
                            std::size_t(i) * sizeof row,
                        &row, sizeof row);
        };
        put(0, MIB_TCP_STATE_LISTEN, 49374, 1234);
        put(1, MIB_TCP_STATE_ESTAB, 49374, 999);                  // not a listener
        put(2, MIB_TCP_STATE_LISTEN, 8080, 0, htonl(INADDR_ANY)); // owner unknown (as wine)
        const auto rows = listenersInTcpTable(buf.data(), buf.size(), TcpFamily::V4);
        CHECK(rows.size() == 2);
        CHECK(rows[0].pid == 1234 && rows[0].port == 49374);
        CHECK(!rows[0].ipv6 && !rows[0].wildcard);
        CHECK(!rows[1].ipv6 && rows[1].wildcard); // 0.0.0.0
        const PortOwners a = portOwnersFrom(rows, 49374);
        CHECK(a.ok && a.listening && a.pids == std::vector<Pid>{1234});
        CHECK(a.listeners.size() == 1 && a.listeners[0].pid == 1234 && !a.listeners[0].ipv6 &&
              !a.listeners[0].wildcard);
        const PortOwners b = portOwnersFrom(rows, 8080);
        CHECK(b.ok && b.listening && b.pids.empty());
        // pid 0 is kept as "owner unreadable", never dropped: the listener still exists.
        CHECK(b.listeners.size() == 1 && b.listeners[0].pid == 0 && b.listeners[0].wildcard);
        const PortOwners c = portOwnersFrom(rows, 1234);
        CHECK(c.ok && !c.listening && c.pids.empty() && c.listeners.empty());
        // A count larger than the buffer: only whole rows inside it are read.
        const auto cut = listenersInTcpTable(buf.data(), buf.size() - 1, TcpFamily::V4);
        CHECK(cut.size() == 1 && cut[0].port == 49374);
        CHECK(listenersInTcpTable(buf.data(), 2, TcpFamily::V4).empty());
        CHECK(listenersInTcpTable(nullptr, 0, TcpFamily::V4).empty());
    }
    {
        std::vector<unsigned char> buf(offsetof(MIB_TCP6TABLE_OWNER_PID, table) +
                                       2 * sizeof(MIB_TCP6ROW_OWNER_PID));
        const DWORD n = 2;
        std::memcpy(buf.data(), &n, sizeof n);
        MIB_TCP6ROW_OWNER_PID row{};
        row.ucLocalAddr[15] = 1; // ::1
        row.dwState = MIB_TCP_STATE_LISTEN;
        row.dwLocalPort = htons(49375);
        row.dwOwningPid = 4321;
        std::memcpy(buf.data() + offsetof(MIB_TCP6TABLE_OWNER_PID, table), &row, sizeof row);
        row.dwLocalPort = htons(49375);
        row.dwOwningPid = 4321;  // the same owner twice (dual listeners) is listed once
        row.ucLocalAddr[15] = 0; // in6addr_any
        std::memcpy(buf.data() + offsetof(MIB_TCP6TABLE_OWNER_PID, table) + sizeof row, &row,
                    sizeof row);
        const auto rows = listenersInTcpTable(buf.data(), buf.size(), TcpFamily::V6);
        CHECK(rows.size() == 2 && rows[1].port == 49375 && rows[1].pid == 4321);
        CHECK(rows[0].ipv6 && !rows[0].wildcard && rows[1].ipv6 && rows[1].wildcard);
        const PortOwners o = portOwnersFrom(rows, 49375);
        CHECK(o.listening && o.pids == std::vector<Pid>{4321});
        // ...but each socket is its own listener.
        CHECK(o.listeners.size() == 2 && o.listeners[0].ipv6 && o.listeners[1].ipv6);
        CHECK(!o.listeners[0].wildcard && o.listeners[1].wildcard);
    }
}

// A loopback listener of this process on `port` (0: any free port); INVALID_SOCKET on failure.
SOCKET listenOnLoopback(int family, std::uint16_t port, std::uint16_t *bound) {
    SOCKET s = socket(family, SOCK_STREAM, IPPROTO_TCP);
    if (s == INVALID_SOCKET) return s;
    sockaddr_storage addr{};
    int len = 0;
    if (family == AF_INET) {
        auto *a = reinterpret_cast<sockaddr_in *>(&addr);
        a->sin_family = AF_INET;
        a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a->sin_port = htons(port);
        len = sizeof *a;
    } else {
        auto *a = reinterpret_cast<sockaddr_in6 *>(&addr);
        a->sin6_family = AF_INET6;
        a->sin6_addr = in6addr_loopback;
        a->sin6_port = htons(port);
        len = sizeof *a;
    }
    if (bind(s, reinterpret_cast<sockaddr *>(&addr), len) != 0 || listen(s, 4) != 0) {
        const int error = WSAGetLastError();
        closesocket(s);
        WSASetLastError(error); // for the caller's message
        return INVALID_SOCKET;
    }
    int got = sizeof addr;
    getsockname(s, reinterpret_cast<sockaddr *>(&addr), &got);
    *bound = ntohs(family == AF_INET ? reinterpret_cast<sockaddr_in *>(&addr)->sin_port
                                     : reinterpret_cast<sockaddr_in6 *>(&addr)->sin6_port);
    return s;
}

// The owner of a listener we bound ourselves. Real Windows names us; wine 8 fills in pid 0 for
// every row of GetExtendedTcpTable (it does not track socket owners), and the OS layer keeps a
// 0 as "owner unreadable" rather than guessing: so us OR 0, and nothing else.
bool ownerIsUsOrUnreadable(Pid pid) {
    return pid == currentPid() || pid == 0;
}

// A real listener from winsock, found through the real GetExtendedTcpTable.
void checkLiveListener(int family) {
    std::uint16_t port = 0;
    SOCKET s = listenOnLoopback(family, 0, &port);
    const int bindError = WSAGetLastError();
    PortOwners o;
    if (s != INVALID_SOCKET) o = listeningPortOwners(port);
    if (s != INVALID_SOCKET) closesocket(s);
    CHECK_MSG(s != INVALID_SOCKET, "bind/listen failed: " + std::to_string(bindError));
    CHECK_MSG(o.ok, o.error);
    CHECK(o.listening);
    // The pid mapping: wine 8 reports pid 0 (unknown); real Windows must name us.
    CHECK(o.pids.empty() || (o.pids.size() == 1 && o.pids[0] == currentPid()));
    CHECK_MSG(o.listeners.size() == 1, std::to_string(o.listeners.size()));
    CHECK(o.listeners[0].ipv6 == (family == AF_INET6));
    CHECK(!o.listeners[0].wildcard);
    CHECK(ownerIsUsOrUnreadable(o.listeners[0].pid));
    note(std::string(family == AF_INET ? "127.0.0.1" : "::1") + ":" + std::to_string(port) +
         (o.pids.empty() ? " listening, owner pid not reported (unverified)" : " owner = us"));
    // Closed: no longer listening (awaited: the table may lag the close).
    CHECK(waitUntil([&] { return !listeningPortOwners(port).listening; }, 10000ms));
}

void testPortOwnersIPv4() {
    checkLiveListener(AF_INET);
}
void testPortOwnersIPv6() {
    checkLiveListener(AF_INET6);
}

// 127.0.0.1 and ::1 on the same port: one listener per family, each from its own table.
void testPortListenersPerFamily() {
    std::uint16_t port = 0;
    SOCKET v4 = listenOnLoopback(AF_INET, 0, &port);
    CHECK_MSG(v4 != INVALID_SOCKET, "bind 127.0.0.1: " + std::to_string(WSAGetLastError()));
    std::uint16_t port6 = 0;
    SOCKET v6 = listenOnLoopback(AF_INET6, port, &port6);
    const int bindError = WSAGetLastError();
    PortOwners o;
    if (v6 != INVALID_SOCKET) o = listeningPortOwners(port);
    closesocket(v4);
    if (v6 != INVALID_SOCKET) closesocket(v6);
    CHECK_MSG(v6 != INVALID_SOCKET,
              "bind [::1]:" + std::to_string(port) + ": " + std::to_string(bindError));
    CHECK(port6 == port);
    CHECK_MSG(o.ok, o.error);
    CHECK_MSG(o.listeners.size() == 2, std::to_string(o.listeners.size()));
    int v4Seen = 0, v6Seen = 0;
    for (const PortListener &l : o.listeners) {
        (l.ipv6 ? v6Seen : v4Seen) += 1;
        CHECK(!l.wildcard);
        CHECK(ownerIsUsOrUnreadable(l.pid));
    }
    CHECK(v4Seen == 1 && v6Seen == 1);
    note("port " + std::to_string(port) + ": v4 + v6, owner " +
         (o.listeners[0].pid == 0 ? "pid 0 (unreadable, wine)" : "us"));
}

} // namespace

int wmain(int argc, wchar_t **argv) {
    if (argc > 1 && std::wstring(argv[1]) == L"child") return childMain(argc, argv);

    // Like GUI Tether, the test runs without a console, so terminate() must attach to its
    // targets' consoles. Its output must then not be a console.
    if (GetFileType(GetStdHandle(STD_OUTPUT_HANDLE)) == FILE_TYPE_CHAR) {
        std::printf("FAIL: redirect stdout to a file: the test detaches from its console\n"
                    "0 passed, 1 failed\n");
        return 1;
    }
    FreeConsole();
    WSADATA wsa;
    WSAStartup(MAKEWORD(2, 2), &wsa);
    const std::vector<std::pair<const char *, void (*)()>> tests{
        {"guard refuses 0, 1, 4, own pid; no groups", testGuard},
        {"snapshot finds a spawned child (exe, start time, argv)", testSnapshotFindsChild},
        {"own argv with spaces, parentheses, UTF-8 is exact", testArgvExact},
        {"start time stable for one process, different for two", testStartTimeStableAndDistinct},
        {"exited child is not alive while a handle is open",
         testExitedChildNotAliveWhileHandleOpen},
        {"a child that exited with code 259 (STILL_ACTIVE) reads as gone", testExitCode259IsGone},
        {"rss of a live child is read (PROCESS_VM_READ)", testRssOfLiveChild},
        {"a pid that does not exist is NotFound", testInspectMissingPid},
        {"forged identity is refused and the child keeps running", testForgedIdentityRefused},
        {"an exit watch is signalled when the process ends, never for a forgery",
         testExitWatchSignalledOnExit},
        {"terminate kills a child with neither console nor window at once", testTerminateEndsChild},
        {"terminate stops a console service with CTRL_BREAK (ExitedOnTerm)",
         testTerminateStopsConsoleServiceWithCtrlBreak},
        {"CTRL_BREAK without a handler ends a console process (default handler)",
         testCtrlBreakDefaultHandlerEndsProcess},
        {"a service ignoring CTRL_BREAK is Killed after the grace",
         testTerminateKillsCtrlBreakIgnorerAfterGrace},
        {"no CTRL_BREAK to a console shared with a process outside the tree",
         testCtrlBreakNeverSentToASharedConsole},
        {"terminate closes a windowed child gracefully (WM_CLOSE)",
         testTerminateClosesWindowGracefully},
        {"signalIdentity: TERM ends what cannot be asked, Kill, Continue a no-op",
         testSignalIdentity},
        {"signalIdentity: TERM asks a window to close", testTerminateSignalAsksAWindowToClose},
        {"job ends parent, child and grandchild", testJobEndsTreeWithGrandchild},
        {"job reopened by name lists and ends its pids", testJobReopenedByName},
        {"a job stays reopenable through the handle duplicated into its service",
         testJobKeptOpenByItsService},
        {"job waitEmpty: false while running; after terminate, the port is free at once",
         testJobWaitEmptyFreesThePort},
        {"a breakaway child survives the job's end, a normal child does not",
         testJobBreakawaySurvivesNormalChildDoesNot},
        {"negative control: a job without BREAKAWAY_OK refuses breakaway",
         testJobWithoutBreakawayOkRefusesBreakaway},
        {"a suspended start is assigned to its job, then resumed",
         testJobAssignsAndResumesASuspendedStart},
        {"tcp table walk and port decoding (synthetic buffers)", testTcpTableDecoding},
        {"listener on 127.0.0.1 found in the tcp table", testPortOwnersIPv4},
        {"listener on ::1 found in the tcp6 table", testPortOwnersIPv6},
        {"127.0.0.1 and ::1 on one port: one listener per family", testPortListenersPerFamily},
    };
    int passed = 0, failed = 0;
    for (const auto &[name, body] : tests) {
        g_note.clear();
        std::string result;
        try {
            body();
            ++passed;
            result = std::string("PASS ") + name;
        } catch (const Failure &f) {
            ++failed;
            result =
                std::string("FAIL ") + name + ": line " + std::to_string(f.line) + ": " + f.what;
        } catch (const std::exception &e) {
            ++failed;
            result = std::string("FAIL ") + name + ": exception: " + e.what();
        }
        if (!g_note.empty()) result += " [" + g_note + "]";
        std::printf("%s\n", result.c_str());
        std::fflush(stdout);
    }
    WSACleanup();
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
