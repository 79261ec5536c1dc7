// The MCP ledger: every MCP process a service was seen to spawn, persisted (mcp-ledger.json in
// the data dir, atomic, 0600) so that a later Tether launch knows what a crashed service left.
// Not thread-safe: one owner (the supervisor, or a worker doing a scan) at a time.
#pragma once

#include "policy/ledger_entry.h"
#include "mcp/matching.h"
#include "os/process.h"

#include <QByteArray>
#include <QString>

#include <vector>

namespace tether::mcp {

using policy::LedgerEntry;

// The file format, exposed for tests and fuzzing. Start times are strings: a Windows FILETIME
// does not fit a JSON double exactly.
QByteArray serializeLedger(const std::vector<LedgerEntry> &entries);
// False (with *error) for anything but a well-formed ledger; *out is then empty.
bool parseLedger(const QByteArray &data, std::vector<LedgerEntry> *out, QString *error);

// The entries for each process of the matched trees, as seen now.
std::vector<LedgerEntry> observedChildren(const os::Identity &service,
                                          const std::vector<McpProcessTree> &trees,
                                          const std::vector<os::ProcessInfo> &snapshot,
                                          std::int64_t nowMs);

class Ledger {
public:
    static constexpr qint64 kMaxFileBytes = 4 * 1024 * 1024;
    static QString defaultPath(); // storage::dataPath("mcp-ledger.json")

    explicit Ledger(QString path = defaultPath());

    // Reads the file. Missing: empty, no error. Unreadable, too large or malformed: empty,
    // error() says why, and a bad file is moved aside to <path>.bad (kept, not lost).
    // Returns false when error() was set.
    bool load();

    const std::vector<LedgerEntry> &entries() const { return entries_; }
    QString path() const { return path_; }
    // The last load or write problem; empty when the last operation went well.
    QString error() const { return error_; }

    // Each mutation writes the file only when something changed, and returns whether it did
    // (a failed write leaves the change in memory and sets error(); the next mutation, changed
    // or not, writes it again, so a full disk's loss ends once there is room).
    // Adds processes not yet known (by identity); known ones keep their firstSeen.
    bool record(const std::vector<LedgerEntry> &observed);
    // Drops entries whose process has exited: absent, a zombie, or its pid now has another
    // start time. A gone identity never comes back, so this holds whatever the service's
    // state. An empty snapshot proves nothing and drops nothing.
    bool dropExited(const std::vector<os::ProcessInfo> &snapshot);
    // Drops the given processes (swept ones).
    bool remove(const std::vector<os::Identity> &processes);

private:
    bool save();

    QString path_;
    QString error_;
    std::vector<LedgerEntry> entries_;
    bool unsaved_ = false; // the last write failed: the file is behind entries_
};

} // namespace tether::mcp
