// opencode 2.x registers its one shared service in service.json ($XDG_STATE_HOME/opencode/;
// service-<channel>.json for channels other than the releases'). Tether only reads that file:
// pure parsing and judging here, plus a size-capped reader. The file belongs to the service
// (docs/opencode2-protocol.md, Registration).
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
    // When the file was last written (its modification time, epoch ms; 0: unknown). opencode
    // writes no start time: the file's own stamp bounds when its writer started.
    qint64 writtenAtMs = 0;

    int port() const { return url.port(); }
};

struct ManagedRegistrationRead {
    enum class Status { Ok, Missing, Invalid } status = Status::Missing;
    ManagedRegistration registration; // when Ok
    QString error;                    // when Invalid: why
};

inline constexpr qint64 kManagedRegistrationMaxBytes = 64 * 1024;

// Pure. Invalid: not a JSON object, id not a UUID, pid <= 1, url not http on a loopback host
// with a port, password missing.
ManagedRegistrationRead parseManagedRegistration(const QByteArray &bytes);
// The file's five fields, as opencode writes them (tests forge registrations with it).
QByteArray serializeManagedRegistration(const ManagedRegistration &r);

// The build channel of an opencode version: "0.0.0-<channel>-<build>" for previews, "local"
// for a build run from source, "latest" for a release (and when the version is unknown).
QString opencodeChannel(const QString &version);
// service.json for latest, dev, beta and next; service-<channel>.json for any other.
QString managedRegistrationFileName(const QString &channel);
// The port a channel's service takes when its config names none: 49374 for the release
// channels, 49375 for local; other channels hash their name (not known here: nullopt).
std::optional<int> defaultServicePort(const QString &channel);
// The `port` of opencode's service config (~/.config/opencode/service.json); nullopt if none.
std::optional<int> parseServiceConfigPort(const QByteArray &bytes);

// <stateDir>/<file name>; an empty stateDir means $XDG_STATE_HOME/opencode, and
// ~/.local/state/opencode when XDG_STATE_HOME is unset or not absolute.
QString managedStateDir(const QString &stateDirSetting);
QString managedRegistrationPath(const QString &stateDirSetting,
                                const QString &channel = QStringLiteral("latest"));
// opencode's own service config for the channel: $XDG_CONFIG_HOME/opencode/<file name>.
QString serviceConfigPath(const QString &channel);
// Where the channel's service will listen: its config's port, else the channel's default.
std::optional<int> expectedServicePort(const QString &channel);

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
    qint64 registeredAtMs = 0;            // the file's last write; 0: unknown
    enum class Port { OwnedByPid, Free, OwnedByOther, Unknown } port = Port::Unknown;
};
enum class OwnerVerdict {
    Adopt,        // alive, plausibly the writer, and it listens on the registered port
    Wait,         // alive and plausible, not (yet) listening: look again later
    ProvablyGone, // dead, or the pid now belongs to a process started after the registration
    PortHeld,     // alive and plausible, but another process listens on the port
    Unknown,      // cannot tell: never guess
};
// A process cannot have written a registration before it started: a start later than the
// file's last write + tolerance means the pid was reused.
inline constexpr qint64 kStartToleranceMs = 2000;
OwnerVerdict judgeOwner(const OwnerFacts &facts);

} // namespace tether
