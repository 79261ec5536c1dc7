// The status window: the service card, the MCP table, the health timeline, the event log and
// buttons mirroring the tray menu. It reads everything from the UiModel on refresh() and
// asks for actions through signals; it decides nothing itself.
#pragma once

#include "ui/ui_model.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTimer;

namespace tether::ui {

class HealthTimeline;

class StatusWindow : public QWidget {
    Q_OBJECT
public:
    explicit StatusWindow(UiModel model, QWidget *parent = nullptr);

    // A line above the card saying why this window opened by itself (e.g. no system tray).
    void setNotice(const QString &text);

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
    void fillMcpTable();

    UiModel model_;
    QLabel *notice_ = nullptr;
    QLabel *state_ = nullptr;
    QLabel *pid_ = nullptr;
    QLabel *version_ = nullptr;
    QLabel *port_ = nullptr;
    QLabel *uptime_ = nullptr;
    QLabel *restarts_ = nullptr;
    QLabel *lastError_ = nullptr;
    QLabel *activity_ = nullptr;    // busy sessions and running tool calls
    QLabel *interrupted_ = nullptr; // what the last replacement or forced stop cut short
    QPushButton *start_ = nullptr;
    QPushButton *stop_ = nullptr;
    QPushButton *restart_ = nullptr;
    QPushButton *open_ = nullptr;
    QPushButton *cleanup_ = nullptr;
    QTableWidget *mcp_ = nullptr;
    HealthTimeline *timeline_ = nullptr;
    QPlainTextEdit *log_ = nullptr;
    QTimer *tick_ = nullptr;
};

} // namespace tether::ui
