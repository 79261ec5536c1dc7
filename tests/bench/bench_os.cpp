// Benchmark of the OS layer (issue 2, point 6): with N extra sleeping processes alive (default
// 1,000), times a full snapshot, a descendants query and a port-owner lookup.
//
//   bench_os [EXTRA_PROCESSES=1000] [REPETITIONS=100]
//
// The extra processes are fork()ed children in one new process group, killed as a group at the
// end and reaped one by one (verified). They also die with this program (PR_SET_PDEATHSIG) and
// end by themselves after 300 s (alarm), so an interrupted run leaks nothing for long.
#include "os/process.h"

#include <algorithm>
#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace tether::os;
using Clock = std::chrono::steady_clock;

namespace {

[[noreturn]] void sleeper(pid_t parent) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(0);
    ::alarm(300);
    for (;;)
        ::pause();
}

// Forks `count` sleepers into one new process group; returns their pids (leader first).
std::vector<pid_t> spawnSleepers(int count) {
    std::vector<pid_t> pids;
    const pid_t self = ::getpid();
    pid_t leader = 0;
    for (int i = 0; i < count; ++i) {
        const pid_t pid = ::fork();
        if (pid < 0) {
            std::perror("fork");
            break;
        }
        if (pid == 0) {
            ::setpgid(0, leader); // 0 for the first: it leads the new group
            sleeper(self);
        }
        ::setpgid(pid, leader == 0 ? pid : leader); // both sides, so no race on the group
        if (leader == 0) leader = pid;
        pids.push_back(pid);
    }
    return pids;
}

// CPU time of this process (user + kernel, all threads): unlike wall time, it does not grow
// when other work on a shared machine takes the cores away.
double cpuMs() {
    timespec ts{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

struct Timing {
    double meanMs, medianMs, minMs, cpuMeanMs;
};

Timing timeIt(int reps, const std::function<void()> &op) {
    op(); // warm up (dentry caches, allocations)
    std::vector<double> ms;
    const double cpu0 = cpuMs();
    for (int i = 0; i < reps; ++i) {
        const auto t0 = Clock::now();
        op();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    const double cpu = (cpuMs() - cpu0) / reps;
    std::sort(ms.begin(), ms.end());
    double sum = 0;
    for (double m : ms)
        sum += m;
    return {sum / reps, ms[ms.size() / 2], ms.front(), cpu};
}

void print(const char *what, const Timing &t) {
    std::printf("%-34s wall %8.3f ms/op (median %.3f, min %.3f)  cpu %8.3f ms/op\n", what, t.meanMs,
                t.medianMs, t.minMs, t.cpuMeanMs);
}

int listenLoopback(std::uint16_t &port) {
    const int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (s < 0 || ::bind(s, reinterpret_cast<sockaddr *>(&a), len) != 0 || ::listen(s, 4) != 0 ||
        ::getsockname(s, reinterpret_cast<sockaddr *>(&a), &len) != 0)
        return -1;
    port = ntohs(a.sin_port);
    return s;
}

} // namespace

int main(int argc, char **argv) {
    const int extra = argc > 1 ? std::atoi(argv[1]) : 1000;
    const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 100;

    const std::vector<pid_t> sleepers = spawnSleepers(extra);
    if (static_cast<int>(sleepers.size()) != extra) {
        std::fprintf(stderr, "could only start %zu of %d sleepers\n", sleepers.size(), extra);
    }
    const Pid group = sleepers.empty() ? 0 : sleepers.front();
    // Wait until every sleeper is visible as our child (deadline, not a fixed sleep).
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    std::size_t visible = 0;
    while (Clock::now() < deadline) {
        visible = descendants(currentPid()).size();
        if (visible >= sleepers.size()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    // Listener created after the forks, so only this process owns it.
    std::uint16_t port = 0;
    const int listener = listenLoopback(port);

    const std::size_t total = snapshot().size();
    std::printf("extra sleeping processes: %zu (visible as children: %zu)\n", sleepers.size(),
                visible);
    std::printf("processes in a full snapshot: %zu; repetitions: %d\n", total, reps);

    std::vector<ProcessInfo> snap;
    print("snapshot()", timeIt(reps, [&] { snap = snapshot(); }));
    print("descendants(self) incl. snapshot",
          timeIt(reps, [&] { (void)descendants(currentPid()); }));
    print("descendants(self, snap) (pure)",
          timeIt(reps, [&] { (void)descendants(currentPid(), snap); }));
    PortOwners owners;
    print("listeningPortOwners(port)", timeIt(reps, [&] { owners = listeningPortOwners(port); }));
    print("listeningPortOwners(free port)", timeIt(reps, [&] { (void)listeningPortOwners(1); }));
    const Pid probe = sleepers.empty() ? currentPid() : sleepers.back();
    print("inspect(pid)", timeIt(reps * 10, [&] { (void)inspect(probe); }));
    const bool ownerOk = owners.ok && owners.pids == std::vector<Pid>{currentPid()};
    std::printf("port %u owner found correctly: %s\n", port, ownerOk ? "yes" : "NO");
    if (listener >= 0) ::close(listener);

    // Clean up: the whole group at once (through the guard), then reap each one.
    int reaped = 0;
    if (group > 0) {
        std::string error;
        if (!signalGroup(group, Signal::Kill, &error))
            std::fprintf(stderr, "group kill failed: %s\n", error.c_str());
        for (pid_t pid : sleepers)
            if (::waitpid(pid, nullptr, 0) == pid) ++reaped;
    }
    std::printf("sleepers reaped after the group kill: %d of %zu\n", reaped, sleepers.size());
    const bool ok =
        ownerOk && reaped == static_cast<int>(sleepers.size()) && visible >= sleepers.size();
    return ok ? 0 : 1;
}
