// Log rotation bounded and off the main thread: a rotated file holds at most maxBytes (and a
// line that says what was dropped) whatever the live file grew to, a link in the live file's
// place is never truncated through, and the rotator keeps a fast writer's files bounded while
// the thread that asks for a check never waits for the copy.
#include "service/log_rotation.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <thread>

using namespace tether;

namespace {

void writeFile(const QString &path, qint64 bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    const QByteArray line = QByteArray(99, 'x') + '\n';
    for (qint64 n = 0; n < bytes; n += line.size())
        f.write(line);
}

} // namespace

class TestLogRotation : public QObject {
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> dir_;
    QString path(const QString &name) const { return dir_->filePath(name); }

private slots:
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        QVERIFY(dir_->isValid());
    }

    // The whole file was copied: a service writing 40 MB/s left rotated files of ~190 MB.
    void rotationIsBoundedWhateverTheFileGrewTo() {
        const QString log = path(QStringLiteral("service.log"));
        writeFile(log, 20 * 1024 * 1024);
        LogRotation rotation;
        rotation.maxBytes = 1024 * 1024;
        rotateIfNeeded(log, rotation);
        const qint64 rotated = QFileInfo(log + QStringLiteral(".1")).size();
        QVERIFY2(rotated > 0 && rotated <= rotation.maxBytes + 200,
                 qPrintable(QStringLiteral("service.log.1 is %1 bytes, the bound %2")
                                .arg(rotated)
                                .arg(rotation.maxBytes)));
        QCOMPARE(QFileInfo(log).size(), 0);
        QFile first(log + QStringLiteral(".1"));
        QVERIFY(first.open(QIODevice::ReadOnly));
        const QByteArray head = first.readLine();
        QVERIFY2(head.contains("dropped"), head.constData()); // said, not silently lost
        const QByteArray next = first.readLine();
        QCOMPARE(next, QByteArray(99, 'x') + '\n'); // whole lines from there on
    }

#ifndef Q_OS_WIN // QFile::link makes a shortcut there, not a link the file system follows
    // A link in the service log's place made rotation truncate its target.
    void aLinkInTheLogsPlaceIsNeverTruncated() {
        const QString victim = path(QStringLiteral("victim.txt"));
        writeFile(victim, 3 * 1024 * 1024);
        const qint64 before = QFileInfo(victim).size();
        const QString log = path(QStringLiteral("service.log"));
        QVERIFY(QFile::link(victim, log));
        LogRotation rotation;
        rotation.maxBytes = 1024 * 1024;
        rotateIfNeeded(log, rotation);
        QCOMPARE(QFileInfo(victim).size(), before);
        QVERIFY(QFileInfo(log).isSymLink());
        QVERIFY(!QFileInfo::exists(log + QStringLiteral(".1")));
    }
#endif

    // A writer far faster than the checks: every file stays bounded, the asking thread never
    // waits for a copy.
    void aFastWriterStaysBoundedOffTheAskingThread() {
        const QString log = path(QStringLiteral("service.log"));
        LogRotation rotation;
        rotation.maxBytes = 256 * 1024;
        rotation.keep = 3;
        std::atomic<bool> stop{false};
        std::atomic<qint64> written{0};
        std::thread writer([&] {
            FILE *f = std::fopen(QFile::encodeName(log).constData(), "a");
            const QByteArray line = QByteArray(99, 'w') + '\n';
            while (!stop) {
                for (int i = 0; i < 1000; ++i)
                    std::fwrite(line.constData(), 1, size_t(line.size()), f);
                std::fflush(f);
                written += 1000 * line.size();
                std::this_thread::sleep_for(std::chrono::milliseconds(1)); // ~100 MB/s at most
            }
            std::fclose(f);
        });
        qint64 worstCheckMs = 0, worstLive = 0;
        {
            LogRotator rotator({log}, rotation, 20);
            QElapsedTimer run;
            run.start();
            while (run.elapsed() < 2000) {
                QElapsedTimer t;
                t.start();
                rotator.check();
                worstCheckMs = std::max(worstCheckMs, t.elapsed());
                worstLive = std::max(worstLive, QFileInfo(log).size());
                QTest::qWait(50);
            }
            stop = true;
            writer.join();
        }
        qInfo("wrote %lld MB in 2 s; worst check() %lld ms; live file at most %lld KB",
              written.load() / 1000000, worstCheckMs, worstLive / 1000);
        QVERIFY2(written > 20 * rotation.maxBytes, "the writer was too slow to test anything");
        QVERIFY2(worstCheckMs < 20, "check() waited for the rotation");
        for (int i = 1; i < rotation.keep; ++i) {
            const qint64 size = QFileInfo(log + QStringLiteral(".%1").arg(i)).size();
            QVERIFY2(size <= rotation.maxBytes + 200,
                     qPrintable(QStringLiteral("service.log.%1 is %2 bytes").arg(i).arg(size)));
        }
        QVERIFY(!QFileInfo::exists(log + QStringLiteral(".%1").arg(rotation.keep)));
    }
};

QTEST_GUILESS_MAIN(TestLogRotation)
#include "tst_log_rotation.moc"
