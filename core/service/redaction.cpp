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
    // "password": "x" (JSON), password=x / --password x / token: x (INI, argv, logs). The names
    // around the word are bounded: a megabyte of "a.a.a..." must not take quadratic time.
    static const QRegularExpression json(
        QStringLiteral("(\"[^\"]{0,60}(?:password|passwd|token|secret|apikey|api_key)[^\"]{0,60}"
                       "\"\\s*:\\s*)"
                       "\"(?:[^\"\\\\]|\\\\.)*\""),
        QRegularExpression::CaseInsensitiveOption);
    out.replace(json, QStringLiteral("\\1\"") + r + QStringLiteral("\""));
    static const QRegularExpression assign(
        QStringLiteral("(\\b[\\w.-]{0,40}(?:password|passwd|token|secret|api[_-]?key)[\\w.-]{0,40}"
                       "(?:\\s*[=:]\\s*|\\s+))(?!\\[redacted\\])[^\\s\"',;&]+"),
        QRegularExpression::CaseInsensitiveOption);
    out.replace(assign, QStringLiteral("\\1") + r);
    static const QRegularExpression auth(
        QStringLiteral("(authorization\\s*[:=]\\s*(?:basic|bearer)\\s+)[A-Za-z0-9+/=._~-]+"),
        QRegularExpression::CaseInsensitiveOption);
    out.replace(auth, QStringLiteral("\\1") + r);
    static const QRegularExpression userinfo(QStringLiteral("(\\w+://[^/\\s:@]+:)[^@\\s/]+@"));
    out.replace(userinfo, QStringLiteral("\\1") + r + QStringLiteral("@"));
    return out;
}

} // namespace tether
