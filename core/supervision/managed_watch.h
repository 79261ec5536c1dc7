// The watch on opencode 2.x's service.json, as the shell runs it (Supervisor) and as the model
// runs it (tests/support/sim_world): when it runs, how often, and whether a look must judge the
// file again. One rule for both, so the model checks the watch that runs.
#pragma once

#include "policy/supervision.h"

#include <string>

namespace tether::supervision {

// How often to look, in ms; 0 when the file is not watched. Until the service Tether launched
// registers, often; then on the probe cadence (at most 500 ms while tracking); while stopped or
// failed, another client's ensure() may start a service, looked for at most every 5 s.
policy::Ms managedWatchEvery(const policy::SupervisionState &s, bool selfRegistering,
                             policy::Ms probeIntervalMs);

class ManagedWatch {
public:
    // `stamp` changes whenever the file does (its content, or the model's generation).
    bool needsJudging(const std::string &stamp) const;
    // An unknown verdict (the process table could not be read) is judged again at the next
    // look, though the file did not change: else a service another client started while the
    // table was unreadable would never be seen.
    void judged(const std::string &stamp, policy::ManagedFacts::Verdict verdict);
    void forget();

private:
    std::string stamp_;
    bool settled_ = false;
};

} // namespace tether::supervision
