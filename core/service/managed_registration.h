// opencode 2.x registers its one shared service in service.json ($XDG_STATE_HOME/opencode/).
// Tether only reads that file: pure parsing and judging here, plus a size-capped reader. The
// file belongs to the service; only the demo service (which plays opencode) writes it.
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QUrl>
#include <optional>

namespace tether {

struct ManagedRegistration {
    QString id; // UUID, new for every service start
    QString version;
    QUrl url; // http://127.0.0.1:PORT (loopback only)
    qint64 pid = 0;
    QString password;
    qint64 startedAtMs = 0; // wall clock, ms since the epoch; 0 when absent

    int port() const { return url.port(); }
};

struct ManagedRegistrationRead {
    enum class Status { Ok, Missing, Invalid } status = Status::Missing;
    ManagedRegistration registration; // when Ok
    QString error;                    // when Invalid: why
};

inline constexpr qint64 kManagedRegistrationMaxBytes = 64 * 1024;

// Pure. Invalid: not a JSON object, id not a UUID, pid <= 1, url not http on a loopback host
// with a port, password missing. startedAt may be epoch milliseconds or an ISO-8601 string.
ManagedRegistrationRead parseManagedRegistration(const QByteArray &bytes);
// The demo's form of the file: startedAt as epoch milliseconds, as a JavaScript Date.now().
QByteArray serializeManagedRegistration(const ManagedRegistration &r);

// <stateDir>/service.json; an empty stateDir means $XDG_STATE_HOME/opencode, and
// ~/.local/state/opencode when XDG_STATE_HOME is unset or not absolute.
QString managedStateDir(const QString &stateDirSetting);
QString managedRegistrationPath(const QString &stateDirSetting);

ManagedRegistrationRead readManagedRegistration(const QString &path);

// Cheap change detection between reads: a stat, no read.
struct FileStamp {
    bool exists = false;
    qint64 size = -1;
    qint64 mtimeNs = 0;
    qint64 inode = 0;
    bool operator==(const FileStamp &o) const {
        return exists == o.exists && size == o.size && mtimeNs == o.mtimeNs && inode == o.inode;
    }
    bool operator!=(const FileStamp &o) const { return !(*this == o); }
};
FileStamp stampOf(const QString &path);

// What the facts about the process a registration names say (pure).
struct OwnerFacts {
    enum class Life { Alive, Gone, Unknown } life = Life::Unknown;
    std::optional<qint64> processStartMs; // wall clock start of the live pid, when the OS tells
    qint64 registeredStartedAtMs = 0;     // 0: the registration has none
    enum class Port { OwnedByPid, Free, OwnedByOther, Unknown } port = Port::Unknown;
};
enum class OwnerVerdict {
    Adopt,        // alive, plausibly the writer, and it listens on the registered port
    Wait,         // alive and plausible, not (yet) listening: look again later
    ProvablyGone, // dead, or the pid now belongs to a process started after the registration
    PortHeld,     // alive and plausible, but another process listens on the port
    Unknown,      // cannot tell: never guess
};
// A process cannot have written a registration before it started: a start later than
// startedAt + tolerance means the pid was reused.
inline constexpr qint64 kStartToleranceMs = 2000;
OwnerVerdict judgeOwner(const OwnerFacts &facts);

} // namespace tether
