// What went wrong, when the service is Failed: the cause in a person's words, the service's own
// last output lines, and what can be done about it (Show log, Try again, Use a free port).
// Hidden otherwise. It decides nothing: it shows ServiceStatus::failure and emits requests.
#pragma once

#include "service/status.h"

#include <QWidget>

class QLabel;
class QPushButton;

namespace tether::ui {

class FailurePanel : public QWidget {
    Q_OBJECT
public:
    explicit FailurePanel(QWidget *parent = nullptr);
    void setStatus(const ServiceStatus &status);

    QString causeText() const;
    QString logText() const;

signals:
    void showLogRequested(const QString &logPath);
    void tryAgainRequested();
    void useFreePortRequested(quint16 port);

private:
    QLabel *cause_ = nullptr;
    QLabel *log_ = nullptr;
    QPushButton *showLog_ = nullptr;
    QPushButton *tryAgain_ = nullptr;
    QPushButton *freePort_ = nullptr;
    QString logPath_;
    quint16 freePortNumber_ = 0;
};

} // namespace tether::ui
