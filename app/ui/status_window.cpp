#include "ui/status_window.h"

#include "tray/tray_icons.h"
#include "tray/tray_menu_model.h"
#include "ui/failure_panel.h"
#include "ui/format.h"
#include "ui/health_timeline.h"

#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
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

enum McpColumn { Name, Status, Memory, Cpu, Pid, Uptime, Action, ColumnCount };
} // namespace

StatusWindow::StatusWindow(UiModel model, QWidget *parent)
    : QWidget(parent)
    , model_(std::move(model)) {
    setWindowTitle(tr("Tether"));
    // The state, what happens next and the buttons stay on top; the MCP servers, the health
    // timeline and the events share the rest as tabs, so the window fits a 1280x800 screen at
    // 2x (640x400 points) with three MCP rows in full. Stacked, they made a 602x596-point
    // minimum that the fit-to-screen size lost to. The scroll area is for smaller screens still.
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *content = new QWidget;
    auto *root = new QVBoxLayout(content);
    root->setSpacing(4);
    scroll->setWidget(content);
    outer->addWidget(scroll);

    notice_ = new QLabel;
    notice_->setWordWrap(true);
    notice_->setFrameShape(QFrame::StyledPanel);
    notice_->setContentsMargins(6, 4, 6, 4);
    notice_->hide();
    root->addWidget(notice_);

    state_ = valueLabel();
    QFont big = state_->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    state_->setFont(big);
    root->addWidget(state_);
    nextStep_ = valueLabel();
    nextStep_->setWordWrap(true);
    root->addWidget(nextStep_);
    activity_ = valueLabel();
    activity_->setWordWrap(true);
    root->addWidget(activity_);

    // Facts in two columns of pairs: one line each for what a person compares at a glance.
    auto *facts = new QGridLayout;
    facts->setHorizontalSpacing(12);
    facts->setVerticalSpacing(2);
    const auto addFact = [facts](int row, int col, const QString &name, QLabel *value) {
        auto *label = new QLabel(name);
        label->setForegroundRole(QPalette::WindowText);
        facts->addWidget(label, row, col * 2);
        facts->addWidget(value, row, col * 2 + 1);
    };
    addFact(0, 0, tr("Version:"), version_ = valueLabel());
    addFact(0, 1, tr("Port:"), port_ = valueLabel());
    addFact(0, 2, tr("PID:"), pid_ = valueLabel());
    addFact(1, 0, tr("Uptime:"), uptime_ = valueLabel());
    addFact(1, 1, tr("Restarts:"), restarts_ = valueLabel());
    interruptedName_ = new QLabel(tr("Interrupted:"));
    facts->addWidget(interruptedName_, 2, 0);
    facts->addWidget(interrupted_ = valueLabel(), 2, 1, 1, 5);
    interrupted_->setWordWrap(true);
    facts->setColumnStretch(6, 1); // the pairs sit together on the left
    root->addLayout(facts);

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
    root->addLayout(buttons);

    // Failed: the cause in the service's own words and what to do (hidden otherwise).
    root->addWidget(failure_ = new FailurePanel);

    tabs_ = new QTabWidget;
    mcpStack_ = new QStackedWidget;
    mcp_ = new QTableWidget(0, ColumnCount);
    mcp_->setHorizontalHeaderLabels(
        {tr("Name"), tr("Status"), tr("Memory"), tr("CPU"), tr("PID"), tr("Uptime"), tr("Action")});
    mcp_->verticalHeader()->hide();
    QHeaderView *header = mcp_->horizontalHeader();
    header->setStretchLastSection(false);
    // The name is what a person looks for: never elided ("de..."); the status takes the rest.
    for (int col = 0; col < ColumnCount; ++col)
        header->setSectionResizeMode(col, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(Status, QHeaderView::Stretch);
    mcp_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mcp_->setSelectionMode(QAbstractItemView::NoSelection);
    mcp_->setWordWrap(false);
    mcpEmpty_ = new QLabel;
    mcpEmpty_->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    mcpEmpty_->setMargin(mcpEmpty_->fontMetrics().height());
    mcpEmpty_->setWordWrap(true);
    mcpStack_->addWidget(mcp_);
    mcpStack_->addWidget(mcpEmpty_);
    tabs_->addTab(mcpStack_, tr("MCP servers"));

    timeline_ = new HealthTimeline(model_);
    tabs_->addTab(timeline_, tr("Health"));

    log_ = new QPlainTextEdit;
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(1000);
    // Wrapped at the window's width: a line is read, not scrolled sideways.
    log_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    for (const QString &line : model_.events())
        appendEvent(line);
    tabs_->addTab(log_, tr("Events"));
    // The tabs take what is left and ask for no height of their own: once a wrapped line makes
    // the layout height-for-width, the scroll area sizes the content by preferred heights, and
    // the tabs' preferred height (the events' and the table's) added a scroll bar at 2x.
    tabs_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    root->addWidget(tabs_, 1);

    // Uptime, the countdowns and the timeline move with time even when nothing else changes;
    // only while the window is shown (showEvent / hideEvent).
    tick_ = new QTimer(this);
    tick_->setInterval(1000);
    connect(tick_, &QTimer::timeout, this, &StatusWindow::refresh);
    refresh();
    fitToScreen();
}

void StatusWindow::fitToScreen() {
    const QScreen *screen = QGuiApplication::primaryScreen();
    QSize size(720, 600);
    if (!screen) {
        resize(size);
        return;
    }
    // Room for a window manager's frame and title bar, which are not part of this size.
    const QRect avail = screen->availableGeometry();
    const QSize frame(16, 48);
    size = size.boundedTo(avail.size() - frame);
    // The layout's minimum wins over resize(): keep it below the screen, or the window grows
    // past it (1204x1192 device pixels on an 800-pixel screen, seen at 2x).
    setMinimumSize(minimumSizeHint().boundedTo(size));
    resize(size);
    move(avail.topLeft() + QPoint((avail.width() - size.width() - frame.width()) / 2,
                                  (avail.height() - size.height() - frame.height()) / 2));
}

void StatusWindow::setNotice(const QString &text) {
    notice_->setText(text);
    notice_->setVisible(!text.isEmpty());
}

void StatusWindow::appendEvent(const QString &line) {
    const EventLine e = eventLine(line, model_.now());
    if (e.text.isEmpty()) return;
    log_->appendPlainText(e.time.isEmpty() ? e.text : e.time + QStringLiteral("  ") + e.text);
}

void StatusWindow::refresh() {
    const ServiceStatus &st = model_.status();
    const QDateTime now = model_.now();
    const TrayMenuModel m = trayMenuModel(st, now);
    const bool running = st.state != policy::State::Stopped && st.state != policy::State::Failed;

    const QColor colour = stateColor(st.state, palette());
    QString state = QStringLiteral("<span style='color:%1'>●</span> <b>%2</b>")
                        .arg(colour.name(), stateLabel(st.state).toHtmlEscaped());
    if (st.external) state += tr(" (adopted)");
    state_->setText(state);
    const QString next = nextStepText(st, now);
    nextStep_->setText(next);
    nextStep_->setVisible(!next.isEmpty());
    pid_->setText(st.pid ? QString::number(st.pid) : QStringLiteral("—"));
    QString version = st.version.isEmpty() ? QStringLiteral("—") : st.version;
    if (st.versionMismatch) version += tr(" (installed: %1)").arg(st.installedVersion);
    version_->setText(version);
    port_->setText(st.port ? QString::number(st.port) : QStringLiteral("—"));
    uptime_->setText(running && st.startedAt.isValid() ? durationText(st.startedAt.msecsTo(now))
                                                       : QStringLiteral("—"));
    restarts_->setText(QString::number(st.restarts));
    // Empty summary: the profile has no event stream (opencode 2.x, custom) or it is not up.
    activity_->setText(m.activityLine.isEmpty() ? QString()
                                                : tr("Activity: %1").arg(st.activity.summary));
    activity_->setVisible(!m.activityLine.isEmpty()); // only while it works: "idle" is noise
    const bool cut = !st.lastInterrupted.summary.isEmpty();
    interrupted_->setText(cut ? st.lastInterrupted.at.toString(QStringLiteral("HH:mm:ss")) +
                                    QStringLiteral(" ") + st.lastInterrupted.summary
                              : QString());
    interrupted_->setVisible(cut);
    interruptedName_->setVisible(cut);

    start_->setEnabled(m.startEnabled);
    stop_->setEnabled(m.stopEnabled);
    restart_->setEnabled(m.restartEnabled);
    restart_->setText(m.restartLabel);
    open_->setEnabled(m.openEnabled);
    cleanup_->setVisible(m.orphanCount > 0);
    cleanup_->setText(m.orphanLabel);

    failure_->setStatus(st);
    fillMcpTable(m);
    tabs_->setTabText(tabs_->indexOf(timeline_), timelineTitle(timeline_->spanMs()));
    timeline_->update();
}

void StatusWindow::fillMcpTable(const TrayMenuModel &m) {
    const ServiceStatus &st = model_.status();
    tabs_->setTabText(tabs_->indexOf(mcpStack_), m.mcpFlaggedCount > 0 ? m.mcpMenuTitle
                                                 : st.mcp.isEmpty()
                                                     ? tr("MCP servers")
                                                     : tr("MCP servers (%1)").arg(st.mcp.size()));
    if (st.mcp.isEmpty()) {
        // Said in words, not as an empty grid.
        mcpEmpty_->setText(m.mcpEmptyText);
        mcpStack_->setCurrentWidget(mcpEmpty_);
        mcp_->setRowCount(0);
        return;
    }
    mcpStack_->setCurrentWidget(mcp_);
    mcp_->setRowCount(int(st.mcp.size()));
    const QColor warn = stateColor(policy::State::Failed, palette());
    for (int row = 0; row < st.mcp.size(); ++row) {
        const McpChildStatus &c = st.mcp[row];
        QString status = c.status;
        status.replace(QLatin1Char('_'), QLatin1Char(' '));
        if (!c.error.isEmpty()) status += QStringLiteral(": ") + c.error;
        // The mark and a short word here; the numbers are in the red Memory / CPU cell and the
        // reason in full in the tooltip (the whole reason was elided in the column).
        const bool memory = c.flagged && c.flagReason.startsWith(QLatin1String("memory"));
        if (c.flagged)
            status = QStringLiteral("⚠ ") +
                     (memory ? tr("memory over its limit") : tr("CPU busy too long"));
        QStringList cells(ColumnCount - 1);
        cells[Name] = c.name;
        cells[Status] = status;
        cells[Pid] = c.pid ? QString::number(c.pid) : QStringLiteral("—");
        cells[Uptime] = c.pid ? durationText(c.uptimeMs) : QStringLiteral("—");
        cells[Memory] = c.pid ? memoryText(c.rssKiB) : QStringLiteral("—");
        cells[Cpu] =
            c.pid ? QStringLiteral("%1 %").arg(c.cpuPercent, 0, 'f', 1) : QStringLiteral("—");
        for (int col = 0; col < cells.size(); ++col) {
            QTableWidgetItem *item = mcp_->item(row, col);
            if (!item) mcp_->setItem(row, col, item = new QTableWidgetItem);
            item->setText(cells[col]);
            item->setToolTip(c.flagged && col == Status ? c.flagReason : cells[col]);
            const bool marked = c.flagged && (col == Status || col == (memory ? Memory : Cpu));
            item->setForeground(marked ? QBrush(warn) : QBrush());
            QFont f = item->font();
            f.setBold(marked);
            item->setFont(f);
        }
        auto *button = qobject_cast<QPushButton *>(mcp_->cellWidget(row, Action));
        if (!button) {
            button = new QPushButton;
            mcp_->setCellWidget(row, Action, button);
        }
        const McpMenuRow *menuRow = row < m.mcpRows.size() ? &m.mcpRows[row] : nullptr;
        button->setText(menuRow ? menuRow->actionLabel : tr("Reconnect"));
        button->disconnect(this);
        const QString name = c.name;
        connect(button, &QPushButton::clicked, this,
                [this, name] { emit reconnectRequested(name); });
        button->setEnabled(menuRow && menuRow->reconnectEnabled);
    }
    // Rows as tall as their button, and room for three of them in full before it scrolls.
    const int rowHeight =
        qMax(mcp_->fontMetrics().height() + 8, mcp_->cellWidget(0, Action)->sizeHint().height());
    mcp_->verticalHeader()->setDefaultSectionSize(rowHeight);
    mcp_->setMinimumHeight(mcp_->horizontalHeader()->sizeHint().height() +
                           rowHeight * int(qMin<qsizetype>(3, st.mcp.size())) +
                           2 * mcp_->frameWidth() + 2);
    // The tabs ignore their size hint (above) but keep this floor: on a screen smaller still,
    // the window scrolls rather than squeezing the rows away.
    tabs_->setMinimumHeight(tabs_->tabBar()->sizeHint().height() + mcp_->minimumHeight() +
                            2 * tabs_->style()->pixelMetric(QStyle::PM_DefaultFrameWidth) + 4);
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
