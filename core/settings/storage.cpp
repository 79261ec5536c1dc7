#include "settings/storage.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QStandardPaths>

namespace tether::storage {

namespace {
constexpr QFile::Permissions kPrivateDir = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                           QFile::ReadUser | QFile::WriteUser | QFile::ExeUser;
constexpr QFile::Permissions kPrivateFile =
    QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser;

QString ensurePrivateDir(const QString &path) {
    QDir().mkpath(path);
    QFile::setPermissions(path, kPrivateDir);
    return path;
}
} // namespace

QString dataDir() {
    QString dir = qEnvironmentVariable("TETHER_DATA_DIR");
    if (dir.isEmpty()) dir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    if (dir.isEmpty()) dir = QDir::homePath() + QStringLiteral("/.local/share/tether");
    return ensurePrivateDir(dir);
}

QString dataPath(const QString &fileName) {
    return dataDir() + QLatin1Char('/') + fileName;
}

QString logsDir() {
    return ensurePrivateDir(dataDir() + QStringLiteral("/logs"));
}

bool writePrivateFile(const QString &path, const QByteArray &data, QString *error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    // Restrict before any byte lands, so the secret is never readable by others.
    file.setPermissions(kPrivateFile);
    if (file.write(data) != data.size() || !file.commit()) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        file.cancelWriting();
        return false;
    }
    QFile::setPermissions(path, kPrivateFile);
    return true;
}

ReadStatus readSmallFile(const QString &path, qint64 maxBytes, QByteArray *out, QString *error) {
    QFile file(path);
    if (!file.exists()) return ReadStatus::Missing;
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return ReadStatus::Error;
    }
    *out = file.read(maxBytes + 1);
    if (out->size() > maxBytes) {
        out->clear();
        if (error) *error = QStringLiteral("%1 is larger than %2 bytes").arg(path).arg(maxBytes);
        return ReadStatus::TooLarge;
    }
    return ReadStatus::Ok;
}

} // namespace tether::storage
