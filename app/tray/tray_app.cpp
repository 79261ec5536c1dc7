#include "tray/tray_app.h"

#include "settings/autostart.h"
#include "settings/storage.h"
#include "shell/runtime.h"
#include "tray/tray_menu_model.h"
#include "ui/orphan_dialog.h"
#include "ui/settings_dialog.h"
#include "ui/status_window.h"

#include <QApplication>
#include <QDesktopServices>
#include <QMessageBox>
#include <QUrl>

namespace tether {

namespace {

constexpr qint64 kLaunchPhaseMs = 60000; // orphans found this soon after launch are "on launch"
constexpr int kTrayPollMs = 500;

ui::UiModel modelOf(Runtime *runtime) {
    ui::UiModel m;
    m.status = [runtime]() -> const ServiceStatus & { return runtime->supervisor()->status(); };
    m.health = [runtime]() -> const HealthHistory & { return runtime->healthHistory(); };
    m.events = [runtime]() -> const QStringList & { return runtime->eventLog(); };
    return m;
}

QSystemTrayIcon::MessageIcon iconFor(policy::NoticeKind kind) {
    switch (kind) {
    case policy::NoticeKind::GaveUp:
    case policy::NoticeKind::PortHeld:
    case policy::NoticeKind::Crashed:
        return QSystemTrayIcon::Critical;
    case policy::NoticeKind::VersionMismatch:
    case policy::NoticeKind::OrphansFound:
    case policy::NoticeKind::Stale:
    case policy::NoticeKind::McpResources:
    case policy::NoticeKind::Interrupted:
        return QSystemTrayIcon::Warning;
    case policy::NoticeKind::Restarted:
    case policy::NoticeKind::Recovered:
        break;
    }
    return QSystemTrayIcon::Information;
}

} // namespace

TrayApp::TrayApp(Runtime *runtime, bool autostart, QObject *parent)
    : QObject(parent)
    , runtime_(runtime)
    , autostart_(autostart) {
    clock_.start();
    buildMenu();
    icon_.setContextMenu(&menu_);
    connect(&icon_, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason r) {
        if (r == QSystemTrayIcon::Trigger || r == QSystemTrayIcon::DoubleClick) showStatusWindow();
    });
    connect(runtime_, &Runtime::statusChanged, this, &TrayApp::refresh);
    connect(runtime_, &Runtime::notice, this, &TrayApp::onNotice);
    connect(runtime_, &Runtime::showRequested, this, [this] { showStatusWindow(); });
    // Uptime in the status line and tooltip moves even when the state does not. Every answered
    // probe refreshes it already (statusChanged); the tick is for slow probe settings, and
    // uptime is shown in minutes after the first one: a 5 s tick was 12 wake-ups a minute.
    auto *tick = new QTimer(this);
    connect(tick, &QTimer::timeout, this, &TrayApp::refresh);
    tick->start(60000);
    refresh();
}

TrayApp::~TrayApp() {
    delete statusWindow_;
    delete orphanDialog_;
    delete settingsDialog_;
}

void TrayApp::buildMenu() {
    statusLine_ = menu_.addAction(QString());
    statusLine_->setEnabled(false);
    activityLine_ = menu_.addAction(QString());
    activityLine_->setEnabled(false);
    activityLine_->setVisible(false);
    open_ = menu_.addAction(tr("Open in browser"), this, [this] {
        QDesktopServices::openUrl(QUrl(runtime_->supervisor()->status().url));
    });
    menu_.addSeparator();
    // Through runtime_->supervisor() at call time: applySettings may replace the Supervisor.
    start_ = menu_.addAction(tr("Start"), this, [this] { runtime_->supervisor()->start(); });
    stop_ = menu_.addAction(tr("Stop"), this, [this] {
        if (consents(tr("Stop"))) runtime_->supervisor()->stop();
    });
    restart_ = menu_.addAction(tr("Restart"), this, [this] {
        if (consents(tr("Restart"))) runtime_->supervisor()->restart();
    });
    menu_.addSeparator();
    mcpMenu_ = menu_.addMenu(tr("MCP servers"));
    orphans_ = menu_.addAction(QString(), this, &TrayApp::showOrphanDialog);
    menu_.addSeparator();
    menu_.addAction(tr("Status window"), this, [this] { showStatusWindow(); });
    menu_.addAction(tr("Open logs folder"), this,
                    [] { QDesktopServices::openUrl(QUrl::fromLocalFile(storage::logsDir())); });
    menu_.addAction(tr("Settings..."), this, &TrayApp::showSettings);
    QAction *login = menu_.addAction(tr("Start at login"));
    login->setCheckable(true);
    // The OS holds the truth (Run key, LaunchAgent, XDG autostart file): read it back whenever
    // the menu opens and after each change, never from a flag of our own.
    const auto showLogin = [login] {
        const LoginMenuItem item = loginMenuItem(platformAutostart()->status());
        login->setText(item.text);
        login->setChecked(item.checked);
        login->setEnabled(item.enabled);
        login->setToolTip(item.toolTip);
    };
    showLogin();
    connect(&menu_, &QMenu::aboutToShow, this, showLogin);
    connect(login, &QAction::triggered, this, [showLogin](bool on) {
        QString error;
        const auto autostart = platformAutostart();
        if (!(on ? autostart->enable(&error) : autostart->disable(&error)))
            QMessageBox::warning(nullptr, tr("Start at login"), error);
        showLogin();
    });
    menu_.setToolTipsVisible(true);
    menu_.addSeparator();
    menu_.addAction(tr("About Tether"), this, [] {
        QMessageBox::about(
            nullptr, tr("About Tether"),
            tr("<b>Tether %1</b><p>Keeps a local AI-agent service and its MCP servers "
               "alive, without killing a service that is only busy.</p>")
                .arg(QCoreApplication::applicationVersion()));
    });
    menu_.addAction(tr("Quit"), this, [this] {
        // Quit leaves the service running unless [app] stopServiceOnQuit: only a stop asks.
        if (!runtime_->settings().settings.stopServiceOnQuit || consents(tr("Quit and stop")))
            QApplication::quit();
    });
}

bool TrayApp::consents(const QString &action) {
    const QString question = consentQuestion(runtime_->supervisor()->status(), action);
    if (question.isEmpty()) return true;
    return QMessageBox::question(nullptr, tr("Interrupt running tool calls?"), question,
                                 QMessageBox::Yes | QMessageBox::Cancel,
                                 QMessageBox::Cancel) == QMessageBox::Yes;
}

void TrayApp::refresh() {
    const ServiceStatus &st = runtime_->supervisor()->status();
    const TrayMenuModel m = trayMenuModel(st, QDateTime::currentDateTime());
    // Most refreshes (a probe answered, the 5 s tick) change nothing a person sees: skip the
    // menu and tooltip then.
    if (!modelShown_ || m != shownModel_) {
        statusLine_->setText(m.statusLine);
        activityLine_->setText(m.activityLine);
        activityLine_->setVisible(!m.activityLine.isEmpty());
        open_->setEnabled(m.openEnabled);
        start_->setEnabled(m.startEnabled);
        stop_->setEnabled(m.stopEnabled);
        restart_->setEnabled(m.restartEnabled);
        restart_->setText(m.restartLabel);
        orphans_->setVisible(m.orphanCount > 0);
        orphans_->setText(m.orphanLabel);
        icon_.setToolTip(m.tooltip);
        refreshMcpMenu(m);
        shownModel_ = m;
        modelShown_ = true;
    }

    const IconFlags flags{!st.orphans.isEmpty(), st.versionMismatch,
                          st.activity.busySessions > 0 || !st.activity.runningTools.isEmpty()};
    if (!iconSet_ || st.state != iconState_ || flags.orphans != iconFlags_.orphans ||
        flags.versionMismatch != iconFlags_.versionMismatch ||
        flags.working != iconFlags_.working) {
        icon_.setIcon(stateIcon(st.state, flags, QApplication::palette()));
        iconSet_ = true;
        iconState_ = st.state;
        iconFlags_ = flags;
    }
    if (statusWindow_) statusWindow_->refresh();
    if (orphanDialog_) orphanDialog_->setOrphans(st.orphans);
    maybeOfferOrphans();
}

void TrayApp::refreshMcpMenu(const TrayMenuModel &m) {
    QStringList labels;
    for (const McpMenuRow &row : m.mcpRows)
        labels << row.label + (row.reconnectEnabled ? QStringLiteral("+") : QStringLiteral("-")) +
                      row.flagReason;
    mcpMenu_->setTitle(m.mcpMenuTitle);
    if (labels.isEmpty()) labels << m.mcpEmptyText;
    if (labels == mcpLabels_) return;
    mcpLabels_ = labels;
    mcpMenu_->clear();
    if (m.mcpRows.isEmpty()) {
        mcpMenu_->addAction(m.mcpEmptyText)->setEnabled(false);
        return;
    }
    for (const McpMenuRow &row : m.mcpRows) {
        QMenu *sub = mcpMenu_->addMenu(row.label);
        const QString name = row.name;
        sub->addAction(tr("Reconnect"), this, [this, name] { runtime_->reconnectMcp(name); })
            ->setEnabled(row.reconnectEnabled);
        if (row.flagged) {
            // Disconnect + connect through the service: a fresh process, the service untouched.
            sub->addSeparator();
            sub->addAction(row.flagReason)->setEnabled(false);
            sub->addAction(tr("Restart this MCP server"), this,
                           [this, name] { runtime_->reconnectMcp(name); })
                ->setEnabled(row.reconnectEnabled);
        }
    }
}

void TrayApp::onNotice(policy::NoticeKind kind, const QString &message) {
    if (!runtime_->settings().settings.notifications || !limiter_.allow(kind, clock_.elapsed()))
        return;
    if (icon_.isVisible())
        icon_.showMessage(QStringLiteral("Tether"), message, iconFor(kind), 8000);
}

void TrayApp::maybeOfferOrphans() {
    const ServiceStatus &st = runtime_->supervisor()->status();
    if (orphansOffered_ || st.orphans.isEmpty() || clock_.elapsed() > kLaunchPhaseMs) return;
    orphansOffered_ = true;
    if (runtime_->settings().settings.orphansOnLaunch != policy::OrphanMode::Ask) return;
    onNotice(policy::NoticeKind::OrphansFound,
             tr("%1 orphaned MCP process(es) from an earlier service are still running.")
                 .arg(st.orphans.size()));
    showOrphanDialog();
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
            showStatusWindow(tr("No system tray is available, so Tether shows this window instead. "
                                "Closing it keeps Tether running; `tether` again reopens it."));
        }
    });
    trayWait_.start();
}

void TrayApp::showStatusWindow(const QString &why) {
    if (!statusWindow_) {
        statusWindow_ = new ui::StatusWindow(modelOf(runtime_));
        statusWindow_->setAttribute(Qt::WA_DeleteOnClose);
        statusWindow_->setWindowIcon(
            stateIcon(policy::State::Healthy, {}, QApplication::palette()));
        connect(runtime_, &Runtime::eventLogged, statusWindow_, &ui::StatusWindow::appendEvent);
        connect(runtime_, &Runtime::healthChanged, statusWindow_, &ui::StatusWindow::refresh);
        connect(statusWindow_, &ui::StatusWindow::startRequested, this,
                [this] { runtime_->supervisor()->start(); });
        connect(statusWindow_, &ui::StatusWindow::stopRequested, this, [this] {
            if (consents(tr("Stop"))) runtime_->supervisor()->stop();
        });
        connect(statusWindow_, &ui::StatusWindow::restartRequested, this, [this] {
            if (consents(tr("Restart"))) runtime_->supervisor()->restart();
        });
        connect(statusWindow_, &ui::StatusWindow::openRequested, this,
                [this] { QDesktopServices::openUrl(QUrl(runtime_->supervisor()->status().url)); });
        connect(statusWindow_, &ui::StatusWindow::cleanupRequested, this,
                &TrayApp::showOrphanDialog);
        connect(statusWindow_, &ui::StatusWindow::reconnectRequested, this,
                [this](const QString &name) { runtime_->reconnectMcp(name); });
    }
    if (!why.isEmpty()) statusWindow_->setNotice(why);
    statusWindow_->show();
    statusWindow_->raise();
    statusWindow_->activateWindow();
}

void TrayApp::showOrphanDialog() {
    if (!orphanDialog_) {
        orphanDialog_ = new ui::OrphanDialog;
        orphanDialog_->setAttribute(Qt::WA_DeleteOnClose);
        connect(orphanDialog_, &ui::OrphanDialog::cleanupRequested, this,
                [this](const QList<qint64> &pids) { runtime_->cleanupOrphans(pids, true); });
    }
    orphanDialog_->setOrphans(runtime_->supervisor()->status().orphans);
    orphanDialog_->show();
    orphanDialog_->raise();
}

void TrayApp::showSettings() {
    if (!settingsDialog_) {
        ui::SettingsDialog::Hooks hooks;
        hooks.apply = [this](const Settings &s) { runtime_->applySettings(s); };
        hooks.serviceRunning = [this] { return bool(runtime_->supervisor()->serviceIdentity()); };
        settingsDialog_ =
            new ui::SettingsDialog(runtime_->settings().settings, runtime_->settingsPath(), hooks);
        settingsDialog_->setAttribute(Qt::WA_DeleteOnClose);
    }
    settingsDialog_->show();
    settingsDialog_->raise();
}

} // namespace tether
