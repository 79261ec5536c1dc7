// The OS boundary on macOS.
//
// UNCOMPILED: no macOS toolchain exists on the machines this was written on. It is written
// against the documented libproc (proc_listallpids, proc_listpids(PROC_PGRP_ONLY), proc_pidinfo,
// proc_pidpath, proc_pidfdinfo(PROC_PIDFDSOCKETINFO): soi_family, insi_vflag INI_IPV4/INI_IPV6)
// and sysctl (KERN_PROCARGS2) interfaces and has never been built or run. Build and run the
// tests/os suite on a Mac before trusting it.
//
// Signals, the guard, process groups and the (absent) Job come from os_posix.cpp; terminate and
// signalIdentity use its kill()-based verified sender (no pidfd on macOS).
#include "os/posix_internal.h"
#include "os/process.h"

#include <arpa/inet.h>
#include <libproc.h>
#include <mach/mach_time.h>
#include <netinet/in.h>
#include <sys/event.h>
#include <sys/proc.h>
#include <sys/proc_info.h>
#include <sys/sysctl.h>
#include <sys/time.h>
#include <unistd.h> // close()

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace tether::os {

namespace {

std::string pathOf(Pid pid) {
    char buf[PROC_PIDPATHINFO_MAXSIZE];
    const int n = proc_pidpath(static_cast<int>(pid), buf, sizeof buf);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

// kern.argmax (1 MiB on current macOS), read once: the most KERN_PROCARGS2 can return.
std::size_t argMax() {
    static const std::size_t max = [] {
        int argmax = 0;
        std::size_t size = sizeof argmax;
        int mib[2] = {CTL_KERN, KERN_ARGMAX};
        return sysctl(mib, 2, &argmax, &size, nullptr, 0) == 0 && argmax > 0
                   ? static_cast<std::size_t>(argmax)
                   : std::size_t(0);
    }();
    return max;
}

// KERN_PROCARGS2: int argc, the exec path, NUL padding, then argc NUL-terminated strings.
// One buffer per thread, allocated once: a refresh reads many processes' argv, and a fresh
// megabyte for each was most of what a snapshot cost.
std::vector<std::string> argvOf(Pid pid) {
    static thread_local std::vector<char> buf;
    if (buf.empty()) buf.resize(argMax());
    if (buf.empty()) return {};
    std::size_t size = buf.size();
    int mib[3] = {CTL_KERN, KERN_PROCARGS2, static_cast<int>(pid)};
    if (sysctl(mib, 3, buf.data(), &size, nullptr, 0) != 0 || size < sizeof(int)) return {};
    int argc = 0;
    std::memcpy(&argc, buf.data(), sizeof argc);
    const char *p = buf.data() + sizeof argc;
    const char *end = buf.data() + size;
    p = static_cast<const char *>(std::memchr(p, '\0', static_cast<std::size_t>(end - p)));
    if (!p) return {};
    while (p < end && *p == '\0') // skip the exec path's padding
        ++p;
    std::vector<std::string> argv;
    while (p < end && static_cast<int>(argv.size()) < argc) {
        const char *nul =
            static_cast<const char *>(std::memchr(p, '\0', static_cast<std::size_t>(end - p)));
        if (!nul) break;
        argv.emplace_back(p, nul);
        p = nul + 1;
    }
    return argv;
}

// pti_total_user/system are mach absolute time units, not nanoseconds (they differ on arm64).
std::uint64_t machToMs(std::uint64_t t) {
    static const mach_timebase_info_data_t tb = [] {
        mach_timebase_info_data_t info{};
        mach_timebase_info(&info);
        return info;
    }();
    if (tb.denom == 0) return 0;
    return t * tb.numer / tb.denom / 1000000;
}

RunState stateOf(std::uint32_t status) {
    switch (status) {
    case SZOMB:
        return RunState::Zombie;
    case SSTOP:
        return RunState::Stopped;
    case SIDL:
    case SRUN:
    case SSLEEP:
        return RunState::Running;
    default:
        return RunState::Unknown;
    }
}

// What a snapshot reads of each process: the BSD info alone (pid, ppid, group, state, start
// time: enough to find a tree), or also the executable, argv, memory and CPU.
enum class Detail { Tree, Full };

void readDetails(ProcessInfo &p) {
    if (p.state == RunState::Zombie) return; // a zombie has no image, arguments or memory left
    p.executable = pathOf(p.pid);
    p.argv = argvOf(p.pid);
    proc_taskinfo task{};
    if (proc_pidinfo(static_cast<int>(p.pid), PROC_PIDTASKINFO, 0, &task, sizeof task) ==
        static_cast<int>(sizeof task)) {
        p.rssKiB = task.pti_resident_size / 1024;
        p.cpuTimeMs = machToMs(task.pti_total_user + task.pti_total_system);
    }
}

// The BSD info works for zombies too (the kernel looks them up for this flavour).
Lookup lookup(Pid pid, Detail detail = Detail::Full) {
    Lookup l;
    proc_bsdinfo bsd{};
    errno = 0;
    const int n = proc_pidinfo(static_cast<int>(pid), PROC_PIDTBSDINFO, 0, &bsd, sizeof bsd);
    if (n != static_cast<int>(sizeof bsd)) {
        if (errno == ESRCH) {
            l.status = Lookup::Status::NotFound;
        } else {
            l.status = Lookup::Status::Error;
            l.error = std::string("proc_pidinfo(PROC_PIDTBSDINFO): ") + std::strerror(errno);
        }
        return l;
    }
    ProcessInfo &p = l.info;
    p.pid = pid;
    p.ppid = bsd.pbi_ppid;
    p.pgid = bsd.pbi_pgid;
    p.state = stateOf(bsd.pbi_status);
    p.startTime = std::uint64_t(bsd.pbi_start_tvsec) * 1000000u + bsd.pbi_start_tvusec;
    if (detail == Detail::Full) readDetails(p);
    l.status = Lookup::Status::Found;
    return l;
}

std::vector<Pid> allPids() {
    const int estimate = proc_listallpids(nullptr, 0);
    if (estimate <= 0) return {};
    std::vector<int> buf(static_cast<std::size_t>(estimate) + 64); // room for new processes
    const int n = proc_listallpids(buf.data(), static_cast<int>(buf.size() * sizeof(int)));
    if (n <= 0) return {};
    return std::vector<Pid>(buf.begin(), buf.begin() + std::min<std::size_t>(n, buf.size()));
}

// The TCP sockets `pid` holds in LISTEN on `port` (IPv4 or IPv6), appended to `out` with their
// family and whether they are bound to the wildcard. Needs the same user or root.
// Per <sys/proc_info.h>: soi_family is the socket's domain (AF_INET / AF_INET6); insi_vflag says
// which address the pcb carries (INI_IPV4: insi_laddr.ina_46.i46a_addr4, INI_IPV6:
// insi_laddr.ina_6). A v6 socket bound to a v4-mapped address carries INI_IPV4 only; it still
// counts as v6 (its domain), as on Linux.
void listenersOf(Pid pid, std::uint16_t port, std::vector<PortListener> &out) {
    const int bytes = proc_pidinfo(static_cast<int>(pid), PROC_PIDLISTFDS, 0, nullptr, 0);
    if (bytes <= 0) return;
    std::vector<proc_fdinfo> fds(static_cast<std::size_t>(bytes) / sizeof(proc_fdinfo) + 16);
    const int got = proc_pidinfo(static_cast<int>(pid), PROC_PIDLISTFDS, 0, fds.data(),
                                 static_cast<int>(fds.size() * sizeof(proc_fdinfo)));
    const std::size_t count = got > 0 ? static_cast<std::size_t>(got) / sizeof(proc_fdinfo) : 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (fds[i].proc_fdtype != PROX_FDTYPE_SOCKET) continue;
        socket_fdinfo si{};
        if (proc_pidfdinfo(static_cast<int>(pid), fds[i].proc_fd, PROC_PIDFDSOCKETINFO, &si,
                           sizeof si) != static_cast<int>(sizeof si))
            continue;
        if (si.psi.soi_kind != SOCKINFO_TCP ||
            (si.psi.soi_family != AF_INET && si.psi.soi_family != AF_INET6))
            continue;
        const tcp_sockinfo &tcp = si.psi.soi_proto.pri_tcp;
        const in_sockinfo &in = tcp.tcpsi_ini;
        if (tcp.tcpsi_state != TSI_S_LISTEN ||
            ntohs(static_cast<std::uint16_t>(in.insi_lport)) != port)
            continue;
        PortListener l;
        l.pid = pid;
        l.ipv6 = si.psi.soi_family == AF_INET6;
        if (in.insi_vflag & INI_IPV6)
            l.wildcard = IN6_IS_ADDR_UNSPECIFIED(&in.insi_laddr.ina_6);
        else
            l.wildcard = in.insi_laddr.ina_46.i46a_addr4.s_addr == INADDR_ANY;
        out.push_back(l);
    }
}

} // namespace

std::vector<ProcessInfo> snapshot() {
    std::vector<ProcessInfo> out;
    for (Pid pid : allPids()) {
        Lookup l = lookup(pid);
        if (l.status == Lookup::Status::Found)
            out.push_back(std::move(l.info)); // vanished or unreadable: skipped
    }
    return out;
}

// The refresh's view (MCP rows of the service's tree): every process's BSD info to find the
// tree, then argv and the rest for the tree's members only, not for every same-user process.
std::vector<ProcessInfo> snapshotTree(Pid root) {
    std::vector<ProcessInfo> all;
    if (root <= 0) return all;
    for (Pid pid : allPids()) {
        Lookup l = lookup(pid, Detail::Tree);
        if (l.status == Lookup::Status::Found) all.push_back(std::move(l.info));
    }
    const std::vector<Pid> below = descendants(root, all);
    std::vector<ProcessInfo> tree;
    for (ProcessInfo &p : all)
        if (p.pid == root || std::find(below.begin(), below.end(), p.pid) != below.end()) {
            readDetails(p);
            tree.push_back(std::move(p));
        }
    return tree;
}

Lookup inspect(Pid pid) {
    if (pid < 0 || pid > 0x7FFFFFFF) {
        Lookup l;
        l.status = Lookup::Status::NotFound;
        return l;
    }
    return lookup(pid);
}

// Only processes this user may inspect are searched: a listener owned by another user (or root)
// is invisible here without privileges, so "not listening" is only as good as that (and no
// listener ever has pid 0 here: an unreadable one is not seen at all).
PortOwners listeningPortOwners(std::uint16_t port) {
    PortOwners owners;
    const std::vector<Pid> pids = allPids();
    if (pids.empty()) {
        owners.error = "proc_listallpids failed";
        return owners;
    }
    owners.ok = true;
    for (Pid pid : pids) {
        const std::size_t before = owners.listeners.size();
        listenersOf(pid, port, owners.listeners);
        if (owners.listeners.size() > before) {
            owners.listening = true;
            owners.pids.push_back(pid);
        }
    }
    return owners;
}

// proc_listpids(PROC_PGRP_ONLY, pgid): the pids whose process group is pgid; zombies dropped.
std::vector<ProcessInfo> groupMembers(Pid pgid) {
    std::vector<ProcessInfo> out;
    if (pgid <= 0 || pgid > 0x7FFFFFFF) return out;
    const auto group = static_cast<std::uint32_t>(pgid);
    const int estimate = proc_listpids(PROC_PGRP_ONLY, group, nullptr, 0);
    if (estimate <= 0) return out;
    std::vector<int> buf(static_cast<std::size_t>(estimate) / sizeof(int) + 16);
    const int bytes = proc_listpids(PROC_PGRP_ONLY, group, buf.data(),
                                    static_cast<int>(buf.size() * sizeof(int)));
    const std::size_t n =
        bytes > 0 ? std::min(buf.size(), static_cast<std::size_t>(bytes) / sizeof(int)) : 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (buf[i] <= 0) continue;
        Lookup l = lookup(buf[i]);
        if (l.status == Lookup::Status::Found && l.info.pgid == pgid &&
            l.info.state != RunState::Zombie)
            out.push_back(std::move(l.info));
    }
    return out;
}

bool signalIdentity(const Identity &id, Signal sig, std::string *error) {
    return posix::signalWith(id, sig, posix::sendVerifiedByKill, error);
}

TerminateResult terminate(const Identity &id, std::chrono::milliseconds grace) {
    return posix::terminateWith(id, grace, posix::sendVerifiedByKill);
}

// Written against gettimeofday(2), not compiled here: pbi_start_tvsec/usec are wall-clock
// seconds and microseconds, so now in the same units is the bound.
std::uint64_t startTimeNow() {
    timeval tv{};
    if (::gettimeofday(&tv, nullptr) != 0) return 0;
    return std::uint64_t(tv.tv_sec) * 1000000u + std::uint64_t(tv.tv_usec);
}

std::int64_t ageMs(std::uint64_t startTime) {
    const std::uint64_t now = startTimeNow();
    if (startTime == 0 || now < startTime) return -1;
    return std::int64_t((now - startTime) / 1000u); // microseconds
}

// Written against kqueue(2) / kevent(2), not compiled here: EVFILT_PROC with NOTE_EXIT on a
// kqueue of its own; the kqueue's fd reads as ready once the event fired.
std::unique_ptr<ExitWatch> ExitWatch::open(const Identity &id, std::string *error) {
    const int kq = ::kqueue();
    if (kq < 0) {
        if (error) *error = std::string("kqueue: ") + std::strerror(errno);
        return nullptr;
    }
    std::unique_ptr<ExitWatch> w(new ExitWatch);
    w->fd_ = kq;
    struct kevent change;
    EV_SET(&change, static_cast<uintptr_t>(id.pid), EVFILT_PROC, EV_ADD | EV_ENABLE | EV_ONESHOT,
           NOTE_EXIT, 0, nullptr);
    if (::kevent(kq, &change, 1, nullptr, 0, nullptr) < 0) {
        if (error) *error = std::string("kevent: ") + std::strerror(errno);
        return nullptr;
    }
    // Registered first, verified after: a pid reused in between is caught here.
    if (alive(id) != Liveness::Alive) {
        if (error) *error = "pid " + std::to_string(id.pid) + " is not that process (or gone)";
        return nullptr;
    }
    return w;
}

ExitWatch::~ExitWatch() {
    if (fd_ >= 0) ::close(fd_);
}

bool ExitWatch::exited() const {
    struct kevent event;
    const timespec zero{0, 0};
    return ::kevent(fd_, nullptr, 0, &event, 1, &zero) > 0;
}

} // namespace tether::os
