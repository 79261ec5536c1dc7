// Issue 27 (7): saving the settings keeps the user's file as they wrote it. QSettings rewrote a
// 4-line file with comments into 30 lines of every default in alphabetical order, comments gone.
// Now only what changes the file's meaning is written, in place, and every value reads back
// through QSettings as it was meant (a seeded round trip of awkward strings).
#include "settings/ini_edit.h"
#include "settings/settings.h"

#include <QFile>
#include <QRandomGenerator>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

using namespace tether;

namespace {

QByteArray read(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void write(const QString &path, const QByteArray &text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

// A person's file: a comment first, an inline comment, only what they changed from the defaults.
const QByteArray kUserFile = "; my Tether: the demo, on a port of its own\n"
                             "[service]\n"
                             "profile=demo\n"
                             "port=4097 ; 4096 is taken at work\n";

} // namespace

class TstIniEdit : public QObject {
    Q_OBJECT
private slots:
    void aSaveChangesOnlyWhatChanged() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tether.ini"));
        write(path, kUserFile);
        Settings s = loadSettings(path).settings;
        QCOMPARE(s.port, 4097);
        // (A port of another length: QSettings caches a file it read and takes one of the same
        // size and modification time, to the millisecond, for unchanged.)
        s.port = 41000;
        QString error;
        QVERIFY2(saveSettings(path, s, &error), qPrintable(error));
        // The one line, in place, with its comment; nothing else.
        QCOMPARE(read(path), QByteArray("; my Tether: the demo, on a port of its own\n"
                                        "[service]\n"
                                        "profile=demo\n"
                                        "port=41000 ; 4096 is taken at work\n"));
        QCOMPARE(loadSettings(path).settings.port, 41000);
        QVERIFY(loadSettings(path).warnings.isEmpty());
    }

    void nothingChangedWritesNothing() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tether.ini"));
        write(path, kUserFile);
        QVERIFY(saveSettings(path, loadSettings(path).settings, nullptr));
        QCOMPARE(read(path), kUserFile);
    }

    void aNewValueGoesToItsSectionOrANewOne() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tether.ini"));
        write(path, kUserFile + "\n; the end\n");
        Settings s = loadSettings(path).settings;
        s.arguments = {QStringLiteral("--mcp"), QStringLiteral("3")};
        s.timings.windowMs = 45000;
        QVERIFY(saveSettings(path, s, nullptr));
        QCOMPARE(read(path), QByteArray("; my Tether: the demo, on a port of its own\n"
                                        "[service]\n"
                                        "profile=demo\n"
                                        "port=4097 ; 4096 is taken at work\n"
                                        "arguments=--mcp 3\n"
                                        "\n"
                                        "; the end\n"
                                        "\n"
                                        "[recovery]\n"
                                        "windowMs=45000\n"));
        const LoadedSettings back = loadSettings(path);
        QCOMPARE(back.settings.arguments, s.arguments);
        QCOMPARE(back.settings.timings.windowMs, 45000);
        QCOMPARE(back.settings.port, 4097);
    }

    void aRefusedValueIsMendedWhereItStands() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tether.ini"));
        write(path, "[probe]\nintervalMs=soon # oops\n[app]\nnotifications=false\n");
        const LoadedSettings loaded = loadSettings(path);
        QCOMPARE(loaded.problems.size(), 1);
        QVERIFY(saveSettings(path, loaded.settings, nullptr));
        QCOMPARE(read(path), QByteArray("[probe]\nintervalMs=5000\n[app]\nnotifications=false\n"));
        QVERIFY(loadSettings(path).warnings.isEmpty());
    }

    void aNewFileHoldsOnlyWhatDiffersFromTheDefaults() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/tether.ini"));
        Settings s;
        s.port = 5000;
        QVERIFY(saveSettings(path, s, nullptr));
        QCOMPARE(read(path), QByteArray("[service]\nport=5000\n"));
    }

    void windowsLineEndsStay() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tether.ini"));
        write(path, "[service]\r\nport=4097\r\n");
        Settings s = loadSettings(path).settings;
        s.port = 4098;
        QVERIFY(saveSettings(path, s, nullptr));
        QCOMPARE(read(path), QByteArray("[service]\r\nport=4098\r\n"));
    }

    // Whatever a value holds, QSettings reads back what was written: quotes, commas, semicolons,
    // backslashes (Windows paths), spaces at the ends, tabs, '@', other scripts. Seeded.
    void valuesRoundTripThroughQSettings() {
        QRandomGenerator rng(27);
        const QString alphabet = QStringLiteral("ab Z09;,=\"\\\t@#[]%/:üß€✓ ");
        QTemporaryDir dir;
        for (int round = 0; round < 2000; ++round) {
            QString value;
            const int length = int(rng.bounded(12));
            for (int i = 0; i < length; ++i)
                value += alphabet.at(int(rng.bounded(alphabet.size())));
            // A file of its own each round: QSettings keeps what it parsed of a path and reads it
            // again only when the file's size or time changed, which a rewrite within the same
            // timestamp tick with the same length does not show (a fresh root's tmpfs did this).
            const QString path = dir.filePath(QStringLiteral("r%1.ini").arg(round));
            write(path, editIni(QByteArray("[service]\n"),
                                {{QStringLiteral("service/program"), iniValueText(value)}}));
            const QSettings back(path, QSettings::IniFormat);
            QCOMPARE(back.value(QStringLiteral("service/program")).toString(), value);
        }
        QCOMPARE(iniValueText(true), QStringLiteral("true"));
        QCOMPARE(iniValueText(qint64(5000)), QStringLiteral("5000"));
    }
};

QTEST_APPLESS_MAIN(TstIniEdit)
#include "tst_ini_edit.moc"
