// Windows: one value under HKCU\...\CurrentVersion\Run, through QSettings. On other systems
// the same code runs against a QSettings file, which is how the tests exercise it.
#include "settings/autostart.h"
#include "settings/autostart_entries.h"

namespace tether {

namespace {

class RunKeyAutostart : public Autostart {
public:
    RunKeyAutostart(QString store, QSettings::Format format, QString program)
        : store_(std::move(store))
        , format_(format)
        , program_(std::move(program)) {}

    AutostartStatus status() const override {
        AutostartStatus st;
        st.location = store_ + QLatin1Char('\\') + QLatin1String(autostart::kRunValueName);
        QSettings settings(store_, format_);
        if (settings.status() != QSettings::NoError) {
            st.state = AutostartStatus::State::Error;
            st.error = QStringLiteral("cannot read the Run key");
            return st;
        }
        const QVariant value = settings.value(QLatin1String(autostart::kRunValueName));
        if (!value.isValid()) return st;
        const QString program = autostart::programOfWindowsRunValue(value.toString());
        if (program.isEmpty()) {
            st.state = AutostartStatus::State::Error;
            st.error = QStringLiteral("the value names no program; left alone");
        } else if (!autostart::samePath(program, program_, true)) {
            st.state = AutostartStatus::State::Foreign;
            st.foreignProgram = program;
        } else {
            st.state = AutostartStatus::State::On;
        }
        return st;
    }

    bool enable(QString *error) override {
        if (!mayTouch(error)) return false;
        {
            QSettings settings(store_, format_);
            settings.setValue(QLatin1String(autostart::kRunValueName),
                              autostart::windowsRunValue(program_));
            settings.sync();
            if (settings.status() != QSettings::NoError)
                return fail(error, QStringLiteral("cannot write the Run key"));
        }
        if (status().state != AutostartStatus::State::On)
            return fail(error, QStringLiteral("the Run value does not read back as enabled"));
        return true;
    }

    bool disable(QString *error) override {
        if (!mayTouch(error)) return false;
        QSettings settings(store_, format_);
        settings.remove(QLatin1String(autostart::kRunValueName));
        settings.sync();
        if (settings.status() != QSettings::NoError)
            return fail(error, QStringLiteral("cannot write the Run key"));
        return true;
    }

private:
    bool mayTouch(QString *error) const {
        const AutostartStatus st = status();
        if (st.state == AutostartStatus::State::Foreign)
            return fail(error, QStringLiteral("%1 starts another program (%2); left alone")
                                   .arg(st.location, st.foreignProgram));
        if (st.state == AutostartStatus::State::Error)
            return fail(error, QStringLiteral("%1: %2").arg(st.location, st.error));
        return true;
    }

    static bool fail(QString *error, const QString &why) {
        if (error) *error = why;
        return false;
    }

    QString store_;
    QSettings::Format format_;
    QString program_;
};

} // namespace

std::unique_ptr<Autostart> makeRunKeyAutostart(const QString &store, QSettings::Format format,
                                               const QString &program) {
    return std::make_unique<RunKeyAutostart>(store, format, program);
}

} // namespace tether
