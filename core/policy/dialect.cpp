#include "policy/dialect.h"

#include <cstring>

namespace tether::policy {

namespace {
struct Name {
    Dialect dialect;
    const char *name;
};
constexpr Name kNames[] = {
    {Dialect::Opencode1, "opencode1"},
    {Dialect::Opencode2, "opencode2"},
    {Dialect::Custom, "custom"},
    {Dialect::Demo, "demo"},
};
} // namespace

const char *toString(Dialect d) {
    for (const Name &n : kNames)
        if (n.dialect == d) return n.name;
    return "custom";
}

bool fromString(const char *name, Dialect *out) {
    for (const Name &n : kNames)
        if (std::strcmp(n.name, name) == 0) {
            *out = n.dialect;
            return true;
        }
    return false;
}

} // namespace tether::policy
