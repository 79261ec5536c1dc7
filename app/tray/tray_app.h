// The tray face of a Runtime: the state icon, tooltip, menu and notifications, plus the
// windows they open. Everything is read from the Runtime's model on each change.
#pragma once

#include "policy/state.h"
#include "tray/notice_limiter.h"
#include "tray/tray_icons.h"
#include "tray/tray_menu_model.h"

#include <QElapsedTimer>
#include <QMenu>
#include <QObject>
#include <QPointer>
#include <QSystemTrayIcon>
#include <QTimer>

namespace tether {

class MenuStatusWidget;
class Runtime;
namespace ui {
class OrphanDialog;
class SettingsDialog;
class StatusWindow;
} // namespace ui

class TrayApp : public QObject {
    Q_OBJECT
public:
    TrayApp(Runtime *runtime, bool autostart, QObject *parent = nullptr);
    ~TrayApp() override;
    // Show the icon, or wait for a tray host and fall back to the status window.
    void show();

    void showStatusWindow(const QString &why = QString());
    void showOrphanDialog();
    void showSettings();

private:
    // Asks in the tray before `action` interrupts running tool calls; true when none runs.
    bool consents(const QString &action);
    void buildMenu();
    void showLog();
    void useFreePort();
    void copyDiagnostics();
    void refresh();
    void refreshMcpMenu(const TrayMenuModel &m);
    void onNotice(tether::policy::NoticeKind kind, const QString &message);
    void maybeOfferOrphans();
    void waitForTray();

    Runtime *runtime_;
    bool autostart_;
    QSystemTrayIcon icon_;
    QMenu menu_;
    QMenu *mcpMenu_ = nullptr;
    MenuStatusWidget *statusWidget_ = nullptr; // owned by its QWidgetAction
    QList<QAction *> mcpAttention_;            // top-level rows for flagged MCP servers
    QAction *open_ = nullptr;
    QAction *start_ = nullptr;
    QAction *stop_ = nullptr;
    QAction *restart_ = nullptr;
    QAction *orphans_ = nullptr;
    // Failed: the cause, and what can be done (wired in buildFailureItems).
    QAction *tryAgain_ = nullptr;
    QAction *showLog_ = nullptr;
    QAction *useFreePort_ = nullptr;
    QStringList mcpLabels_;    // what the submenu shows now, to rebuild it only on change
    TrayMenuModel shownModel_; // what the menu and tooltip show now
    bool modelShown_ = false;
    bool iconSet_ = false;
    policy::State iconState_ = policy::State::Stopped;
    IconFlags iconFlags_;

    NoticeLimiter limiter_;
    policy::NoticeHistory noticeHistory_; // a shown crash owes one "running again"
    QElapsedTimer clock_;                 // monotonic, for the limiter and the launch phase
    bool orphansOffered_ = false;
    QTimer trayWait_;
    QTimer *tick_ = nullptr; // each second while something counts seconds, else each minute

    QPointer<ui::StatusWindow> statusWindow_;
    QPointer<ui::OrphanDialog> orphanDialog_;
    QPointer<ui::SettingsDialog> settingsDialog_;
};

} // namespace tether
