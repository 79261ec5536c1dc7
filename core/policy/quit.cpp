#include "policy/quit.h"

namespace tether::policy {

bool stopsServiceOnQuit(bool configured, QuitBy by, bool bundledDemoStartedHere) {
    return configured || (by == QuitBy::Interrupt && bundledDemoStartedHere);
}

} // namespace tether::policy
