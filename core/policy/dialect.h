// Which service Tether drives, resolved from [service] profile (service/profile.h): the API
// shape, how it is started and found. One enum, one stable name each (the INI text, logs,
// status --json, the service registration).
#pragma once

namespace tether::policy {

enum class Dialect {
    Opencode1, // opencode 1.x `serve`: Tether starts it and writes its registration
    Opencode2, // opencode 2.x `serve --service`: the service registers itself (service.json)
    Custom,    // the user's command, probed like 1.x
    Demo,      // the bundled opencode 1.x stand-in (`tether demo-service`)
};

const char *toString(Dialect d); // "opencode1" | "opencode2" | "custom" | "demo"
bool fromString(const char *name, Dialect *out);

} // namespace tether::policy
