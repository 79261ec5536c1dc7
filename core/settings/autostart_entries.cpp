#include "settings/autostart_entries.h"

#include "settings/autostart.h"

#include <QDir>
#include <QRegularExpression>
#include <QXmlStreamReader>

namespace tether::autostart {

// --- Windows Run value ---

QString windowsRunValue(const QString &program) {
    QString native = program;
    native.replace(QLatin1Char('/'), QLatin1Char('\\')); // QDir would only do this on Windows
    return QLatin1Char('"') + native + QStringLiteral("\" ") + QLatin1String(kAutostartFlag);
}

QString programOfWindowsRunValue(const QString &value) {
    const QString v = value.trimmed();
    if (v.startsWith(QLatin1Char('"'))) {
        const qsizetype end = v.indexOf(QLatin1Char('"'), 1);
        return end < 0 ? QString() : v.mid(1, end - 1);
    }
    // Unquoted: Windows splits at the first space (the reason we always quote).
    return v.section(QLatin1Char(' '), 0, 0);
}

bool startupApprovedDisables(const QByteArray &flag) {
    return !flag.isEmpty() && (static_cast<unsigned char>(flag.at(0)) & 1u) != 0;
}

AutostartStatus windowsRunStatus(const std::optional<QString> &runValue,
                                 const std::optional<QByteArray> &approvedFlag,
                                 const QString &program) {
    AutostartStatus st;
    if (!runValue) return st; // a flag without its Run value starts nothing
    const QString runs = programOfWindowsRunValue(*runValue);
    if (runs.isEmpty()) {
        st.state = AutostartStatus::State::Error;
        st.error = QStringLiteral("the value names no program; left alone");
    } else if (!samePath(runs, program, true)) {
        // Another program's entry: its flag is the user's choice about that program.
        st.state = AutostartStatus::State::Foreign;
        st.foreignProgram = runs;
    } else {
        st.state = approvedFlag && startupApprovedDisables(*approvedFlag)
                       ? AutostartStatus::State::DisabledBySystem
                       : AutostartStatus::State::On;
    }
    return st;
}

// --- macOS LaunchAgent ---

QByteArray launchAgentPlist(const QString &label, const QString &program) {
    const QString text =
        QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                       "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" "
                       "\"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
                       "<plist version=\"1.0\">\n"
                       "<dict>\n"
                       "\t<key>Label</key>\n"
                       "\t<string>%1</string>\n"
                       "\t<key>ProgramArguments</key>\n"
                       "\t<array>\n"
                       "\t\t<string>%2</string>\n"
                       "\t\t<string>%3</string>\n"
                       "\t</array>\n"
                       "\t<key>RunAtLoad</key>\n"
                       "\t<true/>\n"
                       "\t<key>ProcessType</key>\n"
                       "\t<string>Interactive</string>\n"
                       "</dict>\n"
                       "</plist>\n")
            .arg(label.toHtmlEscaped(), program.toHtmlEscaped(), QLatin1String(kAutostartFlag));
    return text.toUtf8();
}

QString programOfLaunchAgent(const QByteArray &plist) {
    QXmlStreamReader xml(plist);
    QString lastKey, program, firstArgument;
    int depth = 0; // plist = 1, its dict = 2, the dict's keys and values = 3
    while (!xml.atEnd()) {
        const auto token = xml.readNext();
        if (token == QXmlStreamReader::EndElement) {
            --depth;
            continue;
        }
        if (token != QXmlStreamReader::StartElement) continue;
        ++depth;
        if (depth != 3) continue;
        const auto name = xml.name();
        if (name == QLatin1String("key")) {
            lastKey = xml.readElementText();
            --depth;
        } else if (name == QLatin1String("string") && lastKey == QLatin1String("Program")) {
            program = xml.readElementText();
            --depth;
        } else if (name == QLatin1String("array") && lastKey == QLatin1String("ProgramArguments")) {
            while (xml.readNextStartElement()) { // the array's items
                const bool isString = xml.name() == QLatin1String("string");
                const QString item = xml.readElementText(QXmlStreamReader::SkipChildElements);
                if (isString && firstArgument.isEmpty()) firstArgument = item;
            }
            --depth;
        }
    }
    if (xml.hasError()) return QString();
    // launchd runs Program when given (ProgramArguments[0] is then only argv[0]).
    return program.isEmpty() ? firstArgument : program;
}

LaunchLocation classifyLaunchLocation(const QString &program) {
    const QString path = QDir::cleanPath(program);
    if (path.contains(QLatin1String("/AppTranslocation/"))) return LaunchLocation::Translocated;
    if (path.startsWith(QLatin1String("/Volumes/"))) return LaunchLocation::DiskImage;
    return LaunchLocation::Stable;
}

QString moveToApplicationsAdvice(LaunchLocation location) {
    switch (location) {
    case LaunchLocation::Stable:
        break;
    case LaunchLocation::DiskImage:
        return QStringLiteral("Tether runs from the disk image, which is gone at the next login: "
                              "drag Tether to Applications, open it from there, then turn Start "
                              "at login on");
    case LaunchLocation::Translocated:
        return QStringLiteral("macOS runs this Tether from a temporary copy (App Translocation), "
                              "whose path changes every launch: move Tether to Applications, open "
                              "it from there, then turn Start at login on");
    }
    return QString();
}

EntryOwner launchAgentOwner(const QString &entryProgram, const QString &program) {
    if (samePath(entryProgram, program, false)) return EntryOwner::Ours;
    static const QRegularExpression bundleExecutable(
        QStringLiteral("^/.*[^/]\\.app/Contents/MacOS/tether$"),
        QRegularExpression::CaseInsensitiveOption);
    return bundleExecutable.match(QDir::cleanPath(entryProgram)).hasMatch() ? EntryOwner::OlderCopy
                                                                            : EntryOwner::Foreign;
}

// --- XDG autostart ---

namespace {

// Characters the Desktop Entry Specification reserves in Exec: the argument must be quoted.
bool needsQuoting(const QString &arg) {
    static const QString reserved = QStringLiteral(" \t\n\"'\\><~|&;$*?#()`");
    for (QChar c : arg)
        if (reserved.contains(c)) return true;
    return arg.isEmpty();
}

QString quoteExecArgument(const QString &arg) {
    QString out = arg;
    out.replace(QLatin1Char('%'), QStringLiteral("%%")); // field codes
    if (!needsQuoting(arg)) return out;
    QString quoted;
    for (QChar c : out) {
        if (c == QLatin1Char('"') || c == QLatin1Char('`') || c == QLatin1Char('$') ||
            c == QLatin1Char('\\'))
            quoted += QLatin1Char('\\');
        quoted += c;
    }
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

// The string-type escapes, applied to the whole value before the quoting rules.
QString escapeString(const QString &s) {
    QString out;
    for (QChar c : s) {
        if (c == QLatin1Char('\\'))
            out += QStringLiteral("\\\\");
        else if (c == QLatin1Char('\n'))
            out += QStringLiteral("\\n");
        else if (c == QLatin1Char('\t'))
            out += QStringLiteral("\\t");
        else if (c == QLatin1Char('\r'))
            out += QStringLiteral("\\r");
        else
            out += c;
    }
    return out;
}

QString unescapeString(const QString &s) {
    QString out;
    for (qsizetype i = 0; i < s.size(); ++i) {
        if (s[i] != QLatin1Char('\\') || i + 1 == s.size()) {
            out += s[i];
            continue;
        }
        const QChar n = s[++i];
        if (n == QLatin1Char('s'))
            out += QLatin1Char(' ');
        else if (n == QLatin1Char('n'))
            out += QLatin1Char('\n');
        else if (n == QLatin1Char('t'))
            out += QLatin1Char('\t');
        else if (n == QLatin1Char('r'))
            out += QLatin1Char('\r');
        else if (n == QLatin1Char('\\'))
            out += QLatin1Char('\\');
        else
            out += QLatin1Char('\\') + n;
    }
    return out;
}

QString firstExecArgument(const QString &exec) {
    const QString e = exec.trimmed();
    QString arg;
    if (e.startsWith(QLatin1Char('"'))) {
        for (qsizetype i = 1; i < e.size(); ++i) {
            if (e[i] == QLatin1Char('\\') && i + 1 < e.size())
                arg += e[++i];
            else if (e[i] == QLatin1Char('"'))
                break;
            else
                arg += e[i];
        }
    } else {
        arg = e.section(QRegularExpression(QStringLiteral("\\s")), 0, 0);
    }
    return arg.replace(QStringLiteral("%%"), QStringLiteral("%"));
}

} // namespace

QByteArray xdgAutostartEntry(const QString &program) {
    const QString exec =
        quoteExecArgument(program) + QLatin1Char(' ') + QLatin1String(kAutostartFlag);
    const QString text = QStringLiteral("[Desktop Entry]\n"
                                        "Type=Application\n"
                                        "Name=Tether\n"
                                        "Comment=Keeps the local AI-agent service running\n"
                                        "Exec=%1\n"
                                        "Icon=%2\n"
                                        "Terminal=false\n"
                                        "X-GNOME-Autostart-enabled=true\n")
                             .arg(escapeString(exec), QLatin1String(kAppId));
    return text.toUtf8();
}

DesktopEntryInfo parseDesktopEntry(const QByteArray &text) {
    DesktopEntryInfo info;
    bool inMainGroup = false;
    for (const QString &raw : QString::fromUtf8(text).split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (line.startsWith(QLatin1Char('['))) {
            inMainGroup = line == QLatin1String("[Desktop Entry]");
            continue;
        }
        if (!inMainGroup || line.startsWith(QLatin1Char('#'))) continue;
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq < 0) continue;
        const QString key = line.left(eq).trimmed();
        const QString value = unescapeString(line.mid(eq + 1).trimmed());
        if (key == QLatin1String("Exec"))
            info.program = firstExecArgument(value);
        else if (key == QLatin1String("Hidden") && value == QLatin1String("true"))
            info.hidden = true;
        else if (key == QLatin1String("X-GNOME-Autostart-enabled") &&
                 value == QLatin1String("false"))
            info.hidden = true;
    }
    return info;
}

bool samePath(const QString &a, const QString &b, bool windows) {
    if (!windows) return QDir::cleanPath(a) == QDir::cleanPath(b);
    QString x = a, y = b;
    x.replace(QLatin1Char('\\'), QLatin1Char('/'));
    y.replace(QLatin1Char('\\'), QLatin1Char('/'));
    return QDir::cleanPath(x).compare(QDir::cleanPath(y), Qt::CaseInsensitive) == 0;
}

} // namespace tether::autostart
