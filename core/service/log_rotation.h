// Rotating logs: <name>, <name>.1 .. <name>.(keep-1), each at most maxBytes. The service
// writes with O_APPEND, so rotation copies then truncates (logrotate's copytruncate): the
// writer never needs to reopen, and survives Tether quitting.
#pragma once

#include <QString>

namespace tether {

struct LogRotation {
    qint64 maxBytes = 1024 * 1024;
    int keep = 5; // files in all, including the live one
};

// Rotates when the live file is larger than maxBytes; returns true when it rotated.
bool rotateIfNeeded(const QString &path, const LogRotation &rotation = {});

} // namespace tether
