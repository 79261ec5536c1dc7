#include "settings/ini_edit.h"

#include <QStringList>

namespace tether {

namespace {

struct Line {
    QString text;
    QString section; // the section it is in ("" before the first header)
    QString key;     // empty: a comment, a blank line or a section header
};

// Where a value's inline comment starts (a ';' outside quotes), or -1.
int commentStart(const QString &value) {
    bool quoted = false;
    for (int i = 0; i < value.size(); ++i) {
        const QChar c = value[i];
        if (c == QLatin1Char('\\')) {
            ++i;
        } else if (c == QLatin1Char('"')) {
            quoted = !quoted;
        } else if (c == QLatin1Char(';') && !quoted) {
            return i;
        }
    }
    return -1;
}

QList<Line> parse(const QString &text) {
    QList<Line> lines;
    QString section;
    for (const QString &raw : text.split(QLatin1Char('\n'))) {
        Line l{raw, section, {}};
        const QString t = raw.trimmed();
        if (t.startsWith(QLatin1Char('[')) && t.endsWith(QLatin1Char(']'))) {
            section = t.mid(1, t.size() - 2).trimmed();
            l.section = section;
        } else if (!t.isEmpty() && !t.startsWith(QLatin1Char(';')) &&
                   !t.startsWith(QLatin1Char('#'))) {
            const int eq = t.indexOf(QLatin1Char('='));
            if (eq > 0) l.key = t.left(eq).trimmed();
        }
        lines << l;
    }
    return lines;
}

bool sameSection(const QString &a, const QString &b) {
    // QSettings puts keys without a group in [General].
    const auto norm = [](const QString &s) {
        return s.compare(QLatin1String("General"), Qt::CaseInsensitive) == 0 ? QString() : s;
    };
    return norm(a) == norm(b);
}

} // namespace

QByteArray editIni(const QByteArray &text, const QList<IniChange> &changes) {
    const bool crlf = text.contains("\r\n");
    QString source = QString::fromUtf8(text);
    source.remove(QLatin1Char('\r'));
    QList<Line> lines = parse(source);
    if (!lines.isEmpty() && lines.last().text.isEmpty()) lines.removeLast(); // the final newline
    for (const IniChange &change : changes) {
        const QString section = change.first.contains(QLatin1Char('/'))
                                    ? change.first.section(QLatin1Char('/'), 0, 0)
                                    : QString();
        const QString key = change.first.section(QLatin1Char('/'), -1);
        bool done = false;
        int header = -1;  // the section's header line
        int lastKey = -1; // its last key's line
        for (int i = 0; i < lines.size(); ++i) {
            if (!sameSection(lines[i].section, section)) continue;
            if (header < 0 && lines[i].key.isEmpty()) header = i;
            if (lines[i].key.isEmpty()) continue;
            lastKey = i;
            if (lines[i].key != key) continue;
            // In place: its indentation, and its comment after the value, stay.
            const QString &raw = lines[i].text;
            const int eq = raw.indexOf(QLatin1Char('='));
            const QString after = raw.mid(eq + 1);
            const int comment = commentStart(after);
            QString tail;
            if (comment >= 0) {
                int keep = comment;
                while (keep > 0 && after[keep - 1].isSpace())
                    --keep;
                tail = after.mid(keep);
            }
            lines[i].text = raw.left(eq + 1) + change.second + tail;
            done = true;
            break;
        }
        if (done) continue;
        const Line added{key + QLatin1Char('=') + change.second, section, key};
        if (lastKey >= 0 || header >= 0) {
            // After the section's last key (before the blank lines and comments that follow).
            lines.insert((lastKey >= 0 ? lastKey : header) + 1, added);
        } else {
            if (!lines.isEmpty() && !lines.last().text.trimmed().isEmpty())
                lines << Line{QString(), QString(), QString()};
            lines << Line{QLatin1Char('[') + section + QLatin1Char(']'), section, QString()};
            lines << added;
        }
    }
    QStringList out;
    for (const Line &l : std::as_const(lines))
        out << l.text;
    QString joined = out.join(QLatin1Char('\n')) + QLatin1Char('\n');
    if (crlf) joined.replace(QLatin1Char('\n'), QStringLiteral("\r\n"));
    return joined.toUtf8();
}

QString iniValueText(const QVariant &value) {
    if (value.typeId() == QMetaType::Bool)
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (value.typeId() == QMetaType::Int || value.typeId() == QMetaType::LongLong ||
        value.typeId() == QMetaType::UInt || value.typeId() == QMetaType::ULongLong)
        return value.toString();
    QString s = value.toString();
    if (s.startsWith(QLatin1Char('@'))) s.prepend(QLatin1Char('@')); // QSettings' own escape
    QString out;
    bool quotes = false;
    for (const QChar c : std::as_const(s)) {
        switch (c.unicode()) {
        case ';':
        case ',':
        case '=':
            quotes = true;
            out += c;
            break;
        case '"':
        case '\\':
            out += QLatin1Char('\\');
            out += c;
            break;
        case '\n':
            out += QStringLiteral("\\n");
            break;
        case '\r':
            out += QStringLiteral("\\r");
            break;
        case '\t':
            out += QStringLiteral("\\t");
            break;
        default:
            if (c.unicode() < 0x20)
                out += QStringLiteral("\\x%1").arg(c.unicode(), 0, 16);
            else
                out += c;
        }
    }
    if (!out.isEmpty() && (out.front() == QLatin1Char(' ') || out.back() == QLatin1Char(' ')))
        quotes = true;
    return quotes ? QLatin1Char('"') + out + QLatin1Char('"') : out;
}

} // namespace tether
