// What to do with orphaned MCP processes when they are found ([orphans] onLaunch and
// whileRunning): one enum, one stable name each (the INI text, the settings dialog).
#pragma once

namespace tether::policy {

enum class OrphanMode {
    Ask,    // list them and let a person decide
    Clean,  // sweep the certain ones (possible orphans are still only listed)
    Ignore, // do not scan
};

const char *toString(OrphanMode m); // "ask" | "clean" | "ignore"
bool fromString(const char *name, OrphanMode *out);

} // namespace tether::policy
