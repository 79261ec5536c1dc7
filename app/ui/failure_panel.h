// What went wrong, when the service is Failed: the cause in a person's words, the service's own
// last output lines, and what mends it (a row of buttons the status window places): the one
// setting to edit (Edit arguments…), a free port, Try again, Show log. Its height is the same
// whatever it says (the status window keeps it in the place of the facts). It decides nothing: it
// shows ServiceStatus::failure, emits requests.
#pragma once

#include "service/status.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace tether::ui {

class FailurePanel : public QWidget {
    Q_OBJECT
public:
    explicit FailurePanel(QWidget *parent = nullptr);
    void setStatus(const ServiceStatus &status);
    // Keyboard focus on what mends it first: the setting, the free port, else Try again.
    void focusRemedy();

    QString causeText() const;
    QString logText() const;
    QPushButton *fixButton() const { return fix_; }
    // The remedies' buttons, for the window to place (they are not in the panel's layout).
    QWidget *actions() const { return actions_; }

signals:
    void showLogRequested(const QString &logPath);
    void tryAgainRequested();
    void useFreePortRequested(quint16 port);
    void fixRequested(const QString &settingKey);

private:
    QLabel *cause_ = nullptr;
    QWidget *actions_ = nullptr;
    QPlainTextEdit *log_ = nullptr;
    QPushButton *fix_ = nullptr;
    QPushButton *showLog_ = nullptr;
    QPushButton *tryAgain_ = nullptr;
    QPushButton *freePort_ = nullptr;
    QString logPath_;
    QString fixKey_;
    quint16 freePortNumber_ = 0;
};

} // namespace tether::ui
