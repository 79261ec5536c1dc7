#include "ui/orphan_dialog.h"

#include "ui/app_icon.h"
#include "ui/format.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHash>
#include <QHeaderView>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QScreen>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace tether::ui {

namespace {

enum Column { ProgramCol, AgeCol, MemoryCol, PidCol, KindCol, OrphanColumnCount };

// "C:\x\node.exe" -> "node"; "/usr/bin/python3" -> "python3".
QString baseName(const QString &path) {
    QString name = QFileInfo(QString(path).replace(QLatin1Char('\\'), QLatin1Char('/'))).fileName();
    for (const char *ext : {".exe", ".cmd", ".bat"})
        if (name.endsWith(QLatin1String(ext), Qt::CaseInsensitive)) name.chop(int(qstrlen(ext)));
    return name;
}

// What a script path stands for: the package it lives in ("node_modules/@scope/pkg/dist/x.js"
// -> "@scope/pkg"; ".bin/tool" -> "tool"), else the file's name.
QString scriptName(const QString &arg) {
    const QString path = QString(arg).replace(QLatin1Char('\\'), QLatin1Char('/'));
    const int at = path.lastIndexOf(QLatin1String("node_modules/"));
    if (at >= 0) {
        const QStringList parts =
            path.mid(at + int(qstrlen("node_modules/"))).split(QLatin1Char('/'));
        if (parts.size() >= 2 && parts[0] == QLatin1String(".bin")) return parts[1];
        if (parts.size() >= 2 && parts[0].startsWith(QLatin1Char('@')))
            return parts[0] + QLatin1Char('/') + parts[1];
        if (!parts.isEmpty() && !parts[0].isEmpty()) return parts[0];
    }
    return QFileInfo(path).fileName();
}

QString ageText(const OrphanStatus &o) {
    return durationText(o.startedAt.isValid() ? o.startedAt.msecsTo(QDateTime::currentDateTime())
                                              : o.ageMs);
}

} // namespace

QString programName(const QStringList &argv) {
    if (argv.isEmpty()) return OrphanDialog::tr("(unknown program)");
    const QString program = baseName(argv.first());
    const QString lower = program.toLower();
    const auto is = [&](std::initializer_list<const char *> names) {
        return std::any_of(names.begin(), names.end(),
                           [&](const char *n) { return lower == QLatin1String(n); });
    };
    // "sh -c 'mcp-server-x --flag'": the command the shell runs.
    if (is({"sh", "bash", "dash", "zsh", "cmd"})) {
        for (int i = 1; i + 1 < argv.size(); ++i)
            if (argv[i] == QLatin1String("-c") ||
                argv[i].compare(QLatin1String("/c"), Qt::CaseInsensitive) == 0)
                return programName(QProcess::splitCommand(argv[i + 1]));
        return program;
    }
    // Tether's own stand-ins ("tether demo-mcp"): the verb tells them from Tether itself.
    if (is({"tether", "tether-cli"}) && argv.size() > 1 && !argv[1].startsWith(QLatin1Char('-'))) {
        const int name = int(argv.indexOf(QStringLiteral("--name")));
        return program + QLatin1Char(' ') + argv[1] +
               (name > 0 && name + 1 < argv.size() ? QLatin1Char(' ') + argv[name + 1] : QString());
    }
    // Package runners name a package, interpreters a script: what a person configured.
    const bool runner = is({"npx", "uvx", "bunx", "pipx", "npm", "pnpm", "yarn"});
    const bool interpreter =
        is({"node", "bun", "deno"}) || lower.startsWith(QLatin1String("python"));
    if (!runner && !interpreter) return program;
    for (int i = 1; i < argv.size(); ++i) {
        const QString &a = argv[i];
        if (a.startsWith(QLatin1Char('-'))) {
            // "python -m pkg": the module is what runs.
            if (a == QLatin1String("-m") && i + 1 < argv.size())
                return program + QLatin1Char(' ') + argv[i + 1];
            continue;
        }
        // The runner's own verb: "npm exec pkg", "pnpm dlx pkg", "pipx run pkg", "deno run x".
        if (i == 1 && (a == QLatin1String("exec") || a == QLatin1String("dlx") ||
                       a == QLatin1String("run") || a == QLatin1String("x")))
            continue;
        return program + QLatin1Char(' ') + (runner ? a : scriptName(a));
    }
    return program;
}

QString cleanupResultText(int ended, const QStringList &notEnded) {
    QStringList parts;
    if (ended > 0 || notEnded.isEmpty())
        parts << OrphanDialog::tr("%n process(es) ended.", nullptr, ended);
    if (!notEnded.isEmpty())
        parts << OrphanDialog::tr("%n could not be ended: %1.", nullptr, int(notEnded.size()))
                     .arg(notEnded.join(QStringLiteral("; ")));
    return parts.join(QLatin1Char(' '));
}

OrphanDialog::OrphanDialog(QWidget *parent)
    : QDialog(parent) {
    setWindowTitle(tr("MCP servers left running"));
    setWindowIcon(appIcon());
    auto *layout = new QVBoxLayout(this);
    intro_ = new QLabel;
    intro_->setWordWrap(true);
    intro_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    layout->addWidget(intro_);

    list_ = new QTreeWidget;
    list_->setRootIsDecorated(false);
    list_->setColumnCount(OrphanColumnCount);
    list_->setHeaderLabels(
        {tr("Program"), tr("Running for"), tr("Memory"), tr("Process ID"), tr("Found")});
    list_->setAccessibleName(tr("MCP servers left running"));
    list_->header()->setStretchLastSection(false);
    list_->header()->setSectionResizeMode(ProgramCol, QHeaderView::Stretch);
    for (int c = AgeCol; c < OrphanColumnCount; ++c)
        list_->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    layout->addWidget(list_, 1);

    result_ = new QLabel;
    result_->setWordWrap(true);
    result_->setVisible(false);
    result_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    layout->addWidget(result_);
    layout->addStretch(); // takes the room of a hidden list: the words stay at the top

    auto *buttons = new QDialogButtonBox;
    clean_ = buttons->addButton(tr("&Clean up"), QDialogButtonBox::AcceptRole);
    close_ = buttons->addButton(tr("&Ignore"), QDialogButtonBox::RejectRole);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        const QList<qint64> pids = checkedPids();
        if (pids.isEmpty()) return;
        // Stay open: the person waits for, and then reads, what became of them.
        cleaning_ = true;
        result_->setText(tr("Ending %n process(es)…", nullptr, int(pids.size())));
        result_->setVisible(true);
        updateButtons();
        emit cleanupRequested(pids);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(list_, &QTreeWidget::itemChanged, this, &OrphanDialog::updateButtons);
    layout->addWidget(buttons);
    // Their ages move on while the dialog is open (a "running for 10 s" that never moved).
    auto *tick = new QTimer(this);
    tick->setInterval(1000);
    connect(tick, &QTimer::timeout, this, [this] {
        for (int i = 0; i < list_->topLevelItemCount() && i < orphans_.size(); ++i)
            list_->topLevelItem(i)->setText(AgeCol, ageText(orphans_[i]));
    });
    tick->start();
    setOrphans({});
    // Wide enough for "npx @scope/server-name" at 1x; never wider than the screen (at 2x a
    // 1280x800 screen is 640 wide).
    QSize size(680, 340);
    if (const QScreen *s = screen()) size = size.boundedTo(s->availableSize() - QSize(24, 48));
    resize(size);
}

void OrphanDialog::setOrphans(const QList<OrphanStatus> &orphans) {
    orphans_ = orphans;
    QHash<qint64, Qt::CheckState> kept;
    for (int i = 0; i < list_->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = list_->topLevelItem(i);
        kept.insert(item->data(ProgramCol, Qt::UserRole).toLongLong(), item->checkState(0));
    }
    const QSignalBlocker block(list_);
    list_->clear();
    int possibleCount = 0;
    for (const OrphanStatus &o : orphans) {
        const bool possible = o.kind == QLatin1String("possible");
        possibleCount += possible ? 1 : 0;
        QStringList cells(OrphanColumnCount);
        cells[ProgramCol] = programName(o.argv);
        cells[AgeCol] = ageText(o);
        cells[MemoryCol] = memoryText(o.rssKiB);
        cells[PidCol] = QString::number(o.pid);
        cells[KindCol] = possible ? tr("looks like one") : tr("left by a crashed service");
        auto *item = new QTreeWidgetItem(cells);
        // The whole command and its process ID: details, for who wants to check.
        item->setToolTip(ProgramCol,
                         tr("Process %1: %2").arg(o.pid).arg(o.argv.join(QLatin1Char(' '))));
        item->setData(ProgramCol, Qt::UserRole, o.pid);
        item->setCheckState(ProgramCol, kept.value(o.pid, possible ? Qt::Unchecked : Qt::Checked));
        if (possible) {
            QFont italic = item->font(0);
            italic.setItalic(true);
            for (int c = 0; c < OrphanColumnCount; ++c)
                item->setFont(c, italic);
        }
        list_->addTopLevelItem(item);
    }
    const int certainCount = int(orphans.size()) - possibleCount;
    // A column that says the same on every row says nothing.
    list_->setColumnHidden(KindCol, possibleCount == 0 || certainCount == 0);
    list_->setColumnHidden(PidCol, true);
    list_->setVisible(!orphans.isEmpty());

    QString text;
    if (orphans.isEmpty())
        text = tr("No MCP servers are left running.");
    else if (possibleCount == 0)
        text = tr("These MCP servers were started by a service that is no longer running. "
                  "Checked ones are ended when you click Clean up.");
    else if (certainCount == 0)
        text = tr("These processes look like MCP servers left by an earlier service, but Tether "
                  "did not start them. Check only the ones you recognise; they are ended when "
                  "you click Clean up.");
    else
        text = tr("These MCP servers were started by a service that is no longer running. "
                  "Checked ones are ended when you click Clean up. Those that only look like "
                  "one are not checked: check them only if you recognise them.");
    intro_->setText(text);
    updateButtons();
}

QList<qint64> OrphanDialog::checkedPids() const {
    QList<qint64> pids;
    for (int i = 0; i < list_->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = list_->topLevelItem(i);
        if (item->checkState(ProgramCol) == Qt::Checked)
            pids << item->data(ProgramCol, Qt::UserRole).toLongLong();
    }
    return pids;
}

void OrphanDialog::showCleanupResult(int ended, const QStringList &notEnded) {
    cleaning_ = false;
    result_->setText(cleanupResultText(ended, notEnded));
    result_->setVisible(true);
    updateButtons();
}

QString OrphanDialog::introText() const {
    return intro_->text();
}

QString OrphanDialog::resultText() const {
    return result_->isVisibleTo(this) ? result_->text() : QString();
}

void OrphanDialog::updateButtons() {
    const bool any = list_->topLevelItemCount() > 0;
    clean_->setVisible(any);
    clean_->setEnabled(!cleaning_ && !checkedPids().isEmpty());
    // With nothing left to decide, the way out is no longer "Ignore".
    close_->setText(any && !cleaning_ ? tr("&Ignore") : tr("&Close"));
}

} // namespace tether::ui
