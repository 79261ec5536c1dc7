// Where Tether keeps its files, and the one way it opens, writes and reads them: private (0700
// directories, 0600 files), atomic, size-capped on read. The files are Tether's own: a link, a
// FIFO, a device or a directory in a file's place is refused and the refusal says so; it is
// never followed (a write through it would land outside the directory) nor opened blocking (a
// FIFO would hold Tether in open() for good). A write is checked to the disk before it replaces
// anything: on a full, read-only or immutable disk the good file stays as it was, and the
// failure is reported to the write observer (the status, the log, the tray).
#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>
#include <functional>

namespace tether::storage {

// TETHER_DATA_DIR if set, else QStandardPaths::AppLocalDataLocation. Paths only: asking for them
// creates and changes nothing (`tether status` must leave a shared directory as it is).
QString dataDir();
QString dataPath(const QString &fileName);
QString logsDir(); // dataDir()/logs

// The running Tether (and a one-shot cleanup) prepares the directories it keeps its files in:
// each is created 0700 when missing. An existing one must be a directory owned by this user
// that no other user may write to (logs/ must not be a link either); its mode is never changed
// behind the user's back, so a directory shared with others (1777) is refused, with why.
bool preparePrivateDirs(QString *error);

// Atomic, mode 0600: written to a new file beside it, flushed and synced, then renamed over it.
// Returns false and sets *error on failure; the old file is then intact, and no temporary file
// is left. The parent directory is created (0700) when missing.
bool writePrivateFile(const QString &path, const QByteArray &data, QString *error);

enum class ReadStatus { Ok, Missing, TooLarge, Error };
// Reads at most maxBytes; a larger file is refused (TooLarge) without reading it whole. A link
// or anything but a regular file is an Error (refused), never followed or waited on.
ReadStatus readSmallFile(const QString &path, qint64 maxBytes, QByteArray *out, QString *error);

// Opens an existing regular file for reading (the tail of a log): no FIFO, never blocking; no
// link either, unless followLinks (the settings file, which a person may keep elsewhere).
bool openForReading(QFile &file, const QString &path, QString *error, bool followLinks = false);
// Opens an existing regular file for reading and writing (a log being rotated): no link, no FIFO.
bool openForRewriting(QFile &file, const QString &path, QString *error);
// Opens a log for appending (read-write with `readable`: rotation truncates it), created 0600
// when missing: no link, no FIFO, only a regular file.
bool openLogForAppend(QFile &file, const QString &path, QString *error, bool readable = false);

// The outcome of every writePrivateFile, on the writing thread (a sweep writes the ledger on a
// worker): error empty means the file was written. One observer for the process; none: unset.
struct WriteOutcome {
    QString path;
    QString error;
};
void setWriteObserver(std::function<void(const WriteOutcome &)> observer);

} // namespace tether::storage
