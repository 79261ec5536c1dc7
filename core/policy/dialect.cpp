#include "policy/dialect.h"

#include "policy/enum_names.h"

namespace tether::policy {

namespace {
constexpr EnumName<Dialect> kDialectNames[] = {
    {Dialect::Opencode1, "opencode1"},
    {Dialect::Opencode2, "opencode2"},
    {Dialect::Custom, "custom"},
    {Dialect::Demo, "demo"},
};
} // namespace

const char *toString(Dialect d) {
    return nameIn(kDialectNames, d, "custom");
}

bool fromString(const char *name, Dialect *out) {
    return valueIn(kDialectNames, name, out);
}

} // namespace tether::policy
