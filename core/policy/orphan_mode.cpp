#include "policy/orphan_mode.h"

#include "policy/enum_names.h"

namespace tether::policy {

namespace {
constexpr EnumName<OrphanMode> kOrphanModeNames[] = {
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
    return nameIn(kOrphanModeNames, m, "ask");
}

bool fromString(const char *name, OrphanMode *out) {
    return valueIn(kOrphanModeNames, name, out);
}

} // namespace tether::policy
