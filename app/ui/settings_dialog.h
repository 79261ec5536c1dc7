// Every setting of core/settings/settings.h, on pages by task: General (the service), Startup
// (with Start at login, read from the OS), MCP servers; and, behind "Show advanced settings",
// the tuning (Recovery, Health checks, Other) that most people never touch. Each setting has a
// person's label with a mnemonic, a unit and a line of help (its accessible description). Ranges
// and rules are settingsFromValues' (the one place for them): spin boxes take their ranges from
// settingRange; a value the rules refuse is said under its field in plain words and the form
// cannot be saved. Saved with saveSettings (only what changed, the rest of the file as its owner
// wrote it), then applied through a callback, without restarting Tether.
#pragma once

#include "settings/settings.h"

#include <QDialog>
#include <QMap>
#include <functional>

class QCheckBox;
class QLabel;
class QListWidget;
class QPushButton;
class QScrollArea;
class QStackedWidget;

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
    QString label(const QString &key) const;     // the words shown for a setting (no mnemonic)
    QString pageTitle(const QString &key) const; // the page a setting is on, as listed
    QStringList pageTitles() const;              // the pages listed now
    QCheckBox *advancedBox() const { return advanced_; }
    QCheckBox *startAtLoginBox() const { return login_; }
    // The page of `key` in view (the advanced ones shown if it is there), its field focused
    // and, for a text, selected: where "Edit arguments…" takes a person.
    void showField(const QString &key);
    // Validate, confirm a service restart if needed, save, apply. False: nothing saved.
    bool trySave();

private:
    void validate();
    void showAdvanced(bool shown);
    void fitPages();

    Settings current_;
    QString path_;
    Hooks hooks_;
    QMap<QString, QWidget *> fields_;
    QMap<QString, QString> labels_;  // key -> label
    QMap<QString, QString> help_;    // key -> its line of help
    QMap<QString, QLabel *> helpOf_; // key -> the label under it (help, or what is wrong)
    QMap<QString, int> pageOf_;      // key -> its page
    QStringList titles_;             // every page's title
    int firstAdvanced_ = 0;          // pages from here on are the advanced ones
    QListWidget *pageList_ = nullptr;
    QStackedWidget *stack_ = nullptr;
    QList<QScrollArea *> scrolls_;
    QCheckBox *advanced_ = nullptr;
    QCheckBox *login_ = nullptr; // Start at login: the OS's, written on Save
    QLabel *warnings_ = nullptr;
    QPushButton *save_ = nullptr;
};

} // namespace tether::ui
