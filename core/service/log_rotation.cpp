#include "service/log_rotation.h"

#include <QFile>
#include <QFileInfo>

namespace tether {

bool rotateIfNeeded(const QString &path, const LogRotation &rotation) {
    if (QFileInfo(path).size() <= rotation.maxBytes) return false;
    const auto numbered = [&](int i) { return QStringLiteral("%1.%2").arg(path).arg(i); };
    QFile::remove(numbered(rotation.keep - 1));
    for (int i = rotation.keep - 2; i >= 1; --i)
        QFile::rename(numbered(i), numbered(i + 1));
    QFile::copy(path, numbered(1));
    QFile::setPermissions(numbered(1), QFile::ReadOwner | QFile::WriteOwner);
    QFile live(path);
    if (live.open(QIODevice::ReadWrite)) live.resize(0);
    return true;
}

} // namespace tether
