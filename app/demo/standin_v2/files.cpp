#include "demo/standin_v2/files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace tether::standin_v2 {

namespace {

// A JSON number that is an integer (JavaScript has no other kind).
std::optional<qint64> integer(const QJsonValue &v) {
    if (!v.isDouble()) return std::nullopt;
    const double d = v.toDouble();
    if (!std::isfinite(d) || std::floor(d) != d || std::fabs(d) > 9007199254740991.0)
        return std::nullopt;
    return static_cast<qint64>(d);
}

// An optional string field: absent is fine, another type is not.
bool optionalString(const QJsonObject &o, const char *key, std::optional<QString> &out) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (v.isUndefined()) return true;
    if (!v.isString()) return false;
    out = v.toString();
    return true;
}

std::optional<QJsonObject> readObject(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
    QJsonParseError e{};
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &e);
    if (e.error != QJsonParseError::NoError || !doc.isObject()) return std::nullopt;
    return doc.object();
}

// temp file with mode 0600, then rename over `path` (atomic on POSIX).
bool writePrivate(const QString &path, const QString &temp, const QByteArray &data,
                  QString *error) {
    const auto fail = [&](const QString &message) {
        if (error) *error = message;
        QFile::remove(temp);
        return false;
    };
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return fail(QStringLiteral("cannot create the directory of %1").arg(path));
    QFile f(temp);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        // Private before the first byte: the password is in it.
        !f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner) ||
        f.write(data) != data.size() || !f.flush())
        return fail(QStringLiteral("cannot write %1: %2").arg(temp, f.errorString()));
    f.close();
#ifdef Q_OS_UNIX
    if (std::rename(QFile::encodeName(temp).constData(), QFile::encodeName(path).constData()) != 0)
        return fail(QStringLiteral("cannot rename %1 to %2: %3")
                        .arg(temp, path, QString::fromLocal8Bit(std::strerror(errno))));
#else
    // Not atomic on Windows; the stand-in's tests run on POSIX.
    QFile::remove(path);
    if (!QFile::rename(temp, path))
        return fail(QStringLiteral("cannot rename %1 to %2").arg(temp, path));
#endif
    return true;
}

} // namespace

QByteArray encodeRegistration(const Registration &r) {
    return QJsonDocument(QJsonObject{{"id", r.id},
                                     {"version", r.version},
                                     {"url", r.url},
                                     {"pid", static_cast<double>(r.pid)},
                                     {"password", r.password}})
        .toJson(QJsonDocument::Compact);
}

std::optional<RegistrationRead> decodeRegistration(const QByteArray &json) {
    QJsonParseError e{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &e);
    if (e.error != QJsonParseError::NoError || !doc.isObject()) return std::nullopt;
    const QJsonObject o = doc.object();
    RegistrationRead r;
    const std::optional<qint64> pid = integer(o.value(QLatin1String("pid")));
    if (!o.value(QLatin1String("url")).isString() || !pid || *pid <= 0) return std::nullopt;
    r.url = o.value(QLatin1String("url")).toString();
    r.pid = *pid;
    if (!optionalString(o, "id", r.id) || !optionalString(o, "version", r.version) ||
        !optionalString(o, "password", r.password))
        return std::nullopt;
    return r;
}

bool owns(const RegistrationRead &found, const Registration &me) {
    return found.id == me.id && found.version == me.version && found.url == me.url &&
           found.pid == me.pid && found.password == me.password;
}

bool writeRegistration(const QString &path, const Registration &r, QString *error) {
    return writePrivate(path, path + QLatin1Char('.') + r.id + QStringLiteral(".tmp"),
                        encodeRegistration(r), error);
}

std::optional<RegistrationRead> readRegistration(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
    return decodeRegistration(f.readAll());
}

ServiceConfig readServiceConfig(const QString &path) {
    const std::optional<QJsonObject> object = readObject(path);
    if (!object) return {};
    const QJsonObject &o = *object;
    ServiceConfig c;
    if (!optionalString(o, "hostname", c.hostname) || !optionalString(o, "password", c.password))
        return {};
    if (const QJsonValue v = o.value(QLatin1String("port")); !v.isUndefined()) {
        const std::optional<qint64> port = integer(v);
        if (!port || *port < 1 || *port > 65535) return {};
        c.port = static_cast<int>(*port);
    }
    if (const QJsonValue v = o.value(QLatin1String("env")); !v.isUndefined()) {
        if (!v.isObject()) return {};
        QMap<QString, QString> env;
        const QJsonObject e = v.toObject();
        for (auto it = e.begin(); it != e.end(); ++it) {
            if (!it.value().isString()) return {};
            env.insert(it.key(), it.value().toString());
        }
        c.env = env;
    }
    return c;
}

bool writeServiceConfigPassword(const QString &path, const ServiceConfig &existing,
                                const QString &password, QString *error) {
    QJsonObject o;
    if (existing.hostname) o.insert(QLatin1String("hostname"), *existing.hostname);
    if (existing.port) o.insert(QLatin1String("port"), *existing.port);
    if (existing.env) {
        QJsonObject env;
        for (auto it = existing.env->cbegin(); it != existing.env->cend(); ++it)
            env.insert(it.key(), it.value());
        o.insert(QLatin1String("env"), env);
    }
    o.insert(QLatin1String("password"), password);
    return writePrivate(path, path + QStringLiteral(".tmp"),
                        QJsonDocument(o).toJson(QJsonDocument::Indented), error);
}

} // namespace tether::standin_v2
