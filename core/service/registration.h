// Tether's own registration of a service it started: who it is (pid + start time), where it
// listens, and the per-start password. Private (0600), atomic; a damaged file reads as stale.
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <cstdint>

namespace tether {

struct Registration {
    qint64 pid = 0;
    quint64 startTime = 0; // the OS start-time token (see core/os/process.h)
    int port = 0;
    QString version;
    QString password;
    QDateTime startedAt;
    QString profile;
    qint64 pgid = 0; // the process group the service leads (POSIX), 0 if none
    QString program; // what was started: a live pid running something else is not the service
};

struct RegistrationRead {
    enum class Status { Ok, Missing, Invalid } status = Status::Missing;
    Registration registration; // when Ok
    QString error;             // when Invalid: why, for the log and lastError
};

// Pure: parse and serialize. Invalid JSON, wrong types, pid <= 1, port out of range,
// and missing fields are all Invalid, with a reason.
RegistrationRead parseRegistration(const QByteArray &bytes);
QByteArray serializeRegistration(const Registration &r);

QString registrationPath(); // <data dir>/service.json
RegistrationRead readRegistration(const QString &path);
bool writeRegistration(const QString &path, const Registration &r, QString *error);
void removeRegistration(const QString &path);
// A registration that cannot be read is kept for a person to look at: moved to <path>.bad
// (replacing an older one), out of the way of the next write. Returns the new path, or empty.
QString setRegistrationAside(const QString &path);

} // namespace tether
