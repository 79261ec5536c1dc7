// Windows: one value under HKCU\...\CurrentVersion\Run, through QSettings, and its
// StartupApproved flag beside it. On other systems the same code runs against QSettings files,
// which is how the tests exercise it.
#include "settings/autostart.h"
#include "settings/autostart_entries.h"

namespace tether {

namespace {

bool fail(QString *error, const QString &why) {
    if (error) *error = why;
    return false;
}

class RunKeyAutostart : public Autostart {
public:
    RunKeyAutostart(QString store, QSettings::Format format, QString program,
                    std::unique_ptr<StartupApprovalStore> approval)
        : store_(std::move(store))
        , format_(format)
        , program_(std::move(program))
        , approval_(std::move(approval)) {}

    AutostartStatus status() const override {
        const QString location =
            store_ + QLatin1Char('\\') + QLatin1String(autostart::kRunValueName);
        QSettings settings(store_, format_);
        if (settings.status() != QSettings::NoError)
            return error(location, QStringLiteral("cannot read the Run key"));
        const QVariant value = settings.value(QLatin1String(autostart::kRunValueName));
        std::optional<QString> runValue;
        if (value.isValid()) runValue = value.toString();
        std::optional<QByteArray> flag;
        if (runValue && approval_) {
            const StartupApprovalStore::Read read = approval_->read();
            if (!read.ok)
                return error(
                    location,
                    QStringLiteral("cannot read %1: %2").arg(approval_->location(), read.error));
            flag = read.bytes;
        }
        AutostartStatus st = autostart::windowsRunStatus(runValue, flag, program_);
        st.location = location;
        return st;
    }

    bool enable(QString *error) override {
        const AutostartStatus before = status();
        if (!mayTouch(before, error)) return false;
        {
            QSettings settings(store_, format_);
            settings.setValue(QLatin1String(autostart::kRunValueName),
                              autostart::windowsRunValue(program_));
            settings.sync();
            if (settings.status() != QSettings::NoError)
                return fail(error, QStringLiteral("cannot write the Run key"));
        }
        // The user switched it off in Windows; turning it on here is the newer choice.
        if (before.state == AutostartStatus::State::DisabledBySystem && !approval_->clear(error))
            return false;
        if (status().state != AutostartStatus::State::On)
            return fail(error, QStringLiteral("the Run value does not read back as enabled"));
        return true;
    }

    bool disable(QString *error) override {
        if (!mayTouch(status(), error)) return false;
        QSettings settings(store_, format_);
        settings.remove(QLatin1String(autostart::kRunValueName));
        settings.sync();
        if (settings.status() != QSettings::NoError)
            return fail(error, QStringLiteral("cannot write the Run key"));
        // Our value is gone: its flag would only be a stale leftover.
        return !approval_ || approval_->clear(error);
    }

private:
    static AutostartStatus error(const QString &location, const QString &why) {
        AutostartStatus st;
        st.state = AutostartStatus::State::Error;
        st.location = location;
        st.error = why;
        return st;
    }

    static bool mayTouch(const AutostartStatus &st, QString *error) {
        if (st.state == AutostartStatus::State::Foreign)
            return fail(error, QStringLiteral("%1 starts another program (%2); left alone")
                                   .arg(st.location, st.foreignProgram));
        if (st.state == AutostartStatus::State::Error)
            return fail(error, QStringLiteral("%1: %2").arg(st.location, st.error));
        return true;
    }

    QString store_;
    QSettings::Format format_;
    QString program_;
    std::unique_ptr<StartupApprovalStore> approval_;
};

class SettingsStartupApproval : public StartupApprovalStore {
public:
    SettingsStartupApproval(QString file, QString name)
        : file_(std::move(file))
        , name_(std::move(name)) {}
    QString location() const override { return file_ + QLatin1Char(':') + name_; }
    Read read() const override {
        QSettings settings(file_, QSettings::IniFormat);
        Read r;
        r.ok = settings.status() == QSettings::NoError;
        if (!r.ok) r.error = QStringLiteral("unreadable");
        if (r.ok && settings.contains(name_)) r.bytes = settings.value(name_).toByteArray();
        return r;
    }
    bool clear(QString *error) override {
        QSettings settings(file_, QSettings::IniFormat);
        settings.remove(name_);
        settings.sync();
        return settings.status() == QSettings::NoError ||
               fail(error, QStringLiteral("cannot write %1").arg(location()));
    }

private:
    QString file_;
    QString name_;
};

} // namespace

std::unique_ptr<Autostart> makeRunKeyAutostart(const QString &store, QSettings::Format format,
                                               const QString &program,
                                               std::unique_ptr<StartupApprovalStore> approval) {
    return std::make_unique<RunKeyAutostart>(store, format, program, std::move(approval));
}

std::unique_ptr<StartupApprovalStore> makeSettingsStartupApproval(const QString &file,
                                                                  const QString &name) {
    return std::make_unique<SettingsStartupApproval>(file, name);
}

} // namespace tether
