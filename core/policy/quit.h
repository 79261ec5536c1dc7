// Whether quitting Tether stops the service it looks after. As configured ([app]
// stopServiceOnQuit: off by default, the next launch adopts it), except one case: Ctrl+C in the
// terminal Tether runs in (README's `bash scripts/run.sh` runs it headless there, saying "Ctrl+C
// to stop") also stops the bundled demo service this Tether started, and with it its MCP
// servers: nobody else uses that demo. A person's own service (opencode, their command) is left
// running as configured.
#pragma once

namespace tether::policy {

enum class QuitBy {
    Person,    // the Quit item, `tether quit`, a logout
    Interrupt, // Ctrl+C in Tether's terminal (SIGINT)
    Signal,    // SIGTERM or SIGHUP: a service manager, a closed terminal, a `kill`
};

bool stopsServiceOnQuit(bool configured, QuitBy by, bool bundledDemoStartedHere);

} // namespace tether::policy
