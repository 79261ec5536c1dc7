#include "ui/status_window.h"

#include "tray/tray_icons.h"
#include "tray/tray_menu_model.h"
#include "ui/failure_panel.h"
#include "ui/format.h"
#include "ui/health_timeline.h"
#include "ui/status_text.h"

#include <QCheckBox>
#include <QFrame>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QShortcut>
#include <QStackedWidget>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace tether::ui {

namespace {

// A value of the facts: selectable, one line, a width of its own whatever it says (a longer
// value is cut, whole in its tooltip), so the columns never move with their values.
QLabel *valueLabel(const QString &name, int chars) {
    auto *l = new QLabel;
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setAccessibleName(name);
    l->setFixedWidth(l->fontMetrics().averageCharWidth() * chars);
    return l;
}

void setValue(QLabel *l, const QString &text) {
    const QString shown = l->fontMetrics().elidedText(text, Qt::ElideMiddle, l->width());
    l->setText(shown);
    l->setToolTip(shown == text ? QString() : text);
}

// A sentence with two lines of room in every state, said or not: nothing below it moves.
QLabel *twoLines(const QString &name) {
    auto *l = new QLabel;
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setAccessibleName(name);
    l->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    l->setFixedHeight(2 * l->fontMetrics().lineSpacing() + 2);
    l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    return l;
}

QString dash() {
    return QStringLiteral("—");
}

enum McpColumn { Name, Status, Memory, Cpu, Pid, Uptime, Action, McpColumnCount };

} // namespace

StatusWindow::StatusWindow(UiModel model, QWidget *parent)
    : QWidget(parent)
    , model_(std::move(model)) {
    setWindowTitle(tr("Tether"));
    setAccessibleName(tr("Tether status"));
    // The state, what happens next, the facts and the buttons stay on top at one height; the
    // MCP servers, the health timeline and the events share the rest as tabs, so the window fits
    // a 1280x800 screen at 2x (640x400 points). The scroll area is for smaller screens still.
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setAccessibleName(tr("Tether status"));
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

    state_ = new QLabel;
    state_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    state_->setAccessibleName(tr("State"));
    QFont big = state_->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    state_->setFont(big);
    root->addWidget(state_);
    root->addWidget(nextStep_ = twoLines(tr("What happens next")));
    nextStep_->setObjectName(QStringLiteral("nextStep"));

    // The facts, or (Failed) what went wrong: one space, as high as the higher of the two.
    body_ = new QStackedWidget;
    factsPage_ = new QWidget;
    auto *factsColumn = new QVBoxLayout(factsPage_);
    factsColumn->setContentsMargins(0, 0, 0, 0);
    auto *facts = new QGridLayout;
    facts->setHorizontalSpacing(12);
    facts->setVerticalSpacing(2);
    const auto addFact = [facts](int row, int col, QLabel *name, QLabel *value) {
        name->setBuddy(value);
        facts->addWidget(name, row, col * 2);
        facts->addWidget(value, row, col * 2 + 1);
    };
    addFact(0, 0, new QLabel(tr("Version:")), version_ = valueLabel(tr("Version"), 18));
    addFact(0, 1, new QLabel(tr("Port:")), port_ = valueLabel(tr("Port"), 7));
    addFact(1, 0, new QLabel(tr("Up for:")), uptime_ = valueLabel(tr("Up for"), 18));
    addFact(1, 1, new QLabel(tr("Restarts:")), restarts_ = valueLabel(tr("Restarts"), 7));
    pidName_ = new QLabel(tr("Process ID:"));
    addFact(0, 2, pidName_, pid_ = valueLabel(tr("Process ID"), 9));
    facts->setColumnStretch(6, 1); // the pairs sit together on the left
    factsColumn->addLayout(facts);
    factsColumn->addWidget(activity_ = twoLines(tr("Activity")));
    factsColumn->addStretch();
    body_->addWidget(factsPage_);
    body_->addWidget(failure_ = new FailurePanel);
    body_->setFixedHeight(
        std::max(factsPage_->sizeHint().height(), failure_->minimumSizeHint().height()));
    root->addWidget(body_);

    // The service's buttons, in a row of one height: when it failed, these four (which would
    // all be off) give their place to the failure's remedies (what mends it, Try again).
    auto *row = new QWidget;
    auto *buttons = new QHBoxLayout(row);
    buttons->setContentsMargins(0, 0, 0, 0);
    start_ = new QPushButton(tr("&Start"));
    stop_ = new QPushButton(tr("S&top"));
    restart_ = new QPushButton;
    open_ = new QPushButton(tr("&Open in browser"));
    for (QPushButton *b : {start_, stop_, restart_, open_})
        buttons->addWidget(b);
    buttons->addWidget(failure_->actions()); // in their place when it failed
    buttons->addStretch();
    details_ = new QCheckBox(tr("Show &details"));
    details_->setToolTip(tr("Process IDs, and the events as the log has them"));
    connect(start_, &QPushButton::clicked, this, &StatusWindow::startRequested);
    connect(stop_, &QPushButton::clicked, this, &StatusWindow::stopRequested);
    connect(restart_, &QPushButton::clicked, this, &StatusWindow::restartRequested);
    connect(open_, &QPushButton::clicked, this, &StatusWindow::openRequested);
    connect(details_, &QCheckBox::toggled, this, [this] {
        refresh();
        fillEvents();
    });
    row->setFixedHeight(start_->sizeHint().height());
    root->addWidget(row);

    // Orphaned MCP processes are not the service's: said on a line of their own below its
    // buttons, their clean-up beside the words. In the buttons' row it made the row wider than
    // the window with an update offered too (issue 27, D1), in German all the more. Nothing
    // above moves when it comes and goes; the tabs below give it their room.
    orphanBar_ = new QFrame;
    static_cast<QFrame *>(orphanBar_)->setFrameShape(QFrame::StyledPanel);
    auto *orphanRow = new QHBoxLayout(orphanBar_);
    orphanRow->setContentsMargins(6, 2, 2, 2);
    orphanText_ = new QLabel;
    orphanText_->setWordWrap(true);
    cleanup_ = new QPushButton(tr("Clean &up…"));
    connect(cleanup_, &QPushButton::clicked, this, &StatusWindow::cleanupRequested);
    orphanText_->setBuddy(cleanup_);
    orphanRow->addWidget(orphanText_, 1);
    orphanRow->addWidget(cleanup_);
    orphanBar_->hide();
    root->addWidget(orphanBar_);

    tabs_ = new QTabWidget;
    tabs_->setAccessibleName(tr("Details of the service"));
    tabs_->setCornerWidget(details_, Qt::TopRightCorner); // what it shows more of
    // A longer language shortens a title ("Verlauf, letzte…") rather than hide a tab behind
    // scroll arrows.
    tabs_->setUsesScrollButtons(false);
    tabs_->setElideMode(Qt::ElideRight);
    mcpStack_ = new QStackedWidget;
    mcp_ = new QTableWidget(0, McpColumnCount);
    mcp_->setAccessibleName(tr("MCP servers"));
    mcp_->setHorizontalHeaderLabels({tr("Name"), tr("State"), tr("Memory"), tr("CPU"),
                                     tr("Process ID"), tr("Up for"), tr("Action")});
    mcp_->verticalHeader()->hide();
    QHeaderView *header = mcp_->horizontalHeader();
    header->setStretchLastSection(false);
    // The name is what a person looks for: never elided ("de..."); the state takes the rest.
    for (int col = 0; col < McpColumnCount; ++col)
        header->setSectionResizeMode(col, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(Status, QHeaderView::Stretch);
    mcp_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    mcp_->setSelectionMode(QAbstractItemView::NoSelection);
    // Tab goes from one row's button to the next, not through every cell.
    mcp_->setTabKeyNavigation(false);
    mcp_->setFocusPolicy(Qt::NoFocus);
    mcp_->setWordWrap(false);
    mcpEmpty_ = new QLabel;
    mcpEmpty_->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    // One short sentence, not wrapped: a wrapped label makes the tabs height-for-width, and the
    // scroll area then sized the window's content by their preferred height (a scroll bar).
    mcpEmpty_->setMargin(mcpEmpty_->fontMetrics().height());
    mcpStack_->addWidget(mcp_);
    mcpStack_->addWidget(mcpEmpty_);
    tabs_->addTab(mcpStack_, tr("&MCP servers"));

    auto *health = new QWidget;
    auto *healthColumn = new QVBoxLayout(health);
    healthColumn->setContentsMargins(0, 0, 0, 0);
    timeline_ = new HealthTimeline(model_);
    healthColumn->addWidget(timeline_, 1);
    legend_ = new QLabel;
    legend_->setTextFormat(Qt::RichText);
    legend_->setWordWrap(true);
    healthColumn->addWidget(legend_);
    tabs_->addTab(health, tr("&Health"));

    log_ = new QPlainTextEdit;
    log_->setReadOnly(true);
    log_->setAccessibleName(tr("Events"));
    log_->setMaximumBlockCount(1000);
    // Wrapped at the window's width: a line is read, not scrolled sideways. Tab leaves it.
    log_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    log_->setTabChangesFocus(true);
    tabs_->addTab(log_, tr("&Events"));
    fillEvents();
    // The tabs take what is left and ask for no height of their own: once a wrapped line makes
    // the layout height-for-width, the scroll area sizes the content by preferred heights, and
    // the tabs' preferred height (the events' and the table's) added a scroll bar at 2x.
    tabs_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    root->addWidget(tabs_, 1);

    // Esc and Ctrl+W (Cmd+W) close it, as any window of its kind, and the platform's own Close
    // (Ctrl+F4 on Windows); each key once, or Qt calls it ambiguous and does nothing.
    QList<QKeySequence> closeKeys = QKeySequence::keyBindings(QKeySequence::Close);
    for (const QKeySequence &key :
         {QKeySequence(Qt::Key_Escape), QKeySequence(Qt::CTRL | Qt::Key_W)})
        if (!closeKeys.contains(key)) closeKeys << key;
    for (const QKeySequence &key : std::as_const(closeKeys))
        connect(new QShortcut(key, this), &QShortcut::activated, this, &QWidget::close);

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
    // As wide as the MCP table's columns want; as high as what is above the tabs and about five
    // MCP rows: room to read, and no hundreds of pixels of empty table.
    const int above = state_->sizeHint().height() + nextStep_->height() + body_->height() +
                      start_->sizeHint().height() + 5 * 4 + 2 * 11;
    const int rows = 5 * (fontMetrics().height() + 8) + 3 * fontMetrics().height() + 24;
    QSize size(680, above + rows);
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

void StatusWindow::showAt(NoticeTarget target) {
    switch (target) {
    case NoticeTarget::Failure:
        refresh();
        failure_->focusRemedy();
        break;
    case NoticeTarget::McpServers:
        tabs_->setCurrentIndex(0);
        break;
    case NoticeTarget::Events:
        tabs_->setCurrentWidget(log_);
        break;
    case NoticeTarget::Status:
    case NoticeTarget::Orphans:
        break;
    }
}

void StatusWindow::appendEvent(const QString &line) {
    const EventLine e = eventLine(line, model_.now(), details_->isChecked());
    if (e.text.isEmpty()) return;
    log_->appendPlainText(e.time.isEmpty() ? e.text : e.time + QStringLiteral("  ") + e.text);
}

void StatusWindow::fillEvents() {
    log_->clear();
    for (const QString &line : model_.events())
        appendEvent(line);
}

void StatusWindow::refresh() {
    const ServiceStatus &st = model_.status();
    const QDateTime now = model_.now();
    const TrayMenuModel m = trayMenuModel(st, now);
    const bool running = st.state != policy::State::Stopped && st.state != policy::State::Failed;
    const bool details = details_->isChecked();

    const QColor colour = stateColor(st.state, palette());
    QString state = QStringLiteral("<span style='color:%1'>●</span> <b>%2</b>")
                        .arg(colour.name(), stateLabel(st.state).toHtmlEscaped());
    if (st.external) state += tr(" · started outside Tether").toHtmlEscaped();
    state_->setText(state);
    // The orphans have their own line below (with Clean up…): said here too, the sentence took a
    // third line, cut off, at 2x with an update waiting.
    nextStep_->setText(nextStepText(st, now, false));

    const bool failed = st.state == policy::State::Failed && !st.failure.isEmpty();
    failure_->setStatus(st);
    body_->setCurrentWidget(failed ? static_cast<QWidget *>(failure_) : factsPage_);
    // The version that runs; an installed newer one is said in the line above, in full.
    setValue(version_, st.version.isEmpty() ? dash() : st.version);
    setValue(port_, st.port ? QString::number(st.port) : dash());
    setValue(uptime_,
             running && st.startedAt.isValid() ? durationText(st.startedAt.msecsTo(now)) : dash());
    setValue(restarts_, QString::number(st.restarts));
    setValue(pid_, st.pid ? QString::number(st.pid) : dash());
    pidName_->setVisible(details);
    pid_->setVisible(details);
    // What it does while it works, else what the last stop cut short: the same two lines.
    const QString work = activityText(st);
    activity_->setText(!work.isEmpty() ? work : interruptedText(st.lastInterrupted));

    start_->setEnabled(m.showStart); // Failed: Try again, in the failure panel, is the one
    for (QPushButton *b : {start_, stop_, restart_, open_})
        b->setVisible(!failed);
    failure_->actions()->setVisible(failed);
    stop_->setEnabled(m.showStop);
    restart_->setEnabled(m.showRestart);
    // The newer version is named in full in the line above: the button need not repeat it.
    const bool update = st.versionMismatch && !st.installedVersion.isEmpty();
    // The menu's words ("Update and restart"), with a mnemonic of the window's own (Alt+U is
    // Clean up…).
    restart_->setText(update ? tr("Update and &restart") : m.restartLabel);
    restart_->setToolTip(update ? QString(m.restartLabel).remove(QLatin1Char('&')) : QString());
    open_->setEnabled(m.showOpen);
    orphanBar_->setVisible(m.orphanCount > 0);
    orphanText_->setText(tr("⚠ %n orphaned MCP process(es)", nullptr, m.orphanCount));
    cleanup_->setToolTip(QString(m.orphanLabel).remove(QLatin1Char('&')));
    cleanup_->setAccessibleName(cleanup_->toolTip());

    fillMcpTable(m);
    tabs_->setTabText(tabs_->indexOf(timeline_->parentWidget()),
                      timelineTitle(timeline_->spanMs()));
    legend_->setText(timeline_->legendHtml());
    // A screen reader hears what the picture shows.
    timeline_->setAccessibleDescription(timeline_->summary());
    timeline_->update();
}

void StatusWindow::fillMcpTable(const TrayMenuModel &m) {
    const ServiceStatus &st = model_.status();
    // A short tab (the menu's "3 need attention" pushed the Events tab out of view at 2x in
    // German); the marked rows below and the tab's tooltip say which and why.
    const int mcpTab = tabs_->indexOf(mcpStack_);
    tabs_->setTabText(mcpTab, st.mcp.isEmpty()        ? tr("&MCP servers")
                              : m.mcpFlaggedCount > 0 ? tr("⚠ &MCP servers (%1)").arg(st.mcp.size())
                                                      : tr("&MCP servers (%1)").arg(st.mcp.size()));
    tabs_->setTabToolTip(mcpTab, m.mcpFlaggedCount > 0
                                     ? QString(m.mcpMenuTitle).remove(QLatin1Char('&'))
                                     : QString());
    mcp_->setColumnHidden(Pid, !details_->isChecked());
    if (st.mcp.isEmpty()) {
        // Said in words, not as an empty grid.
        const bool answers =
            st.state == policy::State::Healthy || st.state == policy::State::NotResponding;
        const bool coming = st.state == policy::State::Starting ||
                            st.state == policy::State::Recovering ||
                            st.state == policy::State::Restarting;
        mcpEmpty_->setText(answers  ? tr("The service has no MCP servers.")
                           : coming ? tr("Its MCP servers show here once it answers.")
                                    : tr("The service is not running."));
        mcpStack_->setCurrentWidget(mcpEmpty_);
        mcp_->setRowCount(0);
        return;
    }
    mcpStack_->setCurrentWidget(mcp_);
    mcp_->setRowCount(int(st.mcp.size()));
    const QColor warn = stateColor(policy::State::Failed, palette());
    for (int row = 0; row < st.mcp.size(); ++row) {
        const McpChildStatus &c = st.mcp[row];
        // Numbers only while the service answers: stale ones read as facts.
        const bool live = c.pid && st.state == policy::State::Healthy;
        QStringList cells(McpColumnCount - 1);
        cells[Name] = c.name;
        cells[Status] = (c.flagged ? QStringLiteral("⚠ ") : QString()) + mcpStatusText(c, st.state);
        cells[Pid] = c.pid ? QString::number(c.pid) : dash();
        cells[Uptime] = live ? durationText(c.uptimeMs) : dash();
        cells[Memory] = live ? memoryText(c.rssKiB) : dash();
        cells[Cpu] = live ? tr("%1 %").arg(QLocale().toString(c.cpuPercent, 'f', 1)) : dash();
        const bool memory = c.memoryOver;
        for (int col = 0; col < cells.size(); ++col) {
            QTableWidgetItem *item = mcp_->item(row, col);
            if (!item) mcp_->setItem(row, col, item = new QTableWidgetItem);
            item->setText(cells[col]);
            item->setToolTip(c.flagged && col == Status ? mcpFlagText(c) : cells[col]);
            // A figure over its limit is marked; a missing one ("—" while the service does not
            // answer) is no alarm, whatever the last figure was.
            const bool marked =
                c.flagged && (col == Status || (live && col == (memory ? Memory : Cpu)));
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
        button->setAccessibleName(
            tr("%1 %2", "an action, then the MCP server it acts on").arg(button->text(), c.name));
        button->disconnect(this);
        const QString name = c.name;
        connect(button, &QPushButton::clicked, this,
                [this, name] { emit reconnectRequested(name); });
        button->setEnabled(menuRow && menuRow->actionEnabled);
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
