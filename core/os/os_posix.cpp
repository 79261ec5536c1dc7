// The POSIX half shared by Linux and macOS: the signal guard, kill()-based signalling, process
// groups, the terminate escalation (see posix_internal.h), and the Job stubs (Windows only).
#include "os/posix_internal.h"
#include "os/process.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <string>
#include <unistd.h>

namespace tether::os {

Pid currentPid() {
    return static_cast<Pid>(::getpid());
}
Pid currentProcessGroup() {
    return static_cast<Pid>(::getpgrp());
}

// kill(0) hits our own group and kill(-1) every process we may signal; pid 1 is init.
bool maySignalPid(Pid pid) {
    return pid > 1 && pid != currentPid();
}

bool maySignalGroup(Pid pgid) {
    return pgid > 1 && pgid != currentProcessGroup() && pgid != currentPid();
}

bool signalGroup(Pid pgid, Signal sig, std::string *error) {
    if (!maySignalGroup(pgid)) {
        if (error) *error = "guard: refusing to signal process group " + std::to_string(pgid);
        return false;
    }
    if (::kill(static_cast<pid_t>(-pgid), posix::toPosixSignal(sig)) == 0) return true;
    if (error) *error = "kill(-" + std::to_string(pgid) + "): " + std::strerror(errno);
    return false;
}

// Containment on POSIX is a process group (setsid in the child), not a job object.
namespace {
constexpr const char *kNoJobs = "job objects are Windows only";
void setError(std::string *error) {
    if (error) *error = kNoJobs;
}
} // namespace

Job::Job(void *handle)
    : handle_(handle) {
}
Job::~Job() = default;
std::unique_ptr<Job> Job::create(const std::string &, std::string *error) {
    setError(error);
    return nullptr;
}
std::unique_ptr<Job> Job::open(const std::string &, std::string *error) {
    setError(error);
    return nullptr;
}
bool Job::assign(Pid, std::string *error) {
    setError(error);
    return false;
}
std::optional<std::uint64_t> Job::keepOpenIn(const Identity &, std::string *error) {
    setError(error);
    return std::nullopt;
}
std::vector<Pid> Job::pids() const {
    return {};
}
bool Job::terminate(unsigned, std::string *error) {
    setError(error);
    return false;
}
bool Job::waitEmpty(std::chrono::milliseconds) const {
    return false;
}
bool resumeSuspended(Pid, std::string *error) {
    if (error) *error = "suspended starts are Windows only";
    return false;
}

namespace posix {

int toPosixSignal(Signal sig) {
    switch (sig) {
    case Signal::Terminate:
        return SIGTERM;
    case Signal::Kill:
        return SIGKILL;
    case Signal::Continue:
        return SIGCONT;
    case Signal::Stop:
        return SIGSTOP;
    }
    return SIGTERM;
}

const char *signalName(int signo) {
    switch (signo) {
    case SIGTERM:
        return "SIGTERM";
    case SIGKILL:
        return "SIGKILL";
    case SIGCONT:
        return "SIGCONT";
    case SIGSTOP:
        return "SIGSTOP";
    default:
        return "signal";
    }
}

DeliveryResult sendVerifiedByKill(const Identity &id, int signo) {
    if (!maySignalPid(id.pid))
        return {Delivery::Guarded, "guard: refusing to signal pid " + std::to_string(id.pid)};
    const Lookup l = inspect(id.pid);
    if (l.status == Lookup::Status::NotFound) return {Delivery::Gone, "no such process"};
    if (l.status == Lookup::Status::Error) return {Delivery::Unknown, "look-up failed: " + l.error};
    if (l.info.state == RunState::Zombie) return {Delivery::Gone, "zombie"};
    if (l.info.startTime != id.startTime)
        return {Delivery::Mismatch, "start time differs (pid reused)"};
    if (::kill(static_cast<pid_t>(id.pid), signo) == 0) return {Delivery::Sent, {}};
    if (errno == ESRCH) return {Delivery::Gone, "no such process"};
    return {Delivery::Unknown, std::string("kill: ") + std::strerror(errno)};
}

TerminateResult terminateWith(const Identity &id, std::chrono::milliseconds grace,
                              const VerifiedSender &send, std::chrono::milliseconds settle) {
    const DeliveryResult term = send(id, SIGTERM);
    switch (term.delivery) {
    case Delivery::Gone:
        return {TerminateOutcome::AlreadyGone, term.error};
    case Delivery::Mismatch:
        return {TerminateOutcome::Refused, "identity mismatch: " + term.error};
    case Delivery::Guarded:
        return {TerminateOutcome::Refused, term.error};
    case Delivery::Unknown:
        return {TerminateOutcome::Unknown, "SIGTERM not sent: " + term.error};
    case Delivery::Sent:
        break;
    }
    // SIGTERM stays pending on a stopped process until it runs again.
    const DeliveryResult cont = send(id, SIGCONT);
    if (cont.delivery == Delivery::Gone || cont.delivery == Delivery::Mismatch)
        return {TerminateOutcome::ExitedOnTerm, {}};
    if (waitGone(id, grace)) return {TerminateOutcome::ExitedOnTerm, {}};

    const DeliveryResult kill = send(id, SIGKILL);
    switch (kill.delivery) {
    case Delivery::Gone:
    case Delivery::Mismatch: // the original exited; the pid now names someone else
        return {TerminateOutcome::ExitedOnTerm, "exited just before SIGKILL"};
    case Delivery::Guarded:
        return {TerminateOutcome::Refused, kill.error};
    case Delivery::Unknown:
        return {TerminateOutcome::Unknown, "SIGKILL not sent: " + kill.error};
    case Delivery::Sent:
        break;
    }
    if (waitGone(id, settle)) return {TerminateOutcome::Killed, {}};
    return {TerminateOutcome::Unknown, "still present after SIGKILL"};
}

bool signalWith(const Identity &id, Signal sig, const VerifiedSender &send, std::string *error) {
    const int signo = toPosixSignal(sig);
    const DeliveryResult r = send(id, signo);
    if (r.delivery == Delivery::Sent) return true;
    if (error)
        *error = std::string(signalName(signo)) + " not sent to pid " + std::to_string(id.pid) +
                 ": " + r.error;
    return false;
}

} // namespace posix
} // namespace tether::os
