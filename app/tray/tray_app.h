// The tray face of a Runtime: the state icon, tooltip, menu and notifications, plus the
// windows they open. Everything is read from the Runtime's model on each change.
#pragma once

#include "policy/activity.h"
#include "policy/notice.h"
#include "policy/state.h"
#include "tray/notice_limiter.h"
#include "tray/notification.h"
#include "tray/tray_icons.h"
#include "tray/tray_menu_model.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QSystemTrayIcon>
#include <QTimer>

namespace tether {

class Runtime;
class TrayMenu;
namespace ui {
class AboutDialog;
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

    // The status window, at the place a notification or a menu item points to.
    void showStatusWindow(NoticeTarget at = NoticeTarget::Status, const QString &why = QString());
    void showOrphanDialog();
    // Settings, with the field of `key` ("service/arguments") in view and focused, if given.
    void showSettings(const QString &key = QString());
    void showAbout();

    TrayMenu *trayMenu() const { return menu_; }
    QSystemTrayIcon *trayIcon() { return &icon_; }
    // What the last notification said and where a click on it leads (tests read it).
    const Notification &lastNotification() const { return lastShown_; }
    // The icon as shown now, by name ("healthy+working+orphans") and its set.
    QString iconKeyShown() const;
    Panel panel() const { return panel_; }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // Asks in the tray before `action` interrupts running tool calls; true when none runs.
    bool consents(policy::PersonAction what, const QString &action);
    void wireMenu();
    void showLog();
    void useFreePort();
    void copyDiagnostics();
    void refresh();
    void refreshIcon(bool force);
    void animate();
    void onNotice(tether::policy::NoticeKind kind);
    void present(const policy::NoticeStep &step);
    void maybeOfferOrphans();
    void waitForTray();

    Runtime *runtime_;
    bool autostart_;
    QSystemTrayIcon icon_;
    TrayMenu *menu_ = nullptr;
    TrayMenuModel shownModel_; // what the menu and tooltip show now
    bool modelShown_ = false;
    bool iconSet_ = false;
    policy::State iconState_ = policy::State::Stopped;
    IconFlags iconFlags_;
    Panel panel_ = Panel::Light;
    QTimer animation_; // the frames of the short animation (kAnimationFrameMs)
    qint64 animationStart_ = -1;

    NoticeLimiter limiter_;
    policy::NoticeHistory noticeHistory_; // one notice per incident (policy/notice.h)
    QTimer noticeWake_;                   // a held crash is told when its time is up
    Notification lastShown_;
    QElapsedTimer clock_; // monotonic, for the limiter and the launch phase
    QTimer trayWait_;
    QTimer *tick_ = nullptr; // each second while something counts seconds, else each minute

    QPointer<ui::StatusWindow> statusWindow_;
    QPointer<ui::OrphanDialog> orphanDialog_;
    QPointer<ui::SettingsDialog> settingsDialog_;
    QPointer<ui::AboutDialog> aboutDialog_;
};

} // namespace tether
