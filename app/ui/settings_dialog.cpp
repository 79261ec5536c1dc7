#include "ui/settings_dialog.h"

#include "shell/runtime.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QTabWidget>
#include <QVBoxLayout>

namespace tether::ui {

namespace {

const QList<QPair<QString, QString>> kGroups = {
    {QStringLiteral("service"), QStringLiteral("Service")},
    {QStringLiteral("probe"), QStringLiteral("Probing")},
    {QStringLiteral("recovery"), QStringLiteral("Recovery")},
    {QStringLiteral("orphans"), QStringLiteral("Orphans")},
    {QStringLiteral("app"), QStringLiteral("App")},
    {QStringLiteral("mcp"), QStringLiteral("MCP")},
};

// "backoffInitialMs" -> "Backoff initial (ms)"
QString labelFor(const QString &key) {
    QString name = key.section(QLatin1Char('/'), 1);
    QString unit;
    for (const char *u : {"Ms", "MiB", "Minutes"})
        if (name.endsWith(QLatin1String(u)) && name.size() > int(qstrlen(u))) {
            unit = QString::fromLatin1(u).toLower();
            name.chop(int(qstrlen(u)));
        }
    name.replace(QRegularExpression(QStringLiteral("([a-z])([A-Z])")), QStringLiteral("\\1 \\2"));
    name = name.toLower();
    name[0] = name[0].toUpper();
    if (unit == QLatin1String("mib")) unit = QStringLiteral("MiB");
    return unit.isEmpty() ? name + QLatin1Char(':') : QStringLiteral("%1 (%2):").arg(name, unit);
}

QString joinArguments(const QStringList &args) {
    QStringList quoted;
    for (const QString &a : args)
        quoted << (a.contains(QLatin1Char(' ')) || a.isEmpty()
                       ? QLatin1Char('"') + a + QLatin1Char('"')
                       : a);
    return quoted.join(QLatin1Char(' '));
}

} // namespace

SettingsDialog::SettingsDialog(const Settings &current, QString path, Hooks hooks, QWidget *parent)
    : QDialog(parent)
    , current_(current)
    , path_(std::move(path))
    , hooks_(std::move(hooks)) {
    setWindowTitle(tr("Tether settings"));
    if (!hooks_.confirm)
        hooks_.confirm = [this](const QString &q) {
            return QMessageBox::question(this, windowTitle(), q) == QMessageBox::Yes;
        };
    auto *layout = new QVBoxLayout(this);
    auto *tabs = new QTabWidget;
    const QMap<QString, QVariant> values = settingsToValues(current);
    for (const auto &[group, title] : kGroups) {
        auto *page = new QWidget;
        auto *form = new QFormLayout(page);
        for (auto it = values.begin(); it != values.end(); ++it) {
            const QString &key = it.key();
            if (key.section(QLatin1Char('/'), 0, 0) != group) continue;
            QWidget *w = nullptr;
            if (const QStringList choices = settingChoices(key); !choices.isEmpty()) {
                auto *combo = new QComboBox;
                combo->addItems(choices);
                combo->setCurrentText(it.value().toString());
                connect(combo, &QComboBox::currentTextChanged, this, &SettingsDialog::validate);
                w = combo;
            } else if (it.value().typeId() == QMetaType::Bool) {
                auto *box = new QCheckBox;
                box->setChecked(it.value().toBool());
                connect(box, &QCheckBox::toggled, this, &SettingsDialog::validate);
                w = box;
            } else {
                auto *edit = new QLineEdit(it.value().typeId() == QMetaType::QStringList
                                               ? joinArguments(it.value().toStringList())
                                               : it.value().toString());
                connect(edit, &QLineEdit::textChanged, this, &SettingsDialog::validate);
                w = edit;
            }
            w->setObjectName(key);
            w->setToolTip(QStringLiteral("[%1] %2").arg(group, key.section(QLatin1Char('/'), 1)));
            form->addRow(labelFor(key), w);
            fields_.insert(key, w);
        }
        tabs->addTab(page, tr(title.toUtf8().constData()));
    }
    layout->addWidget(tabs);

    warnings_ = new QLabel;
    warnings_->setWordWrap(true);
    warnings_->setStyleSheet(QStringLiteral("color: #c62828"));
    layout->addWidget(warnings_);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    save_ = buttons->button(QDialogButtonBox::Save);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (trySave()) accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    validate();
}

QMap<QString, QVariant> SettingsDialog::values() const {
    QMap<QString, QVariant> out;
    for (auto it = fields_.begin(); it != fields_.end(); ++it) {
        if (auto *combo = qobject_cast<QComboBox *>(it.value()))
            out.insert(it.key(), combo->currentText());
        else if (auto *box = qobject_cast<QCheckBox *>(it.value()))
            out.insert(it.key(),
                       box->isChecked() ? QStringLiteral("true") : QStringLiteral("false"));
        else if (auto *edit = qobject_cast<QLineEdit *>(it.value()))
            // service/arguments too: settingsFromValues reads the text with the INI file's
            // own parser (settings/argument_list.h), quotes and all.
            out.insert(it.key(), QVariant(edit->text()));
    }
    return out;
}

QStringList SettingsDialog::warnings() const {
    return settingsFromValues(values()).warnings;
}

void SettingsDialog::validate() {
    const QStringList found = warnings();
    warnings_->setText(found.join(QLatin1Char('\n')));
    warnings_->setVisible(!found.isEmpty());
    save_->setEnabled(found.isEmpty());
    for (auto it = fields_.begin(); it != fields_.end(); ++it) {
        const bool bad = std::any_of(found.begin(), found.end(), [&](const QString &w) {
            return w.contains(QStringLiteral("setting %1=").arg(it.key())) ||
                   w.contains(QStringLiteral("setting %1 ").arg(it.key()));
        });
        it.value()->setStyleSheet(bad ? QStringLiteral("border: 1px solid #c62828") : QString());
    }
}

bool SettingsDialog::trySave() {
    const LoadedSettings loaded = settingsFromValues(values());
    if (!loaded.warnings.isEmpty()) {
        validate();
        return false;
    }
    if (Runtime::changesService(current_, loaded.settings) && hooks_.serviceRunning() &&
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
    current_ = loaded.settings;
    if (hooks_.apply) hooks_.apply(loaded.settings);
    return true;
}

} // namespace tether::ui
