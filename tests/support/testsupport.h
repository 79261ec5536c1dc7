// Helpers shared by the QtTest suites: where the binaries under test are, free loopback ports.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <cstdint>

namespace tether::test {

// Absolute path of the `tether` binary (TETHER_BIN) and of the test helper (TETHER_TESTPROC).
// Fails the test run loudly (qFatal) when unset: a missing binary must never look like a pass.
QString tetherBin();
QString testprocBin();
QString hostileBin(); // TETHER_HOSTILE: the misbehaving service (tests/support/hostile_service.cpp)

// A TCP port on 127.0.0.1 that was free a moment ago (bound, read, released).
std::uint16_t freeLoopbackPort();

// What one `tether` CLI verb did.
struct CliRun {
    int exitCode = -1; // -1: it did not start, crashed or ran out of time
    QByteArray out, err;
    qint64 ms = 0; // from its start to its exit
};

// Runs `tether args` (behind `wrapper`, e.g. setpriv as another user) in `env` and awaits its
// exit with the event loop running, so the test's own processes keep draining their output.
// After timeoutMs it is killed (our own child) and reported as exit code -1.
CliRun runTether(const QStringList &args, const QProcessEnvironment &env, int timeoutMs = 30000,
                 const QStringList &wrapper = {});

// True once the process has exited, whether before this call or within timeoutMs, with the
// event loop running. QProcess::waitForFinished returns false for a process that already
// finished (while a test's event loop ran), which read as "still running".
bool awaitExit(QProcess &process, int timeoutMs);

// Counted gone: absent, or a zombie nobody reaps (this machine's PID 1 does not).
bool absentOrZombie(std::int64_t pid);

// How much slower than a normal build this one runs: a latency target a user is promised is
// asserted as is in the normal build, and this many times over under the sanitizers (every
// process involved, Tether and the demo alike, runs instrumented). The benchmarks measure the
// real figure.
constexpr int sanitizerSlowdown() {
#if defined(__SANITIZE_ADDRESS__)
    return 3;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    return 3;
#else
    return 1;
#endif
#else
    return 1;
#endif
}

} // namespace tether::test
