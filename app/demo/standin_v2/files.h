// The stand-in's own files: the registration (service.json in the state directory) and the
// service config (the same name in the config directory). Its own reader and writer, from the
// record's shapes; nothing shared with the supervisor it is tested against.
#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>

#include <optional>

namespace tether::standin_v2 {

// What the service writes: exactly these five fields, no startedAt [R12].
struct Registration {
    QString id; // a fresh UUID per process
    QString version;
    QString url;
    qint64 pid = 0;
    QString password;
};

// What a reader accepts: url and pid > 0 required, the others optional strings [R2].
struct RegistrationRead {
    std::optional<QString> id, version, password;
    QString url;
    qint64 pid = 0;
};

QByteArray encodeRegistration(const Registration &r);
std::optional<RegistrationRead> decodeRegistration(const QByteArray &json);

// True when `found` names `me` in all five fields: anything else means another owner [R12].
bool owns(const RegistrationRead &found, const Registration &me);

// Writes `<path>.<id>.tmp` with mode 0600, then renames it over `path`, creating the
// directory first [R12]. False with `error` set on failure.
bool writeRegistration(const QString &path, const Registration &r, QString *error);

// The file as it is now: nullopt when it is missing, unreadable or not a registration.
std::optional<RegistrationRead> readRegistration(const QString &path);

// The service config [R14]: every field optional; a file that does not decode as a whole
// counts as empty, as ServiceConfig.read() does.
struct ServiceConfig {
    std::optional<QString> hostname;
    std::optional<int> port; // 1..65535
    std::optional<QString> password;
    std::optional<QMap<QString, QString>> env;
};

ServiceConfig readServiceConfig(const QString &path);

// Persists a password into the service config (its other fields kept), as temp + rename,
// mode 0600, pretty JSON [R9] [R14].
bool writeServiceConfigPassword(const QString &path, const ServiceConfig &existing,
                                const QString &password, QString *error);

} // namespace tether::standin_v2
