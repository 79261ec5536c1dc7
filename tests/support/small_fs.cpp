#include "small_fs.h"

#include <QByteArray>
#include <QDir>

#ifdef Q_OS_LINUX
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>
#endif

namespace tether::test {

namespace {
const char kFiller[] = "/.filler";
}

SmallFilesystem::SmallFilesystem(const QString &mountPoint, qint64 bytes)
    : mountPoint_(mountPoint)
    , bytes_(bytes) {
#ifdef Q_OS_LINUX
    QDir().mkpath(mountPoint_);
    const QByteArray options = "size=" + QByteArray::number(bytes_) + ",mode=0700";
    if (::mount("tether-test", QFile::encodeName(mountPoint_).constData(), "tmpfs",
                MS_NOSUID | MS_NODEV, options.constData()) != 0) {
        error_ = QStringLiteral("cannot mount a %1-byte tmpfs on %2: %3 (the full-disk tests "
                                "need root or CAP_SYS_ADMIN)")
                     .arg(bytes_)
                     .arg(mountPoint_, QString::fromLocal8Bit(std::strerror(errno)));
        return;
    }
    mounted_ = true;
#else
    error_ = QStringLiteral("a tmpfs of its own needs Linux");
#endif
}

SmallFilesystem::~SmallFilesystem() {
#ifdef Q_OS_LINUX
    if (readOnlyView_) ::umount2(QFile::encodeName(mountPoint_).constData(), MNT_DETACH);
    if (mounted_) ::umount2(QFile::encodeName(mountPoint_).constData(), MNT_DETACH);
#endif
}

bool SmallFilesystem::readOnlyView(QString *error) {
#ifdef Q_OS_LINUX
    const QByteArray path = QFile::encodeName(mountPoint_);
    if (::mount(path.constData(), path.constData(), nullptr, MS_BIND, nullptr) != 0) {
        if (error) *error = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    readOnlyView_ = true;
    if (::mount(nullptr, path.constData(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) == 0)
        return true;
    if (error) *error = QString::fromLocal8Bit(std::strerror(errno));
    return false;
#else
    if (error) *error = QStringLiteral("Linux only");
    return false;
#endif
}

bool SmallFilesystem::fill(QString *error) {
#ifdef Q_OS_LINUX
    const QByteArray path = QFile::encodeName(mountPoint_ + QLatin1String(kFiller));
    const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) {
        if (error) *error = QString::fromLocal8Bit(std::strerror(errno));
        return false;
    }
    // Big steps first, then single bytes: full to the last byte, whatever the block size.
    const QByteArray chunk(64 * 1024, 'f');
    for (qsizetype step = chunk.size(); step >= 1; step /= 2) {
        for (;;) {
            const ssize_t n = ::write(fd, chunk.constData(), size_t(step));
            if (n == step) continue;
            if (n >= 0 || errno == ENOSPC) break;
            if (error) *error = QString::fromLocal8Bit(std::strerror(errno));
            ::close(fd);
            return false;
        }
    }
    const bool full = ::write(fd, "f", 1) < 0 && errno == ENOSPC;
    ::close(fd);
    if (!full && error) *error = QStringLiteral("one more byte still fits");
    return full;
#else
    if (error) *error = QStringLiteral("Linux only");
    return false;
#endif
}

void SmallFilesystem::release() {
    QFile::remove(mountPoint_ + QLatin1String(kFiller));
}

bool SmallFilesystem::setReadOnly(bool readOnly, QString *error) {
#ifdef Q_OS_LINUX
    const QByteArray options = "size=" + QByteArray::number(bytes_) + ",mode=0700";
    if (::mount("tether-test", QFile::encodeName(mountPoint_).constData(), "tmpfs",
                MS_REMOUNT | MS_NOSUID | MS_NODEV | (readOnly ? MS_RDONLY : 0),
                options.constData()) == 0)
        return true;
    if (error) *error = QString::fromLocal8Bit(std::strerror(errno));
    return false;
#else
    (void)readOnly;
    if (error) *error = QStringLiteral("Linux only");
    return false;
#endif
}

} // namespace tether::test
