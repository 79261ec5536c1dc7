#include "tray/notice_limiter.h"

namespace tether {

bool NoticeLimiter::allow(policy::NoticeKind kind, qint64 nowMs) {
    const auto it = lastAllowed_.find(kind);
    if (it != lastAllowed_.end() && nowMs - it->second < intervalMs_) return false;
    lastAllowed_[kind] = nowMs;
    return true;
}

} // namespace tether
