// Linux: processes from /proc, port owners from /proc/net/tcp{,6} + /proc/PID/fd, and signals
// through pidfds (pidfd_open + pidfd_send_signal) so a pid reuse cannot redirect a signal.
#include "os/posix_internal.h"
#include "os/process.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <string_view>
#include <sys/syscall.h>
#include <ctime>
#include <poll.h>
#include <unistd.h>
#include <unordered_set>

namespace tether::os {
namespace {

// Closes a file descriptor on scope exit.
struct Fd {
    int fd = -1;
    explicit Fd(int f)
        : fd(f) {}
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
};

bool vanished(int err) {
    return err == ENOENT || err == ESRCH;
}

using PidName = std::array<char, 24>; // a /proc entry name: decimal pid

bool isPidName(const char *s) {
    if (*s == '\0') return false;
    for (; *s; ++s)
        if (*s < '0' || *s > '9') return false;
    return true;
}

// Cursor over the space-separated fields of /proc/PID/stat after the comm.
struct Fields {
    const char *p;
    const char *end;
    void skipSpaces() {
        while (p < end && *p == ' ')
            ++p;
    }
    bool number(std::int64_t &v) {
        skipSpaces();
        bool neg = false;
        if (p < end && *p == '-') {
            neg = true;
            ++p;
        }
        if (p >= end || *p < '0' || *p > '9') return false;
        std::uint64_t u = 0;
        while (p < end && *p >= '0' && *p <= '9')
            u = u * 10 + static_cast<std::uint64_t>(*p++ - '0');
        v = neg ? -static_cast<std::int64_t>(u) : static_cast<std::int64_t>(u);
        return true;
    }
    bool skip(int n) {
        std::int64_t ignored;
        for (int i = 0; i < n; ++i)
            if (!number(ignored)) return false;
        return true;
    }
};

RunState stateFromChar(char c) {
    switch (c) {
    case 'Z':
    case 'X':
    case 'x':
        return RunState::Zombie;
    case 'T':
    case 't':
        return RunState::Stopped;
    default:
        return RunState::Running; // R S D I W K P: running, sleeping or waiting
    }
}

// Parses /proc/PID/stat. The comm (field 2) may hold spaces and ')': fields resume after the
// LAST ')'. Numbering follows proc(5).
bool parseStat(std::string_view s, ProcessInfo &info, std::uint64_t &flags) {
    const size_t open = s.find('(');
    const size_t close = s.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return false;
    Fields head{s.data(), s.data() + open};
    std::int64_t pid = 0;
    if (!head.number(pid)) return false;
    Fields f{s.data() + close + 1, s.data() + s.size()};
    f.skipSpaces();
    if (f.p >= f.end) return false;
    const char state = *f.p++; // 3
    std::int64_t ppid, pgid, kflags, utime, stime, start, rss;
    if (!f.number(ppid) || !f.number(pgid)               // 4, 5
        || !f.skip(3) || !f.number(kflags) || !f.skip(4) // 6..8, 9, 10..13
        || !f.number(utime) || !f.number(stime)          // 14, 15
        || !f.skip(6) || !f.number(start)                // 16..21, 22
        || !f.skip(1) || !f.number(rss))                 // 23, 24
        return false;
    flags = static_cast<std::uint64_t>(kflags);
    static const long ticks = std::max(1L, ::sysconf(_SC_CLK_TCK));
    static const long pageKiB = std::max(1L, ::sysconf(_SC_PAGESIZE) / 1024);
    info.pid = pid;
    info.ppid = ppid;
    info.pgid = pgid;
    info.state = stateFromChar(state);
    info.startTime = static_cast<std::uint64_t>(start);
    // stat's rss (field 24) is the same counter as statm's "resident": one file fewer to read.
    info.rssKiB = static_cast<std::uint64_t>(std::max<std::int64_t>(rss, 0)) *
                  static_cast<std::uint64_t>(pageKiB);
    info.cpuTimeMs =
        static_cast<std::uint64_t>(utime + stime) * 1000u / static_cast<std::uint64_t>(ticks);
    return true;
}

// cmdline is NUL-terminated args; keeps empty args. A process that rewrote its title may omit
// the final NUL: trailing bytes then form the last arg.
std::vector<std::string> splitCmdline(std::string_view raw) {
    std::vector<std::string> argv;
    size_t start = 0;
    for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '\0') {
            argv.emplace_back(raw.substr(start, i - start));
            start = i + 1;
        }
    }
    if (start < raw.size()) argv.emplace_back(raw.substr(start));
    return argv;
}

enum class Read { Ok, Vanished, Failed };

// One open + one read (+ more reads only when the buffer filled up). Returns the byte count,
// or -errno. Syscalls dominate a snapshot, so small files get exactly one read().
ssize_t readInto(int procfd, const char *path, std::string &buf) {
    const int fd = ::openat(procfd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    size_t len = 0;
    for (;;) {
        if (buf.size() < len + 4096) buf.resize(len + 4096);
        const ssize_t n = ::read(fd, &buf[len], buf.size() - len);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            return -err;
        }
        len += static_cast<size_t>(n);
        if (n == 0 || len < buf.size()) // a short read of a proc file is its end
            break;
    }
    ::close(fd);
    return static_cast<ssize_t>(len);
}

// Reads one process: stat (identity, state, times), cmdline and exe, via "PID/..." paths
// relative to an open /proc: 7 syscalls per process (3 for a kernel thread). A per-process
// directory fd would pin the process across the three reads, but costs 2 more syscalls each and
// only guards argv against a pid reuse within microseconds; identity (stat) is unaffected, and
// every signal re-verifies it anyway.
Read readProcess(int procfd, const char *pidName, ProcessInfo &info, std::string &buf,
                 std::string *error) {
    char path[64];
    const size_t nameLen = std::strlen(pidName);
    if (nameLen + sizeof "/cmdline" > sizeof path) return Read::Failed;
    std::memcpy(path, pidName, nameLen);
    const auto at = [&](const char *leaf) {
        std::strcpy(path + nameLen, leaf);
        return path;
    };

    ssize_t n = readInto(procfd, at("/stat"), buf);
    if (n < 0) {
        if (error) *error = std::string("read /proc/") + path + ": " + std::strerror(int(-n));
        return vanished(int(-n)) ? Read::Vanished : Read::Failed;
    }
    if (n == 0) // reaped between open and read
        return Read::Vanished;
    std::uint64_t flags = 0;
    if (!parseStat(std::string_view(buf.data(), static_cast<size_t>(n)), info, flags)) {
        if (error) *error = std::string("unparsable /proc/") + path;
        return Read::Failed;
    }
    // Kernel threads have neither argv nor exe: skip two reads for each.
    constexpr std::uint64_t kKernelThread = 0x00200000; // PF_KTHREAD
    if (flags & kKernelThread) return Read::Ok;
    // argv and exe are best effort: unreadable (other user) leaves them empty.
    n = readInto(procfd, at("/cmdline"), buf);
    if (n < 0 && vanished(int(-n))) return Read::Vanished;
    info.argv = splitCmdline(std::string_view(buf.data(), n > 0 ? static_cast<size_t>(n) : 0));
    char exe[4096];
    const ssize_t len = ::readlinkat(procfd, at("/exe"), exe, sizeof exe);
    if (len > 0 && static_cast<size_t>(len) < sizeof exe)
        info.executable.assign(exe, static_cast<size_t>(len));
    return Read::Ok;
}

// The numeric entries of /proc (one per process; threads are not listed).
bool pidNames(int procfd, std::vector<PidName> &names) {
    const int dupfd = ::fcntl(procfd, F_DUPFD_CLOEXEC, 0);
    if (dupfd < 0) return false;
    DIR *d = ::fdopendir(dupfd);
    if (!d) {
        ::close(dupfd);
        return false;
    }
    while (const dirent *e = ::readdir(d)) {
        if (!isPidName(e->d_name) || std::strlen(e->d_name) >= sizeof(PidName)) continue;
        names.emplace_back();
        std::strcpy(names.back().data(), e->d_name);
    }
    ::closedir(d);
    return true;
}

int openProc() {
    return ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

} // namespace

// Single-threaded on purpose: splitting the reads across 2 threads measured no faster on the
// shared 2-core build machine (often slower), while costing more CPU.
std::vector<ProcessInfo> snapshot() {
    std::vector<ProcessInfo> out;
    Fd proc(openProc());
    std::vector<PidName> names;
    if (proc.fd < 0 || !pidNames(proc.fd, names)) return out;
    out.reserve(names.size());
    std::string buf;
    for (const PidName &name : names) {
        ProcessInfo info;
        if (readProcess(proc.fd, name.data(), info, buf, nullptr) == Read::Ok)
            out.push_back(std::move(info));
    }
    return out;
}

// The kernel lists each task's children (/proc/PID/task/TID/children, Linux 3.5+): reading only
// the service's subtree costs a few syscalls per member instead of a pass over every process.
std::vector<ProcessInfo> snapshotTree(Pid root) {
    std::vector<ProcessInfo> out;
    Fd proc(openProc());
    if (proc.fd < 0 || root <= 0) return out;
    std::string buf, list;
    std::vector<Pid> frontier{root};
    while (!frontier.empty()) {
        const Pid pid = frontier.back();
        frontier.pop_back();
        const std::string name = std::to_string(pid);
        ProcessInfo info;
        if (readProcess(proc.fd, name.c_str(), info, buf, nullptr) != Read::Ok) continue;
        out.push_back(std::move(info));
        if (out.size() > 100000) break; // a loop in what the kernel tells us: stop
        const int taskDir =
            ::openat(proc.fd, (name + "/task").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (taskDir < 0) continue;
        std::vector<PidName> tasks;
        const bool listed = pidNames(taskDir, tasks);
        for (const PidName &tid : tasks) {
            const ssize_t n =
                readInto(taskDir, (std::string(tid.data()) + "/children").c_str(), list);
            if (n < 0 && n != -ENOENT && !listed) break;
            if (n == -ENOENT) { // a kernel without CONFIG_PROC_CHILDREN: filter a full snapshot
                ::close(taskDir);
                const std::vector<ProcessInfo> all = snapshot();
                std::vector<ProcessInfo> tree;
                for (const ProcessInfo &p : all)
                    if (p.pid == root) tree.push_back(p);
                for (Pid d : descendants(root, all))
                    for (const ProcessInfo &p : all)
                        if (p.pid == d) tree.push_back(p);
                return tree;
            }
            for (std::string_view rest(list.data(), n > 0 ? static_cast<size_t>(n) : 0);
                 !rest.empty();) {
                const size_t space = rest.find(' ');
                const std::string_view token = rest.substr(0, space);
                if (!token.empty())
                    frontier.push_back(std::strtoll(std::string(token).c_str(), nullptr, 10));
                rest =
                    space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
            }
        }
        ::close(taskDir);
    }
    return out;
}

Lookup inspect(Pid pid) {
    Lookup l;
    if (pid <= 0) {
        l.status = Lookup::Status::NotFound;
        return l;
    }
    Fd proc(openProc());
    if (proc.fd < 0) {
        l.error = std::string("open /proc: ") + std::strerror(errno);
        return l;
    }
    std::string buf;
    const std::string name = std::to_string(pid);
    switch (readProcess(proc.fd, name.c_str(), l.info, buf, &l.error)) {
    case Read::Ok:
        l.status = Lookup::Status::Found;
        break;
    case Read::Vanished:
        l.status = Lookup::Status::NotFound;
        break;
    case Read::Failed:
        l.status = Lookup::Status::Error;
        break;
    }
    return l;
}

namespace {

// One LISTEN row of a /proc/net/tcp{,6} table.
struct ListenRow {
    std::uint64_t inode = 0; // 0: the kernel did not say (never matches an fd)
    bool ipv6 = false;
    bool wildcard = false;
};

// The LISTEN rows (state 0A) on `port` of one /proc/net/tcp-format table.
// Columns: sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
// local_address is HEXADDR:HEXPORT; the address is all zeros for 0.0.0.0 and ::.
void listenRows(const std::string &table, std::uint16_t port, bool ipv6,
                std::vector<ListenRow> &rows) {
    size_t pos = table.find('\n'); // skip the header
    while (pos != std::string::npos && pos + 1 < table.size()) {
        const size_t begin = pos + 1;
        pos = table.find('\n', begin);
        const size_t end = pos == std::string::npos ? table.size() : pos;
        std::vector<std::pair<size_t, size_t>> cols;
        for (size_t i = begin; i < end && cols.size() < 10;) {
            while (i < end && table[i] == ' ')
                ++i;
            const size_t s = i;
            while (i < end && table[i] != ' ')
                ++i;
            if (i > s) cols.emplace_back(s, i - s);
        }
        if (cols.size() < 10) continue;
        const std::string_view local(table.data() + cols[1].first, cols[1].second);
        const std::string_view state(table.data() + cols[3].first, cols[3].second);
        const size_t colon = local.rfind(':');
        if (state != "0A" || colon == std::string_view::npos || colon == 0) continue;
        if (std::strtoul(std::string(local.substr(colon + 1)).c_str(), nullptr, 16) != port)
            continue;
        ListenRow row;
        row.ipv6 = ipv6;
        row.wildcard = local.substr(0, colon).find_first_not_of('0') == std::string_view::npos;
        row.inode = std::strtoull(table.c_str() + cols[9].first, nullptr, 10);
        rows.push_back(row);
    }
}

// Which of the socket inodes the process holds (each once). Unreadable fd dirs hold none.
void heldSockets(int procfd, const char *pidName, const std::unordered_set<std::uint64_t> &inodes,
                 std::vector<std::uint64_t> &held) {
    held.clear();
    const std::string path = std::string(pidName) + "/fd";
    const int fdDir = ::openat(procfd, path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fdDir < 0) return;
    DIR *d = ::fdopendir(fdDir);
    if (!d) {
        ::close(fdDir);
        return;
    }
    static constexpr char kPrefix[] = "socket:[";
    while (held.size() < inodes.size()) {
        const dirent *e = ::readdir(d);
        if (!e) break;
        if (e->d_name[0] == '.') continue;
        char link[64];
        const ssize_t n = ::readlinkat(::dirfd(d), e->d_name, link, sizeof link - 1);
        if (n <= static_cast<ssize_t>(sizeof kPrefix - 1) ||
            std::memcmp(link, kPrefix, sizeof kPrefix - 1) != 0)
            continue;
        link[n] = '\0';
        const std::uint64_t inode = std::strtoull(link + sizeof kPrefix - 1, nullptr, 10);
        if (inodes.count(inode) && std::find(held.begin(), held.end(), inode) == held.end())
            held.push_back(inode);
    }
    ::closedir(d);
}

} // namespace

PortOwners listeningPortOwners(std::uint16_t port) {
    PortOwners r;
    std::vector<ListenRow> rows;
    std::string table;
    for (const char *path : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        const bool ipv6 = std::strcmp(path, "/proc/net/tcp6") == 0;
        const ssize_t n = readInto(AT_FDCWD, path, table);
        if (n < 0) {
            const int err = int(-n);
            // No tcp6 table means IPv6 is off in this kernel: nothing can listen there.
            if (err == ENOENT && ipv6) continue;
            r.error = std::string("read ") + path + ": " + std::strerror(err);
            return r;
        }
        table.resize(static_cast<size_t>(n));
        listenRows(table, port, ipv6, rows);
    }
    r.ok = true;
    r.listening = !rows.empty();
    if (rows.empty()) return r;
    std::unordered_set<std::uint64_t> inodes;
    for (const ListenRow &row : rows)
        if (row.inode != 0) inodes.insert(row.inode);
    // inode -> the pids holding it, in /proc order.
    std::vector<std::pair<std::uint64_t, Pid>> holders;
    Fd proc(openProc());
    std::vector<PidName> names;
    if (proc.fd < 0 || !pidNames(proc.fd, names)) {
        r.error = "cannot scan /proc for socket owners";
    } else if (!inodes.empty()) {
        std::vector<std::uint64_t> held;
        for (const PidName &name : names) {
            heldSockets(proc.fd, name.data(), inodes, held);
            if (held.empty()) continue;
            const Pid pid = std::strtoll(name.data(), nullptr, 10);
            r.pids.push_back(pid);
            for (std::uint64_t inode : held)
                holders.emplace_back(inode, pid);
        }
    }
    for (const ListenRow &row : rows) {
        bool owned = false;
        for (const auto &[inode, pid] : holders) {
            if (inode != row.inode) continue;
            r.listeners.push_back({pid, row.ipv6, row.wildcard});
            owned = true;
        }
        if (!owned) r.listeners.push_back({0, row.ipv6, row.wildcard});
    }
    if (r.pids.empty() && r.error.empty())
        r.error = "a listener exists but its owner is not readable";
    return r;
}

// Every live member of the group from one pass over /proc reading only stat (1 open + 1 read
// per process); argv and exe are read for the members alone.
std::vector<ProcessInfo> groupMembers(Pid pgid) {
    std::vector<ProcessInfo> out;
    if (pgid <= 0) return out;
    Fd proc(openProc());
    std::vector<PidName> names;
    if (proc.fd < 0 || !pidNames(proc.fd, names)) return out;
    std::string buf;
    char path[sizeof(PidName) + sizeof "/stat"];
    for (const PidName &name : names) {
        std::snprintf(path, sizeof path, "%s/stat", name.data());
        const ssize_t n = readInto(proc.fd, path, buf);
        if (n <= 0) continue; // vanished (or reaped between open and read)
        ProcessInfo info;
        std::uint64_t flags = 0;
        if (!parseStat(std::string_view(buf.data(), static_cast<size_t>(n)), info, flags) ||
            info.pgid != pgid || info.state == RunState::Zombie)
            continue;
        // A member: the full read (stat again, cmdline, exe), re-checked in case it changed.
        ProcessInfo full;
        if (readProcess(proc.fd, name.data(), full, buf, nullptr) == Read::Ok &&
            full.pgid == pgid && full.state != RunState::Zombie)
            out.push_back(std::move(full));
    }
    return out;
}

namespace {

std::atomic<bool> pidfdUnavailable{false};

// Opens a pidfd first, THEN verifies the start time, then signals through the pidfd: the fd
// pins the process, so a pid reuse between the check and the signal cannot redirect it.
posix::DeliveryResult sendVerifiedByPidfd(const Identity &id, int signo) {
    using posix::Delivery;
    if (!maySignalPid(id.pid))
        return {Delivery::Guarded, "guard: refusing to signal pid " + std::to_string(id.pid)};
    if (pidfdUnavailable.load(std::memory_order_relaxed))
        return posix::sendVerifiedByKill(id, signo);
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_send_signal)
    const int fd = static_cast<int>(::syscall(SYS_pidfd_open, static_cast<pid_t>(id.pid), 0u));
    if (fd < 0) {
        const int err = errno;
        if (err == ESRCH) return {Delivery::Gone, "no such process"};
        // ENOSYS: kernel < 5.3; EPERM: a seccomp filter that does not know the call.
        if (err == ENOSYS || err == EPERM) {
            pidfdUnavailable.store(true, std::memory_order_relaxed);
            return posix::sendVerifiedByKill(id, signo);
        }
        return {Delivery::Unknown, std::string("pidfd_open: ") + std::strerror(err)};
    }
    Fd pidfd(fd);
    const Lookup l = inspect(id.pid);
    if (l.status == Lookup::Status::NotFound) return {Delivery::Gone, "no such process"};
    if (l.status == Lookup::Status::Error) return {Delivery::Unknown, "look-up failed: " + l.error};
    if (l.info.state == RunState::Zombie) return {Delivery::Gone, "zombie"};
    if (l.info.startTime != id.startTime)
        return {Delivery::Mismatch, "start time differs (pid reused)"};
    if (::syscall(SYS_pidfd_send_signal, pidfd.fd, signo, nullptr, 0u) == 0)
        return {Delivery::Sent, {}};
    const int err = errno;
    if (err == ESRCH) return {Delivery::Gone, "exited before the signal"};
    return {Delivery::Unknown, std::string("pidfd_send_signal: ") + std::strerror(err)};
#else
    pidfdUnavailable.store(true, std::memory_order_relaxed);
    return posix::sendVerifiedByKill(id, signo);
#endif
}

} // namespace

bool signalIdentity(const Identity &id, Signal sig, std::string *error) {
    return posix::signalWith(id, sig, sendVerifiedByPidfd, error);
}

TerminateResult terminate(const Identity &id, std::chrono::milliseconds grace) {
    return posix::terminateWith(id, grace, sendVerifiedByPidfd);
}

std::uint64_t startTimeNow() {
    // /proc/PID/stat's start time is in clock ticks since boot (CLOCK_BOOTTIME, suspend included).
    timespec ts{};
    if (::clock_gettime(CLOCK_BOOTTIME, &ts) != 0) return 0;
    const long ticks = std::max(1L, ::sysconf(_SC_CLK_TCK));
    return static_cast<std::uint64_t>(ts.tv_sec) * static_cast<std::uint64_t>(ticks) +
           static_cast<std::uint64_t>(ts.tv_nsec) * static_cast<std::uint64_t>(ticks) / 1000000000u;
}

std::int64_t ageMs(std::uint64_t startTime) {
    // Now to the millisecond, the start to the tick: the kernel rounds the start down, so the
    // age is never less than the process's real one (ticks on both sides were up to 10 ms short).
    timespec ts{};
    if (startTime == 0 || ::clock_gettime(CLOCK_BOOTTIME, &ts) != 0) return -1;
    const auto ticks = static_cast<std::uint64_t>(std::max(1L, ::sysconf(_SC_CLK_TCK)));
    const std::uint64_t nowMs = static_cast<std::uint64_t>(ts.tv_sec) * 1000u +
                                static_cast<std::uint64_t>(ts.tv_nsec) / 1000000u;
    const std::uint64_t startMs = startTime * 1000u / ticks;
    if (nowMs < startMs) return -1;
    return static_cast<std::int64_t>(nowMs - startMs);
}

std::unique_ptr<ExitWatch> ExitWatch::open(const Identity &id, std::string *error) {
#if defined(SYS_pidfd_open)
    const int fd = static_cast<int>(::syscall(SYS_pidfd_open, static_cast<pid_t>(id.pid), 0u));
    if (fd < 0) {
        if (error) *error = std::string("pidfd_open: ") + std::strerror(errno);
        return nullptr;
    }
    std::unique_ptr<ExitWatch> w(new ExitWatch);
    w->fd_ = fd;
    // The pidfd pins the process: verified now, it is the one watched from here on.
    if (alive(id) != Liveness::Alive) {
        if (error) *error = "pid " + std::to_string(id.pid) + " is not that process (or gone)";
        return nullptr;
    }
    return w;
#else
    (void)id;
    if (error) *error = "pidfd_open is not available";
    return nullptr;
#endif
}

ExitWatch::~ExitWatch() {
    if (fd_ >= 0) ::close(fd_);
}

bool ExitWatch::exited() const {
    pollfd p{fd_, POLLIN, 0};
    return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR));
}

} // namespace tether::os
