#include "ui/failure_panel.h"

#include "tray/tray_menu_model.h"
#include "ui/status_text.h"

#include <QDateTime>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextCursor>
#include <QVBoxLayout>

namespace tether::ui {

FailurePanel::FailurePanel(QWidget *parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("failurePanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    cause_ = new QLabel;
    cause_->setObjectName(QStringLiteral("failureCause"));
    cause_->setAccessibleName(tr("Why it failed"));
    cause_->setWordWrap(true);
    cause_->setTextFormat(Qt::PlainText);
    cause_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    cause_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    QFont bold = cause_->font();
    bold.setBold(true);
    cause_->setFont(bold);
    cause_->setFixedHeight(2 * QFontMetrics(bold).lineSpacing() + 2);
    cause_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    layout->addWidget(cause_);
    // The service's own last lines: the newest two in view, the rest a scroll away.
    log_ = new QPlainTextEdit;
    log_->setObjectName(QStringLiteral("failureLog"));
    log_->setAccessibleName(tr("The service's last output"));
    log_->setReadOnly(true);
    log_->setTabChangesFocus(true);
    log_->setLineWrapMode(QPlainTextEdit::NoWrap);
    log_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    const QFontMetrics mono(log_->font());
    log_->setFixedHeight(2 * mono.lineSpacing() + 2 * log_->frameWidth() +
                         int(2 * log_->document()->documentMargin()));
    log_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    layout->addWidget(log_);
    // Its remedies, as a row the status window places among its own buttons (where the
    // service's Start, Stop, Restart stand when it has not failed), so both take one height.
    actions_ = new QWidget(this);
    auto *buttons = new QHBoxLayout(actions_);
    buttons->setContentsMargins(0, 0, 0, 0);
    fix_ = new QPushButton;
    freePort_ = new QPushButton;
    tryAgain_ = new QPushButton(tr("&Try again"));
    showLog_ = new QPushButton(tr("Show &log"));
    fix_->setObjectName(QStringLiteral("fix"));
    freePort_->setObjectName(QStringLiteral("useFreePort"));
    tryAgain_->setObjectName(QStringLiteral("tryAgain"));
    showLog_->setObjectName(QStringLiteral("showLog"));
    for (QPushButton *b : {fix_, freePort_, tryAgain_, showLog_})
        buttons->addWidget(b);
    layout->addStretch(); // what it says at the top of its room, the room's rest below
    connect(fix_, &QPushButton::clicked, this, [this] { emit fixRequested(fixKey_); });
    connect(showLog_, &QPushButton::clicked, this, [this] { emit showLogRequested(logPath_); });
    connect(tryAgain_, &QPushButton::clicked, this, &FailurePanel::tryAgainRequested);
    connect(freePort_, &QPushButton::clicked, this,
            [this] { emit useFreePortRequested(freePortNumber_); });
}

void FailurePanel::setStatus(const ServiceStatus &st) {
    const TrayMenuModel m = trayMenuModel(st, QDateTime::currentDateTime());
    const FailureStatus &f = st.failure;
    cause_->setText(failureText(st));
    const QString log = f.serviceLog.join(QLatin1Char('\n'));
    if (log_->toPlainText() != log) {
        log_->setPlainText(log);
        log_->moveCursor(QTextCursor::End); // the newest lines, the error, in view
        log_->ensureCursorVisible();
    }
    log_->setVisible(!f.serviceLog.isEmpty());
    logPath_ = f.logPath;
    fixKey_ = m.fixKey;
    fix_->setText(m.fixLabel);
    fix_->setVisible(!m.fixLabel.isEmpty());
    showLog_->setEnabled(m.showShowLog);
    tryAgain_->setEnabled(m.showTryAgain);
    freePortNumber_ = f.freePort;
    freePort_->setText(m.useFreePortLabel);
    freePort_->setVisible(!m.useFreePortLabel.isEmpty());
}

void FailurePanel::focusRemedy() {
    for (QPushButton *b : {fix_, freePort_, tryAgain_})
        if (!b->isHidden() && b->isEnabled()) {
            b->setFocus(Qt::OtherFocusReason);
            return;
        }
}

QString FailurePanel::causeText() const {
    return cause_->text();
}

QString FailurePanel::logText() const {
    return log_->toPlainText();
}

} // namespace tether::ui
