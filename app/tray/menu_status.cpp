#include "tray/menu_status.h"

#include "service/words.h"
#include "ui/format.h"

#include <QLabel>
#include <QVBoxLayout>

namespace tether {

MenuStatusWidget::MenuStatusWidget(QWidget *parent)
    : QWidget(parent) {
    auto *layout = new QVBoxLayout(this);
    // Lined up with the text of the menu's items below it.
    const int indent = fontMetrics().averageCharWidth() * 3;
    layout->setContentsMargins(indent, 4, 8, 4);
    layout->setSpacing(1);
    for (QLabel **l : {&status_, &detail_, &activity_}) {
        *l = new QLabel;
        (*l)->setWordWrap(true);
        (*l)->setTextFormat(Qt::PlainText);
        layout->addWidget(*l);
    }
    status_->setTextFormat(Qt::RichText);
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
    status_->setText(QStringLiteral("<span style='color:%1'>●</span> <b>%2</b>")
                         .arg(stateColour.name(), m.statusLine.toHtmlEscaped()));
    detail_->setText(m.detailLine);
    detail_->setVisible(!m.detailLine.isEmpty());
    // What it does (working), or why it failed: plain text, as readable as the status line.
    activity_->setText(m.thirdLine);
    activity_->setVisible(!m.thirdLine.isEmpty());
}

QSize MenuStatusWidget::sizeHint() const {
    const int w = minimumWidth();
    return {w, layout()->hasHeightForWidth() ? layout()->heightForWidth(w)
                                             : QWidget::sizeHint().height()};
}

QString MenuStatusWidget::statusText() const {
    QStringList lines{stateLine_};
    for (QLabel *l : {detail_, activity_})
        if (!l->isHidden()) lines << l->text();
    return lines.join(QLatin1Char('\n'));
}

} // namespace tether
