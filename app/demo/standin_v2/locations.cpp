#include "demo/standin_v2/locations.h"

#include <QRegularExpression>

namespace tether::standin_v2 {

namespace {
bool releaseChannel(const QString &c) {
    return c == QLatin1String("latest") || c == QLatin1String("dev") ||
           c == QLatin1String("beta") || c == QLatin1String("next");
}

QString xdg(const QProcessEnvironment &env, const char *name, const QString &fallback) {
    const QString v = env.value(QString::fromLatin1(name));
    return v.isEmpty() ? fallback : v;
}
} // namespace

QString channelFileName(const QString &channel) {
    if (releaseChannel(channel)) return QStringLiteral("service.json");
    QString safe = channel;
    safe.replace(QRegularExpression(QStringLiteral("[^a-zA-Z0-9._-]")), QStringLiteral("-"));
    return QStringLiteral("service-%1.json").arg(safe);
}

std::optional<int> defaultPort(const QString &channel) {
    if (releaseChannel(channel)) return 0xC0DE;
    if (channel == QLatin1String("local")) return 0xC0DF;
    return std::nullopt;
}

QString stateDirectory(const QProcessEnvironment &env, const QString &home) {
    return xdg(env, "XDG_STATE_HOME", home + QStringLiteral("/.local/state")) +
           QStringLiteral("/opencode");
}

QString configDirectory(const QProcessEnvironment &env, const QString &home) {
    const QString explicitDir = env.value(QStringLiteral("OPENCODE_CONFIG_DIR"));
    if (!explicitDir.isEmpty()) return explicitDir;
    return xdg(env, "XDG_CONFIG_HOME", home + QStringLiteral("/.config")) +
           QStringLiteral("/opencode");
}

QString serviceUrl(const QString &hostname, int port) {
    const QString host = hostname.contains(QLatin1Char(':'))
                             ? QLatin1Char('[') + hostname + QLatin1Char(']')
                             : hostname;
    return QStringLiteral("http://%1:%2").arg(host).arg(port);
}

bool truthy(const QString &value) {
    return value == QLatin1String("1") ||
           value.compare(QLatin1String("true"), Qt::CaseInsensitive) == 0;
}

} // namespace tether::standin_v2
