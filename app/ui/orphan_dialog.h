// Lists MCP processes a dead service left running (program, age, memory; the pid in a tooltip) with
// a checkbox each. Certain ones start checked; those that only look like one (matched by command
// line) start unchecked and are marked, so none is ended without a person choosing it. After a
// clean-up the dialog stays open and says what became of them.
#pragma once

#include "service/status.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace tether::ui {

// The program as a person knows it: argv[0]'s name, or for a runner (node, npx, uvx, python...)
// what it runs: "npx @modelcontextprotocol/server-everything", "node server-filesystem".
QString programName(const QStringList &argv);

// "3 processes ended." / "2 processes ended. 1 could not be ended: <why>."
QString cleanupResultText(int ended, const QStringList &notEnded);

class OrphanDialog : public QDialog {
    Q_OBJECT
public:
    explicit OrphanDialog(QWidget *parent = nullptr);

    // Rows follow the model; a person's checks survive a refresh (matched by pid).
    void setOrphans(const QList<OrphanStatus> &orphans);
    QList<qint64> checkedPids() const;
    // The outcome of the clean-up this dialog asked for.
    void showCleanupResult(int ended, const QStringList &notEnded);
    QString introText() const;
    QString resultText() const;

signals:
    void cleanupRequested(const QList<qint64> &pids);

private:
    void updateButtons();

    QLabel *intro_ = nullptr;
    QLabel *result_ = nullptr;
    QTreeWidget *list_ = nullptr;
    QPushButton *clean_ = nullptr;
    QPushButton *close_ = nullptr;
    QList<OrphanStatus> orphans_; // as last given: the ages move on from them
    bool cleaning_ = false;
};

} // namespace tether::ui
