// The process table as the supervision sees it: one interface, implemented by the OS layer
// (os_process_table.h) and by the simulated world of the model-based tests. Every operation
// the executor and the stop-plan runner perform on processes goes through it.
#pragma once

#include "os/process.h"
#include "policy/supervision.h"

#include <string>
#include <vector>

namespace tether::supervision {

using policy::Ms;

class ProcessTable {
public:
    virtual ~ProcessTable() = default;

    // One process. NotFound only when the OS positively says there is no such pid.
    virtual os::Lookup inspect(os::Pid pid) = 0;
    // Who listens on the port, per address family (owner pid 0 when it cannot be read).
    virtual policy::PortFacts portFacts(int port) = 0;
    // Every process this user can see (for the orphan sweep's group rule).
    virtual std::vector<os::ProcessInfo> snapshot() = 0;
    // The live (non-zombie) members of a process group, as a snapshot would show them.
    virtual std::vector<os::ProcessInfo> groupMembers(os::Pid pgid) = 0;
    // Signals re-verify identity right before sending (pid + start time, not a zombie) and
    // refuse pid <= 1, Tether itself and its group; false when refused or failed.
    virtual bool signal(const os::Identity &id, os::Signal sig, std::string *error) = 0;
    virtual bool signalGroup(os::Pid pgid, os::Signal sig, std::string *error) = 0;
    // Block until the identity is gone (a zombie counts as gone) or the timeout passes.
    virtual bool waitGone(const os::Identity &id, Ms timeoutMs) = 0;
    // Block until the group has no live member or the timeout passes.
    virtual bool waitGroupEmpty(os::Pid pgid, Ms timeoutMs) = 0;
    // Block for a while on the clock below (a look-up that failed, tried again shortly).
    virtual void pause(Ms ms) = 0;
    // The monotonic clock the waits above run on, in ms (the simulated one in the model).
    virtual Ms clockMs() = 0;
    // The start-time token a process starting now would get (os::startTimeNow).
    virtual std::uint64_t startTimeNow() = 0;
    virtual os::Pid selfPid() = 0;
    virtual os::Pid selfGroup() = 0;
};

} // namespace tether::supervision
