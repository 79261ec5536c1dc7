#include "settings/argument_list.h"

#include <algorithm>

namespace tether {

ArgumentList parseArgumentList(const QString &text) {
    ArgumentList out;
    QString current;
    bool inArgument = false; // "" makes an empty argument: a quote starts one
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\\') && i + 1 < text.size() && text.at(i + 1) == QLatin1Char('"')) {
            current += QLatin1Char('"');
            inArgument = true;
            ++i;
        } else if (c == QLatin1Char('"')) {
            quoted = !quoted;
            inArgument = true;
        } else if (c.isSpace() && !quoted) {
            if (inArgument) out.arguments << current;
            current.clear();
            inArgument = false;
        } else {
            current += c;
            inArgument = true;
        }
    }
    if (inArgument) out.arguments << current;
    if (quoted) out.error = QStringLiteral("a quote (\") is not closed");
    return out;
}

QString joinArgumentList(const QStringList &arguments) {
    QStringList parts;
    for (QString a : arguments) {
        // Plain when the parser reads it back as is: not empty, no quote, no space of any kind
        // (the parser splits on every QChar::isSpace, newlines included).
        const bool plain = !a.isEmpty() && !a.contains(QLatin1Char('"')) &&
                           std::none_of(a.cbegin(), a.cend(), [](QChar c) { return c.isSpace(); });
        if (plain) {
            parts << a;
            continue;
        }
        // Backslashes at the end stay outside the quotes: before the closing quote they would
        // read as \" (a quote inside the argument) and leave the quote open.
        qsizetype end = a.size();
        while (end > 0 && a.at(end - 1) == QLatin1Char('\\'))
            --end;
        const QString trailing = a.mid(end);
        a.truncate(end);
        a.replace(QLatin1String("\""), QLatin1String("\\\""));
        parts << QLatin1Char('"') + a + QLatin1Char('"') + trailing;
    }
    return parts.join(QLatin1Char(' '));
}

ArgumentList argumentsFromSetting(const QVariant &value) {
    if (value.typeId() == QMetaType::QStringList) return {value.toStringList(), {}};
    return parseArgumentList(value.toString());
}

} // namespace tether
