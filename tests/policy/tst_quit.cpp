// Issue 27 (13): what quitting does to the service. As configured, except that Ctrl+C in
// Tether's terminal also stops the bundled demo service this Tether started.
#include "policy/quit.h"

#include <QtTest>

using namespace tether::policy;

class TstQuit : public QObject {
    Q_OBJECT
private slots:
    void asConfiguredExceptCtrlCOnTheDemoItStarted() {
        for (QuitBy by : {QuitBy::Person, QuitBy::Interrupt, QuitBy::Signal})
            for (bool demo : {false, true})
                QVERIFY(stopsServiceOnQuit(true, by, demo)); // configured to stop: always
        QVERIFY(stopsServiceOnQuit(false, QuitBy::Interrupt, true));
        // A person's own service, or another way to quit: left running, as configured.
        QVERIFY(!stopsServiceOnQuit(false, QuitBy::Interrupt, false));
        QVERIFY(!stopsServiceOnQuit(false, QuitBy::Person, true));
        QVERIFY(!stopsServiceOnQuit(false, QuitBy::Signal, true));
    }
};

QTEST_APPLESS_MAIN(TstQuit)
#include "tst_quit.moc"
