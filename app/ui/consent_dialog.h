// The question asked before Stop, Restart or Quit-and-stop while tool calls run: the buttons
// name what happens ("Stop anyway" / "Keep it running"), and the safe one is the default, so
// Enter or Esc never loses work.
#pragma once

#include <QString>

class QMessageBox;
class QWidget;

namespace tether::ui {

// Built, not shown: the tray execs it; tests look at it and press its buttons.
QMessageBox *newConsentDialog(QWidget *parent, const QString &action, const QString &question);
// Shows the dialog modally; true to go ahead.
bool confirmInterruption(QWidget *parent, const QString &action, const QString &question);

} // namespace tether::ui
