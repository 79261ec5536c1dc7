// opencode 1.x `GET /config` bodies (the "mcp" entries and their command arrays).
#include "mcp/mcp_config.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QByteArray body(reinterpret_cast<const char *>(data), qsizetype(size));
    const tether::mcp::ConfigParse c = tether::mcp::parseConfig(body);
    if (!c.ok && c.error.empty()) std::abort();
    for (const auto &e : c.entries)
        if (e.type == tether::mcp::McpEntry::Type::Local && e.command.empty())
            std::abort(); // a local entry without a command cannot be matched to a process
    return 0;
}
