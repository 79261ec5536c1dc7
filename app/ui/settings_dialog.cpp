#include "ui/settings_dialog.h"

#include "settings/argument_list.h"
#include "settings/autostart.h"
#include "tray/tray_icons.h"
#include "tray/tray_menu_model.h"

#include "shell/runtime.h"
#include "ui/app_icon.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <utility>

namespace tether::ui {

namespace {

// ---- The Arguments field: shown with the INI file's own syntax (settings/argument_list.h)

// ---- What the form shows: pages by task, each setting with a label and a line of help -------
enum class Kind { Text, Arguments, Choice, Check, Whole, Seconds };

struct Row {
    const char *key;
    const char *label; // for a check box: its text
    const char *help;
    Kind kind;
    const char *suffix = ""; // Whole: the unit shown after the number
    const char *placeholder = "";
};

struct Page {
    const char *title;
    std::vector<Row> rows;
};

const std::vector<Page> &pages() {
    static const std::vector<Page> all = {
        {QT_TRANSLATE_NOOP("SettingsDialog", "General"),
         {
             {"service/profile", QT_TRANSLATE_NOOP("SettingsDialog", "Service to &run"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "What Tether starts and looks after. Automatic: opencode if it is "
                                "installed, else Tether's demo service."),
              Kind::Choice},
             {"service/program", QT_TRANSLATE_NOOP("SettingsDialog", "&Program"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "Leave empty to find opencode on this computer (or, for the demo, "
                                "to use Tether itself)."),
              Kind::Text, "", QT_TRANSLATE_NOOP("SettingsDialog", "Found automatically")},
             {"service/arguments", QT_TRANSLATE_NOOP("SettingsDialog", "Extra &arguments"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "Separated by spaces; put quotes around one that contains spaces. "
                                "For another program: its whole command line."),
              Kind::Arguments, "", QT_TRANSLATE_NOOP("SettingsDialog", "None")},
             {"service/port", QT_TRANSLATE_NOOP("SettingsDialog", "P&ort"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "The local port the service listens on, on this computer only. "
                                "opencode 2.x chooses its own (opencode service set port)."),
              Kind::Whole},
         }},
        {QT_TRANSLATE_NOOP("SettingsDialog", "Startup"),
         {
             {"orphans/onLaunch",
              QT_TRANSLATE_NOOP("SettingsDialog", "Servers &found when Tether starts"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "MCP servers an earlier service left running before Tether "
                                "started."),
              Kind::Choice},
             {"app/notifications", QT_TRANSLATE_NOOP("SettingsDialog", "Show &notifications"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "When the service stops unexpectedly, cannot be restarted or "
                                "needs you."),
              Kind::Check},
             {"app/stopServiceOnQuit",
              QT_TRANSLATE_NOOP("SettingsDialog", "Stop the service &when Tether quits"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "Otherwise it keeps running and Tether finds it again next time."),
              Kind::Check},
         }},
        {QT_TRANSLATE_NOOP("SettingsDialog", "MCP servers"),
         {
             {"mcp/memoryWarnMiB", QT_TRANSLATE_NOOP("SettingsDialog", "&Memory warning above"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "Tether tells you when one MCP server uses more memory than this."),
              Kind::Whole, QT_TRANSLATE_NOOP("SettingsDialog", " MiB")},
             {"mcp/cpuBusyMinutes", QT_TRANSLATE_NOOP("SettingsDialog", "&Busy warning after"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "Tether tells you when one MCP server keeps a processor busy this "
                                "long."),
              Kind::Whole, QT_TRANSLATE_NOOP("SettingsDialog", " min")},
             {"orphans/whileRunning",
              QT_TRANSLATE_NOOP("SettingsDialog", "Servers left by a &crashed service"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "What to do with MCP servers still running after the service "
                                "crashed or was replaced."),
              Kind::Choice},
         }},
        // ---- Advanced: the tuning, behind "Show advanced settings" (kFirstAdvanced) ----
        {QT_TRANSLATE_NOOP("SettingsDialog", "Recovery"),
         {
             {"recovery/windowMs", QT_TRANSLATE_NOOP("SettingsDialog", "&Wait for a busy service"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "How long the service may leave health checks unanswered before "
                                "Tether replaces it."),
              Kind::Seconds},
             {"recovery/burst", QT_TRANSLATE_NOOP("SettingsDialog", "Restarts &before giving up"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "After this many failed starts within the time below, Tether "
                                "stops trying and tells you."),
              Kind::Whole},
             {"recovery/burstWindowMs", QT_TRANSLATE_NOOP("SettingsDialog", "&Counted within"),
              QT_TRANSLATE_NOOP("SettingsDialog", "The time over which failed starts add up."),
              Kind::Seconds},
             {"recovery/backoffInitialMs",
              QT_TRANSLATE_NOOP("SettingsDialog", "&First restart after"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "The pause before the first restart; each further one waits twice "
                                "as long."),
              Kind::Seconds},
             {"recovery/backoffMaxMs", QT_TRANSLATE_NOOP("SettingsDialog", "&Longest pause"),
              QT_TRANSLATE_NOOP("SettingsDialog", "Restarts never wait longer than this."),
              Kind::Seconds},
             {"recovery/stableResetMs",
              QT_TRANSLATE_NOOP("SettingsDialog", "Forget failures after &running"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "Once the service has run this long without trouble, earlier "
                                "failures no longer count."),
              Kind::Seconds},
             {"recovery/graceMs", QT_TRANSLATE_NOOP("SettingsDialog", "&Time to stop cleanly"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "How long the service may take to stop before Tether ends it."),
              Kind::Seconds},
             {"recovery/autoReplaceOnVersionChange",
              QT_TRANSLATE_NOOP("SettingsDialog", "Restart when a new &version is installed"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "Otherwise Tether shows that versions differ and you restart when "
                                "it suits you."),
              Kind::Check},
         }},
        {QT_TRANSLATE_NOOP("SettingsDialog", "Health checks"),
         {
             {"probe/intervalMs", QT_TRANSLATE_NOOP("SettingsDialog", "Check &every"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "How often Tether asks the service whether it is alive."),
              Kind::Seconds},
             {"probe/timeoutMs", QT_TRANSLATE_NOOP("SettingsDialog", "&Answer expected within"),
              QT_TRANSLATE_NOOP("SettingsDialog", "A check not answered in this time is missed."),
              Kind::Seconds},
             {"probe/startupDeadlineMs", QT_TRANSLATE_NOOP("SettingsDialog", "&Time to start"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "How long a starting service may take to answer its first "
                                "check."),
              Kind::Seconds},
             {"service/healthPath", QT_TRANSLATE_NOOP("SettingsDialog", "&Health check address"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "Another program only: the path Tether asks to see that it is "
                                "alive."),
              Kind::Text, "", "/global/health"},
         }},
        {QT_TRANSLATE_NOOP("SettingsDialog", "Other"),
         {
             {"service/containment",
              QT_TRANSLATE_NOOP("SettingsDialog", "Stop &everything the service started with it"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "The service and its MCP servers run as one group, so none is "
                                "left behind when it stops."),
              Kind::Check},
             {"orphans/graceMs",
              QT_TRANSLATE_NOOP("SettingsDialog", "Time for &left-over servers to exit"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "How long a left-over MCP server may take to exit before Tether "
                                "ends it."),
              Kind::Seconds},
             {"service/stateDir", QT_TRANSLATE_NOOP("SettingsDialog", "opencode 2 state &folder"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "Where opencode 2.x writes service.json. Leave empty for its "
                                "usual place."),
              Kind::Text, "", QT_TRANSLATE_NOOP("SettingsDialog", "Usual place")},
             {"service/channel", QT_TRANSLATE_NOOP("SettingsDialog", "opencode 2 c&hannel"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "The build channel of opencode 2.x (latest, beta, local...), "
                                "which names its service file and port. Leave empty to take it "
                                "from the installed version."),
              Kind::Text, "", QT_TRANSLATE_NOOP("SettingsDialog", "From the installed version")},
             {"app/trayIcon", QT_TRANSLATE_NOOP("SettingsDialog", "Tray &icon for"),
              QT_TRANSLATE_NOOP("SettingsDialog",
                                "Tether picks the icons for your panel by itself; choose here if "
                                "they are hard to see on it."),
              Kind::Choice},
         }},
    };
    return all;
}
constexpr int kFirstAdvanced = 3; // Recovery, Health checks, Other

// The words for a fixed choice's INI text; the INI text itself when there are none.
QString choiceText(const QString &key, const QString &value) {
    static const QMap<QString, const char *> profile = {
        {QStringLiteral("auto"), QT_TRANSLATE_NOOP("SettingsDialog", "Automatic")},
        {QStringLiteral("opencode1"), QT_TRANSLATE_NOOP("SettingsDialog", "opencode 1.x")},
        {QStringLiteral("opencode2"), QT_TRANSLATE_NOOP("SettingsDialog", "opencode 2.x")},
        {QStringLiteral("custom"), QT_TRANSLATE_NOOP("SettingsDialog", "Another program")},
        {QStringLiteral("demo"), QT_TRANSLATE_NOOP("SettingsDialog", "Tether's demo service")},
    };
    static const QMap<QString, const char *> trayIcon = {
        {QStringLiteral("auto"), QT_TRANSLATE_NOOP("SettingsDialog", "Automatic")},
        {QStringLiteral("light"), QT_TRANSLATE_NOOP("SettingsDialog", "A light panel")},
        {QStringLiteral("dark"), QT_TRANSLATE_NOOP("SettingsDialog", "A dark panel")},
    };
    static const QMap<QString, const char *> orphans = {
        {QStringLiteral("ask"), QT_TRANSLATE_NOOP("SettingsDialog", "Ask me")},
        {QStringLiteral("clean"), QT_TRANSLATE_NOOP("SettingsDialog", "End them")},
        {QStringLiteral("ignore"), QT_TRANSLATE_NOOP("SettingsDialog", "Leave them running")},
    };
    const auto &names = key == QLatin1String("service/profile") ? profile
                        : key == QLatin1String("app/trayIcon")  ? trayIcon
                                                                : orphans;
    const char *text = names.value(value, nullptr);
    return text ? QCoreApplication::translate("SettingsDialog", text) : value;
}

// Seconds, shown as a person writes them ("5 s", "0.5 s"), kept to the millisecond so a value
// from the INI file is never rounded away.
class SecondsBox : public QDoubleSpinBox {
public:
    SecondsBox() {
        setDecimals(3);
        setSuffix(QCoreApplication::translate("SettingsDialog", " s"));
    }
    QString textFromValue(double value) const override {
        QString t = locale().toString(value, 'f', decimals());
        const QChar point = locale().decimalPoint().front();
        if (t.contains(point)) {
            while (t.endsWith(QLatin1Char('0')))
                t.chop(1);
            if (t.endsWith(point)) t.chop(1);
        }
        return t;
    }
};

// The pages' words are marked above in the context "SettingsDialog".
QString rowText(const char *text) {
    return QCoreApplication::translate("SettingsDialog", text);
}

QLabel *helpLabel(const QString &text) {
    auto *help = new QLabel(text);
    help->setWordWrap(true);
    help->setForegroundRole(QPalette::PlaceholderText);
    QFont small = help->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    help->setFont(small);
    help->setContentsMargins(0, 0, 0, 6);
    return help;
}

// "Extra &arguments" -> "Extra arguments": the words, for messages and screen readers.
QString withoutMnemonic(QString text) {
    return text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
}

} // namespace

SettingsDialog::SettingsDialog(const Settings &current, QString path, Hooks hooks, QWidget *parent)
    : QDialog(parent)
    , current_(current)
    , path_(std::move(path))
    , hooks_(std::move(hooks)) {
    setWindowTitle(tr("Tether settings"));
    setWindowIcon(appIcon());
    if (!hooks_.confirm)
        hooks_.confirm = [this](const QString &q) {
            QMessageBox box(QMessageBox::Question, windowTitle(), q, QMessageBox::NoButton, this);
            QPushButton *go = box.addButton(tr("&Restart it"), QMessageBox::AcceptRole);
            box.addButton(tr("&Cancel"), QMessageBox::RejectRole);
            box.exec();
            return box.clickedButton() == go;
        };
    const QMap<QString, QVariant> values = settingsToValues(current);

    // A list of pages rather than tabs: six tabs do not fit a narrow dialog at 2x.
    auto *list = new QListWidget;
    list->setAccessibleName(tr("Pages"));
    stack_ = new QStackedWidget;
    firstAdvanced_ = kFirstAdvanced;
    for (int pageIndex = 0; pageIndex < int(pages().size()); ++pageIndex) {
        const Page &page = pages()[std::size_t(pageIndex)];
        auto *form = new QFormLayout;
        form->setRowWrapPolicy(QFormLayout::WrapLongRows);
        form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow); // numbers keep their size
        if (pageIndex == 1) {
            // Start at login is the OS's (Run key, login item, autostart file): read back from
            // it, written on Save.
            const LoginMenuItem item = loginMenuItem(platformAutostart()->status());
            login_ = new QCheckBox(item.text);
            login_->setChecked(item.checked);
            login_->setEnabled(item.enabled);
            login_->setObjectName(QStringLiteral("startAtLogin"));
            login_->setAccessibleDescription(item.toolTip);
            login_->setToolTip(item.toolTip);
            form->addRow(login_);
            form->addRow(helpLabel(tr("Tether starts, quietly in the tray, when you log in.")));
        }
        if (pageIndex == firstAdvanced_) {
            auto *intro = helpLabel(tr("Fine tuning: the defaults suit most people and services."));
            form->addRow(intro);
        }
        for (const Row &row : page.rows) {
            const QString key = QLatin1String(row.key);
            const QVariant value = values.value(key);
            const QString label = rowText(row.label);
            const std::optional<SettingRange> range = settingRange(key);
            QWidget *w = nullptr;
            switch (row.kind) {
            case Kind::Choice: {
                auto *combo = new QComboBox;
                // Its longest choice must not widen the page past a narrow dialog: it elides.
                combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
                combo->setMinimumContentsLength(14);
                combo->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
                for (const QString &choice : settingChoices(key))
                    combo->addItem(choiceText(key, choice), choice);
                combo->setCurrentIndex(std::max(0, combo->findData(value.toString())));
                connect(combo, &QComboBox::currentIndexChanged, this, &SettingsDialog::validate);
                w = combo;
                break;
            }
            case Kind::Check: {
                auto *box = new QCheckBox(label);
                box->setChecked(value.toBool());
                connect(box, &QCheckBox::toggled, this, &SettingsDialog::validate);
                w = box;
                break;
            }
            case Kind::Whole: {
                auto *spin = new QSpinBox;
                // QSpinBox holds an int; every whole-number setting's range fits one.
                spin->setRange(int(range->min), int(range->max));
                spin->setValue(int(value.toLongLong()));
                if (*row.suffix) spin->setSuffix(rowText(row.suffix));
                connect(spin, &QSpinBox::valueChanged, this, &SettingsDialog::validate);
                w = spin;
                break;
            }
            case Kind::Seconds: {
                auto *spin = new SecondsBox;
                spin->setRange(double(range->min) / 1000.0, double(range->max) / 1000.0);
                spin->setValue(double(value.toLongLong()) / 1000.0);
                spin->setSingleStep(range->min < 1000 && value.toLongLong() < 2000 ? 0.1 : 1.0);
                connect(spin, &QDoubleSpinBox::valueChanged, this, &SettingsDialog::validate);
                w = spin;
                break;
            }
            case Kind::Text:
            case Kind::Arguments: {
                auto *edit =
                    new QLineEdit(row.kind == Kind::Arguments
                                      ? joinArgumentList(argumentsFromSetting(value).arguments)
                                      : value.toString());
                edit->setPlaceholderText(rowText(row.placeholder));
                connect(edit, &QLineEdit::textChanged, this, &SettingsDialog::validate);
                w = edit;
                break;
            }
            }
            w->setObjectName(key);
            const QString words = withoutMnemonic(label);
            const QString help = rowText(row.help);
            w->setAccessibleName(words);
            w->setAccessibleDescription(help);
            // The file's name for it, for those who also edit tether.ini by hand.
            w->setToolTip(
                tr("In tether.ini: [%1] %2")
                    .arg(key.section(QLatin1Char('/'), 0, 0), key.section(QLatin1Char('/'), 1)));
            if (row.kind == Kind::Check) {
                form->addRow(w);
            } else {
                auto *name = new QLabel(label + tr(":", "after a setting's name"));
                name->setBuddy(w); // its mnemonic focuses the field
                form->addRow(name, w);
            }
            QLabel *helpLine = helpLabel(help);
            form->addRow(helpLine);
            fields_.insert(key, w);
            labels_.insert(key, words);
            help_.insert(key, help);
            helpOf_.insert(key, helpLine);
            pageOf_.insert(key, pageIndex);
        }
        auto *content = new QWidget;
        auto *column = new QVBoxLayout(content);
        column->addLayout(form);
        column->addStretch();
        auto *scroll = new QScrollArea;
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        scroll->setWidget(content);
        scroll->setAccessibleName(rowText(page.title));
        stack_->addWidget(scroll);
        scrolls_ << scroll;
        titles_ << rowText(page.title);
        list->addItem(titles_.last());
    }
    // Numbers in one column of one width, whatever their range.
    int widest = 0;
    for (QWidget *w : std::as_const(fields_))
        if (qobject_cast<QAbstractSpinBox *>(w)) widest = std::max(widest, w->sizeHint().width());
    for (QWidget *w : std::as_const(fields_))
        if (qobject_cast<QAbstractSpinBox *>(w)) w->setMinimumWidth(widest);

    // Fields that only one kind of service reads are greyed out for the others (kept, not lost).
    auto *profile = qobject_cast<QComboBox *>(fields_.value(QStringLiteral("service/profile")));
    const auto followProfile = [this, profile] {
        const QString p = profile->currentData().toString();
        fields_.value(QStringLiteral("service/healthPath"))
            ->setEnabled(p == QLatin1String("custom"));
        const bool v2 = p == QLatin1String("auto") || p == QLatin1String("opencode2");
        fields_.value(QStringLiteral("service/stateDir"))->setEnabled(v2);
        fields_.value(QStringLiteral("service/channel"))->setEnabled(v2);
        // opencode 2.x takes the port its own config names (opencode service set port).
        fields_.value(QStringLiteral("service/port"))->setEnabled(p != QLatin1String("opencode2"));
    };
    connect(profile, &QComboBox::currentIndexChanged, this, followProfile);
    followProfile();

    list->setSpacing(3);
    list->setCurrentRow(0);
    int listWidth = 0;
    for (const QString &t : std::as_const(titles_))
        listWidth = std::max(listWidth, list->fontMetrics().horizontalAdvance(t));
    list->setFixedWidth(listWidth + 2 * list->frameWidth() + 28);
    connect(list, &QListWidget::currentRowChanged, stack_, &QStackedWidget::setCurrentIndex);
    pageList_ = list;

    auto *pagesRow = new QHBoxLayout;
    auto *side = new QVBoxLayout;
    side->addWidget(list, 1);
    advanced_ = new QCheckBox(tr("Show advanced settin&gs"));
    advanced_->setAccessibleDescription(
        tr("Recovery, health checks and other tuning most people never change"));
    connect(advanced_, &QCheckBox::toggled, this, &SettingsDialog::showAdvanced);
    side->addWidget(advanced_);
    pagesRow->addLayout(side);
    pagesRow->addWidget(stack_, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(pagesRow, 1);
    warnings_ = new QLabel;
    warnings_->setWordWrap(true);
    warnings_->setTextFormat(Qt::PlainText);
    // The warning colour of the palette's tone, not a colour of its own.
    QPalette warn = warnings_->palette();
    warn.setColor(QPalette::WindowText, stateColor(policy::State::Failed, palette()));
    warnings_->setPalette(warn);
    layout->addWidget(warnings_);

    auto *buttons = new QDialogButtonBox;
    save_ = buttons->addButton(tr("&Save"), QDialogButtonBox::AcceptRole);
    save_->setDefault(true);
    buttons->addButton(tr("Cancel"), QDialogButtonBox::RejectRole);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (trySave()) accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    showAdvanced(false);
    validate();

    fitPages();
}

// As high as its highest page in view at 1x, so no page scrolls there; never past the screen
// (at 2x on a 1280x800 screen, 640x400: the pages scroll within).
void SettingsDialog::fitPages() {
    int pageHeight = 0;
    for (int i = 0; i < scrolls_.size(); ++i)
        if (!pageList_->item(i)->isHidden())
            pageHeight = std::max(pageHeight, scrolls_[i]->widget()->sizeHint().height());
    QSize size(600, pageHeight + save_->sizeHint().height() + 4 * fontMetrics().lineSpacing());
    if (const QScreen *s = screen()) size = size.boundedTo(s->availableSize() - QSize(24, 48));
    resize(width() > 0 && isVisible() ? std::max(width(), size.width()) : size.width(),
           isVisible() ? std::max(height(), size.height()) : size.height());
    // Grown while shown: still on the screen, all of it.
    if (const QScreen *s = screen(); s && isVisible()) {
        const QRect avail = s->availableGeometry();
        const QRect frame = frameGeometry();
        move(std::clamp(frame.x(), avail.left(),
                        std::max(avail.left(), avail.right() - frame.width())),
             std::clamp(frame.y(), avail.top(),
                        std::max(avail.top(), avail.bottom() - frame.height())));
    }
}

void SettingsDialog::showAdvanced(bool shown) {
    const QSignalBlocker block(advanced_);
    advanced_->setChecked(shown);
    for (int i = firstAdvanced_; i < pageList_->count(); ++i)
        pageList_->item(i)->setHidden(!shown);
    if (!shown && pageList_->currentRow() >= firstAdvanced_) pageList_->setCurrentRow(0);
    if (shown && !scrolls_.isEmpty()) fitPages(); // the advanced pages are taller: room for them
}

void SettingsDialog::showField(const QString &key) {
    QWidget *w = fields_.value(key);
    if (!w) return;
    const int page = pageOf_.value(key);
    if (page >= firstAdvanced_) showAdvanced(true);
    pageList_->setCurrentRow(page);
    scrolls_.value(page)->ensureWidgetVisible(w);
    w->setFocus(Qt::OtherFocusReason);
    if (auto *edit = qobject_cast<QLineEdit *>(w)) edit->selectAll();
}

QMap<QString, QVariant> SettingsDialog::values() const {
    QMap<QString, QVariant> out;
    for (auto it = fields_.begin(); it != fields_.end(); ++it) {
        QVariant v;
        if (auto *combo = qobject_cast<QComboBox *>(it.value()))
            v = combo->currentData();
        else if (auto *box = qobject_cast<QCheckBox *>(it.value()))
            v = box->isChecked() ? QStringLiteral("true") : QStringLiteral("false");
        else if (auto *seconds = qobject_cast<QDoubleSpinBox *>(it.value()))
            v = qint64(std::llround(seconds->value() * 1000.0));
        else if (auto *spin = qobject_cast<QSpinBox *>(it.value()))
            v = qint64(spin->value());
        else if (auto *edit = qobject_cast<QLineEdit *>(it.value()))
            // service/arguments too: settingsFromValues reads the text with the INI file's
            // own parser (settings/argument_list.h), quotes and all.
            v = QVariant(edit->text());
        out.insert(it.key(), v);
    }
    return out;
}

QStringList SettingsDialog::warnings() const {
    return settingsFromValues(values()).warnings;
}

QStringList SettingsDialog::problems() const {
    QStringList out;
    for (const SettingProblem &p : settingsFromValues(values()).problems) {
        // Each setting with its own page: two that must agree may sit on two pages.
        QStringList names;
        for (const QString &key : p.keys)
            names << tr("%1 (%2)", "a setting's name and its page")
                         .arg(tr("“%1”", "a setting's name, quoted").arg(labels_.value(key, key)),
                              pageTitle(key));
        out << tr("%1: %2.").arg(names.join(tr(" and ")), p.why);
    }
    return out;
}

QString SettingsDialog::label(const QString &key) const {
    return labels_.value(key);
}

QString SettingsDialog::pageTitle(const QString &key) const {
    return titles_.value(pageOf_.value(key));
}

QStringList SettingsDialog::pageTitles() const {
    QStringList out;
    for (int i = 0; i < pageList_->count(); ++i)
        if (!pageList_->item(i)->isHidden()) out << pageList_->item(i)->text();
    return out;
}

void SettingsDialog::validate() {
    const LoadedSettings loaded = settingsFromValues(values());
    const QStringList found = problems();
    warnings_->setText(found.join(QLatin1Char('\n')));
    warnings_->setVisible(!found.isEmpty());
    save_->setEnabled(found.isEmpty());
    const QColor bad = stateColor(policy::State::Failed, palette());
    for (auto it = fields_.begin(); it != fields_.end(); ++it) {
        // What is wrong is said under the field, in place of its help; the field itself keeps
        // its look (a style sheet on it took a spin box's arrows away).
        QString why;
        for (const SettingProblem &p : loaded.problems)
            if (p.keys.contains(it.key())) why = p.why;
        QLabel *line = helpOf_.value(it.key());
        // A sentence of its own under the field: capitalised (the problem's words are a clause
        // that follows a setting's name in the summary).
        if (!why.isEmpty()) why[0] = why[0].toUpper();
        line->setText(why.isEmpty() ? help_.value(it.key()) : QStringLiteral("⚠ ") + why);
        QPalette pal = line->palette();
        pal.setColor(QPalette::WindowText, bad);
        line->setPalette(pal);
        line->setForegroundRole(why.isEmpty() ? QPalette::PlaceholderText : QPalette::WindowText);
        it.value()->setAccessibleDescription(why.isEmpty() ? help_.value(it.key()) : why);
        // A refused value on a page not in view: its page is shown (the advanced ones too).
        if (!why.isEmpty() && pageOf_.value(it.key()) >= firstAdvanced_) showAdvanced(true);
    }
}

bool SettingsDialog::trySave() {
    const LoadedSettings loaded = settingsFromValues(values());
    if (!loaded.warnings.isEmpty()) {
        validate();
        return false;
    }
    if (changesService(current_, loaded.settings) && hooks_.serviceRunning() &&
        !hooks_.confirm(
            tr("These changes restart the service (it stops now and starts again with the new "
               "settings). Continue?")))
        return false;
    QString error;
    if (!saveSettings(path_, loaded.settings, &error)) {
        warnings_->setText(error);
        warnings_->setVisible(true);
        return false;
    }
    // Start at login: the OS's own entry, changed only when the box was.
    const AutostartStatus login = platformAutostart()->status();
    if (login_->isEnabled() && login_->isChecked() != (login.state == AutostartStatus::State::On)) {
        QString why;
        const auto autostart = platformAutostart();
        if (!(login_->isChecked() ? autostart->enable(&why) : autostart->disable(&why)))
            QMessageBox::warning(this, tr("Start at login"), why);
    }
    current_ = loaded.settings;
    if (hooks_.apply) hooks_.apply(loaded.settings);
    return true;
}

} // namespace tether::ui
