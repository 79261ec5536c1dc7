// Every setting of Tether, with its default and its valid range, read from one INI file.
// Invalid values never stop Tether: each yields a warning naming the key, and the default.
#pragma once

#include "policy/dialect.h"
#include "policy/orphan_mode.h"
#include "policy/recovery.h"

#include <QMap>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <optional>

namespace tether {

struct Settings {
    // [service]
    // auto (empty: opencode by its major version, else demo) | opencode1 | opencode2 | custom
    // | demo; profileName() gives the INI text
    std::optional<policy::Dialect> profile;
    QString program;       // empty: detect (opencode) or this tether (demo)
    QStringList arguments; // extra arguments (custom: the whole command)
    int port = 4096;
    QString healthPath; // custom profile: health endpoint (default /global/health)
    QString stateDir;   // opencode2: where service.json lives (default $XDG_STATE_HOME/opencode)
    QString channel;    // opencode2: its build channel (empty: from the installed version)
    bool containment = true; // the service leads its own process group (POSIX) / job (Windows)
    // [probe] + [recovery]
    policy::Timings timings;
    bool autoReplaceOnVersionChange = false;
    // [orphans]
    policy::OrphanMode orphansOnLaunch = policy::OrphanMode::Ask;       // ask | clean | ignore
    policy::OrphanMode orphansWhileRunning = policy::OrphanMode::Clean; // clean | ask | ignore
    int orphanGraceMs = 500;
    // [app]
    bool stopServiceOnQuit = false;
    bool notifications = true;
    QString trayIcon = QStringLiteral("auto"); // auto | light | dark: the set for the panel
    // [mcp]
    int memoryWarnMiB = 1024;
    int cpuBusyMinutes = 10;
};

// A rejected value, for a person: which settings ("group/key", the one to change first) and
// why, in words that name no key ("must be between 1 and 65535"); the form shows the labels.
struct SettingProblem {
    QStringList keys;
    QString why;
};

struct LoadedSettings {
    Settings settings;
    QStringList warnings;           // one per rejected value, naming the key (for the log)
    QList<SettingProblem> problems; // the same, one each, for a person
};

// The valid range of a whole-number setting, in its stored unit (milliseconds for "...Ms").
struct SettingRange {
    qint64 min = 0;
    qint64 max = 0;
};

// Pure: from "group/key" -> value (as QSettings gives them) to validated settings.
LoadedSettings settingsFromValues(const QMap<QString, QVariant> &values);
QMap<QString, QVariant> settingsToValues(const Settings &s);
// The valid texts of a setting with fixed choices ("service/profile", "orphans/onLaunch", ...),
// default first; empty for any other key.
QStringList settingChoices(const QString &key);
// The range settingsFromValues enforces; empty for a setting that is not a whole number.
std::optional<SettingRange> settingRange(const QString &key);

// [service] profile as written in the INI file: "auto" for none, else policy::toString.
QString profileName(const std::optional<policy::Dialect> &profile);

// The user's file (QSettings INI in the config location), or the given file when not empty.
QString defaultSettingsPath();
LoadedSettings loadSettings(const QString &path);
bool saveSettings(const QString &path, const Settings &s, QString *error);

// Whether `after` changes the service itself (profile, program, arguments, port, health path,
// state dir): a tracked service is stopped and started again with them.
bool changesService(const Settings &before, const Settings &after);

} // namespace tether
