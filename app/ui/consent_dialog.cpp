#include "ui/consent_dialog.h"

#include "service/words.h"
#include "ui/app_icon.h"

#include <QMessageBox>
#include <QPushButton>

namespace tether::ui {

QMessageBox *newConsentDialog(QWidget *parent, const QString &action, const QString &question) {
    auto *box = new QMessageBox(QMessageBox::Warning, Words::tr("Interrupt running tool calls?"),
                                question, QMessageBox::NoButton, parent);
    box->setObjectName(QStringLiteral("consentDialog"));
    if (!parent) box->setWindowIcon(appIcon()); // asked from the tray: no window to take it from
    QPushButton *go = box->addButton(
        Words::tr("%1 anyway", "a button: stop, restart or quit even so").arg(action),
        QMessageBox::DestructiveRole);
    go->setObjectName(QStringLiteral("goAhead"));
    QPushButton *keep = box->addButton(Words::tr("&Keep it running"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("keepRunning"));
    box->setDefaultButton(keep);
    box->setEscapeButton(keep);
    return box;
}

bool confirmInterruption(QWidget *parent, const QString &action, const QString &question) {
    QMessageBox *box = newConsentDialog(parent, action, question);
    box->exec();
    const bool go =
        box->clickedButton() && box->clickedButton()->objectName() == QLatin1String("goAhead");
    delete box;
    return go;
}

} // namespace tether::ui
