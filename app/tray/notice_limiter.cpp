#include "tray/notice_limiter.h"

namespace tether {

bool NoticeLimiter::allow(const QString &kind, qint64 nowMs) {
    const auto it = lastAllowed_.constFind(kind);
    if (it != lastAllowed_.constEnd() && nowMs - it.value() < intervalMs_) return false;
    lastAllowed_.insert(kind, nowMs);
    return true;
}

} // namespace tether
