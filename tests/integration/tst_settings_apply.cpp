// Issue 25 d and 2: settings that change the service stop it first, then the one Supervisor
// starts it with them (policy::SettingsChanged). That stop once ran in an event loop of its own:
// a quit arriving inside it ended every loop, and a new Supervisor started the service again
// during the quit. A real Runtime and the demo service, headless.
#include "shell/runtime.h"
#include "testsupport.h"
#include "tether_rig.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace tether;
using policy::State;

class TestSettingsApply : public QObject {
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<Runtime> runtime_;

    void start(quint16 port) {
        const QString ini = dir_->filePath(QStringLiteral("tether.ini"));
        QSettings s(ini, QSettings::IniFormat);
        s.setValue(QStringLiteral("service/profile"), QStringLiteral("demo"));
        s.setValue(QStringLiteral("service/port"), port);
        s.setValue(QStringLiteral("service/program"), test::tetherBin());
        s.setValue(QStringLiteral("probe/intervalMs"), 200);
        s.setValue(QStringLiteral("app/stopServiceOnQuit"), true);
        s.sync();
        runtime_ = std::make_unique<Runtime>(Runtime::Options{ini, false});
        QString error;
        QCOMPARE(runtime_->init(&error), Runtime::Init::Ok);
        runtime_->supervisor()->start();
    }
    const ServiceStatus &status() const { return runtime_->supervisor()->status(); }
    bool logged(const QString &text) const { return !runtime_->eventLog().filter(text).isEmpty(); }

private slots:
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        qputenv("TETHER_DATA_DIR", dir_->filePath(QStringLiteral("data")).toUtf8());
    }
    void cleanup() {
        if (runtime_) {
            runtime_->requestQuit();
            QTRY_VERIFY_WITH_TIMEOUT(runtime_->isReadyToQuit(), 30000);
            runtime_->shutdown();
        }
        runtime_.reset();
    }

    // The new port's service starts once the old one is stopped.
    void aNewPortStopsTheServiceAndStartsItThere() {
        const quint16 a = test::freeLoopbackPort();
        start(a);
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Healthy, 30000);
        const qint64 old = status().pid;
        Settings s = runtime_->settings().settings;
        s.port = test::freeLoopbackPort();
        runtime_->applySettings(s);
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Healthy && status().port == s.port,
                                 30000);
        QVERIFY(status().pid != old);
        QVERIFY(test::demoServicesOnPort(a).isEmpty());
    }

    // A quit while that stop runs: the service stays stopped, nothing starts on the new port.
    void aQuitDuringTheStopStartsNothing() {
        const quint16 a = test::freeLoopbackPort();
        start(a);
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Healthy, 30000);
        Settings s = runtime_->settings().settings;
        s.port = test::freeLoopbackPort();
        // Delivered by the event loop while the stop is under way, as a `tether quit` is.
        QTimer::singleShot(0, runtime_.get(), [this] { runtime_->beginQuit(); });
        runtime_->applySettings(s);
        // Either the settings are dropped, or (the defect) a service starts on the new port.
        const QString startedThere = QStringLiteral("on port %1").arg(s.port);
        QTRY_VERIFY_WITH_TIMEOUT(
            logged(QStringLiteral("settings not applied: Tether is quitting")) ||
                logged(startedThere),
            30000);
        QVERIFY2(!logged(startedThere),
                 qPrintable(QStringLiteral("a service started on the new port during the quit:\n") +
                            runtime_->eventLog().join(QLatin1Char('\n'))));
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Stopped, 30000);
        QVERIFY(test::demoServicesOnPort(a).isEmpty());
        QVERIFY(test::demoServicesOnPort(s.port).isEmpty());
    }

    // Quitting (the tray's Quit, Ctrl+C, `tether quit`: QCoreApplication::quit(), a QEvent::Quit
    // to the application) while that stop runs: the main loop is held until the stop has
    // finished, instead of a second event loop after exec(); the old service is gone then.
    void aQuitEventWaitsInTheMainLoopForTheStopUnderWay() {
        const quint16 a = test::freeLoopbackPort();
        start(a);
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Healthy, 30000);
        QCoreApplication::instance()->installEventFilter(
            runtime_.get()); // as holdQuitsUntilReady, without exit()
        QSignalSpy ready(runtime_.get(), &Runtime::readyToQuit);
        Settings s = runtime_->settings().settings;
        s.port = test::freeLoopbackPort();
        runtime_->applySettings(s);
        QVERIFY(!runtime_->supervisor()->quitDone());
        QEvent quit(QEvent::Quit);
        QCoreApplication::sendEvent(QCoreApplication::instance(), &quit);
        QVERIFY2(!runtime_->isReadyToQuit() && ready.isEmpty(),
                 "the loop may end while the stop is still under way");
        QVERIFY(logged(QStringLiteral("letting the stop or cleanup under way finish")));
        QTRY_VERIFY_WITH_TIMEOUT(runtime_->isReadyToQuit(), 30000);
        QCOMPARE(ready.size(), 1);
        QCOMPARE(status().state, State::Stopped);
        QVERIFY(test::demoServicesOnPort(a).isEmpty());
        QVERIFY(test::demoServicesOnPort(s.port).isEmpty());
        QCoreApplication::instance()->removeEventFilter(runtime_.get());
    }

    // Another command line, same port: the one Supervisor's launcher runs the new arguments
    // (they are swapped in when the policy applies the settings, after the old service ended).
    void newArgumentsStopTheServiceAndStartItWithThem() {
        start(test::freeLoopbackPort());
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Healthy, 30000);
        const qint64 old = status().pid;
        Settings s = runtime_->settings().settings;
        s.arguments = QStringList{QStringLiteral("--mcp"), QStringLiteral("1")};
        runtime_->applySettings(s);
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Healthy && status().pid != old, 30000);
        // What the new arguments make the service do, as a person sees it: one MCP server (the
        // first had none). Not its command line: wine cannot read another process's.
        QTRY_VERIFY2_WITH_TIMEOUT(status().mcp.size() == 1 &&
                                      status().mcp.first().name == QLatin1String("demo-1"),
                                  qPrintable(runtime_->eventLog().join(QLatin1Char('\n'))), 30000);
    }

    // Settings given while the stop for earlier ones runs take their place: the service starts
    // on the last port given, never on the one in between.
    void settingsDuringTheStopReplaceThePendingOnes() {
        const quint16 a = test::freeLoopbackPort();
        start(a);
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Healthy, 30000);
        const Supervisor *before = runtime_->supervisor();
        Settings s = runtime_->settings().settings;
        s.port = test::freeLoopbackPort();
        const quint16 between = s.port;
        runtime_->applySettings(s);
        s.port = test::freeLoopbackPort();
        runtime_->applySettings(s);
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Healthy && status().port == s.port,
                                 30000);
        QVERIFY(runtime_->supervisor() == before); // one Supervisor for the life of Tether
        QVERIFY(!logged(QStringLiteral("on port %1").arg(between)));
        QVERIFY(test::demoServicesOnPort(a).isEmpty());
        QVERIFY(test::demoServicesOnPort(between).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSettingsApply)
#include "tst_settings_apply.moc"
