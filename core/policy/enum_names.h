#pragma once
// One table of an enum's stable names (settings values, control-protocol words, status JSON)
// and the two lookups over it, so every enum's names are written once.
#include <cstddef>
#include <cstring>

namespace tether::policy {

template <typename E> struct EnumName {
    E value;
    const char *name;
};

// The name of `value`, or `fallback` when the table does not hold it.
template <typename E, std::size_t N>
const char *nameIn(const EnumName<E> (&table)[N], E value, const char *fallback) {
    for (const EnumName<E> &n : table)
        if (n.value == value) return n.name;
    return fallback;
}

// The value named `name` into *out; false (and *out untouched) for a name the table lacks.
template <typename E, std::size_t N>
bool valueIn(const EnumName<E> (&table)[N], const char *name, E *out) {
    for (const EnumName<E> &n : table)
        if (std::strcmp(n.name, name) == 0) {
            *out = n.value;
            return true;
        }
    return false;
}

} // namespace tether::policy
