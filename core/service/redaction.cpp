#include "service/redaction.h"

#include <QRegularExpression>
#include <algorithm>

namespace tether {

bool secretName(const QString &name) {
    static const QRegularExpression re(
        QStringLiteral("PASSWORD|PASSWD|TOKEN|SECRET|KEY|AUTH|CREDENTIAL|COOKIE|SESSION"),
        QRegularExpression::CaseInsensitiveOption);
    return re.match(name).hasMatch();
}

QStringList secretValues(const QProcessEnvironment &env) {
    QStringList out;
    for (const QString &name : env.keys())
        if (secretName(name)) out << env.value(name);
    return out;
}

QString redactSecrets(const QString &text, const QStringList &secrets) {
    QString out = text;
    // Longest first: a secret that contains another must go whole.
    QStringList known = secrets;
    std::sort(known.begin(), known.end(),
              [](const QString &a, const QString &b) { return a.size() > b.size(); });
    for (const QString &s : known)
        if (s.size() >= 4) out.replace(s, QLatin1String(kRedacted));
    const QString r = QLatin1String(kRedacted);
    // "password": "x" (JSON), password=x / --password x / token: x (INI, argv, logs), the value
    // bare, "double-quoted" (escapes inside) or 'single-quoted'. A name ending in KEY (API_KEY,
    // OPENAI_KEY, KEY) counts when it is assigned (KEY=x, key: x) or an option (--api-key x).
    // The names around the word and a quoted value are bounded (1 KiB): a megabyte of "a.a.a..."
    // or of unclosed quotes must not take quadratic time.
    static const QRegularExpression json(
        QStringLiteral("(\"(?:[^\"]{0,60}(?:password|passwd|token|secret|apikey|api_key|"
                       "credential)[^\"]{0,60}|(?:[^\"]{0,60}[_.-])?key)\"\\s*:\\s*)"
                       "\"(?:[^\"\\\\]|\\\\.)*\""),
        QRegularExpression::CaseInsensitiveOption);
    out.replace(json, QStringLiteral("\\1\"") + r + QStringLiteral("\""));
    const QString name = QStringLiteral(
        "(\\b[\\w.-]{0,40}(?:password|passwd|token|secret|api[_-]?key|credential)[\\w.-]{0,40}"
        "(?:\\s*[=:]\\s*|\\s+)|\\b(?:[\\w.-]{0,40}[_.-])?key\\s*[=:]\\s*|--[\\w-]{0,40}key\\s+)");
    static const QRegularExpression doubleQuoted(
        name + QStringLiteral("\"(?:[^\"\\\\]|\\\\.){0,1024}\""),
        QRegularExpression::CaseInsensitiveOption);
    out.replace(doubleQuoted, QStringLiteral("\\1\"") + r + QStringLiteral("\""));
    static const QRegularExpression singleQuoted(name + QStringLiteral("'[^']{0,1024}'"),
                                                 QRegularExpression::CaseInsensitiveOption);
    out.replace(singleQuoted, QStringLiteral("\\1'") + r + QStringLiteral("'"));
    static const QRegularExpression bare(name + QStringLiteral("(?!\\[redacted\\])[^\\s\"',;&]+"),
                                         QRegularExpression::CaseInsensitiveOption);
    out.replace(bare, QStringLiteral("\\1") + r);
    static const QRegularExpression auth(
        QStringLiteral("(authorization\\s*[:=]\\s*(?:basic|bearer)\\s+)[A-Za-z0-9+/=._~-]+"),
        QRegularExpression::CaseInsensitiveOption);
    out.replace(auth, QStringLiteral("\\1") + r);
    static const QRegularExpression userinfo(QStringLiteral("(\\w+://[^/\\s:@]+:)[^@\\s/]+@"));
    out.replace(userinfo, QStringLiteral("\\1") + r + QStringLiteral("@"));
    return out;
}

} // namespace tether
