#include "mcp/ledger.h"

#include "settings/storage.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>
#include <unordered_map>

namespace tether::mcp {

namespace {

constexpr int kFormatVersion = 1;
// JSON numbers are doubles: integers beyond 2^53 would silently lose precision.
constexpr double kMaxExactInteger = 9007199254740992.0;

QString u64(std::uint64_t v) {
    return QString::number(v);
}

bool readU64(const QJsonValue &v, std::uint64_t *out) {
    if (!v.isString()) return false;
    bool ok = false;
    *out = v.toString().toULongLong(&ok);
    return ok;
}

bool readInt(const QJsonValue &v, std::int64_t *out) {
    if (!v.isDouble()) return false;
    const double d = v.toDouble();
    // Range first: converting an out-of-range double to an integer is undefined behaviour.
    if (!(d >= -kMaxExactInteger && d <= kMaxExactInteger) ||
        d != static_cast<double>(static_cast<std::int64_t>(d)))
        return false;
    *out = static_cast<std::int64_t>(d);
    return true;
}

bool parseEntry(const QJsonValue &value, LedgerEntry *e, QString *why) {
    if (!value.isObject()) {
        *why = QStringLiteral("is not an object");
        return false;
    }
    const QJsonObject o = value.toObject();
    std::int64_t pid = 0, pgid = 0, servicePid = 0, firstSeen = 0;
    std::uint64_t start = 0, serviceStart = 0;
    if (!readInt(o.value(QStringLiteral("pid")), &pid) || pid <= 1 ||
        !readU64(o.value(QStringLiteral("startTime")), &start) ||
        !readInt(o.value(QStringLiteral("pgid")), &pgid) || pgid < 0 ||
        !readInt(o.value(QStringLiteral("servicePid")), &servicePid) || servicePid <= 0 ||
        !readU64(o.value(QStringLiteral("serviceStartTime")), &serviceStart) ||
        !readInt(o.value(QStringLiteral("firstSeenMs")), &firstSeen)) {
        *why = QStringLiteral("has a missing or invalid pid, pgid, start time or service");
        return false;
    }
    const QJsonValue argv = o.value(QStringLiteral("argv"));
    const QJsonValue name = o.value(QStringLiteral("name"));
    if (!argv.isArray() || !name.isString()) {
        *why = QStringLiteral("has no argv array or name string");
        return false;
    }
    e->process = {pid, start};
    e->pgid = pgid;
    e->service = {servicePid, serviceStart};
    e->firstSeenMs = firstSeen;
    e->name = name.toString().toStdString();
    e->argv.clear();
    for (const QJsonValue &arg : argv.toArray()) {
        if (!arg.isString()) {
            *why = QStringLiteral("has a non-string argv element");
            return false;
        }
        e->argv.push_back(arg.toString().toStdString());
    }
    return true;
}

bool liveIn(const os::Identity &id,
            const std::unordered_map<os::Pid, const os::ProcessInfo *> &byPid) {
    const auto it = byPid.find(id.pid);
    return it != byPid.end() && it->second->startTime == id.startTime &&
           it->second->state != os::RunState::Zombie;
}

} // namespace

QByteArray serializeLedger(const std::vector<LedgerEntry> &entries) {
    QJsonArray list;
    for (const LedgerEntry &e : entries) {
        QJsonArray argv;
        for (const std::string &arg : e.argv)
            argv.append(QString::fromStdString(arg));
        list.append(QJsonObject{
            {QStringLiteral("pid"), static_cast<double>(e.process.pid)},
            {QStringLiteral("startTime"), u64(e.process.startTime)},
            {QStringLiteral("pgid"), static_cast<double>(e.pgid)},
            {QStringLiteral("argv"), argv},
            {QStringLiteral("name"), QString::fromStdString(e.name)},
            {QStringLiteral("servicePid"), static_cast<double>(e.service.pid)},
            {QStringLiteral("serviceStartTime"), u64(e.service.startTime)},
            {QStringLiteral("firstSeenMs"), static_cast<double>(e.firstSeenMs)},
        });
    }
    const QJsonObject root{{QStringLiteral("version"), kFormatVersion},
                           {QStringLiteral("entries"), list}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

bool parseLedger(const QByteArray &data, std::vector<LedgerEntry> *out, QString *error) {
    out->clear();
    QJsonParseError pe{};
    const QJsonDocument doc = QJsonDocument::fromJson(data, &pe);
    if (pe.error != QJsonParseError::NoError) {
        *error = QStringLiteral("not JSON (%1 at offset %2)").arg(pe.errorString()).arg(pe.offset);
        return false;
    }
    const QJsonObject root = doc.object();
    if (!doc.isObject() || root.value(QStringLiteral("version")).toInt() != kFormatVersion ||
        !root.value(QStringLiteral("entries")).isArray()) {
        *error = QStringLiteral("not a version %1 ledger").arg(kFormatVersion);
        return false;
    }
    const QJsonArray list = root.value(QStringLiteral("entries")).toArray();
    std::vector<LedgerEntry> entries;
    entries.reserve(static_cast<std::size_t>(list.size()));
    for (qsizetype i = 0; i < list.size(); ++i) {
        LedgerEntry e;
        QString why;
        if (!parseEntry(list.at(i), &e, &why)) {
            *error = QStringLiteral("entry %1 %2").arg(i).arg(why);
            return false;
        }
        entries.push_back(std::move(e));
    }
    *out = std::move(entries);
    return true;
}

std::vector<LedgerEntry> observedChildren(const os::Identity &service,
                                          const std::vector<McpProcessTree> &trees,
                                          const std::vector<os::ProcessInfo> &snapshot,
                                          std::int64_t nowMs) {
    std::unordered_map<os::Pid, const os::ProcessInfo *> byPid;
    for (const os::ProcessInfo &p : snapshot)
        byPid.emplace(p.pid, &p);
    std::vector<LedgerEntry> out;
    for (const McpProcessTree &tree : trees) {
        for (os::Pid pid : tree.pids) {
            const auto it = byPid.find(pid);
            if (it == byPid.end() || it->second->state == os::RunState::Zombie) continue;
            const os::ProcessInfo &p = *it->second;
            out.push_back({{p.pid, p.startTime}, p.pgid, p.argv, tree.name, service, nowMs});
        }
    }
    return out;
}

QString Ledger::defaultPath() {
    return storage::dataPath(QStringLiteral("mcp-ledger.json"));
}

Ledger::Ledger(QString path)
    : path_(std::move(path)) {
}

bool Ledger::load() {
    entries_.clear();
    error_.clear();
    QByteArray data;
    QString readError;
    switch (storage::readSmallFile(path_, kMaxFileBytes, &data, &readError)) {
    case storage::ReadStatus::Missing:
        return true;
    case storage::ReadStatus::Error:
        error_ = readError;
        return false;
    case storage::ReadStatus::TooLarge:
        error_ = readError;
        break;
    case storage::ReadStatus::Ok:
        if (parseLedger(data, &entries_, &readError)) return true;
        error_ = QStringLiteral("%1: %2").arg(path_, readError);
        break;
    }
    // Keep the bad file for a person to look at, out of the way of the next write.
    const QString aside = path_ + QStringLiteral(".bad");
    QFile::remove(aside);
    if (QFile::rename(path_, aside))
        error_ += QStringLiteral(" (moved aside to %1)").arg(aside);
    else
        error_ += QStringLiteral(" (could not move it aside to %1)").arg(aside);
    return false;
}

bool Ledger::record(const std::vector<LedgerEntry> &observed) {
    bool changed = false;
    for (const LedgerEntry &seen : observed) {
        auto it = std::find_if(entries_.begin(), entries_.end(),
                               [&](const LedgerEntry &e) { return e.process == seen.process; });
        if (it == entries_.end()) {
            entries_.push_back(seen);
            changed = true;
        } else if (it->pgid != seen.pgid || it->name != seen.name || it->argv != seen.argv ||
                   it->service != seen.service) {
            // A child that left its group (setsid) or was renamed: keep what is true now.
            const std::int64_t firstSeen = it->firstSeenMs;
            *it = seen;
            it->firstSeenMs = firstSeen;
            changed = true;
        }
    }
    if (changed || unsaved_) save();
    return changed;
}

bool Ledger::dropExited(const std::vector<os::ProcessInfo> &snapshot) {
    if (snapshot.empty()) return false;
    std::unordered_map<os::Pid, const os::ProcessInfo *> byPid;
    for (const os::ProcessInfo &p : snapshot)
        byPid.emplace(p.pid, &p);
    const auto before = entries_.size();
    entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                  [&](const LedgerEntry &e) { return !liveIn(e.process, byPid); }),
                   entries_.end());
    if (entries_.size() == before) {
        if (unsaved_) save();
        return false;
    }
    save();
    return true;
}

bool Ledger::remove(const std::vector<os::Identity> &processes) {
    const auto before = entries_.size();
    entries_.erase(std::remove_if(entries_.begin(), entries_.end(),
                                  [&](const LedgerEntry &e) {
                                      return std::find(processes.begin(), processes.end(),
                                                       e.process) != processes.end();
                                  }),
                   entries_.end());
    if (entries_.size() == before) return false;
    save();
    return true;
}

bool Ledger::save() {
    error_.clear();
    unsaved_ = !storage::writePrivateFile(path_, serializeLedger(entries_), &error_);
    return !unsaved_;
}

} // namespace tether::mcp
