// Every setting of core/settings/settings.h, grouped, validated by settingsFromValues (the one
// place for the rules: warnings show inline and an invalid form cannot be saved), saved with
// saveSettings and then applied through a callback, without restarting Tether.
#pragma once

#include "settings/settings.h"

#include <QDialog>
#include <QMap>
#include <functional>

class QLabel;
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
    QStringList warnings() const;
    QWidget *field(const QString &key) const { return fields_.value(key); }
    // Validate, confirm a service restart if needed, save, apply. False: nothing saved.
    bool trySave();

private:
    void validate();

    Settings current_;
    QString path_;
    Hooks hooks_;
    QMap<QString, QWidget *> fields_;
    QLabel *warnings_ = nullptr;
    QPushButton *save_ = nullptr;
};

} // namespace tether::ui
