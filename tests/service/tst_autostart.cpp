// Start at login: the text of each OS's entry (pure, checked on every OS), and each
// implementation round-tripping against real files in a temporary HOME / XDG_CONFIG_HOME,
// including an entry of another program that must be left alone and reported.
#include "settings/autostart.h"
#include "settings/autostart_entries.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace tether;
using State = AutostartStatus::State;

namespace {

QByteArray readAll(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeFile(const QString &path, const QByteArray &data) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(data);
}

} // namespace

class TestAutostart : public QObject {
    Q_OBJECT
private slots:
    // --- Windows Run value, as text ---
    void windowsValueIsQuotedNativePathPlusFlag() {
        QCOMPARE(autostart::windowsRunValue(QStringLiteral("C:/Program Files/Tether/tether.exe")),
                 QStringLiteral("\"C:\\Program Files\\Tether\\tether.exe\" --autostart"));
        QCOMPARE(autostart::windowsRunValue(QStringLiteral("C:\\Apps\\tether.exe")),
                 QStringLiteral("\"C:\\Apps\\tether.exe\" --autostart"));
    }
    void windowsValueProgramIsParsedBack() {
        QCOMPARE(autostart::programOfWindowsRunValue(
                     QStringLiteral("\"C:\\Program Files\\Tether\\tether.exe\" --autostart")),
                 QStringLiteral("C:\\Program Files\\Tether\\tether.exe"));
        QCOMPARE(autostart::programOfWindowsRunValue(QStringLiteral("C:\\x\\other.exe /min")),
                 QStringLiteral("C:\\x\\other.exe"));
        QCOMPARE(autostart::programOfWindowsRunValue(QStringLiteral("\"unterminated")), QString());
        QCOMPARE(autostart::programOfWindowsRunValue(QString()), QString());
    }
    void windowsPathsCompareCaseAndSeparatorBlind() {
        QVERIFY(autostart::samePath(QStringLiteral("C:\\Apps\\Tether.EXE"),
                                    QStringLiteral("c:/apps/tether.exe"), true));
        QVERIFY(!autostart::samePath(QStringLiteral("C:\\Apps\\Tether.EXE"),
                                     QStringLiteral("c:/apps/tether.exe"), false));
        QVERIFY(!autostart::samePath(QStringLiteral("C:\\Apps\\other.exe"),
                                     QStringLiteral("C:\\Apps\\tether.exe"), true));
    }

    // --- Windows StartupApproved\Run flag, as data ---
    void startupApprovedOddFirstByteDisables_data() {
        QTest::addColumn<QByteArray>("flag");
        QTest::addColumn<bool>("disables");
        const QByteArray time(8, '\x11'); // the FILETIME of the change: not part of the rule
        QTest::newRow("02 enabled (Task Manager)") << (QByteArray("\x02\0\0\0", 4) + time) << false;
        QTest::newRow("06 enabled (Settings)") << (QByteArray("\x06\0\0\0", 4) + time) << false;
        QTest::newRow("03 disabled (Task Manager)") << (QByteArray("\x03\0\0\0", 4) + time) << true;
        QTest::newRow("07 disabled (Settings)") << (QByteArray("\x07\0\0\0", 4) + time) << true;
        QTest::newRow("short but odd") << QByteArray("\x03", 1) << true;
        QTest::newRow("empty says nothing") << QByteArray() << false;
    }
    void startupApprovedOddFirstByteDisables() {
        QFETCH(QByteArray, flag);
        QFETCH(bool, disables);
        QCOMPARE(autostart::startupApprovedDisables(flag), disables);
    }
    void windowsStateFromRunValueAndFlag() {
        const QString tether = QStringLiteral("C:\\Apps\\tether.exe");
        const QString ours = autostart::windowsRunValue(tether);
        const QByteArray off("\x03\0\0\0\0\0\0\0\0\0\0\0", 12);
        const QByteArray on("\x02\0\0\0\0\0\0\0\0\0\0\0", 12);
        QCOMPARE(autostart::windowsRunStatus(std::nullopt, std::nullopt, tether).state, State::Off);
        // A leftover flag without its Run value starts nothing.
        QCOMPARE(autostart::windowsRunStatus(std::nullopt, off, tether).state, State::Off);
        QCOMPARE(autostart::windowsRunStatus(ours, std::nullopt, tether).state, State::On);
        QCOMPARE(autostart::windowsRunStatus(ours, on, tether).state, State::On);
        QCOMPARE(autostart::windowsRunStatus(ours, off, tether).state, State::DisabledBySystem);
        // Case and separators do not matter to Windows; the flag still does.
        QCOMPARE(autostart::windowsRunStatus(QStringLiteral("\"c:/apps/TETHER.exe\" --autostart"),
                                             off, tether)
                     .state,
                 State::DisabledBySystem);
        const AutostartStatus foreign =
            autostart::windowsRunStatus(QStringLiteral("\"C:\\x\\other.exe\" /min"), off, tether);
        QCOMPARE(foreign.state, State::Foreign);
        QCOMPARE(foreign.foreignProgram, QStringLiteral("C:\\x\\other.exe"));
        QCOMPARE(autostart::windowsRunStatus(QStringLiteral("\"broken"), off, tether).state,
                 State::Error);
    }

    // --- macOS LaunchAgent, as text ---
    void launchAgentPlistText() {
        const QByteArray plist = autostart::launchAgentPlist(
            QStringLiteral("dev.tether.Tether"),
            QStringLiteral("/Applications/Tether & Co.app/Contents/MacOS/tether"));
        const QByteArray expected =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
            "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
            "<plist version=\"1.0\">\n"
            "<dict>\n"
            "\t<key>Label</key>\n"
            "\t<string>dev.tether.Tether</string>\n"
            "\t<key>ProgramArguments</key>\n"
            "\t<array>\n"
            "\t\t<string>/Applications/Tether &amp; Co.app/Contents/MacOS/tether</string>\n"
            "\t\t<string>--autostart</string>\n"
            "\t</array>\n"
            "\t<key>RunAtLoad</key>\n"
            "\t<true/>\n"
            "\t<key>ProcessType</key>\n"
            "\t<string>Interactive</string>\n"
            "</dict>\n"
            "</plist>\n";
        QCOMPARE(plist, expected);
        QVERIFY(!plist.contains("KeepAlive")); // Quit must stay quit until the next login
        QCOMPARE(autostart::programOfLaunchAgent(plist),
                 QStringLiteral("/Applications/Tether & Co.app/Contents/MacOS/tether"));
    }
    void launchAgentProgramKeyWinsAndGarbageIsEmpty() {
        const QByteArray plist = "<plist version=\"1.0\"><dict><key>Label</key><string>x</string>"
                                 "<key>Program</key><string>/usr/bin/other</string>"
                                 "<key>ProgramArguments</key><array><string>argv0</string>"
                                 "</array></dict></plist>";
        QCOMPARE(autostart::programOfLaunchAgent(plist), QStringLiteral("/usr/bin/other"));
        QCOMPARE(autostart::programOfLaunchAgent("<plist><dict><key>Label"), QString());
        QCOMPARE(autostart::programOfLaunchAgent("not xml"), QString());
    }

    // --- XDG desktop entry, as text ---
    void desktopEntryText() {
        const QByteArray entry = autostart::xdgAutostartEntry(QStringLiteral("/usr/bin/tether"));
        QVERIFY(entry.startsWith("[Desktop Entry]\n"));
        QVERIFY(entry.contains("\nType=Application\n"));
        QVERIFY(entry.contains("\nExec=/usr/bin/tether --autostart\n"));
        QVERIFY(entry.contains("\nIcon=dev.tether.Tether\n"));
        QCOMPARE(autostart::parseDesktopEntry(entry).program, QStringLiteral("/usr/bin/tether"));
        QVERIFY(!autostart::parseDesktopEntry(entry).hidden);
    }
    void desktopEntryQuotesAwkwardPaths_data() {
        QTest::addColumn<QString>("program");
        QTest::newRow("space") << QStringLiteral("/opt/My Apps/tether");
        QTest::newRow("dollar, quote, backslash") << QStringLiteral("/opt/a$b\"c\\d`e/tether");
        QTest::newRow("percent") << QStringLiteral("/opt/100%/tether");
    }
    void desktopEntryQuotesAwkwardPaths() {
        QFETCH(QString, program);
        const QByteArray entry = autostart::xdgAutostartEntry(program);
        QCOMPARE(autostart::parseDesktopEntry(entry).program, program);
    }
    void desktopEntryHiddenMeansOff() {
        QVERIFY(autostart::parseDesktopEntry("[Desktop Entry]\nExec=/x --y\nHidden=true\n").hidden);
        QVERIFY(autostart::parseDesktopEntry(
                    "[Desktop Entry]\nExec=/x\nX-GNOME-Autostart-enabled=false\n")
                    .hidden);
        // Keys of another group do not count.
        const auto info =
            autostart::parseDesktopEntry("[Desktop Entry]\nExec=/a\n[Desktop Action x]\nExec=/b\n"
                                         "Hidden=true\n");
        QCOMPARE(info.program, QStringLiteral("/a"));
        QVERIFY(!info.hidden);
    }

    // --- implementations against real files ---
#if !defined(Q_OS_WIN) && !defined(Q_OS_MACOS) // platformAutostart() is the XDG entry here only
    void linuxRoundTripInTemporaryXdgConfigHome() {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QString config = home.path() + QStringLiteral("/xdg-config");
        // platformAutostart() honours XDG_CONFIG_HOME (via QStandardPaths), as the desktop does.
        const QByteArray oldHome = qgetenv("HOME"), oldXdg = qgetenv("XDG_CONFIG_HOME");
        qputenv("HOME", home.path().toUtf8());
        qputenv("XDG_CONFIG_HOME", config.toUtf8());
        const QString program = QStringLiteral("/opt/My Apps/tether");
        auto a = platformAutostart(program);
        const QString file = config + QStringLiteral("/autostart/dev.tether.Tether.desktop");
        QCOMPARE(a->status().state, State::Off);
        QCOMPARE(a->status().location, file);
        QString error;
        QVERIFY2(a->enable(&error), qPrintable(error));
        QVERIFY(QFile::exists(file));
        QCOMPARE(a->status().state, State::On);
        QCOMPARE(QFileInfo(file).permissions() & (QFile::WriteGroup | QFile::WriteOther),
                 QFileDevice::Permissions());
        // A second instance (fresh object, no shared state) reads the same answer from disk.
        QCOMPARE(platformAutostart(program)->status().state, State::On);
        QVERIFY2(a->enable(&error), qPrintable(error)); // idempotent
        QVERIFY2(a->disable(&error), qPrintable(error));
        QVERIFY(!QFile::exists(file));
        QCOMPARE(a->status().state, State::Off);
        QVERIFY2(a->disable(&error), qPrintable(error)); // nothing to remove is fine
        // The user hid our entry in their session settings: Off, and enable repairs it.
        writeFile(file, "[Desktop Entry]\nType=Application\nExec=\"/opt/My Apps/tether\" "
                        "--autostart\nHidden=true\n");
        QCOMPARE(a->status().state, State::Off);
        QVERIFY2(a->enable(&error), qPrintable(error));
        QCOMPARE(a->status().state, State::On);
        qputenv("HOME", oldHome);
        if (oldXdg.isNull())
            qunsetenv("XDG_CONFIG_HOME");
        else
            qputenv("XDG_CONFIG_HOME", oldXdg);
    }
#endif

    void foreignDesktopEntryIsLeftAloneAndReported() {
        QTemporaryDir config;
        const QString file = config.path() + QStringLiteral("/autostart/dev.tether.Tether.desktop");
        const QByteArray foreign = "[Desktop Entry]\nType=Application\nExec=/usr/bin/impostor -x\n";
        writeFile(file, foreign);
        auto a = makeXdgAutostart(config.path(), QStringLiteral("/usr/bin/tether"));
        const AutostartStatus st = a->status();
        QCOMPARE(st.state, State::Foreign);
        QCOMPARE(st.foreignProgram, QStringLiteral("/usr/bin/impostor"));
        QVERIFY(autostartDescription(st).contains(QStringLiteral("/usr/bin/impostor")));
        QString error;
        QVERIFY(!a->enable(&error));
        QVERIFY(error.contains(QStringLiteral("/usr/bin/impostor")));
        QVERIFY(!a->disable(&error));
        QCOMPARE(readAll(file), foreign);
    }

    void unreadableOrEmptyEntryIsNeverOverwritten() {
        QTemporaryDir config;
        const QString file = config.path() + QStringLiteral("/autostart/dev.tether.Tether.desktop");
        writeFile(file, "[Desktop Entry]\nName=no exec line\n");
        auto a = makeXdgAutostart(config.path(), QStringLiteral("/usr/bin/tether"));
        QCOMPARE(a->status().state, State::Error);
        QString error;
        QVERIFY(!a->enable(&error));
        QVERIFY(!a->disable(&error));
        QCOMPARE(readAll(file), QByteArray("[Desktop Entry]\nName=no exec line\n"));
    }

    void launchAgentRoundTripAndForeign() {
        QTemporaryDir agents;
        const QString program = QStringLiteral("/Applications/Tether.app/Contents/MacOS/tether");
        auto a = makeLaunchAgentAutostart(agents.path(), program);
        const QString file = agents.path() + QStringLiteral("/dev.tether.Tether.plist");
        QCOMPARE(a->status().state, State::Off);
        QString error;
        QVERIFY2(a->enable(&error), qPrintable(error));
        QCOMPARE(readAll(file),
                 autostart::launchAgentPlist(QStringLiteral("dev.tether.Tether"), program));
        QCOMPARE(a->status().state, State::On);
        QVERIFY2(a->disable(&error), qPrintable(error));
        QVERIFY(!QFile::exists(file));

        const QByteArray foreign = autostart::launchAgentPlist(QStringLiteral("dev.tether.Tether"),
                                                               QStringLiteral("/bin/other"));
        writeFile(file, foreign);
        QCOMPARE(a->status().state, State::Foreign);
        QCOMPARE(a->status().foreignProgram, QStringLiteral("/bin/other"));
        QVERIFY(!a->enable(&error));
        QVERIFY(!a->disable(&error));
        QCOMPARE(readAll(file), foreign);
    }

    // --- macOS: where Tether runs from, and whose an entry is ---
    void launchLocations_data() {
        QTest::addColumn<QString>("program");
        QTest::addColumn<int>("location");
        using L = autostart::LaunchLocation;
        QTest::newRow("Applications")
            << "/Applications/Tether.app/Contents/MacOS/tether" << int(L::Stable);
        QTest::newRow("home Applications")
            << "/Users/ann/Applications/Tether.app/Contents/MacOS/tether" << int(L::Stable);
        QTest::newRow("mounted DMG")
            << "/Volumes/Tether 0.1.0/Tether.app/Contents/MacOS/tether" << int(L::DiskImage);
        QTest::newRow("translocated")
            << "/private/var/folders/x1/abc/T/AppTranslocation/6F1C2A34-9A57-4C6E/d/Tether.app/"
               "Contents/MacOS/tether"
            << int(L::Translocated);
        QTest::newRow("not a volume")
            << "/VolumesX/Tether.app/Contents/MacOS/tether" << int(L::Stable);
    }
    void launchLocations() {
        QFETCH(QString, program);
        QFETCH(int, location);
        const autostart::LaunchLocation got = autostart::classifyLaunchLocation(program);
        QCOMPARE(int(got), location);
        // Only a stable place is written into an entry; the others ask for Applications.
        QCOMPARE(autostart::moveToApplicationsAdvice(got).isEmpty(),
                 got == autostart::LaunchLocation::Stable);
        if (got != autostart::LaunchLocation::Stable)
            QVERIFY(autostart::moveToApplicationsAdvice(got).contains("Applications"));
    }

    void launchAgentOwners_data() {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<int>("owner");
        using O = autostart::EntryOwner;
        QTest::newRow("this copy")
            << "/Applications/Tether.app/Contents/MacOS/tether" << int(O::Ours);
        QTest::newRow("the DMG") << "/Volumes/Tether/Tether.app/Contents/MacOS/tether"
                                 << int(O::OlderCopy);
        QTest::newRow("old lowercase bundle")
            << "/Applications/tether.app/Contents/MacOS/tether" << int(O::OlderCopy);
        QTest::newRow("translocated")
            << "/private/var/folders/x1/T/AppTranslocation/AB-CD/d/Tether.app/Contents/MacOS/tether"
            << int(O::OlderCopy);
        QTest::newRow("Finder's copy")
            << "/Users/ann/Downloads/Tether 2.app/Contents/MacOS/tether" << int(O::OlderCopy);
        QTest::newRow("a plain binary") << "/usr/local/bin/tether" << int(O::Foreign);
        QTest::newRow("another app")
            << "/Applications/Other.app/Contents/MacOS/other" << int(O::Foreign);
        QTest::newRow("a lookalike")
            << "/Applications/Evil.app/Contents/MacOS/tether-helper" << int(O::Foreign);
        QTest::newRow("relative") << "Tether.app/Contents/MacOS/tether" << int(O::Foreign);
    }
    void launchAgentOwners() {
        QFETCH(QString, entry);
        QFETCH(int, owner);
        QCOMPARE(int(autostart::launchAgentOwner(
                     entry, QStringLiteral("/Applications/Tether.app/Contents/MacOS/tether"))),
                 owner);
    }

    // The entry written from the DMG reads as Off (not foreign), says so, and enable repairs it.
    void launchAgentOfAnOlderCopyIsRepaired() {
        QTemporaryDir agents;
        const QString file = agents.path() + QStringLiteral("/dev.tether.Tether.plist");
        const QString dmg = QStringLiteral("/Volumes/Tether/Tether.app/Contents/MacOS/tether");
        writeFile(file, autostart::launchAgentPlist(QStringLiteral("dev.tether.Tether"), dmg));
        const QString program = QStringLiteral("/Applications/Tether.app/Contents/MacOS/tether");
        auto a = makeLaunchAgentAutostart(agents.path(), program);
        const AutostartStatus st = a->status();
        QCOMPARE(st.state, State::Off);
        QCOMPARE(st.staleProgram, dmg);
        QVERIFY(st.foreignProgram.isEmpty());
        QVERIFY2(autostartDescription(st).contains(dmg), qPrintable(autostartDescription(st)));
        QString error;
        QVERIFY2(a->enable(&error), qPrintable(error));
        QCOMPARE(readAll(file),
                 autostart::launchAgentPlist(QStringLiteral("dev.tether.Tether"), program));
        QCOMPARE(a->status().state, State::On);
    }

    // Running from the DMG: nothing is written, and the person is told to move Tether.
    void launchAgentIsNotWrittenFromTheDiskImage() {
        QTemporaryDir agents;
        const QString file = agents.path() + QStringLiteral("/dev.tether.Tether.plist");
        auto a = makeLaunchAgentAutostart(
            agents.path(), QStringLiteral("/Volumes/Tether/Tether.app/Contents/MacOS/tether"));
        QVERIFY(a->status().advice.contains("Applications"));
        QString error;
        QVERIFY(!a->enable(&error));
        QVERIFY2(error.contains("drag Tether to Applications"), qPrintable(error));
        QVERIFY(!QFile::exists(file));
        QCOMPARE(a->status().state, State::Off);
    }

    void runKeyFlagDisabledInWindowsIsShownAndClearedByEnable() {
        // The same calls Windows makes on HKCU\...\Run and ...\StartupApproved\Run, over files.
        QTemporaryDir dir;
        const QString store = dir.path() + QStringLiteral("/run.ini");
        const QString flags = dir.path() + QStringLiteral("/approved.ini");
        const QString program = QStringLiteral("C:\\Program Files\\Tether\\tether.exe");
        auto a = makeRunKeyAutostart(store, QSettings::IniFormat, program,
                                     makeSettingsStartupApproval(flags, QStringLiteral("Tether")));
        QString error;
        QVERIFY2(a->enable(&error), qPrintable(error));
        const QByteArray disabled("\x03\0\0\0\x10\x20\x30\x40\x50\x60\x70\x01", 12);
        QSettings(flags, QSettings::IniFormat).setValue(QStringLiteral("Tether"), disabled);
        const AutostartStatus st = a->status();
        QCOMPARE(st.state, State::DisabledBySystem);
        QVERIFY(autostartDescription(st).contains(QStringLiteral("Windows Settings")));
        QVERIFY2(a->enable(&error), qPrintable(error));
        QCOMPARE(a->status().state, State::On);
        QVERIFY(!QSettings(flags, QSettings::IniFormat).contains(QStringLiteral("Tether")));
        QCOMPARE(QSettings(store, QSettings::IniFormat).value(QStringLiteral("Tether")).toString(),
                 autostart::windowsRunValue(program));
        // Off from Tether removes the flag too: no leftover that would switch a later entry off.
        QSettings(flags, QSettings::IniFormat)
            .setValue(QStringLiteral("Tether"), QByteArray("\x02\0\0\0", 4));
        QVERIFY2(a->disable(&error), qPrintable(error));
        QCOMPARE(a->status().state, State::Off);
        QVERIFY(!QSettings(flags, QSettings::IniFormat).contains(QStringLiteral("Tether")));

        // Another program's entry keeps its flag: that is the user's choice about that program.
        QSettings(store, QSettings::IniFormat)
            .setValue(QStringLiteral("Tether"), QStringLiteral("\"C:\\evil\\tether.exe\""));
        QSettings(flags, QSettings::IniFormat).setValue(QStringLiteral("Tether"), disabled);
        QCOMPARE(a->status().state, State::Foreign);
        QVERIFY(!a->enable(&error));
        QCOMPARE(
            QSettings(flags, QSettings::IniFormat).value(QStringLiteral("Tether")).toByteArray(),
            disabled);
    }

    void runKeyRoundTripAndForeign() {
        // The registry logic over a QSettings file: the same calls Windows makes on HKCU\...\Run.
        QTemporaryDir dir;
        const QString store = dir.path() + QStringLiteral("/run.ini");
        const QString program = QStringLiteral("C:\\Program Files\\Tether\\tether.exe");
        auto a = makeRunKeyAutostart(store, QSettings::IniFormat, program);
        QCOMPARE(a->status().state, State::Off);
        QString error;
        QVERIFY2(a->enable(&error), qPrintable(error));
        QCOMPARE(a->status().state, State::On);
        {
            QSettings s(store, QSettings::IniFormat);
            QCOMPARE(s.value(QStringLiteral("Tether")).toString(),
                     QStringLiteral("\"C:\\Program Files\\Tether\\tether.exe\" --autostart"));
            s.setValue(QStringLiteral("Other"), QStringLiteral("C:\\other.exe"));
        }
        QVERIFY2(a->disable(&error), qPrintable(error));
        QCOMPARE(a->status().state, State::Off);
        {
            QSettings s(store, QSettings::IniFormat);
            QVERIFY(!s.contains(QStringLiteral("Tether")));
            QCOMPARE(s.value(QStringLiteral("Other")).toString(), QStringLiteral("C:\\other.exe"));
            s.setValue(QStringLiteral("Tether"), QStringLiteral("\"C:\\evil\\tether.exe\" -q"));
        }
        QCOMPARE(a->status().state, State::Foreign);
        QCOMPARE(a->status().foreignProgram, QStringLiteral("C:\\evil\\tether.exe"));
        QVERIFY(!a->enable(&error));
        QVERIFY(!a->disable(&error));
        QSettings s(store, QSettings::IniFormat);
        QCOMPARE(s.value(QStringLiteral("Tether")).toString(),
                 QStringLiteral("\"C:\\evil\\tether.exe\" -q"));
    }
};

QTEST_GUILESS_MAIN(TestAutostart)
#include "tst_autostart.moc"
