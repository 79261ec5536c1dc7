// The OS boundary on Windows (Win32, documented APIs only). Builds with mingw-w64; its tests run
// under wine. Identity = (pid, creation FILETIME): a process handle pins the process object, so a
// pid cannot be reused while we hold one - every terminate verifies the creation time on the very
// handle it then uses.
#include "os/process.h"
#include "os/windows_tcp_table.h"

// NOMINMAX and WIN32_LEAN_AND_MEAN come from CMake, for every Windows target.
#include <winsock2.h>
#include <ws2tcpip.h>
// winsock2 must come before windows.h
#include <windows.h>
#if defined(min) || defined(max)
#error "windows.h defined min/max macros: NOMINMAX is missing from this target's definitions"
#endif

#include <iphlpapi.h>
#include <psapi.h>
#include <shellapi.h>
#include <tlhelp32.h>
#include <winternl.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <mutex>
#include <utility>

namespace tether::os {

namespace {

// Closes a HANDLE on scope exit.
class Handle {
public:
    explicit Handle(HANDLE h = nullptr)
        : h_(h == INVALID_HANDLE_VALUE ? nullptr : h) {}
    ~Handle() {
        if (h_) CloseHandle(h_);
    }
    Handle(const Handle &) = delete;
    Handle &operator=(const Handle &) = delete;
    Handle(Handle &&other) noexcept
        : h_(std::exchange(other.h_, nullptr)) {}
    HANDLE get() const { return h_; }
    explicit operator bool() const { return h_ != nullptr; }

private:
    HANDLE h_;
};

std::string utf8(const wchar_t *w, int len = -1) {
    if (!w || len == 0) return {};
    const int n = WideCharToMultiByte(CP_UTF8, 0, w, len, nullptr, 0, nullptr, nullptr);
    if (n <= 0) return {};
    std::string out(static_cast<std::size_t>(n), '\0');
    WideCharToMultiByte(CP_UTF8, 0, w, len, out.data(), n, nullptr, nullptr);
    if (len == -1 && !out.empty() && out.back() == '\0') out.pop_back();
    return out;
}

std::wstring wide(const std::string &s) {
    if (s.empty()) return {};
    const int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
    std::wstring out(static_cast<std::size_t>(std::max(n, 0)), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), out.data(), n);
    return out;
}

std::string lastErrorText(const char *what, DWORD code = GetLastError()) {
    wchar_t *msg = nullptr;
    const DWORD n = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM |
                                       FORMAT_MESSAGE_IGNORE_INSERTS,
                                   nullptr, code, 0, reinterpret_cast<wchar_t *>(&msg), 0, nullptr);
    std::string text = n ? utf8(msg, static_cast<int>(n)) : std::string();
    if (msg) LocalFree(msg);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
        text.pop_back();
    return std::string(what) + ": error " + std::to_string(code) + (text.empty() ? "" : " ") + text;
}

std::uint64_t fileTimeValue(const FILETIME &ft) {
    return (std::uint64_t(ft.dwHighDateTime) << 32) | ft.dwLowDateTime;
}

bool validWinPid(Pid pid) {
    return pid > 0 && pid <= Pid(0xFFFFFFFFu);
}

// ntdll's NtQueryInformationProcess, resolved at run time as Microsoft documents for it.
using NtQueryFn = LONG(NTAPI *)(HANDLE, ULONG, PVOID, ULONG, PULONG);
NtQueryFn ntQueryInformationProcess() {
    static const NtQueryFn fn = [] {
        const HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
        // Through void(*)(), the one function-pointer type every other converts to cleanly.
        const auto generic = reinterpret_cast<void (*)()>(
            ntdll ? GetProcAddress(ntdll, "NtQueryInformationProcess") : nullptr);
        return reinterpret_cast<NtQueryFn>(generic);
    }();
    return fn;
}

constexpr ULONG kProcessBasicInformation = 0;
constexpr ULONG kProcessCommandLineInformation = 60; // Windows 8.1+; wine implements it
constexpr LONG kStatusInfoLengthMismatch = static_cast<LONG>(0xC0000004L);

struct BasicInformation { // PROCESS_BASIC_INFORMATION as documented
    PVOID reserved1;
    PVOID pebBaseAddress;
    PVOID reserved2[2];
    ULONG_PTR uniqueProcessId;
    ULONG_PTR inheritedFromUniqueProcessId;
};

Pid parentOf(HANDLE h) {
    const NtQueryFn query = ntQueryInformationProcess();
    BasicInformation info{};
    if (!query || query(h, kProcessBasicInformation, &info, sizeof info, nullptr) < 0) return 0;
    return Pid(info.inheritedFromUniqueProcessId);
}

// Another process's command line (needs only PROCESS_QUERY_LIMITED_INFORMATION).
std::optional<std::wstring> commandLineOf(HANDLE h) {
    const NtQueryFn query = ntQueryInformationProcess();
    if (!query) return std::nullopt;
    ULONG needed = 0;
    std::vector<ULONG_PTR> buf(64); // ULONG_PTR: aligned for the UNICODE_STRING header
    LONG status = query(h, kProcessCommandLineInformation, buf.data(),
                        ULONG(buf.size() * sizeof(ULONG_PTR)), &needed);
    if (status == kStatusInfoLengthMismatch && needed > 0) {
        buf.resize(needed / sizeof(ULONG_PTR) + 1);
        status = query(h, kProcessCommandLineInformation, buf.data(),
                       ULONG(buf.size() * sizeof(ULONG_PTR)), &needed);
    }
    if (status < 0) return std::nullopt;
    const auto *us = reinterpret_cast<const UNICODE_STRING *>(buf.data());
    if (!us->Buffer) return std::wstring();
    return std::wstring(us->Buffer, us->Length / sizeof(wchar_t));
}

std::vector<std::string> splitCommandLine(const std::wstring &line) {
    std::vector<std::string> out;
    if (line.empty()) // CommandLineToArgvW("") would answer with *our* executable
        return out;
    int argc = 0;
    wchar_t **argv = CommandLineToArgvW(line.c_str(), &argc);
    if (!argv) return out;
    for (int i = 0; i < argc; ++i)
        out.push_back(utf8(argv[i]));
    LocalFree(argv);
    return out;
}

std::string imagePathOf(HANDLE h) {
    std::vector<wchar_t> buf(32768);
    DWORD size = DWORD(buf.size());
    if (!QueryFullProcessImageNameW(h, 0, buf.data(), &size)) return {};
    return utf8(buf.data(), int(size));
}

bool creationTimeOf(HANDLE h, std::uint64_t *start, std::uint64_t *cpuMs = nullptr) {
    FILETIME created{}, exited{}, kernel{}, user{};
    if (!GetProcessTimes(h, &created, &exited, &kernel, &user)) return false;
    *start = fileTimeValue(created);
    if (cpuMs) *cpuMs = (fileTimeValue(kernel) + fileTimeValue(user)) / 10000; // 100 ns -> ms
    return true;
}

// A process object that has exited but is still held open somewhere: gone, like a zombie. The
// handle is signalled once the process has exited; the exit code cannot say it, since a process
// may exit with 259 (STILL_ACTIVE). Only a handle without SYNCHRONIZE falls back to the code.
bool hasExited(HANDLE h) {
    switch (WaitForSingleObject(h, 0)) {
    case WAIT_OBJECT_0:
        return true;
    case WAIT_TIMEOUT:
        return false;
    default:
        break;
    }
    DWORD code = 0;
    return GetExitCodeProcess(h, &code) && code != STILL_ACTIVE;
}

// Everything readable through a query handle. ppid comes from the caller (toolhelp is cheaper).
void describe(HANDLE h, ProcessInfo &p) {
    std::uint64_t cpuMs = 0;
    if (creationTimeOf(h, &p.startTime, &cpuMs)) p.cpuTimeMs = cpuMs;
    p.state = hasExited(h) ? RunState::Zombie : RunState::Running;
    p.executable = imagePathOf(h);
    PROCESS_MEMORY_COUNTERS mem{};
    mem.cb = sizeof mem;
    // Needs PROCESS_VM_READ (openForQuery asks for it); without it the call fails: rss stays 0.
    if (GetProcessMemoryInfo(h, &mem, sizeof mem)) p.rssKiB = mem.WorkingSetSize / 1024;
    if (p.pid == Pid(GetCurrentProcessId()))
        p.argv = splitCommandLine(GetCommandLineW());
    else if (const auto line = commandLineOf(h))
        p.argv = splitCommandLine(*line);
    if (p.argv.empty() && !p.executable.empty())
        p.argv = {p.executable}; // command line unreadable: at least the program
}

HANDLE openProcess(Pid pid, DWORD access) {
    if (!validWinPid(pid)) {
        SetLastError(ERROR_INVALID_PARAMETER);
        return nullptr;
    }
    return OpenProcess(access, FALSE, DWORD(pid));
}

// A handle for describe(): memory counters need PROCESS_VM_READ and the exit state SYNCHRONIZE;
// a process that grants less (another user's, a protected one) is still described with less.
HANDLE openForQuery(Pid pid) {
    for (const DWORD extra : {DWORD(PROCESS_VM_READ | SYNCHRONIZE), DWORD(SYNCHRONIZE), DWORD(0)}) {
        if (HANDLE h = openProcess(pid, PROCESS_QUERY_LIMITED_INFORMATION | extra)) return h;
        if (GetLastError() != ERROR_ACCESS_DENIED) break; // no such process: asking less won't help
    }
    return nullptr;
}

} // namespace

std::vector<ProcessInfo> snapshot() {
    std::vector<ProcessInfo> out;
    Handle snap(CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0));
    if (!snap) return out;
    PROCESSENTRY32W entry{};
    entry.dwSize = sizeof entry;
    for (BOOL more = Process32FirstW(snap.get(), &entry); more;
         more = Process32NextW(snap.get(), &entry)) {
        ProcessInfo p;
        p.pid = entry.th32ProcessID;
        p.ppid = entry.th32ParentProcessID; // may be stale: descendants() checks start times
        Handle h(openForQuery(p.pid));
        if (!h) {
            if (GetLastError() == ERROR_INVALID_PARAMETER)
                continue;                         // exited since the toolhelp snapshot
            p.executable = utf8(entry.szExeFile); // protected / System: name only, state unknown
            p.argv = {p.executable};
            out.push_back(std::move(p));
            continue;
        }
        describe(h.get(), p);
        out.push_back(std::move(p));
    }
    return out;
}

Lookup inspect(Pid pid) {
    Lookup l;
    Handle h(openForQuery(pid));
    if (!h) {
        const DWORD err = GetLastError();
        if (err == ERROR_INVALID_PARAMETER) {
            l.status = Lookup::Status::NotFound;
        } else {
            l.status = Lookup::Status::Error;
            l.error = lastErrorText("OpenProcess", err);
        }
        return l;
    }
    l.info.pid = pid;
    if (!creationTimeOf(h.get(), &l.info.startTime)) {
        l.status = Lookup::Status::Error;
        l.error = lastErrorText("GetProcessTimes");
        return l;
    }
    l.info.ppid = parentOf(h.get());
    describe(h.get(), l.info);
    l.status = Lookup::Status::Found;
    return l;
}

// ---- listening ports ------------------------------------------------------------------------

namespace windows {

std::vector<TcpListener> listenersInTcpTable(const void *buffer, std::size_t size,
                                             TcpFamily family) {
    std::vector<TcpListener> out;
    const auto *bytes = static_cast<const unsigned char *>(buffer);
    const std::size_t header = family == TcpFamily::V4 ? offsetof(MIB_TCPTABLE_OWNER_PID, table)
                                                       : offsetof(MIB_TCP6TABLE_OWNER_PID, table);
    const std::size_t rowSize =
        family == TcpFamily::V4 ? sizeof(MIB_TCPROW_OWNER_PID) : sizeof(MIB_TCP6ROW_OWNER_PID);
    if (!buffer || size < sizeof(DWORD) || size < header) return out;
    DWORD count = 0;
    std::memcpy(&count, bytes, sizeof count);
    const std::size_t fits = (size - header) / rowSize;
    const std::size_t rows = std::min<std::size_t>(count, fits);
    for (std::size_t i = 0; i < rows; ++i) {
        const unsigned char *at = bytes + header + i * rowSize;
        DWORD state = 0, port = 0, pid = 0;
        bool wildcard = false;
        if (family == TcpFamily::V4) {
            MIB_TCPROW_OWNER_PID row;
            std::memcpy(&row, at, sizeof row); // memcpy: the buffer need not be aligned
            state = row.dwState, port = row.dwLocalPort, pid = row.dwOwningPid;
            wildcard = row.dwLocalAddr == INADDR_ANY;
        } else {
            MIB_TCP6ROW_OWNER_PID row;
            std::memcpy(&row, at, sizeof row);
            state = row.dwState, port = row.dwLocalPort, pid = row.dwOwningPid;
            wildcard = std::all_of(std::begin(row.ucLocalAddr), std::end(row.ucLocalAddr),
                                   [](UCHAR b) { return b == 0; }); // in6addr_any
        }
        if (state != MIB_TCP_STATE_LISTEN) continue;
        // The port sits in network byte order in the low 16 bits of the DWORD.
        out.push_back({Pid(pid), ntohs(static_cast<u_short>(port & 0xFFFF)),
                       family == TcpFamily::V6, wildcard});
    }
    return out;
}

PortOwners portOwnersFrom(const std::vector<TcpListener> &listeners, std::uint16_t port) {
    PortOwners owners;
    owners.ok = true;
    for (const TcpListener &l : listeners) {
        if (l.port != port) continue;
        owners.listening = true;
        owners.listeners.push_back({l.pid, l.ipv6, l.wildcard});
        // pid 0 is the System Idle Process, never a socket owner: the table did not say.
        if (l.pid != 0 &&
            std::find(owners.pids.begin(), owners.pids.end(), l.pid) == owners.pids.end())
            owners.pids.push_back(l.pid);
    }
    return owners;
}

} // namespace windows

namespace {

bool readListenerTable(ULONG addressFamily, windows::TcpFamily family,
                       std::vector<windows::TcpListener> &out, std::string &error) {
    DWORD size = 0;
    std::vector<unsigned char> buf;
    DWORD rc = ERROR_INSUFFICIENT_BUFFER;
    // The table can grow between the size query and the read: retry a few times.
    for (int attempt = 0; attempt < 4 && rc == ERROR_INSUFFICIENT_BUFFER; ++attempt) {
        buf.resize(std::max<DWORD>(size, 1));
        size = DWORD(buf.size());
        rc = GetExtendedTcpTable(buf.data(), &size, FALSE, addressFamily,
                                 TCP_TABLE_OWNER_PID_LISTENER, 0);
    }
    if (rc != NO_ERROR) {
        error = lastErrorText("GetExtendedTcpTable", rc);
        return false;
    }
    const auto rows = windows::listenersInTcpTable(buf.data(), size, family);
    out.insert(out.end(), rows.begin(), rows.end());
    return true;
}

} // namespace

PortOwners listeningPortOwners(std::uint16_t port) {
    std::vector<windows::TcpListener> listeners;
    std::string error4, error6;
    const bool ok4 = readListenerTable(AF_INET, windows::TcpFamily::V4, listeners, error4);
    const bool ok6 = readListenerTable(AF_INET6, windows::TcpFamily::V6, listeners, error6);
    PortOwners owners = windows::portOwnersFrom(listeners, port);
    // A listener seen in one table is a definite answer; a table we could not read is not "free".
    if (!ok4 || !ok6) {
        owners.ok = owners.listening && !owners.pids.empty();
        owners.error = !ok4 ? error4 : error6;
    }
    return owners;
}

// ---- the guard and signals ------------------------------------------------------------------

std::uint64_t startTimeNow() {
    // GetProcessTimes' creation time is a system-time FILETIME: now in the same units.
    FILETIME now{};
    ::GetSystemTimeAsFileTime(&now);
    return fileTimeValue(now);
}

std::int64_t ageMs(std::uint64_t startTime) {
    const std::uint64_t now = startTimeNow();
    if (startTime == 0 || now < startTime) return -1;
    return static_cast<std::int64_t>((now - startTime) / 10000u); // FILETIME: 100 ns units
}

Pid currentPid() {
    return Pid(GetCurrentProcessId());
}
Pid currentProcessGroup() {
    return 0;
}

bool maySignalPid(Pid pid) {
    constexpr Pid kSystem = 4; // the kernel's "System" process
    return pid > 1 && pid != kSystem && validWinPid(pid) && pid != currentPid();
}

bool maySignalGroup(Pid) {
    return false;
} // Windows has no process groups

std::vector<ProcessInfo> groupMembers(Pid) {
    return {}; // no process groups: containment is a Job
}

bool signalGroup(Pid, Signal, std::string *error) {
    if (error) *error = "no process groups on Windows (use a Job)";
    return false;
}

namespace {

// Opens `id` for `access` and proves it is that exact process while the handle pins it.
// Returns the handle, or nullptr with the outcome that explains why not.
HANDLE openVerified(const Identity &id, DWORD access, TerminateOutcome &why, std::string &detail) {
    if (!maySignalPid(id.pid)) {
        why = TerminateOutcome::Refused;
        detail = "guard: pid " + std::to_string(id.pid) + " may never be signalled";
        return nullptr;
    }
    HANDLE h = openProcess(id.pid, access | PROCESS_QUERY_LIMITED_INFORMATION | SYNCHRONIZE);
    if (!h) {
        const DWORD err = GetLastError();
        why = err == ERROR_INVALID_PARAMETER ? TerminateOutcome::AlreadyGone
                                             : TerminateOutcome::Unknown;
        detail = lastErrorText("OpenProcess", err);
        return nullptr;
    }
    std::uint64_t start = 0;
    if (!creationTimeOf(h, &start)) {
        why = TerminateOutcome::Unknown;
        detail = lastErrorText("GetProcessTimes");
        CloseHandle(h);
        return nullptr;
    }
    if (start != id.startTime) {
        why = TerminateOutcome::Refused;
        detail = "identity mismatch: pid " + std::to_string(id.pid) + " started at " +
                 std::to_string(start) + ", expected " + std::to_string(id.startTime);
        CloseHandle(h);
        return nullptr;
    }
    if (WaitForSingleObject(h, 0) == WAIT_OBJECT_0) {
        why = TerminateOutcome::AlreadyGone;
        detail = "already exited";
        CloseHandle(h);
        return nullptr;
    }
    return h;
}

struct CloseRequest {
    DWORD pid;
    int posted = 0;
};

BOOL CALLBACK postCloseToWindowsOf(HWND hwnd, LPARAM param) {
    auto *req = reinterpret_cast<CloseRequest *>(param);
    // Only what a person could close: visible, unowned. Hidden helper windows (IME, message
    // pumps) say nothing about a graceful exit and would only earn a pointless grace wait.
    if (!IsWindowVisible(hwnd) || GetWindow(hwnd, GW_OWNER)) return TRUE;
    DWORD owner = 0;
    GetWindowThreadProcessId(hwnd, &owner);
    if (owner == req->pid && PostMessageW(hwnd, WM_CLOSE, 0, 0)) ++req->posted;
    return TRUE;
}

DWORD clampedMs(std::chrono::milliseconds ms) {
    return DWORD(std::clamp<std::chrono::milliseconds::rep>(ms.count(), 0, 0x7FFFFFFF));
}

constexpr std::chrono::milliseconds kAfterKillWait{5000};

// AttachConsole / FreeConsole change the console of the whole process: one at a time.
std::mutex &consoleMutex() {
    static std::mutex m;
    return m;
}

// Tether ignores CTRL_BREAK for good: it is attached to the target's console while it sends
// one, and the event reaches it too, possibly after it has detached again.
BOOL WINAPI ignoreCtrlBreak(DWORD type) {
    return type == CTRL_BREAK_EVENT ? TRUE : FALSE;
}

// The pids attached to the console this process is attached to; empty when unreadable.
std::vector<DWORD> consoleProcesses() {
    std::vector<DWORD> list(16);
    for (int attempt = 0; attempt < 4; ++attempt) {
        const DWORD n = GetConsoleProcessList(list.data(), DWORD(list.size()));
        if (n == 0) return {};
        if (n <= list.size()) {
            list.resize(n);
            return list;
        }
        list.resize(n + 8); // more joined meanwhile: try again with room for them
    }
    return {};
}

// Windows has no SIGTERM. A console service (Tether starts it with a console of its own and in
// a new process group) is asked to stop with CTRL_BREAK_EVENT, which node and bun see as SIGBREAK.
// GenerateConsoleCtrlEvent reaches only the caller's console, so Tether (a GUI program, no
// console) attaches to the target's for the call. It goes to the group the target leads (group
// 0 would mean "all on the console" on Windows but "the caller's group" under wine); what a pid
// that leads no group receives is undocumented, so it is sent only if every process on that
// console is the verified target or one of its descendants: never to a console shared with
// anything else. The caller's handle pins the target's pid.
bool sendCtrlBreak(Pid pid, std::string &why) {
    const std::lock_guard<std::mutex> lock(consoleMutex());
    static const BOOL ignoring = SetConsoleCtrlHandler(ignoreCtrlBreak, TRUE);
    if (!ignoring) {
        why = "cannot ignore CTRL_BREAK itself";
        return false;
    }
    const HANDLE saved[3] = {GetStdHandle(STD_INPUT_HANDLE), GetStdHandle(STD_OUTPUT_HANDLE),
                             GetStdHandle(STD_ERROR_HANDLE)};
    if (!AttachConsole(DWORD(pid))) {
        const DWORD err = GetLastError();
        why = err == ERROR_ACCESS_DENIED ? "Tether has a console of its own"
                                         : "it has no console to send CTRL_BREAK to";
        return false;
    }
    bool sent = false;
    const std::vector<DWORD> members = consoleProcesses();
    if (members.empty()) {
        why = lastErrorText("GetConsoleProcessList");
    } else {
        const std::vector<Pid> tree = descendants(pid);
        const auto stranger = std::find_if(members.begin(), members.end(), [&](DWORD m) {
            return Pid(m) != pid && Pid(m) != currentPid() &&
                   std::find(tree.begin(), tree.end(), Pid(m)) == tree.end();
        });
        if (std::find(members.begin(), members.end(), DWORD(pid)) == members.end())
            why = "not on the console it was attached to";
        else if (stranger != members.end())
            why = "its console is shared with pid " + std::to_string(*stranger) +
                  ", outside its tree";
        else
            sent = GenerateConsoleCtrlEvent(CTRL_BREAK_EVENT, DWORD(pid)) != FALSE;
        if (!sent && why.empty()) why = lastErrorText("GenerateConsoleCtrlEvent");
    }
    FreeConsole();
    // AttachConsole may have filled in missing standard handles with the console's, which
    // FreeConsole left dangling.
    SetStdHandle(STD_INPUT_HANDLE, saved[0]);
    SetStdHandle(STD_OUTPUT_HANDLE, saved[1]);
    SetStdHandle(STD_ERROR_HANDLE, saved[2]);
    return sent;
}

} // namespace

TerminateResult terminate(const Identity &id, std::chrono::milliseconds grace) {
    TerminateResult r;
    Handle h(openVerified(id, PROCESS_TERMINATE, r.outcome, r.detail));
    if (!h) return r;
    // Graceful: CTRL_BREAK through its console, and WM_CLOSE to its top-level windows. A process
    // that can be asked neither way gets no pointless wait (HTTP shutdown is the caller's job).
    std::string noBreak;
    const bool breakSent = sendCtrlBreak(id.pid, noBreak);
    CloseRequest req{DWORD(id.pid)};
    EnumWindows(postCloseToWindowsOf, reinterpret_cast<LPARAM>(&req));
    std::string asked;
    if (breakSent) asked = "CTRL_BREAK";
    if (req.posted > 0)
        asked += (asked.empty() ? "" : " + ") + std::to_string(req.posted) + " WM_CLOSE";
    if (!asked.empty() && WaitForSingleObject(h.get(), clampedMs(grace)) == WAIT_OBJECT_0) {
        r.outcome = TerminateOutcome::ExitedOnTerm;
        r.detail = "exited on " + asked;
        return r;
    }
    const std::string why =
        asked.empty() ? "not asked first: " + noBreak
                      : "ignored " + asked + " for " + std::to_string(grace.count()) + " ms";
    // The handle still pins the verified process: this cannot hit a reused pid.
    if (!TerminateProcess(h.get(), 1)) {
        const DWORD err = GetLastError();
        if (WaitForSingleObject(h.get(), 0) == WAIT_OBJECT_0) {
            r.outcome =
                asked.empty() ? TerminateOutcome::AlreadyGone : TerminateOutcome::ExitedOnTerm;
            r.detail = "exited before TerminateProcess";
        } else {
            r.outcome = TerminateOutcome::Unknown;
            r.detail = lastErrorText("TerminateProcess", err);
        }
        return r;
    }
    if (WaitForSingleObject(h.get(), clampedMs(kAfterKillWait)) == WAIT_OBJECT_0) {
        r.outcome = TerminateOutcome::Killed;
        r.detail = "TerminateProcess (" + why + ")";
    } else {
        r.outcome = TerminateOutcome::Unknown;
        r.detail = "TerminateProcess issued, process still running after 5 s";
    }
    return r;
}

bool signalIdentity(const Identity &id, Signal sig, std::string *error) {
    if (sig == Signal::Continue) return true; // nothing is ever stopped on Windows
    if (sig == Signal::Stop) {
        if (error) *error = "Windows has no SIGSTOP";
        return false;
    }
    TerminateOutcome why = TerminateOutcome::Unknown;
    std::string detail;
    Handle h(openVerified(id, PROCESS_TERMINATE, why, detail));
    if (!h) {
        if (error) *error = detail;
        return false;
    }
    if (sig == Signal::Terminate) {
        // The Windows TERM: CTRL_BREAK through its console and WM_CLOSE to its windows; the
        // caller waits its grace and then sends Kill. A process that cannot be asked either way
        // would only make the caller wait for nothing: it is ended now (the handle pins it).
        std::string noBreak;
        const bool breakSent = sendCtrlBreak(id.pid, noBreak);
        CloseRequest req{DWORD(id.pid)};
        EnumWindows(postCloseToWindowsOf, reinterpret_cast<LPARAM>(&req));
        if (breakSent || req.posted > 0) return true;
    }
    if (!TerminateProcess(h.get(), 1)) {
        if (error) *error = lastErrorText("TerminateProcess");
        return false;
    }
    return true;
}

// ---- suspended starts and job objects -------------------------------------------------------

bool resumeSuspended(Pid pid, std::string *error) {
    if (!maySignalPid(pid)) {
        if (error) *error = "guard: pid " + std::to_string(pid) + " may not be resumed";
        return false;
    }
    Handle snap(CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0));
    if (!snap) {
        if (error) *error = lastErrorText("CreateToolhelp32Snapshot");
        return false;
    }
    int resumed = 0; // a process created suspended has one thread
    THREADENTRY32 entry{};
    entry.dwSize = sizeof entry;
    for (BOOL more = Thread32First(snap.get(), &entry); more;
         more = Thread32Next(snap.get(), &entry)) {
        if (entry.th32OwnerProcessID != DWORD(pid)) continue;
        Handle thread(OpenThread(THREAD_SUSPEND_RESUME, FALSE, entry.th32ThreadID));
        if (thread && ResumeThread(thread.get()) != DWORD(-1)) ++resumed;
    }
    if (resumed == 0) {
        if (error) *error = "pid " + std::to_string(pid) + ": no thread could be resumed";
        return false;
    }
    return true;
}

namespace {

// Job names live in the session's Local\ namespace unless the caller chose a namespace.
std::wstring jobObjectName(const std::string &name) {
    const std::wstring w = wide(name);
    return w.find(L'\\') == std::wstring::npos ? L"Local\\" + w : w;
}

void setError(std::string *error, std::string text) {
    if (error) *error = std::move(text);
}

} // namespace

Job::Job(void *handle)
    : handle_(handle) {
}

Job::~Job() {
    if (handle_) CloseHandle(static_cast<HANDLE>(handle_));
}

// No JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE on purpose: Tether may quit and leave the service running;
// the job lives on through its processes and a later launch reopens it by name.
// JOB_OBJECT_LIMIT_BREAKAWAY_OK: what the service starts with CREATE_BREAKAWAY_FROM_JOB (a browser
// for an MCP OAuth login) leaves the job and survives a restart. Not SILENT_BREAKAWAY_OK: MCP
// servers, started normally, stay in the job.
std::unique_ptr<Job> Job::create(const std::string &name, std::string *error) {
    if (name.empty()) {
        setError(error, "a job needs a name");
        return nullptr;
    }
    HANDLE h = CreateJobObjectW(nullptr, jobObjectName(name).c_str());
    if (!h) {
        setError(error, lastErrorText("CreateJobObjectW"));
        return nullptr;
    }
    if (GetLastError() == ERROR_ALREADY_EXISTS) {
        // Mixing a new service into an old job would blur which processes are leftovers.
        CloseHandle(h);
        setError(error, "job '" + name + "' already exists: open() it to see what is left");
        return nullptr;
    }
    // An extended-limit flag: only the extended structure may carry it (the basic one is refused).
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_BREAKAWAY_OK;
    if (!SetInformationJobObject(h, JobObjectExtendedLimitInformation, &limits, sizeof limits)) {
        setError(error, lastErrorText("SetInformationJobObject"));
        CloseHandle(h);
        return nullptr;
    }
    return std::unique_ptr<Job>(new Job(h));
}

std::unique_ptr<Job> Job::open(const std::string &name, std::string *error) {
    HANDLE h = OpenJobObjectW(JOB_OBJECT_QUERY | JOB_OBJECT_TERMINATE | JOB_OBJECT_ASSIGN_PROCESS,
                              FALSE, jobObjectName(name).c_str());
    if (!h) {
        setError(error, lastErrorText(("OpenJobObjectW '" + name + "'").c_str()));
        return nullptr;
    }
    return std::unique_ptr<Job>(new Job(h));
}

bool Job::assign(Pid pid, std::string *error) {
    // Never Tether itself: terminating the job would then kill Tether.
    if (!maySignalPid(pid)) {
        setError(error, "guard: pid " + std::to_string(pid) + " may not join a job");
        return false;
    }
    Handle p(openProcess(pid, PROCESS_SET_QUOTA | PROCESS_TERMINATE));
    if (!p) {
        setError(error, lastErrorText("OpenProcess"));
        return false;
    }
    if (!AssignProcessToJobObject(static_cast<HANDLE>(handle_), p.get())) {
        setError(error, lastErrorText("AssignProcessToJobObject"));
        return false;
    }
    return true;
}

std::optional<std::uint64_t> Job::keepOpenIn(const Identity &id, std::string *error) {
    TerminateOutcome why = TerminateOutcome::Unknown;
    std::string detail;
    Handle target(openVerified(id, PROCESS_DUP_HANDLE, why, detail));
    if (!target) {
        setError(error, detail);
        return std::nullopt;
    }
    // Query access is all it takes to keep the job alive; the process is never told of it.
    // Inheritable: what the service starts with handle inheritance (libuv, so node and bun, does)
    // holds it too, so the name outlives a crashed service while its MCP children run. That is
    // DuplicateHandle's documented bInheritHandle; wine 8 does not show it (its child's table
    // had no such job handle), so it is unverified here.
    HANDLE inTarget = nullptr;
    if (!DuplicateHandle(GetCurrentProcess(), static_cast<HANDLE>(handle_), target.get(), &inTarget,
                         JOB_OBJECT_QUERY, TRUE, 0)) {
        setError(error, lastErrorText("DuplicateHandle"));
        return std::nullopt;
    }
    return std::uint64_t(reinterpret_cast<std::uintptr_t>(inTarget));
}

std::vector<Pid> Job::pids() const {
    std::vector<Pid> out;
    DWORD capacity = 64;
    for (int attempt = 0; attempt < 8; ++attempt) {
        const std::size_t bytes =
            offsetof(JOBOBJECT_BASIC_PROCESS_ID_LIST, ProcessIdList) + capacity * sizeof(ULONG_PTR);
        std::vector<ULONG_PTR> buf(bytes / sizeof(ULONG_PTR) + 1);
        auto *list = reinterpret_cast<JOBOBJECT_BASIC_PROCESS_ID_LIST *>(buf.data());
        const BOOL ok =
            QueryInformationJobObject(static_cast<HANDLE>(handle_), JobObjectBasicProcessIdList,
                                      list, DWORD(buf.size() * sizeof(ULONG_PTR)), nullptr);
        if (ok || GetLastError() == ERROR_MORE_DATA) {
            if (ok || list->NumberOfProcessIdsInList == list->NumberOfAssignedProcesses) {
                for (DWORD i = 0; i < list->NumberOfProcessIdsInList; ++i)
                    out.push_back(Pid(list->ProcessIdList[i]));
                return out;
            }
            capacity = std::max<DWORD>(capacity * 2, list->NumberOfAssignedProcesses + 16);
            continue;
        }
        return out;
    }
    return out;
}

bool Job::terminate(unsigned exitCode, std::string *error) {
    // The guard, for jobs: never a job that contains Tether itself.
    BOOL containsUs = FALSE;
    if (!IsProcessInJob(GetCurrentProcess(), static_cast<HANDLE>(handle_), &containsUs)) {
        setError(error, lastErrorText("IsProcessInJob"));
        return false;
    }
    if (containsUs) {
        setError(error, "guard: this job contains Tether itself");
        return false;
    }
    if (!TerminateJobObject(static_cast<HANDLE>(handle_), exitCode)) {
        setError(error, lastErrorText("TerminateJobObject"));
        return false;
    }
    return true;
}

bool Job::waitEmpty(std::chrono::milliseconds timeout) const {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        JOBOBJECT_BASIC_ACCOUNTING_INFORMATION acct{};
        if (!QueryInformationJobObject(static_cast<HANDLE>(handle_),
                                       JobObjectBasicAccountingInformation, &acct, sizeof acct,
                                       nullptr))
            return false;
        if (acct.ActiveProcesses == 0) return true;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        // Wait on the members' handles instead of polling. A listed pid may have exited and been
        // reused since: only a process still in this job is waited on.
        std::vector<Handle> members;
        std::vector<HANDLE> waitOn;
        for (Pid pid : pids()) {
            HANDLE h = openProcess(pid, SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION);
            if (!h) continue;
            members.emplace_back(h);
            BOOL inJob = FALSE;
            if (IsProcessInJob(h, static_cast<HANDLE>(handle_), &inJob) && inJob &&
                waitOn.size() < MAXIMUM_WAIT_OBJECTS)
                waitOn.push_back(h);
        }
        // Nothing to wait on (exiting between the two queries): look again shortly.
        const DWORD ms = waitOn.empty() ? std::min<DWORD>(clampedMs(left), 5) : clampedMs(left);
        if (waitOn.empty())
            Sleep(ms);
        else
            WaitForMultipleObjects(DWORD(waitOn.size()), waitOn.data(), TRUE, ms);
    }
}

std::unique_ptr<ExitWatch> ExitWatch::open(const Identity &id, std::string *error) {
    // The handle pins the process object: verified while held, it is the one watched.
    TerminateOutcome why = TerminateOutcome::Unknown;
    std::string detail;
    HANDLE h = openVerified(id, SYNCHRONIZE, why, detail);
    if (!h) {
        if (error) *error = detail;
        return nullptr;
    }
    std::unique_ptr<ExitWatch> w(new ExitWatch);
    w->handle_ = h;
    return w;
}

ExitWatch::~ExitWatch() {
    if (handle_) CloseHandle(static_cast<HANDLE>(handle_));
}

bool ExitWatch::exited() const {
    return WaitForSingleObject(static_cast<HANDLE>(handle_), 0) == WAIT_OBJECT_0;
}

} // namespace tether::os
