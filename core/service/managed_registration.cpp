#include "service/managed_registration.h"

#include "settings/storage.h"

#include <QDir>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QUuid>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#elif defined(Q_OS_WIN)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#endif

namespace tether {

namespace {

ManagedRegistrationRead invalid(const QString &why) {
    ManagedRegistrationRead r;
    r.status = ManagedRegistrationRead::Status::Invalid;
    r.error = QStringLiteral("service.json: %1").arg(why);
    return r;
}

bool loopbackHost(const QString &host) {
    if (host == QLatin1String("localhost")) return true;
    const QHostAddress a(host);
    return !a.isNull() && a.isLoopback();
}

} // namespace

ManagedRegistrationRead parseManagedRegistration(const QByteArray &bytes) {
    if (bytes.size() > kManagedRegistrationMaxBytes)
        return invalid(QStringLiteral("larger than %1 bytes").arg(kManagedRegistrationMaxBytes));
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return invalid(QStringLiteral("not a JSON object (truncated or damaged)"));
    const QJsonObject o = doc.object();
    ManagedRegistration m;

    m.id = o.value(QLatin1String("id")).toString();
    if (QUuid::fromString(m.id).isNull()) return invalid(QStringLiteral("id is not a UUID"));
    const double pid = o.value(QLatin1String("pid")).toDouble(0);
    if (!(pid > 1 && pid < 4294967296.0) || pid != double(qint64(pid)))
        return invalid(QStringLiteral("pid is missing or out of range"));
    m.pid = qint64(pid);
    m.url = QUrl(o.value(QLatin1String("url")).toString(), QUrl::StrictMode);
    if (!m.url.isValid() || m.url.scheme() != QLatin1String("http") || m.url.port() < 1 ||
        m.url.port() > 65535)
        return invalid(QStringLiteral("url is not http://HOST:PORT"));
    if (!loopbackHost(m.url.host()))
        return invalid(
            QStringLiteral("url %1 is not on this machine's loopback").arg(m.url.host()));
    const QJsonValue password = o.value(QLatin1String("password"));
    // Empty would mean sending "opencode:" as credentials (found by fuzz_managed_registration).
    if (!password.isString() || password.toString().isEmpty())
        return invalid(QStringLiteral("password is missing or empty"));
    m.password = password.toString();
    m.version = o.value(QLatin1String("version")).toString().left(64);
    ManagedRegistrationRead r;
    r.status = ManagedRegistrationRead::Status::Ok;
    r.registration = m;
    return r;
}

QByteArray serializeManagedRegistration(const ManagedRegistration &r) {
    QJsonObject o{{QStringLiteral("id"), r.id},
                  {QStringLiteral("version"), r.version},
                  {QStringLiteral("url"), r.url.toString()},
                  {QStringLiteral("pid"), double(r.pid)},
                  {QStringLiteral("password"), r.password}};
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

namespace {

bool releaseChannel(const QString &channel) {
    return channel == QLatin1String("latest") || channel == QLatin1String("dev") ||
           channel == QLatin1String("beta") || channel == QLatin1String("next");
}

} // namespace

QString opencodeChannel(const QString &version) {
    if (version == QLatin1String("local")) return version;
    static const QRegularExpression preview(QStringLiteral("^0\\.0\\.0-([^-]+)-"));
    const QRegularExpressionMatch m = preview.match(version);
    return m.hasMatch() ? m.captured(1) : QStringLiteral("latest");
}

QString managedRegistrationFileName(const QString &channel) {
    if (releaseChannel(channel) || channel.isEmpty()) return QStringLiteral("service.json");
    QString safe = channel.left(64);
    for (QChar &c : safe)
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != QLatin1Char('.') &&
            c != QLatin1Char('_') && c != QLatin1Char('-'))
            c = QLatin1Char('-');
    return QStringLiteral("service-%1.json").arg(safe);
}

std::optional<int> defaultServicePort(const QString &channel) {
    if (releaseChannel(channel) || channel.isEmpty()) return 0xC0DE; // 49374
    if (channel == QLatin1String("local")) return 0xC0DF;            // 49375
    return std::nullopt;
}

std::optional<int> parseServiceConfigPort(const QByteArray &bytes) {
    const QJsonValue port = QJsonDocument::fromJson(bytes).object().value(QLatin1String("port"));
    const double p = port.toDouble(0);
    if (!port.isDouble() || p < 1 || p > 65535 || p != double(int(p))) return std::nullopt;
    return int(p);
}

QString managedStateDir(const QString &stateDirSetting) {
    if (!stateDirSetting.isEmpty()) return QDir::cleanPath(stateDirSetting);
    const QString xdg = qEnvironmentVariable("XDG_STATE_HOME");
    // The XDG spec: a relative path is invalid and must be ignored.
    const QString base = !xdg.isEmpty() && QDir::isAbsolutePath(xdg)
                             ? xdg
                             : QDir::homePath() + QStringLiteral("/.local/state");
    return QDir::cleanPath(base + QStringLiteral("/opencode"));
}

QString managedRegistrationPath(const QString &stateDirSetting, const QString &channel) {
    return managedStateDir(stateDirSetting) + QLatin1Char('/') +
           managedRegistrationFileName(channel);
}

QString serviceConfigPath(const QString &channel) {
    // opencode's Global.config, which OPENCODE_CONFIG_DIR replaces (docs/opencode2-protocol.md).
    QString dir = qEnvironmentVariable("OPENCODE_CONFIG_DIR");
    if (dir.isEmpty()) {
        const QString xdg = qEnvironmentVariable("XDG_CONFIG_HOME");
        dir = (!xdg.isEmpty() && QDir::isAbsolutePath(xdg)
                   ? xdg
                   : QDir::homePath() + QStringLiteral("/.config")) +
              QStringLiteral("/opencode");
    }
    return QDir::cleanPath(dir + QLatin1Char('/') + managedRegistrationFileName(channel));
}

std::optional<int> expectedServicePort(const QString &channel) {
    QByteArray bytes;
    if (storage::readSmallFile(serviceConfigPath(channel), kManagedRegistrationMaxBytes, &bytes,
                               nullptr) == storage::ReadStatus::Ok)
        if (const std::optional<int> port = parseServiceConfigPort(bytes)) return port;
    return defaultServicePort(channel);
}

ManagedRegistrationRead readManagedRegistration(const QString &path) {
    QByteArray bytes;
    QString error;
    switch (storage::readSmallFile(path, kManagedRegistrationMaxBytes, &bytes, &error)) {
    case storage::ReadStatus::Ok: {
        ManagedRegistrationRead r = parseManagedRegistration(bytes);
        r.registration.writtenAtMs = QFileInfo(path).lastModified().toMSecsSinceEpoch();
        return r;
    }
    case storage::ReadStatus::Missing:
        return {};
    case storage::ReadStatus::TooLarge:
    case storage::ReadStatus::Error:
        return invalid(error);
    }
    return invalid(error);
}

FileStamp stampOf(const QString &path) {
    FileStamp s;
#ifdef Q_OS_UNIX
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0) return s;
    s.exists = true;
    s.size = qint64(st.st_size);
    s.inode = qint64(st.st_ino); // the writer renames a new file over the old one
#if defined(Q_OS_MACOS)
    s.mtimeNs = qint64(st.st_mtimespec.tv_sec) * 1000000000 + st.st_mtimespec.tv_nsec;
#else
    s.mtimeNs = qint64(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
#endif
#elif defined(Q_OS_WIN)
    // The file index is the inode of NTFS: a rename over the old file changes it even when size
    // and the millisecond of the last write (all QFileInfo has) are the same. No access asked:
    // reading the metadata needs none, and no writer is blocked.
    const HANDLE h =
        ::CreateFileW(reinterpret_cast<const wchar_t *>(QDir::toNativeSeparators(path).utf16()), 0,
                      FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                      OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (h == INVALID_HANDLE_VALUE) return s;
    BY_HANDLE_FILE_INFORMATION info{};
    const bool ok = ::GetFileInformationByHandle(h, &info) != FALSE;
    ::CloseHandle(h);
    if (!ok) return s;
    s.exists = true;
    s.size = qint64((quint64(info.nFileSizeHigh) << 32) | info.nFileSizeLow);
    s.inode = qint64((quint64(info.nFileIndexHigh) << 32) | info.nFileIndexLow);
    // FILETIME counts 100 ns; only differences matter, so the epoch can stay Windows'.
    s.mtimeNs = qint64((quint64(info.ftLastWriteTime.dwHighDateTime) << 32) |
                       info.ftLastWriteTime.dwLowDateTime) *
                100;
#else
    const QFileInfo fi(path);
    if (!fi.exists()) return s;
    s.exists = true;
    s.size = fi.size();
    s.mtimeNs = fi.lastModified().toMSecsSinceEpoch() * 1000000;
#endif
    return s;
}

OwnerVerdict judgeOwner(const OwnerFacts &f) {
    switch (f.life) {
    case OwnerFacts::Life::Gone:
        return OwnerVerdict::ProvablyGone;
    case OwnerFacts::Life::Unknown:
        return OwnerVerdict::Unknown;
    case OwnerFacts::Life::Alive:
        break;
    }
    if (f.processStartMs && f.registeredAtMs > 0 &&
        *f.processStartMs > f.registeredAtMs + kStartToleranceMs)
        return OwnerVerdict::ProvablyGone; // the pid was reused after the registration
    switch (f.port) {
    case OwnerFacts::Port::OwnedByPid:
        return OwnerVerdict::Adopt;
    case OwnerFacts::Port::Free:
        return OwnerVerdict::Wait;
    case OwnerFacts::Port::OwnedByOther:
        return OwnerVerdict::PortHeld;
    case OwnerFacts::Port::Unknown:
        return OwnerVerdict::Unknown;
    }
    return OwnerVerdict::Unknown;
}

} // namespace tether
