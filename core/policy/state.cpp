#include "policy/state.h"

#include "policy/enum_names.h"

namespace tether::policy {

namespace {
constexpr EnumName<State> kStateNames[] = {
    {State::Stopped, "stopped"},       {State::Starting, "starting"},
    {State::Healthy, "healthy"},       {State::NotResponding, "not-responding"},
    {State::Recovering, "recovering"}, {State::Restarting, "restarting"},
    {State::Stopping, "stopping"},     {State::Failed, "failed"},
};
} // namespace

const char *toString(State s) {
    return nameIn(kStateNames, s, "stopped");
}

bool fromString(const char *name, State *out) {
    return valueIn(kStateNames, name, out);
}

} // namespace tether::policy
