// Lists orphaned MCP processes (program, pid, age, memory) with a checkbox each. Certain
// orphans start checked; "possible" ones (matched by command line only) start unchecked and
// are marked, so none is removed without a person choosing it.
#pragma once

#include "service/status.h"

#include <QDialog>

class QPushButton;
class QTreeWidget;

namespace tether::ui {

class OrphanDialog : public QDialog {
    Q_OBJECT
public:
    explicit OrphanDialog(QWidget *parent = nullptr);

    // Rows follow the model; a person's checks survive a refresh (matched by pid).
    void setOrphans(const QList<OrphanStatus> &orphans);
    QList<qint64> checkedPids() const;

signals:
    void cleanupRequested(const QList<qint64> &pids);

private:
    QTreeWidget *list_ = nullptr;
    QPushButton *clean_ = nullptr;
};

} // namespace tether::ui
