// The tray's "Start at login" checkbox follows the entry read back from the OS: checked only
// for our entry, and disabled with the reason when the entry is another program's.
#include "settings/autostart.h"
#include "tray/tray_menu_model.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace tether;
using State = AutostartStatus::State;

class TestStartAtLogin : public QObject {
    Q_OBJECT
private slots:
    void itemFollowsEachState() {
        AutostartStatus st;
        st.location = QStringLiteral("/home/u/.config/autostart/dev.tether.Tether.desktop");
        LoginMenuItem off = loginMenuItem(st);
        QVERIFY(!off.checked);
        QVERIFY(off.enabled);
        QCOMPARE(off.text, QStringLiteral("Start at &login"));

        st.state = State::On;
        const LoginMenuItem on = loginMenuItem(st);
        QVERIFY(on.checked);
        QVERIFY(on.enabled);
        QVERIFY(on.toolTip.contains(st.location));

        // Switched off in Windows (Task Manager / Settings): unchecked, and checking it is how
        // the user turns it back on, so it stays enabled and says why it is off.
        st.state = State::DisabledBySystem;
        const LoginMenuItem system = loginMenuItem(st);
        QVERIFY(!system.checked);
        QVERIFY(system.enabled);
        QCOMPARE(system.text, QStringLiteral("Start at &login (disabled in Windows Settings)"));
        QVERIFY(system.toolTip.contains(QStringLiteral("Windows Settings")));

        st.state = State::Foreign;
        st.foreignProgram = QStringLiteral("/usr/bin/impostor");
        const LoginMenuItem foreign = loginMenuItem(st);
        QVERIFY(!foreign.checked);
        QVERIFY(!foreign.enabled);
        QVERIFY(foreign.toolTip.contains(QStringLiteral("/usr/bin/impostor")));

        st.state = State::Error;
        st.error = QStringLiteral("permission denied");
        const LoginMenuItem error = loginMenuItem(st);
        QVERIFY(!error.checked);
        QVERIFY(!error.enabled);
        QVERIFY(error.toolTip.contains(QStringLiteral("permission denied")));
    }

    void itemReadsTheFileNotAFlag() {
        // Another program (or the user) changes the file behind Tether's back: the next read
        // shows it, because nothing is cached between reads.
        QTemporaryDir config;
        auto a = makeXdgAutostart(config.path(), QStringLiteral("/usr/bin/tether"));
        QString error;
        QVERIFY2(a->enable(&error), qPrintable(error));
        QVERIFY(loginMenuItem(a->status()).checked);
        QVERIFY(QFile::remove(a->status().location));
        QVERIFY(!loginMenuItem(a->status()).checked);
    }
};

QTEST_GUILESS_MAIN(TestStartAtLogin)
#include "tst_start_at_login.moc"
