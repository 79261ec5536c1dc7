#include "tray/tray_menu.h"

#include "service/words.h"
#include "tray/menu_status.h"

#include <QApplication>
#include <QFontMetrics>
#include <QProxyStyle>
#include <QScreen>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleOptionMenuItem>
#include <QWidgetAction>

#include <algorithm>

namespace tether {

namespace {

// The MCP rows' action word ("Restart", "Neu starten") sits in the menu's shortcut column, and
// Qt 6.4's Fusion style reserves that column twice: once in each row's size
// (reservedShortcutWidth) and once more in the menu's width. The second copy was empty space
// between a row and its action, about 75 pt at 2x in German, which the rows' states needed (the
// submenu has only the room beside its parent). Rows are sized here without what the style
// reserved for the column, plus a gap of one em; the menu adds the column once. Styles that do
// not reserve it (Windows) are left as they are.
class OneActionColumn : public QProxyStyle {
public:
    using QProxyStyle::QProxyStyle;
    QSize sizeFromContents(ContentsType type, const QStyleOption *option, const QSize &size,
                           const QWidget *widget) const override {
        const QSize full = QProxyStyle::sizeFromContents(type, option, size, widget);
        const auto *item = qstyleoption_cast<const QStyleOptionMenuItem *>(option);
        if (type != CT_MenuItem || !item || item->reservedShortcutWidth <= 0) return full;
        QStyleOptionMenuItem none = *item;
        none.reservedShortcutWidth = 0;
        const int reserved =
            full.width() - QProxyStyle::sizeFromContents(type, &none, size, widget).width();
        if (reserved <= 0) return full;
        return {full.width() - reserved + item->fontMetrics.horizontalAdvance(QLatin1Char('M')),
                full.height()};
    }
};

} // namespace

TrayMenu::TrayMenu(QObject *parent)
    : QObject(parent) {
    menu_.setObjectName(QStringLiteral("trayMenu"));
    // The status lines in normal text at a width that does not change with the state.
    status_ = new MenuStatusWidget;
    statusAction_ = new QWidgetAction(&menu_);
    statusAction_->setDefaultWidget(status_);
    menu_.addAction(statusAction_);
    // What applies now (setModel shows each only when it does).
    open_ = menu_.addAction(Words::tr("&Open in browser"), this, &TrayMenu::openRequested);
    fix_ = menu_.addAction(QString(), this, [this] { emit fixRequested(fixKey_); });
    useFreePort_ = menu_.addAction(QString(), this, &TrayMenu::useFreePortRequested);
    tryAgain_ = menu_.addAction(Words::tr("&Try again"), this, &TrayMenu::tryAgainRequested);
    showLog_ = menu_.addAction(Words::tr("Show &log"), this, &TrayMenu::showLogRequested);
    start_ = menu_.addAction(Words::tr("&Start"), this, &TrayMenu::startRequested);
    restart_ = menu_.addAction(QString(), this, &TrayMenu::restartRequested);
    stop_ = menu_.addAction(Words::tr("S&top"), this, &TrayMenu::stopRequested);
    menu_.addSeparator();
    mcp_ = menu_.addMenu(QString());
    mcp_->setToolTipsVisible(true);
    // The application's own style, with the action column reserved once (see OneActionColumn).
    if (QStyle *base = QStyleFactory::create(QApplication::style()->name())) {
        auto *style = new OneActionColumn(base);
        style->setParent(mcp_);
        mcp_->setStyle(style);
    }
    connect(mcp_, &QMenu::aboutToShow, this, &TrayMenu::fitMcpRows);
    orphans_ = menu_.addAction(QString(), this, &TrayMenu::cleanupRequested);
    menu_.addSeparator();
    // Always there.
    menu_.addAction(Words::tr("Open status &window"), this, &TrayMenu::statusWindowRequested);
    menu_.addAction(Words::tr("Setti&ngs…"), this, &TrayMenu::settingsRequested);
    QMenu *help = menu_.addMenu(Words::tr("Trou&bleshoot"));
    help->addAction(Words::tr("Open &logs folder"), this, &TrayMenu::logsFolderRequested);
    help->addAction(Words::tr("&Copy diagnostics"), this, &TrayMenu::copyDiagnosticsRequested);
    menu_.addAction(Words::tr("&About Tether"), this, &TrayMenu::aboutRequested);
    menu_.addSeparator();
    menu_.addAction(Words::tr("&Quit Tether"), this, &TrayMenu::quitRequested);
    menu_.setToolTipsVisible(true);
}

TrayMenu::~TrayMenu() = default;

void TrayMenu::setModel(const TrayMenuModel &m, const QColor &stateColour) {
    status_->setModel(m, stateColour);
    // The menu lays its items out again on an action's change: a status block that grew or
    // shrank (a tool call began or ended) gets its new height, not the one it had when shown.
    // Its text is what a screen reader says for the block.
    statusAction_->setText(status_->statusText());
    status_->setToolTip(m.tooltip);
    open_->setVisible(m.showOpen);
    fixKey_ = m.fixKey;
    fix_->setText(m.fixLabel);
    fix_->setVisible(!m.fixLabel.isEmpty());
    useFreePort_->setText(m.useFreePortLabel);
    useFreePort_->setVisible(!m.useFreePortLabel.isEmpty());
    tryAgain_->setVisible(m.showTryAgain);
    showLog_->setVisible(m.showShowLog);
    start_->setVisible(m.showStart);
    restart_->setText(m.restartLabel);
    restart_->setVisible(m.showRestart);
    stop_->setVisible(m.showStop);
    orphans_->setText(m.orphanLabel);
    orphans_->setVisible(m.orphanCount > 0);
    setMcpRows(m);
}

void TrayMenu::setMcpRows(const TrayMenuModel &m) {
    mcp_->setTitle(m.mcpMenuTitle);
    mcp_->menuAction()->setVisible(!m.mcpRows.isEmpty());
    if (m.mcpRows == mcpRows_) return;
    mcpRows_ = m.mcpRows;
    mcp_->clear();
    for (const McpMenuRow &row : m.mcpRows) {
        // One row, one action: the server and its state, the action's word beside it (in the
        // shortcut column). A flagged server says why in its tooltip.
        QAction *a = mcp_->addAction(row.label + QLatin1Char('\t') + row.actionLabel);
        a->setEnabled(row.actionEnabled);
        const QString name = row.name;
        connect(a, &QAction::triggered, this, [this, name] { emit mcpActionRequested(name); });
    }
    fitMcpRows();
}

void TrayMenu::fitMcpRows() {
    const QList<QAction *> actions = mcp_->actions();
    if (actions.size() != mcpRows_.size()) return;
    const auto tooltip = [](const McpMenuRow &row, bool shortened) {
        const QString why = row.flagText.isEmpty()
                                ? Words::tr("%1 %2", "an action, then the MCP server it acts on")
                                      .arg(row.actionLabel, row.name)
                                : row.flagText;
        return shortened ? row.label + QLatin1Char('\n') + why : why;
    };
    // The rows in full first: what the submenu would need.
    for (int i = 0; i < actions.size(); ++i) {
        actions[i]->setText(mcpRows_[i].label + QLatin1Char('\t') + mcpRows_[i].actionLabel);
        actions[i]->setToolTip(tooltip(mcpRows_[i], false));
    }
    // The room beside the menu: Qt opens a submenu on its right, else on its left, and over the
    // menu itself when neither side has room for it. Known once the menu is shown.
    if (!menu_.isVisible() || !menu_.screen()) return;
    const QRect screen = menu_.screen()->availableGeometry();
    const QRect parent = menu_.geometry();
    const int room = std::max(parent.left() - screen.left(), screen.right() - parent.right()) -
                     std::abs(mcp_->style()->pixelMetric(QStyle::PM_SubMenuOverlap, nullptr, mcp_));
    const QFontMetrics fm(mcp_->font());
    const int excess = mcp_->sizeHint().width() - room;
    if (excess <= 0) return;
    int widest = 0;
    for (const McpMenuRow &row : std::as_const(mcpRows_))
        widest = std::max(widest, fm.horizontalAdvance(row.label));
    // Shortened to fit, yet never below a dozen characters: the server's name stays readable.
    const int width = std::max(widest - excess, 12 * fm.averageCharWidth());
    for (int i = 0; i < actions.size(); ++i) {
        const McpMenuRow &row = mcpRows_[i];
        const QString shown = fm.elidedText(row.label, Qt::ElideRight, width);
        if (shown == row.label) continue;
        actions[i]->setText(shown + QLatin1Char('\t') + row.actionLabel);
        actions[i]->setToolTip(tooltip(row, true));
    }
}

} // namespace tether
