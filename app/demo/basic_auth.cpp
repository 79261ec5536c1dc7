#include "demo/basic_auth.h"

namespace tether::demo {

namespace {
// Compare without an early exit, so the time taken does not tell how much of a guess was right.
bool constantTimeEquals(const QByteArray &a, const QByteArray &b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a.at(i) ^ b.at(i));
    return diff == 0;
}
} // namespace

bool basicAuthorizationMatches(const QByteArray &authorization, const QByteArray &user,
                               const QByteArray &password) {
    const QByteArray value = authorization.trimmed();
    const qsizetype space = value.indexOf(' ');
    if (space < 0 || value.left(space).toLower() != "basic") return false;
    const auto decoded = QByteArray::fromBase64Encoding(value.mid(space + 1).trimmed(),
                                                        QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded) return false;
    return constantTimeEquals(*decoded, user + ':' + password);
}

QByteArray basicAuthorizationHeader(const QByteArray &user, const QByteArray &password) {
    return "Basic " + (user + ':' + password).toBase64();
}

} // namespace tether::demo
