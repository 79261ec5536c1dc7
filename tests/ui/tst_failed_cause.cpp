// Failed tells the truth in plain words, on every surface a person looks at: the demo service
// started with an option it does not know exits 2 with "Unknown option 'bogus'" on stderr, once
// (a refused command line is not retried), and the status window's failure panel, the tray menu
// and its tooltip say so, offer "Edit arguments…" (Settings, at that field), one Try again and
// Show log; with a foreign listener on the port, "Use a free port (N)" writes the setting and
// the service runs there. A real Runtime and TrayApp, offscreen (the menu is read as a widget).
#include "i18n.h"
#include "shell/runtime.h"
#include "testsupport.h"
#include "tray/tray_app.h"
#include "tray/menu_status.h"
#include "tray/tray_menu_model.h"
#include "ui/failure_panel.h"
#include "ui/settings_dialog.h"
#include "ui/status_window.h"

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace tether;
using policy::State;

namespace {

constexpr int kLong = 30000;

// An item by its words (its mnemonic's & left out).
QAction *menuAction(const QString &prefix) {
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *menu = qobject_cast<QMenu *>(w))
            for (QAction *a : menu->actions())
                if (QString(a->text()).remove(QLatin1Char('&')).startsWith(prefix)) return a;
    return nullptr;
}

ui::SettingsDialog *settingsDialog() {
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *s = qobject_cast<ui::SettingsDialog *>(w)) return s;
    return nullptr;
}

ui::StatusWindow *statusWindow() {
    for (QWidget *w : QApplication::topLevelWidgets())
        if (auto *s = qobject_cast<ui::StatusWindow *>(w)) return s;
    return nullptr;
}

QPushButton *button(QWidget *in, const char *name) {
    auto *b = in->findChild<QPushButton *>(QLatin1String(name));
    if (!b) qFatal("no button %s", name); // the panel's layout changed: fail loudly
    return b;
}

} // namespace

class TestFailedCause : public QObject {
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> dir_;
    QString ini_;
    std::unique_ptr<Runtime> runtime_;
    std::unique_ptr<TrayApp> tray_;

    void start(int port, const QString &arguments, int probeIntervalMs = 200) {
        ini_ = dir_->filePath(QStringLiteral("tether.ini"));
        QSettings ini(ini_, QSettings::IniFormat);
        ini.setValue(QStringLiteral("service/profile"), QStringLiteral("demo"));
        ini.setValue(QStringLiteral("service/port"), port);
        // The demo service of the tether under test (this process is the test binary).
        ini.setValue(QStringLiteral("service/program"), test::tetherBin());
        ini.setValue(QStringLiteral("service/arguments"), arguments);
        ini.setValue(QStringLiteral("recovery/backoffInitialMs"), 20);
        ini.setValue(QStringLiteral("recovery/backoffMaxMs"), 40);
        ini.setValue(QStringLiteral("probe/intervalMs"), probeIntervalMs);
        ini.setValue(QStringLiteral("recovery/windowMs"), std::max(30000, 2 * probeIntervalMs));
        ini.setValue(QStringLiteral("app/stopServiceOnQuit"), true);
        ini.sync();
        runtime_ = std::make_unique<Runtime>(Runtime::Options{ini_, false});
        QString error;
        QCOMPARE(runtime_->init(&error), Runtime::Init::Ok);
        tray_ = std::make_unique<TrayApp>(runtime_.get(), false);
        runtime_->supervisor()->start();
    }
    const ServiceStatus &status() const { return runtime_->supervisor()->status(); }

private slots:
    void initTestCase() {
        qputenv("TETHER_LANGUAGE", "en");
        QCOMPARE(i18n::install(qApp), QStringLiteral("en"));
    }
    void init() {
        dir_ = std::make_unique<QTemporaryDir>();
        qputenv("TETHER_DATA_DIR", dir_->filePath(QStringLiteral("data")).toUtf8());
    }
    void cleanup() {
        tray_.reset();
        if (runtime_) { // stops the service ([app] stopServiceOnQuit)
            runtime_->requestQuit();
            QTRY_VERIFY_WITH_TIMEOUT(runtime_->isReadyToQuit(), kLong);
            runtime_->shutdown();
        }
        runtime_.reset();
    }

    void theServicesOwnErrorLineIsShownEverywhere() {
        start(test::freeLoopbackPort(), QStringLiteral("--bogus"));
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Failed, kLong);
        const QString line = QStringLiteral("Unknown option 'bogus'");

        // Issue 27 (3): it exits 2 every time: one start, no retry, the setting to change.
        QCOMPARE(status().restarts, 0);
        QVERIFY(status().failure.fix == policy::FixFirst::Arguments);
        int starts = 0;
        for (const QString &l : runtime_->eventLog())
            starts += l.contains(QStringLiteral("started pid")) ? 1 : 0;
        QCOMPARE(starts, 1);

        // The tray: tooltip, the cause line in the menu, what mends it, Show log.
        const TrayMenuModel m = trayMenuModel(status(), QDateTime::currentDateTime());
        QVERIFY2(m.tooltip.contains(line), qPrintable(m.tooltip));
        QVERIFY2(m.tooltip.contains(QStringLiteral("refused its arguments")),
                 qPrintable(m.tooltip));
        // The cause line is the third line of the menu's status block, in plain text (a
        // disabled item was grey on white, hard to read).
        QMenu *menu = nullptr;
        MenuStatusWidget *block = nullptr;
        for (QWidget *w : QApplication::topLevelWidgets())
            if (auto *candidate = qobject_cast<QMenu *>(w))
                if (auto *b = candidate->findChild<MenuStatusWidget *>())
                    menu = candidate, block = b;
        QVERIFY(block);
        QVERIFY2(block->statusText().contains(line), qPrintable(block->statusText()));
        QVERIFY(m.thirdLine.size() <= 2 * kMenuStatusChars); // at most two menu lines
        // The menu fits a 1024-pixel screen at 2x: at most 512 logical pixels wide.
        qInfo("failed menu: %d logical pixels wide", menu->sizeHint().width());
        QVERIFY(menu->sizeHint().width() <= 512);
        QCOMPARE(status().failure.errorLine, QStringLiteral("Unknown option 'bogus'."));
        QAction *edit = menuAction(QStringLiteral("Edit arguments…"));
        QAction *tryAgain = menuAction(QStringLiteral("Try again"));
        QAction *showLog = menuAction(QStringLiteral("Show log"));
        QVERIFY(edit && edit->isVisible() && edit->isEnabled());
        QVERIFY(tryAgain && tryAgain->isVisible() && tryAgain->isEnabled());
        QVERIFY(showLog && showLog->isVisible() && showLog->isEnabled());
        // One way to try again: no Start or Restart beside it.
        for (const char *other : {"Start", "Restart"}) {
            QAction *a = menuAction(QLatin1String(other));
            QVERIFY2(!a || !a->isVisible(), other);
        }
        QVERIFY(menuAction(QStringLiteral("Copy diagnostics")));
        QAction *freePort = menuAction(QStringLiteral("Use a free port"));
        QVERIFY(!freePort || !freePort->isVisible()); // the port is not the cause

        // The status window: the failure panel with the cause and the service's own lines.
        tray_->showStatusWindow();
        ui::StatusWindow *window = statusWindow();
        QVERIFY(window);
        ui::FailurePanel *panel = window->failurePanel();
        QTRY_VERIFY(panel->isVisible());
        QVERIFY2(panel->causeText().contains(line), qPrintable(panel->causeText()));
        QVERIFY2(panel->logText().contains(QStringLiteral("tether demo-service: Unknown option")),
                 qPrintable(panel->logText()));
        QVERIFY(panel->logText().split(QLatin1Char('\n')).size() <= 12);
        QVERIFY(button(window, "showLog")->isEnabled());
        QVERIFY(!button(window, "useFreePort")->isVisible());
        QCOMPARE(button(window, "fix")->text(), QStringLiteral("Edit a&rguments…"));

        // "Edit arguments…" opens Settings at that very field, focused, its text selected.
        edit->trigger();
        ui::SettingsDialog *settings = settingsDialog();
        QVERIFY(settings && settings->isVisible());
        auto *field =
            qobject_cast<QLineEdit *>(settings->field(QStringLiteral("service/arguments")));
        QVERIFY(field);
        QTRY_VERIFY(field->isVisible());
        QCOMPARE(settings->focusWidget(), field); // the window's focus (offscreen: never active)
        QCOMPARE(field->selectedText(), QStringLiteral("--bogus"));
        settings->close();
        window->grab().save(dir_->filePath(QStringLiteral("failed.png")));
        const QString shot = qEnvironmentVariable("TETHER_SCREENSHOT_DIR");
        if (!shot.isEmpty()) window->grab().save(shot + QStringLiteral("/failed-cause.png"));

        // Copy diagnostics: the report, with the cause, on the clipboard.
        QAction *copy = menuAction(QStringLiteral("Copy diagnostics"));
        QApplication::clipboard()->clear();
        copy->trigger();
        const QString report = QApplication::clipboard()->text();
        QVERIFY2(report.startsWith(QStringLiteral("Tether diagnostics")), qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("failed: the service stopped at once: ") + line),
                 qPrintable(report));
        QCOMPARE(status().restarts, 0); // still none: nothing retried it meanwhile

        // Try again from the window: it runs again (and fails again, the same way).
        QPushButton *again = button(window, "tryAgain");
        QVERIFY(again && again->isEnabled());
        again->click();
        QTRY_VERIFY_WITH_TIMEOUT(status().state != State::Failed, kLong);
        QTRY_VERIFY(!panel->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Failed, kLong);
        QTRY_VERIFY(panel->isVisible());
        QVERIFY(panel->causeText().contains(line));
    }

    void aHeldPortOffersAFreeOneInOneClick() {
        QTcpServer foreign; // a real program on the port that is not the service
        QVERIFY(foreign.listen(QHostAddress::LocalHost, 0));
        start(foreign.serverPort(), QString());
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Failed, kLong);
        const quint16 offered = status().failure.freePort;
        QVERIFY(offered != 0 && offered != foreign.serverPort());
        QVERIFY2(status().failure.cause.startsWith(
                     QStringLiteral("port %1 is held by ").arg(foreign.serverPort())),
                 qPrintable(status().failure.cause));

        tray_->showStatusWindow();
        ui::FailurePanel *panel = statusWindow()->failurePanel();
        QTRY_VERIFY(panel->isVisible());
        QPushButton *use = button(statusWindow(), "useFreePort");
        QVERIFY(use && use->isVisible());
        QCOMPARE(use->text(), QStringLiteral("Use a &free port (%1)").arg(offered));
        QAction *item = menuAction(QStringLiteral("Use a free port"));
        QVERIFY(item && item->isVisible());
        QCOMPARE(item->text(), use->text());
        const QString shot = qEnvironmentVariable("TETHER_SCREENSHOT_DIR");
        if (!shot.isEmpty()) statusWindow()->grab().save(shot + QStringLiteral("/port-held.png"));

        item->trigger(); // one click: the setting is written, the service starts there
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Healthy, kLong);
        QCOMPARE(status().port, offered);
        QCOMPARE(
            QSettings(ini_, QSettings::IniFormat).value(QStringLiteral("service/port")).toInt(),
            int(offered));
        QVERIFY(foreign.isListening()); // the other program was left alone
        QTRY_VERIFY(!statusWindow() || !statusWindow()->failurePanel()->isVisible());
    }

    // Issue 27 (2): the icon's set follows the panel, and is drawn again when the desktop's
    // theme changes (it changed only with the state).
    void theIconFollowsTheDesktopsTheme() {
        // Probes a minute apart: no change of the service's redraws the icon meanwhile.
        start(test::freeLoopbackPort(), QString(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(status().state == State::Healthy, kLong);
        QTRY_VERIFY(tray_->iconKeyShown().startsWith(QStringLiteral("healthy@light")));
        // Nothing of the service's reaches the tray meanwhile: only the theme's change can.
        const QSignalBlocker quiet(runtime_.get());
        const QPalette before = QApplication::palette();
        QPalette dark = before;
        dark.setColor(QPalette::Window, QColor(0x20, 0x21, 0x24));
        dark.setColor(QPalette::WindowText, Qt::white);
        QApplication::setPalette(dark); // what a desktop's switch to dark does
        QTRY_VERIFY2(tray_->iconKeyShown().startsWith(QStringLiteral("healthy@dark")),
                     qPrintable(tray_->iconKeyShown()));
        QApplication::setPalette(before);
        QTRY_VERIFY(tray_->iconKeyShown().startsWith(QStringLiteral("healthy@light")));
    }

    // Issue 27 (2): starting moves briefly (its arch is drawn); not when the desktop asks for
    // less motion.
    void startingMovesUnlessLessMotionIsAsked() {
        for (const char *reduced : {"0", "1"}) {
            qputenv("TETHER_REDUCED_MOTION", reduced);
            start(test::freeLoopbackPort(), QStringLiteral("--slow-start 3000"));
            QTRY_VERIFY(status().state == State::Starting);
            QTRY_VERIFY(tray_->iconKeyShown().startsWith(QStringLiteral("starting")));
            const bool moving = tray_->iconKeyShown().endsWith(QStringLiteral("~moving"));
            QVERIFY2(moving == (QByteArray(reduced) == "0"), qPrintable(tray_->iconKeyShown()));
            cleanup();
            init();
        }
        qunsetenv("TETHER_REDUCED_MOTION");
    }

    void theModelOffersNothingWhenNotFailed() {
        ServiceStatus st;
        st.state = State::Healthy;
        st.failure.cause = QStringLiteral("stale");
        st.failure.freePort = 4100;
        st.failure.portHeld = true;
        st.failure.fix = policy::FixFirst::Arguments;
        const TrayMenuModel m = trayMenuModel(st, QDateTime::currentDateTime());
        QVERIFY(m.thirdLine.isEmpty());
        QVERIFY(!m.showTryAgain);
        QVERIFY(!m.showShowLog);
        QVERIFY(m.useFreePortLabel.isEmpty());
        QVERIFY(m.fixLabel.isEmpty());
        st.state = State::Failed;
        st.failure.logPath = QStringLiteral("/x/service.log");
        const TrayMenuModel f = trayMenuModel(st, QDateTime::currentDateTime());
        QCOMPARE(f.useFreePortLabel, QStringLiteral("Use a &free port (4100)"));
        QVERIFY(f.showTryAgain && f.showShowLog);
        QVERIFY(f != m);
    }
};

QTEST_MAIN(TestFailedCause)
#include "tst_failed_cause.moc"
