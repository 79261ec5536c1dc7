// opencode's config files (opencode.json / opencode.jsonc, both MCP shapes): Tether reads them
// from disk for opencode 2.x's MCP commands, and JSONC goes through its own comment stripper.
#include "mcp/opencode_config.h"

#include <QJsonDocument>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    const QByteArray json = tether::mcp::jsoncToJson(text);
    if (json.size() > text.size()) std::abort(); // stripping never adds bytes
    // Valid JSON has no comment and no trailing comma: it means the same after stripping.
    QJsonParseError plain{};
    const QJsonDocument original = QJsonDocument::fromJson(text, &plain);
    if (plain.error == QJsonParseError::NoError && QJsonDocument::fromJson(json) != original)
        std::abort();
    const tether::mcp::ConfigParse c = tether::mcp::parseOpencodeConfig(text);
    if (!c.ok && c.error.empty()) std::abort();
    for (const auto &e : c.entries)
        if (e.type == tether::mcp::McpEntry::Type::Local && e.command.empty()) std::abort();
    return 0;
}
