#include "service/log_rotation.h"

#include "settings/storage.h"

#include <QFile>
#include <QFileInfo>
#include <QMetaObject>
#include <chrono>

namespace tether {

RotationResult rotateIfNeeded(const QString &path, const LogRotation &rotation) {
    RotationResult out;
    QFile live;
    if (!storage::openForRewriting(live, path, &out.error)) {
        const QFileInfo there(path);
        if (!there.exists() && !there.isSymLink()) out.error.clear();
        return out; // missing: nothing to rotate; refused: said in out.error
    }
    const qint64 size = live.size();
    if (size <= rotation.maxBytes) return out;
    const auto numbered = [&](int i) { return QStringLiteral("%1.%2").arg(path).arg(i); };
    QFile::remove(numbered(rotation.keep - 1)); // a name only: a link there is not followed
    for (int i = rotation.keep - 2; i >= 1; --i)
        QFile::rename(numbered(i), numbered(i + 1));
    // The newest maxBytes, from the first whole line in them.
    const qint64 from = size - rotation.maxBytes;
    live.seek(from);
    QByteArray tail = live.read(rotation.maxBytes);
    qint64 dropped = from;
    if (from > 0) {
        const qsizetype nl = tail.indexOf('\n');
        if (nl >= 0 && nl + 1 < tail.size()) {
            tail.remove(0, nl + 1);
            dropped += nl + 1;
        }
        tail.prepend(QStringLiteral("[tether: %1 older bytes of this log were dropped: it grew "
                                    "faster than it was rotated]\n")
                         .arg(dropped)
                         .toUtf8());
    }
    QFile first;
    if (storage::openLogForAppend(first, numbered(1), &out.error)) {
        first.resize(0);
        first.write(tail);
        first.close();
    }
    live.resize(0);
    out.rotated = true;
    out.droppedBytes = dropped;
    return out;
}

LogRotator::LogRotator(QStringList paths, LogRotation rotation, int followUpMs, QObject *parent)
    : QObject(parent)
    , paths_(std::move(paths))
    , rotation_(rotation)
    , followUpMs_(followUpMs) {
    worker_ = std::thread([this] { run(); });
}

LogRotator::~LogRotator() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    worker_.join();
}

void LogRotator::check() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        requested_ = true;
    }
    wake_.notify_one();
}

void LogRotator::run() {
    bool followUp = false;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            const auto ready = [this] { return requested_ || stopping_; };
            if (followUp)
                wake_.wait_for(lock, std::chrono::milliseconds(followUpMs_), ready);
            else
                wake_.wait(lock, ready);
            if (stopping_) return;
            requested_ = false;
        }
        followUp = false;
        for (const QString &path : paths_) {
            const RotationResult r = rotateIfNeeded(path, rotation_);
            followUp = followUp || r.rotated;
            if (r.rotated && r.droppedBytes > 0)
                QMetaObject::invokeMethod(
                    this, [this, path, d = r.droppedBytes] { emit rotated(path, d); },
                    Qt::QueuedConnection);
            if (!r.error.isEmpty())
                QMetaObject::invokeMethod(
                    this, [this, path, e = r.error] { emit refused(path, e); },
                    Qt::QueuedConnection);
        }
    }
}

} // namespace tether
