#include "settings/storage.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <mutex>

#ifdef Q_OS_WIN
#include <QSaveFile>
#else
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace tether::storage {

namespace {

std::mutex observerMutex;
std::function<void(const WriteOutcome &)> &observer() {
    static std::function<void(const WriteOutcome &)> o;
    return o;
}

void report(const QString &path, const QString &error) {
    std::lock_guard<std::mutex> lock(observerMutex);
    if (observer()) observer()({path, error});
}

QString refusedLink(const QString &path) {
    return QStringLiteral("%1 is a symbolic link: refused (Tether follows no link in place of "
                          "its own files)")
        .arg(QDir::toNativeSeparators(path));
}

QString refusedKind(const QString &path) {
    return QStringLiteral("%1 is not a regular file (a FIFO, a device or a directory): refused")
        .arg(QDir::toNativeSeparators(path));
}

#ifndef Q_OS_WIN

QString errnoText() {
    return QString::fromLocal8Bit(std::strerror(errno));
}

QByteArray native(const QString &path) {
    return QFile::encodeName(path);
}

// Opens path without following a link at its last component and without blocking on a FIFO;
// anything but a regular file is closed again and refused. -1 with *error (and errno ENOENT
// for a missing file, so a caller can tell "missing" apart).
int openRegular(const QString &path, int flags, QString *error, bool followLinks = false) {
    const int fd =
        ::open(native(path).constData(),
               flags | (followLinks ? 0 : O_NOFOLLOW) | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0600);
    if (fd < 0) {
        const int why = errno;
        if (error)
            *error = why == ELOOP ? refusedLink(path)
                                  : QStringLiteral("cannot open %1: %2").arg(path, errnoText());
        errno = why;
        return -1;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        if (error) *error = refusedKind(path);
        errno = EINVAL;
        return -1;
    }
    // A regular file never blocks; later reads and writes should not see EAGAIN either.
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

bool writeAll(int fd, const QByteArray &data) {
    const char *p = data.constData();
    qsizetype left = data.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, size_t(left));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = ENOSPC;
            return false;
        }
        p += n;
        left -= n;
    }
    return true;
}

// Creates dir (0700, its missing parents as the umask says) when it is missing.
bool makePrivateDir(const QString &dir) {
    QDir().mkpath(QFileInfo(dir).absolutePath());
    return ::mkdir(native(dir).constData(), 0700) == 0 || errno == EEXIST;
}

// Creates dir (0700) when missing; an existing one must be ours and closed to others' writes.
bool ensureOwnDir(const QString &dir, bool mayBeLink, QString *error) {
    struct stat st {};
    const QByteArray n = native(dir);
    const auto look = [&] {
        return mayBeLink ? ::stat(n.constData(), &st) : ::lstat(n.constData(), &st);
    };
    int rc = look();
    if (rc != 0 && errno == ENOENT) {
        if (!makePrivateDir(dir)) {
            if (error) *error = QStringLiteral("cannot create %1: %2").arg(dir, errnoText());
            return false;
        }
        rc = look();
    }
    if (rc != 0) {
        if (error) *error = QStringLiteral("cannot use %1: %2").arg(dir, errnoText());
        return false;
    }
    if (S_ISLNK(st.st_mode)) {
        if (error) *error = refusedLink(dir);
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        if (error) *error = QStringLiteral("%1 is not a directory").arg(dir);
        return false;
    }
    if (st.st_uid != ::geteuid()) {
        if (error)
            *error = QStringLiteral("%1 belongs to user %2, not to you (%3): Tether keeps its "
                                    "service's password there and uses only a directory of its "
                                    "user's")
                         .arg(dir)
                         .arg(st.st_uid)
                         .arg(::geteuid());
        return false;
    }
    if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
        if (error)
            *error = QStringLiteral("%1 is writable by others (mode %2): Tether keeps its "
                                    "service's password there and does not change a directory "
                                    "it may share; give it a directory only you can write "
                                    "(TETHER_DATA_DIR)")
                         .arg(dir)
                         .arg(st.st_mode & 07777, 4, 8, QLatin1Char('0'));
        return false;
    }
    return true;
}

bool writeFile(const QString &path, const QByteArray &data, QString *error) {
    const auto fail = [&](const QString &what) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, what);
        return false;
    };
    struct stat st {};
    if (::lstat(native(path).constData(), &st) == 0) {
        if (S_ISLNK(st.st_mode)) return fail(refusedLink(path));
        if (!S_ISREG(st.st_mode)) return fail(refusedKind(path));
    }
    const QString dir = QFileInfo(path).absolutePath();
    if (!QFileInfo::exists(dir)) makePrivateDir(dir);
    QByteArray temp = native(path) + ".XXXXXX";
    const int fd = ::mkostemp(temp.data(), O_CLOEXEC); // 0600, never an existing name
    if (fd < 0) return fail(errnoText());
    const auto abandon = [&](const QString &what) {
        ::close(fd);
        ::unlink(temp.constData());
        return fail(what);
    };
    // Every byte written and on the disk before it may replace the good file: ENOSPC, EDQUOT
    // and EIO surface here (write or fsync), never after the rename.
    if (!writeAll(fd, data)) return abandon(errnoText());
    if (::fsync(fd) != 0) return abandon(errnoText());
    if (::close(fd) != 0) {
        const QString why = errnoText();
        ::unlink(temp.constData());
        return fail(why);
    }
    if (::rename(temp.constData(), native(path).constData()) != 0) {
        const QString why = errnoText();
        ::unlink(temp.constData());
        return fail(why);
    }
    // The rename itself on the disk (best effort: not every filesystem syncs a directory).
    const int dirFd = ::open(native(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
    return true;
}

#else // Windows: no FIFOs in the file system; links (and shortcuts) are refused by their look.

bool refusedByLook(const QString &path, QString *error) {
    const QFileInfo info(path);
    if (info.isSymLink() || info.isJunction()) {
        if (error) *error = refusedLink(path);
        return true;
    }
    if (info.exists() && !info.isFile()) {
        if (error) *error = refusedKind(path);
        return true;
    }
    return false;
}

bool ensureOwnDir(const QString &dir, bool, QString *error) {
    if (QFileInfo(dir).isDir() || QDir().mkpath(dir)) return true;
    if (error) *error = QStringLiteral("cannot create %1").arg(QDir::toNativeSeparators(dir));
    return false;
}

bool writeFile(const QString &path, const QByteArray &data, QString *error) {
    QString why;
    if (refusedByLook(path, &why)) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, why);
        return false;
    }
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    // Unbuffered: a failed write is seen by write() itself. Qt 6.4's buffered QSaveFile lost a
    // failed flush inside commit() and renamed the empty temporary file over the good one.
    if (!file.open(QIODevice::WriteOnly | QIODevice::Unbuffered) ||
        file.write(data) != data.size() || !file.flush() || !file.commit()) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        file.cancelWriting();
        return false;
    }
    return true;
}

#endif

} // namespace

QString dataDir() {
    QString dir = qEnvironmentVariable("TETHER_DATA_DIR");
    if (dir.isEmpty()) dir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    if (dir.isEmpty()) dir = QDir::homePath() + QStringLiteral("/.local/share/tether");
    return dir;
}

QString dataPath(const QString &fileName) {
    return dataDir() + QLatin1Char('/') + fileName;
}

QString logsDir() {
    return dataDir() + QStringLiteral("/logs");
}

bool preparePrivateDirs(QString *error) {
    // The data directory may be a link a person made (a home on another disk); logs/ is
    // Tether's own and must not be one.
    return ensureOwnDir(dataDir(), true, error) && ensureOwnDir(logsDir(), false, error);
}

bool writePrivateFile(const QString &path, const QByteArray &data, QString *error) {
    QString why;
    const bool ok = writeFile(path, data, &why);
    if (!ok && error) *error = why;
    report(path, ok ? QString() : why);
    return ok;
}

ReadStatus readSmallFile(const QString &path, qint64 maxBytes, QByteArray *out, QString *error) {
    out->clear();
#ifndef Q_OS_WIN
    const int fd = openRegular(path, O_RDONLY, error);
    if (fd < 0) return errno == ENOENT ? ReadStatus::Missing : ReadStatus::Error;
    QFile file;
    if (!file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) {
        ::close(fd);
        if (error) *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return ReadStatus::Error;
    }
#else
    if (!QFileInfo::exists(path) && !QFileInfo(path).isSymLink()) return ReadStatus::Missing;
    if (refusedByLook(path, error)) return ReadStatus::Error;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return ReadStatus::Error;
    }
#endif
    *out = file.read(maxBytes + 1);
    if (out->size() > maxBytes) {
        out->clear();
        if (error) *error = QStringLiteral("%1 is larger than %2 bytes").arg(path).arg(maxBytes);
        return ReadStatus::TooLarge;
    }
    return ReadStatus::Ok;
}

bool openForReading(QFile &file, const QString &path, QString *error, bool followLinks) {
#ifndef Q_OS_WIN
    const int fd = openRegular(path, O_RDONLY, error, followLinks);
    if (fd < 0) return false;
    if (file.open(fd, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle)) return true;
    ::close(fd);
#else
    if (!followLinks && refusedByLook(path, error)) return false;
    if (followLinks && QFileInfo::exists(path) && !QFileInfo(path).isFile()) {
        if (error) *error = refusedKind(path);
        return false;
    }
    file.setFileName(path);
    if (file.open(QIODevice::ReadOnly)) return true;
#endif
    if (error) *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
    return false;
}

bool openForRewriting(QFile &file, const QString &path, QString *error) {
#ifndef Q_OS_WIN
    const int fd = openRegular(path, O_RDWR, error);
    if (fd < 0) return false;
    if (file.open(fd, QIODevice::ReadWrite, QFileDevice::AutoCloseHandle)) return true;
    ::close(fd);
#else
    if (refusedByLook(path, error)) return false;
    file.setFileName(path);
    if (file.open(QIODevice::ReadWrite)) return true;
#endif
    if (error) *error = QStringLiteral("cannot open %1: %2").arg(path, file.errorString());
    return false;
}

bool openLogForAppend(QFile &file, const QString &path, QString *error, bool readable) {
#ifndef Q_OS_WIN
    const int fd = openRegular(path, (readable ? O_RDWR : O_WRONLY) | O_CREAT | O_APPEND, error);
    if (fd < 0) return false;
    // Private from its first byte, whatever made it; our own file, so this changes only ours.
    ::fchmod(fd, 0600);
    const QIODevice::OpenMode mode =
        (readable ? QIODevice::ReadWrite : QIODevice::WriteOnly) | QIODevice::Append;
    if (file.open(fd, mode, QFileDevice::AutoCloseHandle)) return true;
    ::close(fd);
#else
    if (refusedByLook(path, error)) return false;
    file.setFileName(path);
    const QIODevice::OpenMode mode =
        (readable ? QIODevice::ReadWrite : QIODevice::WriteOnly) | QIODevice::Append;
    if (file.open(mode)) {
        file.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        return true;
    }
#endif
    if (error) *error = QStringLiteral("cannot open %1: %2").arg(path, file.errorString());
    return false;
}

void setWriteObserver(std::function<void(const WriteOutcome &)> o) {
    std::lock_guard<std::mutex> lock(observerMutex);
    observer() = std::move(o);
}

} // namespace tether::storage
