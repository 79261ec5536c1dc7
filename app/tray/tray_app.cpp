#include "tray/tray_app.h"

#include "settings/autostart.h"
#include "settings/storage.h"
#include "shell/runtime.h"
#include "tray/menu_status.h"
#include "tray/tray_click.h"
#include "tray/tray_menu_model.h"
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
#include <QWidgetAction>

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

} // namespace

TrayApp::TrayApp(Runtime *runtime, bool autostart, QObject *parent)
    : QObject(parent)
    , runtime_(runtime)
    , autostart_(autostart) {
    clock_.start();
    // Every window that sets none of its own (About among them) shows Tether's icon.
    QApplication::setWindowIcon(ui::appIcon());
    buildMenu();
    icon_.setContextMenu(&menu_);
    connect(&icon_, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason r) {
        if (trayClickAction(currentTrayPlatform(), r) == TrayClick::OpenStatusWindow)
            showStatusWindow();
    });
    connect(runtime_, &Runtime::statusChanged, this, &TrayApp::refresh);
    connect(runtime_, &Runtime::notice, this, &TrayApp::onNotice);
    connect(runtime_, &Runtime::showRequested, this, [this] { showStatusWindow(); });
    // Uptime, the countdowns ("replaced in 18 s") and a tool call's "for 12 s" move even when
    // the state does not. Every answered probe refreshes already (statusChanged); the tick
    // runs each second only while something counts seconds, else each minute (uptime shows
    // minutes after the first): a 5 s tick was 12 wake-ups a minute. refresh() picks.
    tick_ = new QTimer(this);
    connect(tick_, &QTimer::timeout, this, &TrayApp::refresh);
    tick_->start(60000);
    refresh();
}

TrayApp::~TrayApp() {
    delete statusWindow_;
    delete orphanDialog_;
    delete settingsDialog_;
}

void TrayApp::buildMenu() {
    // The status lines in normal text at a width that does not change with the state.
    statusWidget_ = new MenuStatusWidget;
    auto *statusAction = new QWidgetAction(&menu_);
    statusAction->setDefaultWidget(statusWidget_);
    menu_.addAction(statusAction);
    open_ = menu_.addAction(tr("Open in browser"), this, [this] {
        QDesktopServices::openUrl(QUrl(runtime_->supervisor()->status().url));
    });
    tryAgain_ = menu_.addAction(tr("Try again"), this, [this] { runtime_->supervisor()->start(); });
    useFreePort_ = menu_.addAction(QString(), this, &TrayApp::useFreePort);
    showLog_ = menu_.addAction(tr("Show log"), this, &TrayApp::showLog);
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
    // MCP servers over their limit are listed here, in front of the submenu (refreshMcpMenu).
    mcpMenu_ = menu_.addMenu(tr("MCP servers"));
    orphans_ = menu_.addAction(QString(), this, &TrayApp::showOrphanDialog);
    menu_.addSeparator();
    menu_.addAction(tr("Status window"), this, [this] { showStatusWindow(); });
    menu_.addAction(tr("Open logs folder"), this,
                    [] { QDesktopServices::openUrl(QUrl::fromLocalFile(storage::logsDir())); });
    menu_.addAction(tr("Copy diagnostics"), this, &TrayApp::copyDiagnostics);
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
    return ui::confirmInterruption(nullptr, action, question);
}

void TrayApp::refresh() {
    const ServiceStatus &st = runtime_->supervisor()->status();
    const TrayMenuModel m = trayMenuModel(st, QDateTime::currentDateTime());
    const bool countsSeconds =
        st.replaceAt.isValid() || st.restartAt.isValid() || !st.activity.runningTools.isEmpty();
    if (const int every = countsSeconds ? 1000 : 60000; tick_ && tick_->interval() != every)
        tick_->start(every);
    // Most refreshes (a probe answered, the 1 s tick) change nothing a person sees: skip the
    // menu and tooltip then.
    if (!modelShown_ || m != shownModel_) {
        statusWidget_->setModel(m, stateColor(st.state, menu_.palette()));
        open_->setEnabled(m.openEnabled);
        start_->setEnabled(m.startEnabled);
        stop_->setEnabled(m.stopEnabled);
        restart_->setEnabled(m.restartEnabled);
        restart_->setText(m.restartLabel);
        orphans_->setVisible(m.orphanCount > 0);
        orphans_->setText(m.orphanLabel);
        statusWidget_->setToolTip(st.failure.cause); // the whole cause; the menu line is cut
        tryAgain_->setVisible(m.tryAgainEnabled);
        showLog_->setVisible(m.showLogEnabled);
        useFreePort_->setText(m.useFreePortLabel);
        useFreePort_->setVisible(!m.useFreePortLabel.isEmpty());
        icon_.setToolTip(m.tooltip);
        refreshMcpMenu(m);
        shownModel_ = m;
        modelShown_ = true;
    }

    IconFlags flags;
    flags.orphans = !st.orphans.isEmpty();
    flags.orphanCount = int(st.orphans.size());
    flags.versionMismatch = st.versionMismatch;
    flags.mcpAttention = m.mcpFlaggedCount > 0;
    flags.working = st.activity.busySessions > 0 || !st.activity.runningTools.isEmpty();
    if (!iconSet_ || st.state != iconState_ || flags != iconFlags_) {
        icon_.setIcon(stateIcon(st.state, flags, QApplication::palette()));
        if (statusWindow_) statusWindow_->setWindowIcon(icon_.icon()); // the state, as the tray
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
                      row.actionLabel + row.attentionLabel;
    mcpMenu_->setTitle(m.mcpMenuTitle);
    if (labels.isEmpty()) labels << m.mcpEmptyText;
    if (labels == mcpLabels_) return;
    mcpLabels_ = labels;
    mcpMenu_->clear();
    for (QAction *a : std::as_const(mcpAttention_))
        delete a;
    mcpAttention_.clear();
    if (m.mcpRows.isEmpty()) {
        mcpMenu_->addAction(m.mcpEmptyText)->setEnabled(false);
        return;
    }
    for (const McpMenuRow &row : m.mcpRows) {
        const QString name = row.name;
        // One action per server (disconnect + connect: a fresh process, the service untouched),
        // named "Restart" when it is over its limit.
        const auto act = [this, name] { runtime_->reconnectMcp(name); };
        QMenu *sub = mcpMenu_->addMenu(row.label);
        if (row.flagged) sub->addAction(row.flagReason)->setEnabled(false);
        sub->addAction(row.actionLabel, this, act)->setEnabled(row.reconnectEnabled);
        if (row.attentionLabel.isEmpty()) continue;
        // Over its limit: in the menu itself, not only two submenus down.
        auto *top = new QAction(row.attentionLabel, &menu_);
        top->setToolTip(row.flagReason);
        connect(top, &QAction::triggered, this, act);
        top->setEnabled(row.reconnectEnabled);
        menu_.insertAction(mcpMenu_->menuAction(), top);
        mcpAttention_.append(top);
    }
}

void TrayApp::onNotice(policy::NoticeKind kind, const QString &message) {
    if (!runtime_->settings().settings.notifications || !icon_.isVisible() ||
        !policy::mayNotify(noticeHistory_, kind) || !limiter_.allow(kind, clock_.elapsed()))
        return;
    noticeHistory_ = policy::afterShown(noticeHistory_, kind);
    const QString title =
        QString::fromStdString(policy::noticeTitle(kind, runtime_->supervisor()->status().profile));
    icon_.showMessage(title, message, iconFor(kind), 8000);
}

void TrayApp::maybeOfferOrphans() {
    const ServiceStatus &st = runtime_->supervisor()->status();
    if (orphansOffered_ || st.orphans.isEmpty() || clock_.elapsed() > kLaunchPhaseMs) return;
    orphansOffered_ = true;
    if (runtime_->settings().settings.orphansOnLaunch != policy::OrphanMode::Ask) return;
    onNotice(policy::NoticeKind::OrphansFound,
             tr("%1 from an earlier service still running.")
                 .arg(QString::fromStdString(
                     policy::countOf(st.orphans.size(), "MCP process is", "MCP processes are"))));
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
        statusWindow_->setWindowIcon(icon_.icon());
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
        ui::FailurePanel *failure = statusWindow_->failurePanel();
        connect(failure, &ui::FailurePanel::tryAgainRequested, this,
                [this] { runtime_->supervisor()->start(); });
        connect(failure, &ui::FailurePanel::showLogRequested, this, &TrayApp::showLog);
        connect(failure, &ui::FailurePanel::useFreePortRequested, this, &TrayApp::useFreePort);
    }
    if (!why.isEmpty()) statusWindow_->setNotice(why);
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
    if (!runtime_->useFreePort(port, &error))
        QMessageBox::warning(nullptr, tr("Use a free port"), error);
}

void TrayApp::copyDiagnostics() {
    QApplication::clipboard()->setText(runtime_->diagnostics());
    if (icon_.isVisible())
        icon_.showMessage(QStringLiteral("Tether"),
                          tr("Diagnostics copied: paste them into your bug report. Passwords "
                             "and tokens are removed."),
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
