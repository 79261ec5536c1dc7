// Every setting of core/settings/settings.h on pages by task (Service, Recovery, Health checks,
// MCP servers, Startup), each with a person's label, a unit and a line of help. Ranges and
// rules are settingsFromValues' (the one place for them): spin boxes take their ranges from
// settingRange, a value the rules refuse is named inline in plain words and the form cannot be
// saved. Saved with saveSettings, then applied through a callback, without restarting Tether.
#pragma once

#include "settings/settings.h"

#include <QDialog>
#include <QMap>
#include <functional>

class QLabel;
class QListWidget;
class QPushButton;

namespace tether::ui {

class SettingsDialog : public QDialog {
    Q_OBJECT
public:
    struct Hooks {
        std::function<void(const Settings &)> apply;
        // Asked before a change that restarts the service; false cancels the save.
        std::function<bool(const QString &question)> confirm;
        std::function<bool()> serviceRunning = [] { return false; };
    };

    SettingsDialog(const Settings &current, QString path, Hooks hooks, QWidget *parent = nullptr);

    // The form as "group/key" -> value, as settingsFromValues reads them.
    QMap<QString, QVariant> values() const;
    QStringList warnings() const; // as the log would say them, naming keys
    QStringList problems() const; // as the dialog says them to a person
    QWidget *field(const QString &key) const { return fields_.value(key); }
    QString label(const QString &key) const; // the words shown for a setting
    QStringList pageTitles() const;
    // Validate, confirm a service restart if needed, save, apply. False: nothing saved.
    bool trySave();

private:
    void validate();

    Settings current_;
    QString path_;
    Hooks hooks_;
    QMap<QString, QWidget *> fields_;
    QMap<QString, QString> labels_; // key -> label
    QMap<QString, QString> pageOf_; // key -> its page's title
    QListWidget *pageList_ = nullptr;
    QLabel *warnings_ = nullptr;
    QPushButton *save_ = nullptr;
};

} // namespace tether::ui
