#include "control/instance_lock.h"

#include "settings/storage.h"

#include <QFile>
#include <QThread>

#ifdef Q_OS_WIN
#include <windows.h>
#else
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace tether::control {

namespace {
constexpr int kTries = 10; // 10 x 10 ms: far longer than any look by a verb
constexpr int kPauseMs = 10;
} // namespace

QString InstanceLock::path() {
    return storage::dataPath(QStringLiteral("control.lock"));
}

#ifndef Q_OS_WIN

InstanceLock::~InstanceLock() {
    if (fd_ >= 0) ::close(fd_); // the kernel drops the flock with the last descriptor
}

bool InstanceLock::held() const {
    return fd_ >= 0;
}

InstanceLock::Result InstanceLock::acquire(QString *error) {
    const QByteArray name = QFile::encodeName(path());
    // Not inherited by the service (O_CLOEXEC): a child holding it would outlive us with it.
    const int fd = ::open(name.constData(),
                          O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0600);
    struct stat st {};
    if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (error)
            *error = QStringLiteral("cannot use the single-instance lock %1: %2")
                         .arg(path(), fd < 0 && errno == ELOOP
                                          ? QStringLiteral("it is a symbolic link (refused)")
                                      : fd < 0 ? QString::fromLocal8Bit(std::strerror(errno))
                                               : QStringLiteral("not a regular file (refused)"));
        if (fd >= 0) ::close(fd);
        return Result::Error;
    }
    for (int i = 0; i < kTries; ++i) {
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
            fd_ = fd;
            return Result::Acquired;
        }
        if (errno != EWOULDBLOCK && errno != EINTR) {
            if (error)
                *error = QStringLiteral("cannot lock %1: %2")
                             .arg(path(), QString::fromLocal8Bit(std::strerror(errno)));
            ::close(fd);
            return Result::Error;
        }
        QThread::msleep(kPauseMs);
    }
    ::close(fd);
    return Result::HeldByAnother;
}

std::optional<bool> InstanceLock::isHeld() {
    const QByteArray name = QFile::encodeName(path());
    const int fd = ::open(name.constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? std::optional<bool>(false) : std::nullopt;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return std::nullopt;
    }
    // Shared: two verbs looking at once do not see each other as a Tether.
    const bool free = ::flock(fd, LOCK_SH | LOCK_NB) == 0;
    const int why = errno;
    ::close(fd); // and with it the shared lock
    if (free) return false;
    return why == EWOULDBLOCK ? std::optional<bool>(true) : std::nullopt;
}

#else

InstanceLock::~InstanceLock() {
    if (handle_) ::CloseHandle(handle_); // the lock goes with the handle
}

bool InstanceLock::held() const {
    return handle_ != nullptr;
}

namespace {
HANDLE openLockFile(bool create) {
    const std::wstring name = InstanceLock::path().toStdWString();
    return ::CreateFileW(name.c_str(), GENERIC_READ | GENERIC_WRITE,
                         FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                         create ? OPEN_ALWAYS : OPEN_EXISTING,
                         FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
}
} // namespace

InstanceLock::Result InstanceLock::acquire(QString *error) {
    HANDLE h = openLockFile(true);
    if (h == INVALID_HANDLE_VALUE) {
        if (error)
            *error = QStringLiteral("cannot use the single-instance lock %1 (error %2)")
                         .arg(path())
                         .arg(::GetLastError());
        return Result::Error;
    }
    for (int i = 0; i < kTries; ++i) {
        OVERLAPPED at{};
        if (::LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &at)) {
            handle_ = h;
            return Result::Acquired;
        }
        QThread::msleep(kPauseMs);
    }
    ::CloseHandle(h);
    return Result::HeldByAnother;
}

std::optional<bool> InstanceLock::isHeld() {
    HANDLE h = openLockFile(false);
    if (h == INVALID_HANDLE_VALUE)
        return ::GetLastError() == ERROR_FILE_NOT_FOUND ? std::optional<bool>(false) : std::nullopt;
    OVERLAPPED at{};
    const bool free = ::LockFileEx(h, LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &at);
    if (free) ::UnlockFileEx(h, 0, 1, 0, &at);
    ::CloseHandle(h);
    return !free;
}

#endif

} // namespace tether::control
