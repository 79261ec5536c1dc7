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

// Orphans found by the launch scan, as [orphans] onLaunch says: swept, offered to a person (the
// tray opens its orphan dialog once; headless they are listed in status), or left alone.
enum class LaunchOrphans { Nothing, Clean, Offer };
LaunchOrphans onLaunchOrphans(OrphanMode onLaunch, bool found);
bool fromString(const char *name, OrphanMode *out);

} // namespace tether::policy
