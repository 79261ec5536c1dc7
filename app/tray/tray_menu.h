// The tray's menu, built from a TrayMenuModel: the status block, the actions that apply now, the
// MCP servers one level deep (each row its own action), then below a separator what is always
// there. It decides nothing: each item emits what a person asked for. Tests build it alone (the
// worst state at 2x on a small screen: tests/ui/tst_person_xvfb).
#pragma once

#include "tray/tray_menu_model.h"

#include <QMenu>
#include <QObject>

class QWidgetAction;

namespace tether {

class MenuStatusWidget;

class TrayMenu : public QObject {
    Q_OBJECT
public:
    explicit TrayMenu(QObject *parent = nullptr);
    ~TrayMenu() override;

    QMenu *menu() { return &menu_; }
    void setModel(const TrayMenuModel &m, const QColor &stateColour);
    MenuStatusWidget *statusWidget() const { return status_; }
    QMenu *mcpMenu() const { return mcp_; }

signals:
    void openRequested();
    void startRequested();
    void stopRequested();
    void restartRequested();
    void fixRequested(const QString &settingKey);
    void useFreePortRequested();
    void tryAgainRequested();
    void showLogRequested();
    void mcpActionRequested(const QString &name);
    void cleanupRequested();
    void statusWindowRequested();
    void settingsRequested();
    void logsFolderRequested();
    void copyDiagnosticsRequested();
    void aboutRequested();
    void quitRequested();

private:
    void setMcpRows(const TrayMenuModel &m);
    // Just before the MCP submenu opens: its rows shortened, if need be, so that it fits beside
    // the menu, not over it (issue 27, D5).
    void fitMcpRows();

    QMenu menu_;
    MenuStatusWidget *status_ = nullptr; // owned by statusAction_
    QWidgetAction *statusAction_ = nullptr;
    QAction *open_ = nullptr;
    QAction *fix_ = nullptr;
    QAction *useFreePort_ = nullptr;
    QAction *tryAgain_ = nullptr;
    QAction *showLog_ = nullptr;
    QAction *start_ = nullptr;
    QAction *restart_ = nullptr;
    QAction *stop_ = nullptr;
    QMenu *mcp_ = nullptr;
    QAction *orphans_ = nullptr;
    QString fixKey_;
    QList<McpMenuRow> mcpRows_; // what the submenu shows now, to rebuild it only on change
};

} // namespace tether
