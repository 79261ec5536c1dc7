#include "policy/notice.h"

#include <cstring>

namespace tether::policy {

namespace {
struct Name {
    NoticeKind kind;
    const char *name;
};
constexpr Name kNames[] = {
    {NoticeKind::Crashed, "crashed"},
    {NoticeKind::Restarted, "restarted"},
    {NoticeKind::Recovered, "recovered"},
    {NoticeKind::GaveUp, "gave-up"},
    {NoticeKind::PortHeld, "port-held"},
    {NoticeKind::VersionMismatch, "version-mismatch"},
    {NoticeKind::Stale, "stale"},
    {NoticeKind::OrphansFound, "orphans-found"},
    {NoticeKind::McpResources, "mcp-resources"},
    {NoticeKind::Interrupted, "interrupted"},
};
} // namespace

const char *toString(NoticeKind k) {
    for (const Name &n : kNames)
        if (n.kind == k) return n.name;
    return "crashed";
}

bool fromString(const char *name, NoticeKind *out) {
    for (const Name &n : kNames)
        if (std::strcmp(n.name, name) == 0) {
            *out = n.kind;
            return true;
        }
    return false;
}

} // namespace tether::policy
