#include "ui/orphan_dialog.h"

#include "ui/format.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace tether::ui {

OrphanDialog::OrphanDialog(QWidget *parent)
    : QDialog(parent) {
    setWindowTitle(tr("Orphaned MCP processes"));
    auto *layout = new QVBoxLayout(this);
    auto *intro =
        new QLabel(tr("These processes were started for a service that is no longer running. "
                      "Checked ones will be stopped. Possible orphans only match an MCP command "
                      "line: check them only if you recognise them."));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    list_ = new QTreeWidget;
    list_->setRootIsDecorated(false);
    list_->setHeaderLabels({tr("Program"), tr("PID"), tr("Age"), tr("Memory"), tr("Kind")});
    list_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    layout->addWidget(list_);

    auto *buttons = new QDialogButtonBox;
    clean_ = buttons->addButton(tr("Clean up"), QDialogButtonBox::AcceptRole);
    buttons->addButton(tr("Ignore"), QDialogButtonBox::RejectRole);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        emit cleanupRequested(checkedPids());
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(list_, &QTreeWidget::itemChanged, this,
            [this] { clean_->setEnabled(!checkedPids().isEmpty()); });
    layout->addWidget(buttons);
    resize(620, 320);
}

void OrphanDialog::setOrphans(const QList<OrphanStatus> &orphans) {
    QHash<qint64, Qt::CheckState> kept;
    for (int i = 0; i < list_->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = list_->topLevelItem(i);
        kept.insert(item->data(1, Qt::UserRole).toLongLong(), item->checkState(0));
    }
    const QSignalBlocker block(list_);
    list_->clear();
    for (const OrphanStatus &o : orphans) {
        const bool possible = o.kind == QLatin1String("possible");
        const QString program =
            o.argv.isEmpty() ? tr("(unknown)") : QFileInfo(o.argv.first()).fileName();
        auto *item = new QTreeWidgetItem({program, QString::number(o.pid), durationText(o.ageMs),
                                          memoryText(o.rssKiB),
                                          possible ? tr("possible orphan") : tr("orphan")});
        item->setToolTip(0, o.argv.join(QLatin1Char(' ')));
        item->setData(1, Qt::UserRole, o.pid);
        item->setCheckState(0, kept.value(o.pid, possible ? Qt::Unchecked : Qt::Checked));
        if (possible) {
            QFont italic = item->font(0);
            italic.setItalic(true);
            for (int c = 0; c < 5; ++c)
                item->setFont(c, italic);
        }
        list_->addTopLevelItem(item);
    }
    clean_->setEnabled(!checkedPids().isEmpty());
}

QList<qint64> OrphanDialog::checkedPids() const {
    QList<qint64> pids;
    for (int i = 0; i < list_->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = list_->topLevelItem(i);
        if (item->checkState(0) == Qt::Checked) pids << item->data(1, Qt::UserRole).toLongLong();
    }
    return pids;
}

} // namespace tether::ui
