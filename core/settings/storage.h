// Where Tether keeps its files, and the one way it writes and reads them: private (0700 dir,
// 0600 files), atomic (QSaveFile: temp file + rename), size-capped on read.
#pragma once

#include <QByteArray>
#include <QString>

namespace tether::storage {

// TETHER_DATA_DIR if set, else QStandardPaths::AppLocalDataLocation. Created 0700 on demand.
QString dataDir();
QString dataPath(const QString &fileName);
QString logsDir(); // dataDir()/logs, 0700

// Atomic, mode 0600. Returns false and sets *error on failure; the old file is then intact.
bool writePrivateFile(const QString &path, const QByteArray &data, QString *error);

enum class ReadStatus { Ok, Missing, TooLarge, Error };
// Reads at most maxBytes; a larger file is refused (TooLarge) without reading it whole.
ReadStatus readSmallFile(const QString &path, qint64 maxBytes, QByteArray *out, QString *error);

} // namespace tether::storage
