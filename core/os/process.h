// The OS boundary: processes, identities, ports, signals, containment (its plain data is in
// os/types.h).
// Plain C++17, no Qt, so the Windows implementation builds with mingw-w64 and runs under wine.
// One implementation per OS: os_linux.cpp, os_windows.cpp, os_macos.cpp (+ os_posix.cpp shared).
#pragma once

#include "os/types.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tether::os {
// All processes this user can see. Processes that vanish mid-read are skipped.
std::vector<ProcessInfo> snapshot();
// root and its descendants only: far cheaper than snapshot() where the OS lists children
// (Linux); elsewhere a filtered snapshot. Empty when root is gone.
std::vector<ProcessInfo> snapshotTree(Pid root);
// One process. NotFound only when the OS positively says there is no such pid.
Lookup inspect(Pid pid);
// Alive: present, not a zombie, same start time. Gone: absent, zombie, or a different start
// time (a reused pid). Unknown: the look-up failed; an unknown process is never signalled.
Liveness alive(const Identity &id);
std::optional<Identity> identityOf(Pid pid); // nullopt when not found / not readable

// All descendants of root, from a fresh snapshot (os/types.h has the pure look-up).
std::vector<Pid> descendants(Pid root);

PortOwners listeningPortOwners(std::uint16_t port);

// The guard no caller can bypass: never pid <= 1, Tether itself, nor (for groups) a group id
// <= 1 or Tether's own group. Every signal in this layer passes through it.
bool maySignalPid(Pid pid);
bool maySignalGroup(Pid pgid);

// Re-verifies identity immediately before every signal. POSIX: SIGTERM then SIGCONT (a stopped
// process must run to act on TERM), wait up to grace, SIGKILL, wait. Windows (no SIGTERM):
// CTRL_BREAK_EVENT to the console process group it leads, sent through its console only when
// nothing outside its tree shares that console, and WM_CLOSE to its top-level windows; wait up
// to grace, then TerminateProcess. ExitedOnTerm: it ended when asked; Killed: it needed the
// kill; asked neither way (no console, no window), it is killed at once, without the wait.
// A mismatching identity is Refused, never signalled.
TerminateResult terminate(const Identity &id, std::chrono::milliseconds grace);

// Signal a whole process group (POSIX). Returns false if refused by the guard or failed.
bool signalGroup(Pid pgid, Signal sig, std::string *error = nullptr);
// The members of a process group that are not zombies (empty on Windows): what a group
// signal would reach, listed before sending it so the log names every process signalled.
std::vector<Pid> liveGroupMembers(Pid pgid);
// The same members with what a snapshot shows of them (identity, state, argv), found cheaply:
// Linux reads only /proc/PID/stat of every process (argv and exe of the members alone); macOS
// asks libproc for the group. Empty for pgid <= 0, and always on Windows (no process groups).
std::vector<ProcessInfo> groupMembers(Pid pgid);
// Signal one verified identity (re-verified here; pidfd on Linux where available). Windows:
// Terminate asks as terminate() does (CTRL_BREAK, WM_CLOSE) and ends a process that can be asked
// neither way at once; Kill is TerminateProcess; Continue is a no-op (nothing is stopped).
bool signalIdentity(const Identity &id, Signal sig, std::string *error = nullptr);

// Wait until the identity is gone (zombie counts as gone) or the timeout passes.
bool waitGone(const Identity &id, std::chrono::milliseconds timeout);

// Resume every thread of a process created suspended (Windows CREATE_SUSPENDED, so that it can
// join a job before it runs). Windows only: false elsewhere. Refused for Tether itself.
bool resumeSuspended(Pid pid, std::string *error = nullptr);

// The start-time token (as ProcessInfo::startTime) a process starting now would get: a process
// whose token is greater started after this call. 0 when unknown.
std::uint64_t startTimeNow();
// How long ago a process with this start-time token started, in milliseconds (the OS's own
// count, so it holds for a process Tether first saw late); -1 when unknown.
std::int64_t ageMs(std::uint64_t startTime);

Pid currentPid();
Pid currentProcessGroup(); // 0 on Windows

// Tells when a process that is not Tether's child exits, without polling: Linux a pidfd
// (readable once the process has exited), macOS a kqueue watching EVFILT_PROC/NOTE_EXIT (readable
// on the event), Windows the process handle (signalled). The watch is opened first and the
// identity verified after, so it watches exactly that process, never a pid reused later.
// nullptr when the identity does not hold or the kernel lacks it (*error says which): the
// caller then looks on a cadence.
class ExitWatch {
public:
    static std::unique_ptr<ExitWatch> open(const Identity &id, std::string *error = nullptr);
    ~ExitWatch();
    ExitWatch(const ExitWatch &) = delete;
    ExitWatch &operator=(const ExitWatch &) = delete;

    int fd() const { return fd_; }           // POSIX: watch for readability; -1 on Windows
    void *handle() const { return handle_; } // Windows: wait on it; nullptr on POSIX
    bool exited() const;                     // now, without blocking

private:
    ExitWatch() = default;
    int fd_ = -1;
    void *handle_ = nullptr;
};

// Windows job object: a named container for a process tree that can be terminated as a whole
// and reopened by name by a later Tether launch. On POSIX every call fails (returns nullptr /
// false); containment there is a process group (setsid in the child).
// A job's name lives only while some handle to the job is open, not while its processes run:
// keepOpenIn() gives the service a handle of its own, so the name outlives Tether's handle.
class Job {
public:
    static std::unique_ptr<Job> create(const std::string &name, std::string *error = nullptr);
    static std::unique_ptr<Job> open(const std::string &name, std::string *error = nullptr);
    ~Job();
    Job(const Job &) = delete;
    Job &operator=(const Job &) = delete;

    bool assign(Pid pid, std::string *error = nullptr);
    // Duplicates a handle to the job into the verified process `id`, which never closes it: the
    // job (and its name) lives as long as that process, and as long as any child it started with
    // handle inheritance (the handle is inheritable). The handle's value in that process;
    // nullopt when the identity does not hold or the duplication failed.
    std::optional<std::uint64_t> keepOpenIn(const Identity &id, std::string *error = nullptr);
    std::vector<Pid> pids() const;
    // Ends every process in the job. Returns once the ending is under way, not done: waitEmpty.
    bool terminate(unsigned exitCode = 1, std::string *error = nullptr);
    // Until no process in the job is running (their sockets closed, their ports free) or the
    // timeout passes; false then, or when the job cannot be queried.
    bool waitEmpty(std::chrono::milliseconds timeout) const;

private:
    explicit Job(void *handle);
    void *handle_ = nullptr;
};

} // namespace tether::os
