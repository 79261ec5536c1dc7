// The two file-based implementations: an XDG autostart .desktop file and a macOS LaunchAgent
// plist. Same rules for both: read the file back for the state, write it atomically, and leave
// a file that starts another program untouched.
#include "settings/autostart.h"
#include "settings/autostart_entries.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <functional>

namespace tether {

namespace {

struct EntryFormat {
    std::function<QByteArray(const QString &program)> render;
    std::function<autostart::DesktopEntryInfo(const QByteArray &text)> parse;
    // Optional: whose an entry naming another program is (default: foreign).
    std::function<autostart::EntryOwner(const QString &entryProgram, const QString &program)> owner;
    // Optional: why this program must not be written into an entry (empty: it may).
    std::function<QString(const QString &program)> unfit;
};

class FileAutostart : public Autostart {
public:
    FileAutostart(QString path, QString program, EntryFormat format)
        : path_(std::move(path))
        , program_(std::move(program))
        , format_(std::move(format)) {}

    AutostartStatus status() const override {
        AutostartStatus st;
        st.location = path_;
        if (format_.unfit) st.advice = format_.unfit(program_);
        QFile file(path_);
        if (!file.exists()) return st;
        if (!file.open(QIODevice::ReadOnly)) {
            st.state = AutostartStatus::State::Error;
            st.error = file.errorString();
            return st;
        }
        const autostart::DesktopEntryInfo info = format_.parse(file.readAll());
        if (info.program.isEmpty()) {
            st.state = AutostartStatus::State::Error;
            st.error = QStringLiteral("the entry names no program; left alone");
        } else if (!autostart::samePath(info.program, program_, false)) {
            const bool olderCopy = format_.owner && format_.owner(info.program, program_) ==
                                                        autostart::EntryOwner::OlderCopy;
            st.state = olderCopy ? AutostartStatus::State::Off : AutostartStatus::State::Foreign;
            (olderCopy ? st.staleProgram : st.foreignProgram) = info.program;
        } else {
            st.state = info.hidden ? AutostartStatus::State::Off : AutostartStatus::State::On;
        }
        return st;
    }

    bool enable(QString *error) override {
        if (!mayTouch(error)) return false;
        if (format_.unfit)
            if (const QString why = format_.unfit(program_); !why.isEmpty())
                return fail(error, why);
        if (!QDir().mkpath(QFileInfo(path_).absolutePath())) {
            return fail(error, QStringLiteral("cannot create %1").arg(QFileInfo(path_).path()));
        }
        QSaveFile file(path_);
        if (!file.open(QIODevice::WriteOnly)) return fail(error, file.errorString());
        file.write(format_.render(program_));
        if (!file.commit()) return fail(error, file.errorString());
        QFile::setPermissions(path_, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup |
                                         QFile::ReadOther);
        if (status().state != AutostartStatus::State::On)
            return fail(error, QStringLiteral("%1 does not read back as enabled").arg(path_));
        return true;
    }

    bool disable(QString *error) override {
        if (!mayTouch(error)) return false;
        if (QFile::exists(path_) && !QFile::remove(path_))
            return fail(error, QStringLiteral("cannot remove %1").arg(path_));
        return true;
    }

private:
    bool mayTouch(QString *error) const {
        const AutostartStatus st = status();
        if (st.state == AutostartStatus::State::Foreign)
            return fail(error, QStringLiteral("%1 starts another program (%2); left alone")
                                   .arg(path_, st.foreignProgram));
        if (st.state == AutostartStatus::State::Error)
            return fail(error, QStringLiteral("%1: %2").arg(path_, st.error));
        return true;
    }

    static bool fail(QString *error, const QString &why) {
        if (error) *error = why;
        return false;
    }

    QString path_;
    QString program_;
    EntryFormat format_;
};

} // namespace

std::unique_ptr<Autostart> makeXdgAutostart(const QString &configDir, const QString &program) {
    const QString path = configDir + QStringLiteral("/autostart/") + QLatin1String(kAppId) +
                         QStringLiteral(".desktop");
    return std::make_unique<FileAutostart>(
        path, program,
        EntryFormat{autostart::xdgAutostartEntry, autostart::parseDesktopEntry, {}, {}});
}

std::unique_ptr<Autostart> makeLaunchAgentAutostart(const QString &agentsDir,
                                                    const QString &program) {
    const QString path =
        agentsDir + QLatin1Char('/') + QLatin1String(kAppId) + QStringLiteral(".plist");
    EntryFormat format;
    format.render = [](const QString &p) {
        return autostart::launchAgentPlist(QLatin1String(kAppId), p);
    };
    format.parse = [](const QByteArray &text) {
        return autostart::DesktopEntryInfo{autostart::programOfLaunchAgent(text), false};
    };
    format.owner = autostart::launchAgentOwner;
    format.unfit = [](const QString &p) {
        return autostart::moveToApplicationsAdvice(autostart::classifyLaunchLocation(p));
    };
    return std::make_unique<FileAutostart>(path, program, format);
}

} // namespace tether
