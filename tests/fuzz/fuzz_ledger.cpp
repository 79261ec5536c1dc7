// The MCP ledger file: well-formed -> entries that round-trip; anything else -> false + why.
#include "mcp/ledger.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    std::vector<tether::policy::LedgerEntry> entries;
    QString error;
    if (tether::mcp::parseLedger(bytes, &entries, &error)) {
        std::vector<tether::policy::LedgerEntry> again;
        QString error2;
        if (!tether::mcp::parseLedger(tether::mcp::serializeLedger(entries), &again, &error2) ||
            again.size() != entries.size())
            std::abort();
    } else if (!entries.empty() || error.isEmpty()) {
        std::abort(); // documented: on failure *out is empty and *error says why
    }
    return 0;
}
