#include "settings/settings.h"

#include "policy/supervision.h"
#include "service/words.h"
#include "settings/argument_list.h"
#include "settings/storage.h"
#include "settings/ini_edit.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <functional>

namespace tether {

namespace {

constexpr qsizetype kMaxArgumentsChars = 32767;

// Why a value is refused: a sentence of the catalogue and what fills it, told in English to the
// log and in the person's language to the Settings dialog.
struct Why {
    const char *text = "";
    QString a = QString();
    QString b = QString();
    QString fill(QString t) const {
        if (!a.isNull()) t = b.isNull() ? t.arg(a) : t.arg(a, b);
        return t;
    }
    QString english() const { return fill(QString::fromUtf8(text)); }
    QString translated() const { return fill(Words::tr(text)); }
};

// One row per setting: key, how to read it into Settings, how to write it back.
struct Field {
    const char *key;
    std::function<bool(Settings &, const QVariant &, Why *why)> read;
    std::function<QVariant(const Settings &)> write;
    QStringList choices = {}; // the valid texts of a fixed choice, default first
    std::optional<SettingRange> range = {};
};

bool toInt64(const QVariant &v, qint64 *out) {
    bool ok = false;
    const qint64 n = v.toString().trimmed().toLongLong(&ok);
    if (ok) *out = n;
    return ok;
}

Field integer(const char *key, qint64 min, qint64 max, std::function<void(Settings &, qint64)> set,
              std::function<qint64(const Settings &)> get) {
    return Field{key,
                 [=](Settings &s, const QVariant &v, Why *why) {
                     qint64 n = 0;
                     if (!toInt64(v, &n)) {
                         *why = {QT_TRANSLATE_NOOP("Tether", "not a whole number")};
                         return false;
                     }
                     if (n < min || n > max) {
                         *why = {QT_TRANSLATE_NOOP("Tether", "must be between %1 and %2"),
                                 QString::number(min), QString::number(max)};
                         return false;
                     }
                     set(s, n);
                     return true;
                 },
                 [=](const Settings &s) { return QVariant(get(s)); },
                 {},
                 SettingRange{min, max}};
}

Field boolean(const char *key, bool Settings::*member) {
    return Field{key,
                 [=](Settings &s, const QVariant &v, Why *why) {
                     const QString t = v.toString().trimmed().toLower();
                     if (t == QLatin1String("true") || t == QLatin1String("1") ||
                         t == QLatin1String("yes") || t == QLatin1String("on"))
                         s.*member = true;
                     else if (t == QLatin1String("false") || t == QLatin1String("0") ||
                              t == QLatin1String("no") || t == QLatin1String("off"))
                         s.*member = false;
                     else {
                         *why = {QT_TRANSLATE_NOOP("Tether", "must be true or false")};
                         return false;
                     }
                     return true;
                 },
                 [=](const Settings &s) { return QVariant(s.*member); }};
}

// A fixed choice stored as an enum (or std::optional of one, "auto" being none): `allowed`
// in display order, default first; `name` and `parse` are the enum's one toString/fromString.
template <typename Value>
Field choice(const char *key, QStringList allowed, Value Settings::*member,
             QString (*name)(const Value &), bool (*parse)(const QString &, Value *)) {
    return Field{key,
                 [=](Settings &s, const QVariant &v, Why *why) {
                     const QString t = v.toString().trimmed().toLower();
                     Value parsed{};
                     if (!allowed.contains(t) || !parse(t, &parsed)) {
                         *why = {QT_TRANSLATE_NOOP("Tether", "must be one of %1"),
                                 allowed.join(QStringLiteral(", "))};
                         return false;
                     }
                     s.*member = parsed;
                     return true;
                 },
                 [=](const Settings &s) { return QVariant(name(s.*member)); }, allowed};
}

QString orphanModeName(const policy::OrphanMode &m) {
    return QString::fromLatin1(policy::toString(m));
}
bool parseOrphanMode(const QString &t, policy::OrphanMode *out) {
    return policy::fromString(t.toLatin1().constData(), out);
}
QString profileText(const std::optional<policy::Dialect> &p) {
    return profileName(p);
}
bool parseProfile(const QString &t, std::optional<policy::Dialect> *out) {
    if (t == QLatin1String("auto")) {
        out->reset();
        return true;
    }
    policy::Dialect d{};
    if (!policy::fromString(t.toLatin1().constData(), &d)) return false;
    *out = d;
    return true;
}
QStringList orphanModes(policy::OrphanMode first) {
    QStringList out{orphanModeName(first)};
    for (policy::OrphanMode m :
         {policy::OrphanMode::Ask, policy::OrphanMode::Clean, policy::OrphanMode::Ignore})
        if (m != first) out << orphanModeName(m);
    return out;
}

Field text(const char *key, QString Settings::*member) {
    return Field{key,
                 [=](Settings &s, const QVariant &v, Why *why) {
                     if (v.typeId() == QMetaType::QStringList ||
                         v.typeId() == QMetaType::QVariantList) {
                         *why = {QT_TRANSLATE_NOOP("Tether", "must be a single value")};
                         return false;
                     }
                     s.*member = v.toString();
                     return true;
                 },
                 [=](const Settings &s) { return QVariant(s.*member); }};
}

// A fixed choice kept as its text ("auto", "light", "dark"): `allowed` in display order,
// default first.
Field textChoice(const char *key, QStringList allowed, QString Settings::*member) {
    return Field{key,
                 [=](Settings &s, const QVariant &v, Why *why) {
                     const QString t = v.toString().trimmed().toLower();
                     if (!allowed.contains(t)) {
                         *why = {QT_TRANSLATE_NOOP("Tether", "must be one of %1"),
                                 allowed.join(QStringLiteral(", "))};
                         return false;
                     }
                     s.*member = t;
                     return true;
                 },
                 [=](const Settings &s) { return QVariant(s.*member); }, allowed};
}

using T = policy::Timings;
Field timing(const char *key, qint64 min, qint64 max, policy::Ms T::*member) {
    return integer(
        key, min, max, [=](Settings &s, qint64 n) { s.timings.*member = n; },
        [=](const Settings &s) { return s.timings.*member; });
}

const std::vector<Field> &fields() {
    static const std::vector<Field> all = {
        choice("service/profile",
               {profileName({}), profileName(policy::Dialect::Opencode1),
                profileName(policy::Dialect::Opencode2), profileName(policy::Dialect::Custom),
                profileName(policy::Dialect::Demo)},
               &Settings::profile, &profileText, &parseProfile),
        text("service/program", &Settings::program),
        Field{"service/arguments",
              [](Settings &s, const QVariant &v, Why *why) {
                  // QSettings gives a list for "a, b" and a string otherwise: one parser reads
                  // both, as the Settings dialog does (settings/argument_list.h).
                  const ArgumentList parsed = argumentsFromSetting(v);
                  // Longer than a program can be given (Windows takes 32,767 characters; Linux
                  // refuses one argument over 128 KiB): said here, against this key, rather
                  // than by a launch that fails naming [service] program.
                  if (const qsizetype length = joinArgumentList(parsed.arguments).size();
                      length > kMaxArgumentsChars) {
                      *why = {QT_TRANSLATE_NOOP("Tether",
                                                "%1 characters, more than the %2 a program can "
                                                "be given"),
                              QString::number(length), QString::number(kMaxArgumentsChars)};
                      return false;
                  }
                  s.arguments = parsed.arguments;
                  if (!parsed.error.isEmpty())
                      *why = {QT_TRANSLATE_NOOP("Tether", "a quote (\") is not closed")};
                  return parsed.error.isEmpty();
              },
              // Written as one line, so that an argument with spaces reads back as one.
              [](const Settings &s) { return QVariant(joinArgumentList(s.arguments)); }},
        integer(
            "service/port", 1, 65535, [](Settings &s, qint64 n) { s.port = int(n); },
            [](const Settings &s) { return s.port; }),
        text("service/healthPath", &Settings::healthPath),
        text("service/stateDir", &Settings::stateDir),
        text("service/channel", &Settings::channel),
        boolean("service/containment", &Settings::containment),
        timing("probe/intervalMs", 10, 3600000, &T::probeIntervalMs),
        timing("probe/timeoutMs", 10, 600000, &T::probeTimeoutMs),
        timing("probe/startupDeadlineMs", 100, 3600000, &T::startupDeadlineMs),
        timing("recovery/windowMs", 0, 86400000, &T::windowMs),
        timing("recovery/graceMs", 0, 600000, &T::graceMs),
        timing("recovery/backoffInitialMs", 1, 3600000, &T::backoffInitialMs),
        timing("recovery/backoffMaxMs", 1, 86400000, &T::backoffMaxMs),
        integer(
            "recovery/burst", 1, 1000, [](Settings &s, qint64 n) { s.timings.burst = int(n); },
            [](const Settings &s) { return qint64(s.timings.burst); }),
        timing("recovery/burstWindowMs", 1, 86400000, &T::burstWindowMs),
        timing("recovery/stableResetMs", 1, 86400000, &T::stableResetMs),
        boolean("recovery/autoReplaceOnVersionChange", &Settings::autoReplaceOnVersionChange),
        choice("orphans/onLaunch", orphanModes(Settings().orphansOnLaunch),
               &Settings::orphansOnLaunch, &orphanModeName, &parseOrphanMode),
        choice("orphans/whileRunning", orphanModes(Settings().orphansWhileRunning),
               &Settings::orphansWhileRunning, &orphanModeName, &parseOrphanMode),
        integer(
            "orphans/graceMs", 0, 60000, [](Settings &s, qint64 n) { s.orphanGraceMs = int(n); },
            [](const Settings &s) { return qint64(s.orphanGraceMs); }),
        boolean("app/stopServiceOnQuit", &Settings::stopServiceOnQuit),
        boolean("app/notifications", &Settings::notifications),
        textChoice("app/trayIcon",
                   {QStringLiteral("auto"), QStringLiteral("light"), QStringLiteral("dark")},
                   &Settings::trayIcon),
        integer(
            "mcp/memoryWarnMiB", 1, 1048576,
            [](Settings &s, qint64 n) { s.memoryWarnMiB = int(n); },
            [](const Settings &s) { return qint64(s.memoryWarnMiB); }),
        integer(
            "mcp/cpuBusyMinutes", 1, 10080,
            [](Settings &s, qint64 n) { s.cpuBusyMinutes = int(n); },
            [](const Settings &s) { return qint64(s.cpuBusyMinutes); }),
    };
    return all;
}

} // namespace

LoadedSettings settingsFromValues(const QMap<QString, QVariant> &values) {
    LoadedSettings out;
    for (const Field &f : fields()) {
        const auto it = values.find(QLatin1String(f.key));
        if (it == values.end()) continue;
        Settings candidate = out.settings;
        Why why;
        if (f.read(candidate, it.value(), &why)) {
            out.settings = candidate;
        } else {
            out.warnings << QStringLiteral("setting %1=%2 ignored (%3); using the default")
                                .arg(QLatin1String(f.key), it.value().toString().left(80),
                                     why.english());
            out.problems << SettingProblem{{QLatin1String(f.key)}, why.translated()};
        }
    }
    // Each value may be in range and the three still make one missed probe fatal (DESIGN rule
    // 1 needs several probes per window): then all three go back to their defaults.
    const std::string problem = policy::timingsProblem(out.settings.timings);
    switch (policy::timingsConflict(out.settings.timings)) {
    case policy::TimingsConflict::TimeoutNotBelowWindow:
        out.problems << SettingProblem{
            {QStringLiteral("recovery/windowMs"), QStringLiteral("probe/timeoutMs")},
            Words::tr("the wait must be longer than the time a health check may take, or one "
                      "slow answer would use it all up")};
        break;
    case policy::TimingsConflict::IntervalAboveWindow:
        out.problems << SettingProblem{
            {QStringLiteral("recovery/windowMs"), QStringLiteral("probe/intervalMs")},
            Words::tr("the wait must not be shorter than the time between health checks, or "
                      "one missed check would use it all up")};
        break;
    case policy::TimingsConflict::None:
        break;
    }
    if (!problem.empty()) {
        const policy::Timings defaults;
        out.settings.timings.probeIntervalMs = defaults.probeIntervalMs;
        out.settings.timings.probeTimeoutMs = defaults.probeTimeoutMs;
        out.settings.timings.windowMs = defaults.windowMs;
        out.warnings << QStringLiteral("%1; using the defaults for probe/intervalMs, "
                                       "probe/timeoutMs and recovery/windowMs")
                            .arg(QString::fromStdString(problem));
    }
    if (out.settings.timings.backoffMaxMs < out.settings.timings.backoffInitialMs) {
        out.warnings << QStringLiteral("setting recovery/backoffMaxMs is below "
                                       "recovery/backoffInitialMs; using backoffInitialMs");
        out.problems << SettingProblem{
            {QStringLiteral("recovery/backoffMaxMs"), QStringLiteral("recovery/backoffInitialMs")},
            Words::tr("the longest wait cannot be shorter than the first one")};
        out.settings.timings.backoffMaxMs = out.settings.timings.backoffInitialMs;
    }
    return out;
}

QMap<QString, QVariant> settingsToValues(const Settings &s) {
    QMap<QString, QVariant> values;
    for (const Field &f : fields())
        values.insert(QLatin1String(f.key), f.write(s));
    return values;
}

QStringList settingChoices(const QString &key) {
    for (const Field &f : fields())
        if (key == QLatin1String(f.key)) return f.choices;
    return {};
}

std::optional<SettingRange> settingRange(const QString &key) {
    for (const Field &f : fields())
        if (key == QLatin1String(f.key)) return f.range;
    return std::nullopt;
}

QString profileName(const std::optional<policy::Dialect> &profile) {
    return profile ? QString::fromLatin1(policy::toString(*profile)) : QStringLiteral("auto");
}

QString defaultSettingsPath() {
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) +
           QStringLiteral("/tether.ini");
}

namespace {
// A FIFO or a device in the settings file's place would hold QSettings in open() for good: it
// is refused before Qt opens it. A link is followed: a person may keep the file elsewhere.
QString unusableSettingsFile(const QString &file) {
    if (!QFileInfo::exists(file)) return {};
    QFile probe;
    QString why;
    return storage::openForReading(probe, file, &why, true) ? QString() : why;
}
} // namespace

LoadedSettings loadSettings(const QString &path) {
    const QString file = path.isEmpty() ? defaultSettingsPath() : path;
    if (const QString why = unusableSettingsFile(file); !why.isEmpty()) {
        LoadedSettings defaults;
        defaults.warnings
            << QStringLiteral("settings file %1; every setting has its default").arg(why);
        return defaults;
    }
    QSettings ini(file, QSettings::IniFormat);
    QMap<QString, QVariant> values;
    for (const QString &key : ini.allKeys())
        values.insert(key, ini.value(key));
    LoadedSettings loaded = settingsFromValues(values);
    if (ini.status() == QSettings::FormatError)
        loaded.warnings.prepend(
            QStringLiteral("settings file %1 is malformed; unreadable parts use defaults")
                .arg(file));
    return loaded;
}

bool saveSettings(const QString &path, const Settings &s, QString *error) {
    const QString file = path.isEmpty() ? defaultSettingsPath() : path;
    if (const QString why = unusableSettingsFile(file); !why.isEmpty()) {
        if (error) *error = QStringLiteral("cannot write settings: %1").arg(why);
        return false;
    }
    QDir().mkpath(QFileInfo(file).absolutePath());
    QByteArray text;
    QFile in(file);
    if (in.exists() && !in.open(QIODevice::ReadOnly)) {
        if (error) *error = QStringLiteral("cannot read settings from %1").arg(file);
        return false;
    }
    if (in.isOpen()) text = in.readAll();
    in.close();
    // Only what changes what the file means is written: a setting that differs from what the
    // file says now (or its default, where it says nothing), and a value it holds that was
    // refused. Everything else stays as its owner wrote it.
    const LoadedSettings before = loadSettings(file);
    QStringList refused;
    for (const SettingProblem &p : before.problems)
        refused << p.keys;
    const QMap<QString, QVariant> was = settingsToValues(before.settings);
    const QMap<QString, QVariant> now = settingsToValues(s);
    QList<IniChange> changes;
    for (auto it = now.begin(); it != now.end(); ++it) {
        const QString value = iniValueText(it.value());
        if (value != iniValueText(was.value(it.key())) || refused.contains(it.key()))
            changes << IniChange{it.key(), value};
    }
    if (changes.isEmpty() && in.exists()) return true;
    // Unbuffered: a write the disk refuses fails here (Qt 6.4's commit() loses a failed flush of
    // its buffer and renames the short file over the good one). A link is followed: a person may
    // keep the settings file elsewhere.
    QSaveFile out(file);
    const QByteArray edited = editIni(text, changes);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Unbuffered) ||
        out.write(edited) != edited.size() || !out.commit()) {
        if (error) *error = QStringLiteral("cannot write settings to %1").arg(file);
        return false;
    }
    return true;
}

bool changesService(const Settings &before, const Settings &after) {
    return before.profile != after.profile || before.program != after.program ||
           before.arguments != after.arguments || before.port != after.port ||
           before.healthPath != after.healthPath || before.stateDir != after.stateDir;
}

} // namespace tether
