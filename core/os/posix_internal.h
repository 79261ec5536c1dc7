// Internal to core/os: the POSIX pieces shared by os_linux.cpp and os_macos.cpp.
// Not part of the public interface (process.h); nothing outside core/os includes this.
#pragma once

#include "os/process.h"

#include <chrono>
#include <functional>
#include <string>

namespace tether::os::posix {

// What one "verify identity, then signal" attempt found.
enum class Delivery {
    Sent,     // identity verified and the signal delivered
    Gone,     // no such pid, or a zombie: nothing to signal
    Mismatch, // a live process with that pid but another start time (a reused pid)
    Guarded,  // refused by maySignalPid
    Unknown,  // the look-up or the signal failed: the answer is unknown, nothing was sent
};

struct DeliveryResult {
    Delivery delivery = Delivery::Unknown;
    std::string error; // why, when not Sent
};

// Verifies `id` and sends `signo`, as atomically as the platform allows.
// Linux: pidfd_open, verify, pidfd_send_signal. Generic POSIX: verify, kill().
using VerifiedSender = std::function<DeliveryResult(const Identity &id, int signo)>;

int toPosixSignal(Signal sig);
const char *signalName(int signo);

// Generic POSIX sender: guard, inspect() (start time, zombie), then kill(). A pid reuse between
// the check and kill() is possible in principle (a few microseconds); pidfd closes that gap.
DeliveryResult sendVerifiedByKill(const Identity &id, int signo);

// The terminate sequence over any sender: verify+TERM, verify+CONT (a stopped process must run
// to act on TERM), wait up to grace for gone (zombie = gone), verify+KILL, wait. `settle` bounds
// the wait after SIGKILL (a process in uninterruptible sleep may take a moment).
TerminateResult terminateWith(const Identity &id, std::chrono::milliseconds grace,
                              const VerifiedSender &send,
                              std::chrono::milliseconds settle = std::chrono::seconds(5));

// signalIdentity over any sender: true only when the signal was delivered.
// macOS: signalIdentity = signalWith(id, sig, sendVerifiedByKill, error);
//        terminate = terminateWith(id, grace, sendVerifiedByKill).
bool signalWith(const Identity &id, Signal sig, const VerifiedSender &send, std::string *error);

} // namespace tether::os::posix
