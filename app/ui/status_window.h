// The status window: the state and what happens next, then the facts (or, when Failed, what
// went wrong and what mends it) in a space of one height for every state, the buttons mirroring
// the tray menu, then the MCP servers, the health timeline and the events as tabs. Nothing above
// the tabs comes and goes, so they never move under the pointer. It reads everything from the
// UiModel on refresh() and asks for actions through signals; it decides nothing itself.
#pragma once

#include "tray/notification.h"
#include "ui/ui_model.h"

#include <QWidget>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTableWidget;
class QTimer;

namespace tether {
struct TrayMenuModel;
}

namespace tether::ui {

class HealthTimeline;
class FailurePanel;

class StatusWindow : public QWidget {
    Q_OBJECT
public:
    explicit StatusWindow(UiModel model, QWidget *parent = nullptr);

    // A line above the card saying why this window opened by itself (e.g. no system tray).
    void setNotice(const QString &text);
    // What went wrong when Failed, with Show log / Try again / Use a free port (its signals).
    FailurePanel *failurePanel() const { return failure_; }
    // Brings forward what a notification was about: a tab, or the failure and its remedy.
    void showAt(NoticeTarget target);

    // Test hooks: what a person sees in the MCP table and the events list.
    QTableWidget *mcpTable() const { return mcp_; }
    QPlainTextEdit *eventsView() const { return log_; }
    QTabWidget *tabs() const { return tabs_; }
    HealthTimeline *timeline() const { return timeline_; }
    QCheckBox *detailsBox() const { return details_; }

public slots:
    void refresh();
    void appendEvent(const QString &line);

signals:
    void startRequested();
    void stopRequested();
    void restartRequested();
    void openRequested();
    void cleanupRequested();
    void reconnectRequested(const QString &mcpName);

protected:
    // The uptime tick runs only while the window is shown: hidden, it would wake Tether every
    // second for labels nobody sees.
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void fillMcpTable(const TrayMenuModel &m);
    void fillEvents();
    void fitToScreen();

    UiModel model_;
    QLabel *notice_ = nullptr;
    QLabel *state_ = nullptr;
    QLabel *nextStep_ = nullptr;     // what happens next: two lines of room in every state
    QStackedWidget *body_ = nullptr; // the facts, or the failure: one height for both
    QWidget *factsPage_ = nullptr;
    QLabel *version_ = nullptr;
    QLabel *port_ = nullptr;
    QLabel *uptime_ = nullptr;
    QLabel *restarts_ = nullptr;
    QLabel *pidName_ = nullptr;
    QLabel *pid_ = nullptr;
    QLabel *activity_ = nullptr; // what it does, or what the last stop cut short
    QPushButton *start_ = nullptr;
    QPushButton *stop_ = nullptr;
    QPushButton *restart_ = nullptr;
    QPushButton *open_ = nullptr;
    QWidget *orphanBar_ = nullptr; // the orphans, in words, with their clean-up beside them
    QLabel *orphanText_ = nullptr;
    QPushButton *cleanup_ = nullptr;
    QCheckBox *details_ = nullptr; // pids, the log's own words: asked for, not shown by default
    QTabWidget *tabs_ = nullptr;
    QStackedWidget *mcpStack_ = nullptr; // the table, or "No MCP servers" in words
    QTableWidget *mcp_ = nullptr;
    QLabel *mcpEmpty_ = nullptr;
    HealthTimeline *timeline_ = nullptr;
    QLabel *legend_ = nullptr;
    FailurePanel *failure_ = nullptr;
    QPlainTextEdit *log_ = nullptr;
    QTimer *tick_ = nullptr;
};

} // namespace tether::ui
