#include "tray/menu_status.h"

#include "service/words.h"
#include "ui/format.h"

#include <QLabel>
#include <QVBoxLayout>

namespace tether {

MenuStatusWidget::MenuStatusWidget(QWidget *parent)
    : QWidget(parent) {
    auto *layout = new QVBoxLayout(this);
    layout->setSpacing(1);
    for (QLabel **l : {&status_, &detail_, &activity_, &update_}) {
        *l = new QLabel;
        (*l)->setWordWrap(true);
        (*l)->setTextFormat(Qt::PlainText);
        layout->addWidget(*l);
    }
    status_->setTextFormat(Qt::RichText);
}

// Measured when the menu first asks its size, not when the tray starts: the font's metrics and
// the rich text's layout load the font engine (FreeType, HarfBuzz, the font file, about 2 MiB
// resident) in a tray whose menu may never open.
void MenuStatusWidget::ensureLaidOut() {
    if (laidOut_) return;
    laidOut_ = true;
    fitToFont();
    showModel();
}

void MenuStatusWidget::fitToFont() {
    // Lined up with the text of the menu's items below it.
    const int indent = fontMetrics().averageCharWidth() * 3;
    layout()->setContentsMargins(indent, 4, 8, 4);
    // One width in every state, wide enough for the facts line on one line in this language
    // (German's "läuft seit 10 s" left its "s" alone on a second line): the line as it is at
    // its longest, with a demo's version.
    const QString longest =
        QStringList{QStringLiteral("1.18.33-demo"), Words::tr("port %1").arg(65535),
                    Words::tr("up %1").arg(ui::durationText(86399000))}
            .join(QStringLiteral(" · "));
    setFixedWidth(indent + 8 +
                  qMax(fontMetrics().averageCharWidth() * kMenuStatusChars,
                       fontMetrics().horizontalAdvance(longest) + 2));
}

void MenuStatusWidget::setModel(const TrayMenuModel &m, const QColor &stateColour) {
    stateLine_ = m.statusLine;
    detailLine_ = m.detailLine;
    thirdLine_ = m.thirdLine;
    updateLine_ = m.updateLine;
    stateColour_ = stateColour;
    // The rich text lays itself out (and loads the font engine) as it is set: only once the
    // menu is laid out, then on every change.
    if (laidOut_) showModel();
}

void MenuStatusWidget::showModel() {
    status_->setText(QStringLiteral("<span style='color:%1'>●</span> <b>%2</b>")
                         .arg(stateColour_.name(), stateLine_.toHtmlEscaped()));
    detail_->setText(detailLine_);
    detail_->setVisible(!detailLine_.isEmpty());
    // What it does (working), or why it failed: plain text, as readable as the status line.
    activity_->setText(thirdLine_);
    activity_->setVisible(!thirdLine_.isEmpty());
    update_->setText(updateLine_);
    update_->setVisible(!updateLine_.isEmpty());
}

QSize MenuStatusWidget::sizeHint() const {
    const_cast<MenuStatusWidget *>(this)->ensureLaidOut(); // the width follows the font
    const int w = minimumWidth();
    return {w, layout()->hasHeightForWidth() ? layout()->heightForWidth(w)
                                             : QWidget::sizeHint().height()};
}

QString MenuStatusWidget::statusText() const {
    QStringList lines{stateLine_};
    for (const QString &l : {detailLine_, thirdLine_, updateLine_})
        if (!l.isEmpty()) lines << l;
    return lines.join(QLatin1Char('\n'));
}

} // namespace tether
