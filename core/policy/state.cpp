#include "policy/state.h"

#include <cstring>
#include <iterator>

namespace tether::policy {

namespace {
struct Name {
    State state;
    const char *name;
};
constexpr Name kNames[] = {
    {State::Stopped, "stopped"},       {State::Starting, "starting"},
    {State::Healthy, "healthy"},       {State::NotResponding, "not-responding"},
    {State::Recovering, "recovering"}, {State::Restarting, "restarting"},
    {State::Stopping, "stopping"},     {State::Failed, "failed"},
};
} // namespace

const char *toString(State s) {
    for (const Name &n : kNames)
        if (n.state == s) return n.name;
    return "stopped";
}

bool fromString(const char *name, State *out) {
    for (const Name &n : kNames)
        if (std::strcmp(n.name, name) == 0) {
            *out = n.state;
            return true;
        }
    return false;
}

} // namespace tether::policy
