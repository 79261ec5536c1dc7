// The process table of the real machine: every ProcessTable operation through the OS layer
// (core/os). Plain C++, no Qt. The simulated world of the model-based tests is the other
// implementation.
#pragma once

#include "supervision/process_table.h"

#include <functional>
#include <string>

namespace tether::supervision {

class OsProcessTable : public ProcessTable {
public:
    os::Lookup inspect(os::Pid pid) override;
    // os::listeningPortOwners as policy facts: readable = the tables could be read; one
    // Listener per socket and holder, named "PID 123 (node)" (empty when the owner is unknown).
    policy::PortFacts portFacts(int port) override;
    std::vector<os::ProcessInfo> snapshot() override;
    std::vector<os::ProcessInfo> groupMembers(os::Pid pgid) override;
    // os::signalIdentity: re-verifies pid + start time (through a pidfd on Linux).
    bool signal(const os::Identity &id, os::Signal sig, std::string *error) override;
    bool signalGroup(os::Pid pgid, os::Signal sig, std::string *error) override;
    bool waitGone(const os::Identity &id, Ms timeoutMs) override;
    // Polls groupMembers, backing off from 1 ms to 10 ms between looks.
    bool waitGroupEmpty(os::Pid pgid, Ms timeoutMs) override;
    void pause(Ms ms) override;
    Ms clockMs() override;
    std::uint64_t startTimeNow() override;
    os::Pid selfPid() override;
    os::Pid selfGroup() override;
};

// The pure half of portFacts: `describe` names a pid for a person (called once per pid > 0).
policy::PortFacts portFactsFrom(const os::PortOwners &owners,
                                const std::function<std::string(os::Pid)> &describe);
// "PID 123 (node)": the executable's base name, else argv[0]'s; "PID 123" when neither is known.
std::string ownerLabel(os::Pid pid, const os::Lookup &lookup);

} // namespace tether::supervision
