#include "tray/tray_app.h"

#include "service/words.h"
#include "settings/storage.h"
#include "shell/runtime.h"
#include "tray/panel_theme.h"
#include "tray/tray_click.h"
#include "tray/tray_menu.h"
#include "ui/about_dialog.h"
#include "ui/app_icon.h"
#include "ui/consent_dialog.h"
#include "ui/failure_panel.h"
#include "ui/orphan_dialog.h"
#include "ui/settings_dialog.h"
#include "ui/status_window.h"

#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QMessageBox>
#include <QUrl>

namespace tether {

namespace {

constexpr int kTrayPollMs = 500;

ui::UiModel modelOf(Runtime *runtime) {
    ui::UiModel m;
    m.status = [runtime]() -> const ServiceStatus & { return runtime->supervisor()->status(); };
    m.health = [runtime]() -> const HealthHistory & { return runtime->healthHistory(); };
    m.events = [runtime]() -> const QStringList & { return runtime->eventLog(); };
    return m;
}

QSystemTrayIcon::MessageIcon iconFor(policy::NoticeKind kind) {
    switch (policy::severityOf(kind)) {
    case policy::NoticeSeverity::Critical:
        return QSystemTrayIcon::Critical;
    case policy::NoticeSeverity::Warning:
        return QSystemTrayIcon::Warning;
    case policy::NoticeSeverity::Information:
        break;
    }
    return QSystemTrayIcon::Information;
}

IconFlags flagsOf(const ServiceStatus &st, const TrayMenuModel &m) {
    IconFlags flags;
    flags.orphans = !st.orphans.isEmpty();
    flags.orphanCount = int(st.orphans.size());
    flags.versionMismatch = st.versionMismatch;
    flags.mcpAttention = m.mcpFlaggedCount > 0;
    flags.working = st.activity.busySessions > 0 || !st.activity.runningTools.isEmpty();
    return flags;
}

} // namespace

TrayApp::TrayApp(Runtime *runtime, bool autostart, QObject *parent)
    : QObject(parent)
    , runtime_(runtime)
    , autostart_(autostart) {
    clock_.start();
    // Each window sets its own icon (Tether's, or the state's for the status window), and no
    // application-wide one: on X11 the tray icon's own embedded window would take it and decode
    // all eight renditions at start, for nothing a person sees (issue 28).
    menu_ = new TrayMenu(this);
    wireMenu();
    icon_.setContextMenu(menu_->menu());
    connect(&icon_, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason r) {
        if (trayClickAction(currentTrayPlatform(), r) == TrayClick::OpenStatusWindow)
            showStatusWindow();
    });
    // A click on a notification opens what it was about. Without a notification service (X11)
    // Qt shows its own balloon and reports any click on the icon while it shows as a click on
    // it too, after opening the menu for a right click: the menu a person asked for wins, or the
    // status window covered it (issue 27).
    connect(&icon_, &QSystemTrayIcon::messageClicked, this, [this] {
        if (menu_->menu()->isVisible()) return;
        showStatusWindow(lastShown_.target);
    });
    connect(runtime_, &Runtime::statusChanged, this, &TrayApp::refresh);
    // After the change that caused it is in the status: the notification quotes the status.
    connect(runtime_, &Runtime::notice, this, &TrayApp::onNotice, Qt::QueuedConnection);
    connect(runtime_, &Runtime::showRequested, this, [this] { showStatusWindow(); });
    noticeWake_.setSingleShot(true);
    connect(&noticeWake_, &QTimer::timeout, this,
            [this] { present(policy::onNoticeTimer(noticeHistory_, clock_.elapsed())); });
    animation_.setInterval(kAnimationFrameMs);
    connect(&animation_, &QTimer::timeout, this, &TrayApp::animate);
    // The panel's set follows the desktop's theme, not only the state (eventFilter).
    qApp->installEventFilter(this);
    // Uptime, the countdowns ("replaced in 18 s") and a tool call's "(3 min)" move even when the
    // state does not. Every answered probe refreshes already (statusChanged); the tick runs each
    // second only while a countdown counts seconds, else each minute. refresh() picks.
    tick_ = new QTimer(this);
    connect(tick_, &QTimer::timeout, this, &TrayApp::refresh);
    tick_->start(60000);
    // What the menu shows is as of its opening, not of the last tick.
    connect(menu_->menu(), &QMenu::aboutToShow, this, &TrayApp::refresh);
    refresh();
}

TrayApp::~TrayApp() {
    qApp->removeEventFilter(this);
    delete statusWindow_;
    delete orphanDialog_;
    delete settingsDialog_;
    delete aboutDialog_;
}

void TrayApp::wireMenu() {
    // Through runtime_->supervisor(): the one Supervisor, which lives as long as Tether.
    connect(menu_, &TrayMenu::openRequested, this,
            [this] { QDesktopServices::openUrl(QUrl(runtime_->supervisor()->status().url)); });
    connect(menu_, &TrayMenu::startRequested, this, [this] { runtime_->supervisor()->start(); });
    connect(menu_, &TrayMenu::tryAgainRequested, this, [this] { runtime_->supervisor()->start(); });
    connect(menu_, &TrayMenu::stopRequested, this, [this] {
        if (consents(policy::PersonAction::Stop, Words::tr("Stop"))) runtime_->supervisor()->stop();
    });
    connect(menu_, &TrayMenu::restartRequested, this, [this] {
        if (consents(policy::PersonAction::Restart, Words::tr("Restart")))
            runtime_->supervisor()->restart();
    });
    connect(menu_, &TrayMenu::fixRequested, this,
            [this](const QString &key) { showSettings(key); });
    connect(menu_, &TrayMenu::useFreePortRequested, this, &TrayApp::useFreePort);
    connect(menu_, &TrayMenu::showLogRequested, this, &TrayApp::showLog);
    connect(menu_, &TrayMenu::mcpActionRequested, this,
            [this](const QString &name) { runtime_->reconnectMcp(name); });
    connect(menu_, &TrayMenu::cleanupRequested, this, &TrayApp::showOrphanDialog);
    connect(menu_, &TrayMenu::statusWindowRequested, this, [this] { showStatusWindow(); });
    connect(menu_, &TrayMenu::settingsRequested, this, [this] { showSettings(); });
    connect(menu_, &TrayMenu::logsFolderRequested, this,
            [] { QDesktopServices::openUrl(QUrl::fromLocalFile(storage::logsDir())); });
    connect(menu_, &TrayMenu::copyDiagnosticsRequested, this, &TrayApp::copyDiagnostics);
    connect(menu_, &TrayMenu::aboutRequested, this, &TrayApp::showAbout);
    connect(menu_, &TrayMenu::quitRequested, this, [this] {
        // Quit leaves the service running unless [app] stopServiceOnQuit: only a stop asks.
        if (consents(policy::PersonAction::Quit, Words::tr("Quit and stop"))) QApplication::quit();
    });
}

bool TrayApp::consents(policy::PersonAction what, const QString &action) {
    if (!runtime_->needsConsent(what)) return true;
    const QString question = consentQuestion(runtime_->supervisor()->status(), action);
    if (!ui::confirmInterruption(nullptr, action, question)) return false;
    // They said yes: no notification tells them back what they just chose.
    noticeHistory_ = policy::onConfirmedInterruption(noticeHistory_, clock_.elapsed());
    return true;
}

void TrayApp::refresh() {
    const ServiceStatus &st = runtime_->supervisor()->status();
    const TrayMenuModel m = trayMenuModel(st, QDateTime::currentDateTime());
    // Only a countdown counts seconds here: a tool call's time is said in minutes (issue 28: a
    // tick a second for it cost 7x the idle CPU).
    const bool countsSeconds =
        st.replaceAt.isValid() || st.restartAt.isValid() || st.startupDeadlineAt.isValid();
    if (const int every = countsSeconds ? 1000 : 60000; tick_ && tick_->interval() != every)
        tick_->start(every);
    // Most refreshes (a probe answered, the 1 s tick) change nothing a person sees: skip the
    // menu and tooltip then.
    if (!modelShown_ || m != shownModel_) {
        menu_->setModel(m, stateColor(st.state, menu_->menu()->palette()));
        icon_.setToolTip(m.tooltip);
        shownModel_ = m;
        modelShown_ = true;
    }
    refreshIcon(false);
    if (statusWindow_) statusWindow_->refresh();
    if (orphanDialog_) orphanDialog_->setOrphans(st.orphans);
    maybeOfferOrphans();
}

void TrayApp::refreshIcon(bool force) {
    const ServiceStatus &st = runtime_->supervisor()->status();
    const IconFlags flags = flagsOf(st, shownModel_);
    const Panel panel = panelFor(runtime_->settings().settings.trayIcon, systemPanelIsLight(),
                                 panelOf(QApplication::palette()));
    if (!force && iconSet_ && st.state == iconState_ && flags == iconFlags_ && panel == panel_)
        return;
    const bool moving = animates(st.state, flags) && !reducedMotion();
    const bool began = !iconSet_ || st.state != iconState_ || flags.working != iconFlags_.working;
    iconSet_ = true;
    iconState_ = st.state;
    iconFlags_ = flags;
    panel_ = panel;
    if (moving && began) { // a short animation as it begins; the still picture after it
        animationStart_ = clock_.elapsed();
        animation_.start();
        animate();
    } else if (!moving) {
        animation_.stop();
        animationStart_ = -1;
    }
    if (animationStart_ < 0) icon_.setIcon(stateIcon(st.state, flags, panel));
    if (statusWindow_) statusWindow_->setWindowIcon(stateIcon(st.state, flags, panel));
}

void TrayApp::animate() {
    const qint64 ran = clock_.elapsed() - animationStart_;
    if (animationStart_ < 0 || ran >= kAnimationMs) {
        animation_.stop();
        animationStart_ = -1;
        icon_.setIcon(stateIcon(iconState_, iconFlags_, panel_));
        return;
    }
    constexpr qint64 kCycleMs = 1000;
    const qreal phase = qreal(ran % kCycleMs) / kCycleMs;
    icon_.setIcon(stateIcon(iconState_, iconFlags_, panel_, phase));
}

QString TrayApp::iconKeyShown() const {
    return iconKey(iconState_, iconFlags_) +
           (panel_ == Panel::Dark ? QStringLiteral("@dark") : QStringLiteral("@light")) +
           (animationStart_ >= 0 ? QStringLiteral("~moving") : QString());
}

bool TrayApp::eventFilter(QObject *watched, QEvent *event) {
    // The desktop's theme changed (on Windows the taskbar's too): the icon's set may change.
    if (watched == qApp &&
        (event->type() == QEvent::ApplicationPaletteChange || event->type() == QEvent::ThemeChange))
        QTimer::singleShot(0, this, [this] {
            if (modelShown_)
                menu_->setModel(shownModel_, stateColor(iconState_, menu_->menu()->palette()));
            refreshIcon(false);
        });
    return QObject::eventFilter(watched, event);
}

void TrayApp::onNotice(policy::NoticeKind kind) {
    // Orphans found at launch bring their dialog, which is notice enough (maybeOfferOrphans).
    if (kind == policy::NoticeKind::OrphansFound) maybeOfferOrphans();
    if (kind == policy::NoticeKind::OrphansFound && orphanDialog_ && orphanDialog_->isVisible())
        return;
    present(policy::onNotice(noticeHistory_, kind, clock_.elapsed()));
}

void TrayApp::present(const policy::NoticeStep &step) {
    noticeHistory_ = step.history;
    if (step.wakeAt) noticeWake_.start(int(qMax<qint64>(0, *step.wakeAt - clock_.elapsed())));
    if (!step.show) return;
    if (!runtime_->settings().settings.notifications || !icon_.isVisible() ||
        !limiter_.allow(*step.show, clock_.elapsed()))
        return;
    lastShown_ = notificationFor(*step.show, runtime_->supervisor()->status(), step.afterCrash,
                                 step.cutShort);
    icon_.showMessage(lastShown_.title, lastShown_.text, iconFor(*step.show), 10000);
}

void TrayApp::maybeOfferOrphans() {
    if (runtime_->supervisor()->status().orphans.isEmpty()) return;
    if (!runtime_->mcpMonitor()->takeLaunchOffer()) return;
    showOrphanDialog(); // the dialog is the notice: no balloon beside it
}

void TrayApp::show() {
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        icon_.show();
        return;
    }
    // Desktops start their tray host late at login: wait for it a while, longer at autostart.
    const qint64 deadline = clock_.elapsed() + (autostart_ ? 120000 : 30000);
    trayWait_.setInterval(kTrayPollMs);
    connect(&trayWait_, &QTimer::timeout, this, [this, deadline] {
        if (QSystemTrayIcon::isSystemTrayAvailable()) {
            trayWait_.stop();
            icon_.show();
        } else if (clock_.elapsed() > deadline && !statusWindow_) {
            // Keep polling: a tray host that appears later still gets the icon.
            showStatusWindow(NoticeTarget::Status,
                             Words::tr("No system tray is available, so Tether shows this window "
                                       "instead. Closing it keeps Tether running; starting "
                                       "Tether again reopens it."));
        }
    });
    trayWait_.start();
}

void TrayApp::showStatusWindow(NoticeTarget at, const QString &why) {
    if (!statusWindow_) {
        statusWindow_ = new ui::StatusWindow(modelOf(runtime_));
        statusWindow_->setAttribute(Qt::WA_DeleteOnClose);
        statusWindow_->setWindowIcon(icon_.icon());
        connect(runtime_, &Runtime::eventLogged, statusWindow_, &ui::StatusWindow::appendEvent);
        connect(runtime_, &Runtime::healthChanged, statusWindow_, &ui::StatusWindow::refresh);
        connect(statusWindow_, &ui::StatusWindow::startRequested, this,
                [this] { runtime_->supervisor()->start(); });
        connect(statusWindow_, &ui::StatusWindow::stopRequested, this, [this] {
            if (consents(policy::PersonAction::Stop, Words::tr("Stop")))
                runtime_->supervisor()->stop();
        });
        connect(statusWindow_, &ui::StatusWindow::restartRequested, this, [this] {
            if (consents(policy::PersonAction::Restart, Words::tr("Restart")))
                runtime_->supervisor()->restart();
        });
        connect(statusWindow_, &ui::StatusWindow::openRequested, this,
                [this] { QDesktopServices::openUrl(QUrl(runtime_->supervisor()->status().url)); });
        connect(statusWindow_, &ui::StatusWindow::cleanupRequested, this,
                &TrayApp::showOrphanDialog);
        connect(statusWindow_, &ui::StatusWindow::reconnectRequested, this,
                [this](const QString &name) { runtime_->reconnectMcp(name); });
        ui::FailurePanel *failure = statusWindow_->failurePanel();
        connect(failure, &ui::FailurePanel::tryAgainRequested, this,
                [this] { runtime_->supervisor()->start(); });
        connect(failure, &ui::FailurePanel::showLogRequested, this, &TrayApp::showLog);
        connect(failure, &ui::FailurePanel::useFreePortRequested, this, &TrayApp::useFreePort);
        connect(failure, &ui::FailurePanel::fixRequested, this,
                [this](const QString &key) { showSettings(key); });
    }
    if (!why.isEmpty()) statusWindow_->setNotice(why);
    if (at == NoticeTarget::Orphans && !runtime_->supervisor()->status().orphans.isEmpty()) {
        showOrphanDialog();
        return;
    }
    statusWindow_->showAt(at);
    statusWindow_->show();
    statusWindow_->raise();
    statusWindow_->activateWindow();
}

void TrayApp::showLog() {
    const QString path = runtime_->supervisor()->config().serviceLogPath;
    QDesktopServices::openUrl(QUrl::fromLocalFile(path));
}

void TrayApp::useFreePort() {
    const quint16 port = runtime_->supervisor()->status().failure.freePort;
    if (port == 0) return;
    QString error;
    if (runtime_->useFreePort(port, &error)) return;
    QMessageBox box(QMessageBox::Warning, Words::tr("Use a free port"), error);
    box.setWindowIcon(ui::appIcon());
    box.exec();
}

void TrayApp::copyDiagnostics() {
    QApplication::clipboard()->setText(runtime_->diagnostics());
    if (icon_.isVisible())
        icon_.showMessage(Words::tr("Diagnostics copied"),
                          Words::tr("Paste them into your bug report. Passwords and tokens are "
                                    "removed."),
                          QSystemTrayIcon::Information, 5000);
}

void TrayApp::showOrphanDialog() {
    if (!orphanDialog_) {
        orphanDialog_ = new ui::OrphanDialog;
        orphanDialog_->setAttribute(Qt::WA_DeleteOnClose);
        connect(orphanDialog_, &ui::OrphanDialog::cleanupRequested, this,
                [this](const QList<qint64> &pids) {
                    const QPointer<ui::OrphanDialog> dialog = orphanDialog_;
                    runtime_->cleanupOrphans(pids, true, [dialog](const auto &summary) {
                        if (dialog)
                            dialog->showCleanupResult(summary.killed + summary.exitedOnTerm +
                                                          summary.alreadyGone,
                                                      summary.notEnded);
                    });
                });
    }
    orphanDialog_->setOrphans(runtime_->supervisor()->status().orphans);
    orphanDialog_->show();
    orphanDialog_->raise();
    orphanDialog_->activateWindow();
}

void TrayApp::showSettings(const QString &key) {
    if (!settingsDialog_) {
        ui::SettingsDialog::Hooks hooks;
        hooks.apply = [this](const Settings &s) { runtime_->applySettings(s); };
        hooks.serviceRunning = [this] { return bool(runtime_->supervisor()->serviceIdentity()); };
        settingsDialog_ =
            new ui::SettingsDialog(runtime_->settings().settings, runtime_->settingsPath(), hooks);
        settingsDialog_->setAttribute(Qt::WA_DeleteOnClose);
    }
    settingsDialog_->show();
    if (!key.isEmpty()) settingsDialog_->showField(key);
    settingsDialog_->raise();
    settingsDialog_->activateWindow();
}

void TrayApp::showAbout() {
    if (!aboutDialog_) {
        aboutDialog_ = new ui::AboutDialog;
        aboutDialog_->setAttribute(Qt::WA_DeleteOnClose);
    }
    aboutDialog_->show();
    aboutDialog_->raise();
    aboutDialog_->activateWindow();
}

} // namespace tether
