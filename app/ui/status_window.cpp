#include "ui/status_window.h"

#include "tray/tray_icons.h"
#include "tray/tray_menu_model.h"
#include "ui/format.h"
#include "ui/health_timeline.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace tether::ui {

namespace {
QLabel *valueLabel() {
    auto *l = new QLabel;
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}
} // namespace

StatusWindow::StatusWindow(UiModel model, QWidget *parent)
    : QWidget(parent)
    , model_(std::move(model)) {
    setWindowTitle(tr("Tether"));
    // Everything scrolls inside the window: at 2x on a small screen the content is taller than
    // the screen, and a window larger than the screen hides its bottom (seen at 192 dpi).
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *content = new QWidget;
    auto *root = new QVBoxLayout(content);
    scroll->setWidget(content);
    outer->addWidget(scroll);

    notice_ = new QLabel;
    notice_->setWordWrap(true);
    notice_->setFrameShape(QFrame::StyledPanel);
    notice_->setContentsMargins(6, 4, 6, 4);
    notice_->hide();
    root->addWidget(notice_);

    auto *card = new QGroupBox(tr("Service"));
    auto *form = new QFormLayout(card);
    form->addRow(tr("State:"), state_ = valueLabel());
    form->addRow(tr("PID:"), pid_ = valueLabel());
    form->addRow(tr("Version:"), version_ = valueLabel());
    form->addRow(tr("Port:"), port_ = valueLabel());
    form->addRow(tr("Uptime:"), uptime_ = valueLabel());
    form->addRow(tr("Restarts:"), restarts_ = valueLabel());
    form->addRow(tr("Last error:"), lastError_ = valueLabel());
    lastError_->setWordWrap(true);
    form->addRow(tr("Activity:"), activity_ = valueLabel());
    activity_->setWordWrap(true);
    form->addRow(tr("Interrupted:"), interrupted_ = valueLabel());
    interrupted_->setWordWrap(true);

    auto *buttons = new QHBoxLayout;
    start_ = new QPushButton(tr("Start"));
    stop_ = new QPushButton(tr("Stop"));
    restart_ = new QPushButton(tr("Restart"));
    open_ = new QPushButton(tr("Open in browser"));
    cleanup_ = new QPushButton;
    for (QPushButton *b : {start_, stop_, restart_, open_, cleanup_})
        buttons->addWidget(b);
    buttons->addStretch();
    connect(start_, &QPushButton::clicked, this, &StatusWindow::startRequested);
    connect(stop_, &QPushButton::clicked, this, &StatusWindow::stopRequested);
    connect(restart_, &QPushButton::clicked, this, &StatusWindow::restartRequested);
    connect(open_, &QPushButton::clicked, this, &StatusWindow::openRequested);
    connect(cleanup_, &QPushButton::clicked, this, &StatusWindow::cleanupRequested);

    auto *top = new QVBoxLayout;
    top->addWidget(card);
    top->addLayout(buttons);
    root->addLayout(top);

    auto *mcpBox = new QGroupBox(tr("MCP servers"));
    auto *mcpLayout = new QVBoxLayout(mcpBox);
    mcp_ = new QTableWidget(0, 7);
    mcp_->setHorizontalHeaderLabels(
        {tr("Name"), tr("Status"), tr("PID"), tr("Uptime"), tr("Memory"), tr("CPU"), QString()});
    mcp_->verticalHeader()->hide();
    mcp_->horizontalHeader()->setStretchLastSection(false);
    mcp_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    mcp_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mcp_->setSelectionMode(QAbstractItemView::NoSelection);
    // Like the log: it takes what is left, down to a header and three rows, and asks for no
    // height of its own (its 192-pixel wish overflowed a 768-pixel screen at 1x).
    mcp_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    mcp_->setMinimumHeight(mcp_->fontMetrics().lineSpacing() * 6);
    mcpLayout->addWidget(mcp_);
    root->addWidget(mcpBox, 1);

    auto *healthBox = new QGroupBox(tr("Health, last hour"));
    auto *healthLayout = new QVBoxLayout(healthBox);
    timeline_ = new HealthTimeline(model_);
    healthLayout->addWidget(timeline_);
    root->addWidget(healthBox);

    auto *logBox = new QGroupBox(tr("Events"));
    auto *logLayout = new QVBoxLayout(logBox);
    log_ = new QPlainTextEdit;
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(1000);
    log_->setLineWrapMode(QPlainTextEdit::NoWrap);
    // The log takes what is left, down to a few lines, and asks for nothing more: the scroll
    // area sizes the content by its preferred height (the wrapped error label makes the layout
    // height-for-width), and the log's 192-pixel wish would add a scroll bar at 1x.
    log_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    log_->setMinimumHeight(log_->fontMetrics().lineSpacing() * 5);
    for (const QString &line : model_.events())
        log_->appendPlainText(line);
    logLayout->addWidget(log_);
    root->addWidget(logBox, 1);

    // Uptime and the timeline move with time even when nothing else changes.
    tick_ = new QTimer(this);
    tick_->setInterval(1000);
    connect(tick_, &QTimer::timeout, this, &StatusWindow::refresh);
    // Fit the screen: at 2x scale 720x760 would not fit a 1024x768 display.
    QSize size(720, 760);
    if (const QScreen *screen = QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableSize() * 0.9);
    resize(size);
    refresh();
}

void StatusWindow::setNotice(const QString &text) {
    notice_->setText(text);
    notice_->setVisible(!text.isEmpty());
}

void StatusWindow::appendEvent(const QString &line) {
    log_->appendPlainText(line);
}

void StatusWindow::refresh() {
    const ServiceStatus &st = model_.status();
    const QDateTime now = model_.now();
    const TrayMenuModel m = trayMenuModel(st, now);
    const bool running = st.state != policy::State::Stopped && st.state != policy::State::Failed;

    const QColor colour = stateColor(st.state, palette());
    QString state = QStringLiteral("<b style='color:%1'>●</b> %2")
                        .arg(colour.name(), stateLabel(st.state).toHtmlEscaped());
    if (st.external) state += tr(" (adopted)");
    state_->setText(state);
    pid_->setText(st.pid ? QString::number(st.pid) : QStringLiteral("—"));
    QString version = st.version.isEmpty() ? QStringLiteral("—") : st.version;
    if (st.versionMismatch) version += tr(" (installed: %1)").arg(st.installedVersion);
    version_->setText(version);
    port_->setText(st.port ? QString::number(st.port) : QStringLiteral("—"));
    uptime_->setText(running && st.startedAt.isValid() ? durationText(st.startedAt.msecsTo(now))
                                                       : QStringLiteral("—"));
    restarts_->setText(QString::number(st.restarts));
    lastError_->setText(st.lastError.isEmpty() ? QStringLiteral("—") : st.lastError);
    // Empty summary: the profile has no event stream (opencode 2.x, custom) or it is not up.
    activity_->setText(st.activity.summary.isEmpty() ? tr("unknown (no event stream)")
                                                     : st.activity.summary);
    interrupted_->setText(st.lastInterrupted.summary.isEmpty()
                              ? QStringLiteral("—")
                              : st.lastInterrupted.at.toString(QStringLiteral("HH:mm:ss")) +
                                    QStringLiteral(" ") + st.lastInterrupted.summary);

    start_->setEnabled(m.startEnabled);
    stop_->setEnabled(m.stopEnabled);
    restart_->setEnabled(m.restartEnabled);
    restart_->setText(m.restartLabel);
    open_->setEnabled(m.openEnabled);
    cleanup_->setVisible(m.orphanCount > 0);
    cleanup_->setText(m.orphanLabel);

    fillMcpTable();
    timeline_->update();
}

void StatusWindow::fillMcpTable() {
    const ServiceStatus &st = model_.status();
    const TrayMenuModel m = trayMenuModel(st, model_.now());
    mcp_->setRowCount(int(st.mcp.size()));
    for (int row = 0; row < st.mcp.size(); ++row) {
        const McpChildStatus &c = st.mcp[row];
        QString status = c.status;
        if (!c.error.isEmpty()) status += QStringLiteral(": ") + c.error;
        const QStringList cells{c.name,
                                status,
                                c.pid ? QString::number(c.pid) : QStringLiteral("—"),
                                c.pid ? durationText(c.uptimeMs) : QStringLiteral("—"),
                                c.pid ? memoryText(c.rssKiB) : QStringLiteral("—"),
                                c.pid ? QStringLiteral("%1 %").arg(c.cpuPercent, 0, 'f', 1)
                                      : QStringLiteral("—")};
        for (int col = 0; col < cells.size(); ++col) {
            QTableWidgetItem *item = mcp_->item(row, col);
            if (!item) mcp_->setItem(row, col, item = new QTableWidgetItem);
            item->setText(cells[col]);
            item->setToolTip(cells[col]);
        }
        auto *button = qobject_cast<QPushButton *>(mcp_->cellWidget(row, 6));
        if (!button) {
            button = new QPushButton(tr("Reconnect"));
            mcp_->setCellWidget(row, 6, button);
        }
        button->disconnect(this);
        const QString name = c.name;
        connect(button, &QPushButton::clicked, this,
                [this, name] { emit reconnectRequested(name); });
        button->setEnabled(row < m.mcpRows.size() && m.mcpRows[row].reconnectEnabled);
    }
}

void StatusWindow::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    refresh(); // what changed while hidden
    tick_->start();
}

void StatusWindow::hideEvent(QHideEvent *event) {
    QWidget::hideEvent(event);
    tick_->stop();
}

} // namespace tether::ui
