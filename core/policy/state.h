// The supervisor's states: one enum, one icon each. Flags (external, version mismatch,
// orphans) ride alongside in ServiceStatus.
#pragma once

namespace tether::policy {

enum class State {
    Stopped,       // nothing running, nothing wanted
    Starting,      // launched or adopted, probing until healthy or the start-up deadline
    Healthy,       // probes answered
    NotResponding, // alive, probes missing, inside the recovery window: never killed here
    Recovering,    // window spent: verifying identity, terminating
    Restarting,    // back-off before the next start
    Stopping,      // a stop plan is under way (explicit stop, restart, replacement, quit)
    Failed,        // gave up, or a condition a person must fix
};

// Stable names used in status --json, logs and the UI.
const char *toString(State s);
bool fromString(const char *name, State *out);

} // namespace tether::policy
