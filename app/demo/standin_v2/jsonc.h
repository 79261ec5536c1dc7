// JSON with comments (// and /* */) and trailing commas, as opencode reads its config files
// (jsonc-parser, allowTrailingComma). Pure.
#pragma once

#include <QByteArray>
#include <QJsonDocument>

#include <optional>

namespace tether::standin_v2 {

// The document, or nullopt when it is malformed (opencode rejects the whole file then).
std::optional<QJsonDocument> parseJsonc(const QByteArray &text);

} // namespace tether::standin_v2
