// Rotating logs: <name>, <name>.1 .. <name>.(keep-1), each at most maxBytes. The service
// writes with O_APPEND, so rotation copies then truncates (logrotate's copytruncate): the
// writer never needs to reopen, and survives Tether quitting. Only the newest maxBytes of the
// live file go to <name>.1, whatever it grew to: a service that writes faster than the checks
// come loses the middle (the rotated file says how much), never the disk. Nothing is followed:
// a link or a FIFO in the live file's place is refused (settings/storage.h).
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace tether {

struct LogRotation {
    qint64 maxBytes = 1024 * 1024;
    int keep = 5; // files in all, including the live one
};

struct RotationResult {
    bool rotated = false;
    qint64 droppedBytes = 0; // older bytes of the live file left out of <name>.1
    QString error;           // why the file was not rotated (a link, a FIFO, ...)
};

// Rotates when the live file is larger than maxBytes. Work bounded by maxBytes, not by the file.
RotationResult rotateIfNeeded(const QString &path, const LogRotation &rotation = {});

// Rotation off the main thread. check() is cheap and may be called on every probe: it wakes the
// worker, which rotates what is over its size; after a rotation it looks again soon (a fast
// writer outgrows any probe interval), otherwise it waits for the next check.
class LogRotator : public QObject {
    Q_OBJECT
public:
    explicit LogRotator(QStringList paths, LogRotation rotation = {}, int followUpMs = 250,
                        QObject *parent = nullptr);
    ~LogRotator() override; // stops the worker and waits for it

    void check();

signals:
    // On the owner's thread. A rotation that dropped bytes, or a refusal, is worth a log line.
    void rotated(const QString &path, qint64 droppedBytes);
    void refused(const QString &path, const QString &why);

private:
    void run();

    const QStringList paths_;
    const LogRotation rotation_;
    const int followUpMs_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool requested_ = false;
    bool stopping_ = false;
    std::thread worker_;
};

} // namespace tether
