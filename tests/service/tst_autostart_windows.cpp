// Start at login against the real registry (Windows, or wine's HKCU here): a StartupApproved
// flag the user set in Task Manager / Settings reads as "disabled in Windows Settings", and
// turning start-at-login on from Tether clears it and leaves the Run value on tether.exe.
// It writes HKCU's "Tether" values, so it refuses (fails) when they already exist: run it in
// a scratch wine prefix or a test account.
#include "os/registry.h"
#include "settings/autostart.h"
#include "settings/autostart_entries.h"

#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QtTest>

using namespace tether;
using State = AutostartStatus::State;
namespace reg = tether::os::registry;

namespace {

const std::wstring kApprovedKey =
    QString::fromLatin1(autostart::kStartupApprovedKey).toStdWString();
const std::wstring kName = L"Tether";

std::vector<unsigned char> flag(unsigned char first) {
    // What Task Manager writes: the flag, three zero bytes, the FILETIME of the change.
    return {first, 0, 0, 0, 0x10, 0x9b, 0x3c, 0x51, 0x2e, 0x63, 0xdb, 0x01};
}

QString runValue() {
    return QSettings(QLatin1String(autostart::kRunKey), QSettings::NativeFormat)
        .value(QLatin1String(autostart::kRunValueName))
        .toString();
}

void setRunValue(const QString &value) {
    QSettings run(QLatin1String(autostart::kRunKey), QSettings::NativeFormat);
    run.setValue(QLatin1String(autostart::kRunValueName), value);
    run.sync();
    QCOMPARE(run.status(), QSettings::NoError);
}

void setFlag(unsigned char first) {
    std::string error;
    QVERIFY2(reg::writeUserBinary(kApprovedKey, kName, flag(first), &error), error.c_str());
}

reg::BinaryRead readFlag() {
    return reg::readUserValue(kApprovedKey, kName);
}

} // namespace

class TestAutostartWindows : public QObject {
    Q_OBJECT
    QString tray_; // where login should start Tether: the tray tether.exe
    QString cli_;  // its console twin

private slots:
    void initTestCase() {
        const QString dir = QDir::toNativeSeparators(QCoreApplication::applicationDirPath());
        tray_ = dir + QStringLiteral("\\tether.exe");
        cli_ = dir + QStringLiteral("\\tether-cli.exe");
        // Never change a real user's start-at-login entry.
        QVERIFY2(!QSettings(QLatin1String(autostart::kRunKey), QSettings::NativeFormat)
                      .contains(QLatin1String(autostart::kRunValueName)),
                 "HKCU Run already has a \"Tether\" value: run this suite in a scratch prefix");
        QVERIFY2(readFlag().result == reg::BinaryRead::Result::Missing,
                 "HKCU StartupApproved\\Run already has a \"Tether\" value (or is unreadable)");
    }

    void cleanup() {
        QSettings(QLatin1String(autostart::kRunKey), QSettings::NativeFormat)
            .remove(QLatin1String(autostart::kRunValueName));
        std::string error;
        QVERIFY2(reg::deleteUserValue(kApprovedKey, kName, &error), error.c_str());
    }

    void registryRoundTripsBinaryValues() {
        setFlag(0x07);
        const reg::BinaryRead r = readFlag();
        QCOMPARE(int(r.result), int(reg::BinaryRead::Result::Ok));
        QVERIFY(r.bytes == flag(0x07));
        std::string error;
        QVERIFY2(reg::deleteUserValue(kApprovedKey, kName, &error), error.c_str());
        QCOMPARE(int(readFlag().result), int(reg::BinaryRead::Result::Missing));
        QVERIFY2(reg::deleteUserValue(kApprovedKey, kName, &error), error.c_str()); // no value: ok
        QCOMPARE(int(reg::readUserValue(L"Software\\Tether-no-such-key", kName).result),
                 int(reg::BinaryRead::Result::Missing));
    }

    void disabledInTaskManagerReadsDisabledAndEnableClearsIt_data() {
        QTest::addColumn<int>("first");
        QTest::newRow("03 (Task Manager)") << 0x03;
        QTest::newRow("07 (Settings)") << 0x07;
    }
    void disabledInTaskManagerReadsDisabledAndEnableClearsIt() {
        QFETCH(int, first);
        auto login = platformAutostart(tray_);
        QString error;
        QVERIFY2(login->enable(&error), qPrintable(error));
        QCOMPARE(login->status().state, State::On);
        setFlag(static_cast<unsigned char>(first));

        const AutostartStatus st = platformAutostart(tray_)->status(); // a fresh read
        QCOMPARE(st.state, State::DisabledBySystem);
        QVERIFY2(autostartDescription(st).contains(QStringLiteral("Windows Settings")),
                 qPrintable(autostartDescription(st)));
        QCOMPARE(autostartStateName(st.state), QStringLiteral("disabledBySystem"));

        QVERIFY2(login->enable(&error), qPrintable(error));
        QCOMPARE(int(readFlag().result), int(reg::BinaryRead::Result::Missing));
        QCOMPARE(runValue(), QStringLiteral("\"%1\" --autostart").arg(tray_));
        QCOMPARE(platformAutostart(tray_)->status().state, State::On);
    }

    void enabledFlagsReadAsOn() {
        setRunValue(autostart::windowsRunValue(tray_));
        for (int first : {0x02, 0x06}) {
            setFlag(static_cast<unsigned char>(first));
            QCOMPARE(platformAutostart(tray_)->status().state, State::On);
        }
    }

    void consoleTwinPutsTheTrayInTheRunValue() {
        // `tether-cli` runs as tether-cli.exe: login must still start the tray, not a console.
        QString error;
        QVERIFY2(platformAutostart(cli_)->enable(&error), qPrintable(error));
        QCOMPARE(runValue(), QStringLiteral("\"%1\" --autostart").arg(tray_));
        QCOMPARE(platformAutostart(tray_)->status().state, State::On);
    }

    void disableRemovesValueAndFlag() {
        auto login = platformAutostart(tray_);
        QString error;
        QVERIFY2(login->enable(&error), qPrintable(error));
        setFlag(0x03);
        QVERIFY2(login->disable(&error), qPrintable(error));
        QCOMPARE(login->status().state, State::Off);
        QVERIFY(runValue().isEmpty());
        QCOMPARE(int(readFlag().result), int(reg::BinaryRead::Result::Missing));
    }

    void foreignEntryKeepsItsFlag() {
        const QString other = QStringLiteral("\"C:\\Other\\tether.exe\" --minimized");
        setRunValue(other);
        setFlag(0x03);
        auto login = platformAutostart(tray_);
        QCOMPARE(login->status().state, State::Foreign);
        QString error;
        QVERIFY(!login->enable(&error));
        QVERIFY(!login->disable(&error));
        QCOMPARE(runValue(), other);
        const reg::BinaryRead r = readFlag();
        QCOMPARE(int(r.result), int(reg::BinaryRead::Result::Ok));
        QVERIFY(r.bytes == flag(0x03));
    }
};

QTEST_GUILESS_MAIN(TestAutostartWindows)
#include "tst_autostart_windows.moc"
