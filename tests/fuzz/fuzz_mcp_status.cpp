// MCP status bodies: 1.x `GET /mcp` (object) and 2.x `GET /api/mcp` ({location, data}), both
// parsers per input.
#include "mcp/mcp_config.h"

#include <cstdlib>
#include <cstring>

namespace {
void check(const tether::mcp::StatusParse &s) {
    namespace st = tether::mcp::status;
    if (!s.ok && s.error.empty()) std::abort();
    for (const auto &srv : s.servers) {
        const char *known[] = {st::Connected, st::Pending,   st::Disabled,
                               st::Failed,    st::NeedsAuth, st::NeedsClientRegistration,
                               st::Unknown};
        bool isKnown = false;
        for (const char *k : known)
            isKnown = isKnown || srv.status == k;
        if (!isKnown) std::abort(); // the status model only knows the stable names
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QByteArray body(reinterpret_cast<const char *>(data), qsizetype(size));
    check(tether::mcp::parseStatusV1(body));
    check(tether::mcp::parseStatusV2(body));
    return 0;
}
