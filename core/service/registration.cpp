#include "service/registration.h"

#include "settings/storage.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <limits>

namespace tether {

namespace {
constexpr qint64 kMaxRegistrationBytes = 64 * 1024;

RegistrationRead invalid(const QString &why) {
    RegistrationRead r;
    r.status = RegistrationRead::Status::Invalid;
    r.error = why;
    return r;
}

bool readInteger(const QJsonObject &o, const char *key, qint64 min, qint64 max, qint64 *out) {
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble()) return false;
    const double d = v.toDouble();
    if (d < double(min) || d > double(max) || d != double(qint64(d))) return false;
    *out = qint64(d);
    return true;
}
} // namespace

RegistrationRead parseRegistration(const QByteArray &bytes) {
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &err);
    if (err.error != QJsonParseError::NoError)
        return invalid(
            QStringLiteral("registration is not valid JSON (%1)").arg(err.errorString()));
    if (!doc.isObject()) return invalid(QStringLiteral("registration is not a JSON object"));
    const QJsonObject o = doc.object();
    Registration r;
    qint64 port = 0, pgid = 0;
    if (!readInteger(o, "pid", 2, std::numeric_limits<qint32>::max(), &r.pid))
        return invalid(QStringLiteral("registration has no valid pid"));
    // The start time is a 64-bit token: stored as a decimal string so JSON doubles cannot round it.
    bool ok = false;
    r.startTime = o.value(QLatin1String("startTime")).toString().toULongLong(&ok);
    if (!ok || r.startTime == 0)
        return invalid(QStringLiteral("registration has no valid startTime"));
    if (!readInteger(o, "port", 1, 65535, &port))
        return invalid(QStringLiteral("registration has no valid port"));
    r.port = int(port);
    if (o.contains(QLatin1String("pgid")) &&
        !readInteger(o, "pgid", 0, std::numeric_limits<qint32>::max(), &pgid))
        return invalid(QStringLiteral("registration has an invalid pgid"));
    r.pgid = pgid;
    r.version = o.value(QLatin1String("version")).toString();
    r.password = o.value(QLatin1String("password")).toString();
    r.profile = o.value(QLatin1String("profile")).toString();
    r.program = o.value(QLatin1String("program")).toString();
    r.startedAt =
        QDateTime::fromString(o.value(QLatin1String("startedAt")).toString(), Qt::ISODateWithMs);
    RegistrationRead out;
    out.status = RegistrationRead::Status::Ok;
    out.registration = r;
    return out;
}

QByteArray serializeRegistration(const Registration &r) {
    const QJsonObject o{
        {QStringLiteral("pid"), r.pid},
        {QStringLiteral("startTime"), QString::number(r.startTime)},
        {QStringLiteral("port"), r.port},
        {QStringLiteral("pgid"), r.pgid},
        {QStringLiteral("version"), r.version},
        {QStringLiteral("password"), r.password},
        {QStringLiteral("startedAt"), r.startedAt.toString(Qt::ISODateWithMs)},
        {QStringLiteral("profile"), r.profile},
        {QStringLiteral("program"), r.program},
    };
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

QString registrationPath() {
    return storage::dataPath(QStringLiteral("service.json"));
}

RegistrationRead readRegistration(const QString &path) {
    QByteArray bytes;
    QString error;
    switch (storage::readSmallFile(path, kMaxRegistrationBytes, &bytes, &error)) {
    case storage::ReadStatus::Missing:
        return RegistrationRead{};
    case storage::ReadStatus::TooLarge:
    case storage::ReadStatus::Error:
        return invalid(error);
    case storage::ReadStatus::Ok:
        break;
    }
    RegistrationRead r = parseRegistration(bytes);
    if (r.status == RegistrationRead::Status::Invalid)
        r.error = QStringLiteral("%1: %2").arg(path, r.error);
    return r;
}

bool writeRegistration(const QString &path, const Registration &r, QString *error) {
    return storage::writePrivateFile(path, serializeRegistration(r), error);
}

void removeRegistration(const QString &path) {
    QFile::remove(path);
}

QString setRegistrationAside(const QString &path) {
    const QString aside = path + QStringLiteral(".bad");
    QFile::remove(aside);
    return QFile::rename(path, aside) ? aside : QString();
}

} // namespace tether
