#include "policy/orphan_mode.h"

#include <cstring>

namespace tether::policy {

namespace {
struct Name {
    OrphanMode mode;
    const char *name;
};
constexpr Name kNames[] = {
    {OrphanMode::Ask, "ask"},
    {OrphanMode::Clean, "clean"},
    {OrphanMode::Ignore, "ignore"},
};
} // namespace

LaunchOrphans onLaunchOrphans(OrphanMode onLaunch, bool found) {
    if (!found) return LaunchOrphans::Nothing;
    switch (onLaunch) {
    case OrphanMode::Clean:
        return LaunchOrphans::Clean;
    case OrphanMode::Ask:
        return LaunchOrphans::Offer;
    case OrphanMode::Ignore:
        break;
    }
    return LaunchOrphans::Nothing;
}

const char *toString(OrphanMode m) {
    for (const Name &n : kNames)
        if (n.mode == m) return n.name;
    return "ask";
}

bool fromString(const char *name, OrphanMode *out) {
    for (const Name &n : kNames)
        if (std::strcmp(n.name, name) == 0) {
            *out = n.mode;
            return true;
        }
    return false;
}

} // namespace tether::policy
