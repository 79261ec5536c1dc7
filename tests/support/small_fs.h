// A disk that is really full: a tmpfs of its own, a few hundred KiB, mounted on a directory of
// the test's (Linux, as root or with CAP_SYS_ADMIN: the plain Debian 12 root of scripts/test.sh
// has both). Filled to the last byte, every write there fails with ENOSPC, as a full disk does;
// RLIMIT_FSIZE (EFBIG, SIGXFSZ) or an LD_PRELOAD would only imitate it. Unmounted on destruction.
#pragma once

#include <QString>

namespace tether::test {

class SmallFilesystem {
public:
    // Mounts a tmpfs of `bytes` on mountPoint (created when missing). mounted() says whether it
    // worked; error() says why not (the test then fails loudly: it never skips).
    SmallFilesystem(const QString &mountPoint, qint64 bytes);
    ~SmallFilesystem();
    SmallFilesystem(const SmallFilesystem &) = delete;
    SmallFilesystem &operator=(const SmallFilesystem &) = delete;

    bool mounted() const { return mounted_; }
    QString error() const { return error_; }
    QString path() const { return mountPoint_; }

    // Writes a filler file until not one more byte fits (ENOSPC for a single byte).
    bool fill(QString *error);
    // Deletes the filler: the space is free again.
    void release();
    // Remounts it read-only (EROFS for every write) or writable again.
    bool setReadOnly(bool readOnly, QString *error);
    // A read-only bind mount over it, as a disk that went read-only under a running program:
    // files already open stay writable, every new open for writing fails with EROFS (a remount
    // of the tmpfs itself is refused while a file is open for writing). Until destruction.
    bool readOnlyView(QString *error);

private:
    QString mountPoint_;
    qint64 bytes_ = 0;
    bool mounted_ = false;
    bool readOnlyView_ = false;
    QString error_;
};

} // namespace tether::test
