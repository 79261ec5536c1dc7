// Tether's state files (service.json, mcp-ledger.json, mcp-commands.json) on a hostile or an
// unlucky disk, through the one writer and reader they share (settings/storage.h): a disk full
// to the last byte (a tmpfs of its own, tests/support/small_fs.h), a read-only one, a link or a
// FIFO in a file's place. A failed write leaves the good file as it was; nothing is written or
// read through a link; a FIFO never blocks.
#include "settings/storage.h"
#include "small_fs.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace tether;

namespace {

QByteArray readAll(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

// Files in dir other than the listed ones (a temporary file left behind).
QStringList strays(const QString &dir, const QStringList &expected) {
    QStringList out;
    for (const QString &name :
         QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot))
        if (!expected.contains(name)) out << name;
    return out;
}

const QByteArray kGood = R"({"pid":4242,"startTime":"99","port":4096,"version":"good"})";

} // namespace

class TestStateFiles : public QObject {
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> root_;

private slots:
    void init() {
        root_ = std::make_unique<QTemporaryDir>();
        QVERIFY(root_->isValid());
    }

    // The Qt 6.4 QSaveFile buffered the bytes, its flush failed inside commit() unnoticed, and
    // the empty temporary file was renamed over the good one.
    void fullDiskKeepsTheGoodFile() {
        test::SmallFilesystem fs(root_->filePath(QStringLiteral("small")), 256 * 1024);
        QVERIFY2(fs.mounted(), qPrintable(fs.error()));
        const QString path = fs.path() + QStringLiteral("/service.json");
        QString error;
        QVERIFY2(storage::writePrivateFile(path, kGood, &error), qPrintable(error));
        QVERIFY2(fs.fill(&error), qPrintable(error));

        const QByteArray next = QByteArray(8 * 1024, ' ') + kGood;
        error.clear();
        const bool written = storage::writePrivateFile(path, next, &error);
        QVERIFY2(!written, "a write on a full disk reported success");
        QVERIFY2(error.contains(QStringLiteral("No space left on device")), qPrintable(error));
        QCOMPARE(readAll(path), kGood);
        QCOMPARE(strays(fs.path(), {QStringLiteral("service.json"), QStringLiteral(".filler")}),
                 QStringList());

        fs.release(); // space again: the next write lands
        QVERIFY2(storage::writePrivateFile(path, next, &error), qPrintable(error));
        QCOMPARE(readAll(path), next);
    }

    void readOnlyDiskKeepsTheGoodFile() {
        test::SmallFilesystem fs(root_->filePath(QStringLiteral("small")), 256 * 1024);
        QVERIFY2(fs.mounted(), qPrintable(fs.error()));
        const QString path = fs.path() + QStringLiteral("/mcp-ledger.json");
        QString error;
        QVERIFY2(storage::writePrivateFile(path, kGood, &error), qPrintable(error));
        QVERIFY2(fs.setReadOnly(true, &error), qPrintable(error));
        error.clear();
        QVERIFY(!storage::writePrivateFile(path, "{}", &error));
        QVERIFY2(error.contains(QStringLiteral("Read-only file system")), qPrintable(error));
        QCOMPARE(readAll(path), kGood);
        QVERIFY(fs.setReadOnly(false, &error));
    }

    // A dangling link in the ledger's place made Tether write outside its directory.
    void linkInAFilesPlaceIsNeverWrittenThrough() {
        const QString outside = root_->filePath(QStringLiteral("outside.json"));
        const QString dangling = root_->filePath(QStringLiteral("elsewhere/new.json"));
        QDir().mkpath(root_->filePath(QStringLiteral("elsewhere")));
        QFile victim(outside);
        QVERIFY(victim.open(QIODevice::WriteOnly));
        victim.write("victim");
        victim.close();
        QVERIFY(QFile::setPermissions(outside, QFile::ReadOwner | QFile::WriteOwner |
                                                   QFile::ReadGroup | QFile::ReadOther));
        const QString data = root_->filePath(QStringLiteral("data"));
        QDir().mkpath(data);
        QVERIFY(QFile::link(outside, data + QStringLiteral("/mcp-ledger.json")));
        QVERIFY(QFile::link(dangling, data + QStringLiteral("/mcp-commands.json")));

        QString error;
        QVERIFY(
            !storage::writePrivateFile(data + QStringLiteral("/mcp-ledger.json"), kGood, &error));
        QVERIFY2(error.contains(QStringLiteral("link")), qPrintable(error));
        QCOMPARE(readAll(outside), QByteArray("victim"));
        QCOMPARE(QFileInfo(outside).permissions() & QFile::ReadOther, QFile::ReadOther);
        error.clear();
        QVERIFY(
            !storage::writePrivateFile(data + QStringLiteral("/mcp-commands.json"), kGood, &error));
        QVERIFY2(error.contains(QStringLiteral("link")), qPrintable(error));
        QVERIFY2(!QFileInfo::exists(dangling), "written through a dangling link");
        QVERIFY(QFileInfo(data + QStringLiteral("/mcp-ledger.json")).isSymLink());
    }

    void linkInAFilesPlaceIsNeverReadThrough() {
        const QString outside = root_->filePath(QStringLiteral("outside.json"));
        QFile f(outside);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kGood);
        f.close();
        const QString path = root_->filePath(QStringLiteral("service.json"));
        QVERIFY(QFile::link(outside, path));
        QByteArray bytes;
        QString error;
        QCOMPARE(storage::readSmallFile(path, 4096, &bytes, &error), storage::ReadStatus::Error);
        QVERIFY2(error.contains(QStringLiteral("link")), qPrintable(error));
        QVERIFY(bytes.isEmpty());
    }

    // A FIFO in a file's place blocked Tether in open() for good.
    void fifoInAFilesPlaceDoesNotBlock() {
        const QString path = root_->filePath(QStringLiteral("service.json"));
        QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
        std::atomic<bool> done{false};
        storage::ReadStatus status = storage::ReadStatus::Ok;
        QString error;
        std::thread reader([&] {
            QByteArray bytes;
            status = storage::readSmallFile(path, 4096, &bytes, &error);
            done = true;
        });
        const bool returned = QTest::qWaitFor([&] { return done.load(); }, 2000);
        if (!returned) { // blocked in open(): a writer releases it, so the test can say so
            const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0) ::close(fd);
        }
        reader.join();
        QVERIFY2(returned, "reading a FIFO in a state file's place blocked");
        QCOMPARE(status, storage::ReadStatus::Error);
        QVERIFY2(error.contains(QStringLiteral("not a regular file")), qPrintable(error));

        QString writeError;
        QVERIFY(!storage::writePrivateFile(path, kGood, &writeError));
        QVERIFY2(writeError.contains(QStringLiteral("not a regular file")), qPrintable(writeError));
        QFileInfo fifo(path);
        QVERIFY(!fifo.isFile() && fifo.exists());
    }
};

QTEST_GUILESS_MAIN(TestStateFiles)
#include "tst_state_files.moc"
