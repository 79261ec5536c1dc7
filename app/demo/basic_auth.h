// HTTP Basic authentication as opencode does it (user "opencode", password from the
// environment). Shared by every protocol the demo speaks.
#pragma once

#include <QByteArray>

namespace tether::demo {

inline constexpr char kOpencodeUser[] = "opencode";

// True when `authorization` (the header value) is "Basic base64(user:password)". The scheme is
// case-insensitive; malformed base64 never matches.
bool basicAuthorizationMatches(const QByteArray &authorization, const QByteArray &user,
                               const QByteArray &password);

// The header a client sends for user:password (used by tests and future clients).
QByteArray basicAuthorizationHeader(const QByteArray &user, const QByteArray &password);

} // namespace tether::demo
