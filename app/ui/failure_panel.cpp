#include "ui/failure_panel.h"

#include "tray/tray_menu_model.h"

#include <QDateTime>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace tether::ui {

FailurePanel::FailurePanel(QWidget *parent)
    : QWidget(parent) {
    setObjectName(QStringLiteral("failurePanel"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    cause_ = new QLabel;
    cause_->setObjectName(QStringLiteral("failureCause"));
    cause_->setWordWrap(true);
    cause_->setTextFormat(Qt::PlainText);
    cause_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = cause_->font();
    bold.setBold(true);
    cause_->setFont(bold);
    layout->addWidget(cause_);
    log_ = new QLabel;
    log_->setObjectName(QStringLiteral("failureLog"));
    log_->setTextFormat(Qt::PlainText);
    log_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    log_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    log_->setFrameShape(QFrame::StyledPanel);
    log_->setContentsMargins(4, 2, 4, 2);
    // Long lines are cut by the label, never widen the window past a small screen.
    log_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    layout->addWidget(log_);
    auto *buttons = new QHBoxLayout;
    showLog_ = new QPushButton(tr("Show log"));
    tryAgain_ = new QPushButton(tr("Try again"));
    freePort_ = new QPushButton;
    showLog_->setObjectName(QStringLiteral("showLog"));
    tryAgain_->setObjectName(QStringLiteral("tryAgain"));
    freePort_->setObjectName(QStringLiteral("useFreePort"));
    for (QPushButton *b : {tryAgain_, freePort_, showLog_})
        buttons->addWidget(b);
    buttons->addStretch();
    layout->addLayout(buttons);
    connect(showLog_, &QPushButton::clicked, this, [this] { emit showLogRequested(logPath_); });
    connect(tryAgain_, &QPushButton::clicked, this, &FailurePanel::tryAgainRequested);
    connect(freePort_, &QPushButton::clicked, this,
            [this] { emit useFreePortRequested(freePortNumber_); });
    hide();
}

void FailurePanel::setStatus(const ServiceStatus &st) {
    const TrayMenuModel m = trayMenuModel(st, QDateTime::currentDateTime());
    const FailureStatus &f = st.failure;
    const bool shown = st.state == policy::State::Failed && !f.isEmpty();
    setVisible(shown);
    if (!shown) return;
    // A sentence on its own here (the policy writes it to follow "failed: ").
    QString sentence = f.cause;
    if (!sentence.isEmpty()) sentence[0] = sentence[0].toUpper();
    cause_->setText(sentence);
    log_->setText(f.serviceLog.join(QLatin1Char('\n')));
    log_->setVisible(!f.serviceLog.isEmpty());
    logPath_ = f.logPath;
    showLog_->setEnabled(m.showLogEnabled);
    tryAgain_->setEnabled(m.tryAgainEnabled);
    freePortNumber_ = f.freePort;
    freePort_->setText(m.useFreePortLabel);
    freePort_->setVisible(!m.useFreePortLabel.isEmpty());
}

QString FailurePanel::causeText() const {
    return cause_->text();
}

QString FailurePanel::logText() const {
    return log_->text();
}

} // namespace tether::ui
