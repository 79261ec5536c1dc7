// One model of the supervisor's state: the tray, the status window, `status --json` and the
// notifications all read this; no widget keeps its own copy of the truth.
#pragma once

#include "policy/dialect.h"
#include "policy/failure.h"
#include "policy/notice.h"
#include "policy/port_doctor.h"
#include "policy/state.h"
#include "service/login_path.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>

namespace tether {

struct McpChildStatus {
    QString name;
    QString
        status; // connected | disabled | failed | needs_auth | needs_client_registration | unknown
    QString error;
    qint64 pid = 0; // 0: no matching process found
    qint64 uptimeMs = 0;
    // Its start on the Supervisor's clock (before that clock's zero for a process older than
    // Tether), so every status answer brings uptimeMs up to the moment it is asked, not to the
    // last refresh (one probe interval ago at worst).
    std::optional<qint64> startedAtMs;
    quint64 rssKiB = 0;
    double cpuPercent = 0;
    // The resource watch (policy/resource_watch.h): the trend over the last minutes, and
    // whether the child is flagged for a person to restart it (nothing restarts it by itself).
    quint64 rssKiBBefore = 0; // resident memory at the start of the trend span
    qint64 trendSpanMs = 0;   // from that sample to now
    double rssGrowthKiBPerMin = 0;
    double cpuAvgPercent = 0; // over the trend span
    qint64 cpuBusyMs = 0;     // a core busy without a break for this long
    bool flagged = false;     // memory over [mcp] memoryWarnMiB or a core busy too long
    QString flagReason;       // why, in English (log, status --json); empty when not flagged
    bool memoryOver = false;  // the two flags apart, for the words a person reads
    bool cpuBusy = false;
    quint64 memoryLimitKiB = 0; // [mcp] memoryWarnMiB
};

struct OrphanStatus {
    qint64 pid = 0;
    QStringList argv;
    QString kind;     // ledger | job | possible
    qint64 ageMs = 0; // at the scan that found it (status --json)
    quint64 rssKiB = 0;
    QDateTime startedAt = {}; // its start, so a window's age moves on (wall clock, display)
};

struct RunningToolStatus {
    QString session;
    QString tool;
    qint64 runningMs = 0;
};

// What the service is doing, from its event stream (service/activity_monitor.h).
struct ActivityStatus {
    bool followed = false; // the profile has a stream and it is connected
    int busySessions = 0;
    QList<RunningToolStatus> runningTools;
    QString summary; // policy::describeActivity: "busy: 1 session, tool X for 45 s" / "idle"
};

struct InterruptedStatus {
    QStringList sessions;
    QList<RunningToolStatus> tools; // runningMs: how long each had run when it was cut short
    QDateTime at;                   // wall clock, display only
    QString summary;                // policy::describeInterruption; empty when nothing
};

// Why the service is Failed, for a person: the cause in one line, the service's own last
// output, and (when the port is the cause) who holds it and a port that would do. Empty when
// not Failed or nothing is known.
struct FailureStatus {
    QString cause;     // "the service stopped at once: Unknown option --bogus (exit code 2: bad
                       // arguments)" or "port 4096 is held by python3 (pid 1234)"
    QString errorLine; // the service's own line naming the problem ("Unknown option
                       // 'bogus'."); empty when none or the port is the cause
    QStringList serviceLog; // the service's last stderr/stdout lines of its last run, <= 12
    QString logPath;        // the service's log file
    bool portHeld = false;  // the port is the cause
    QString portHolder;     // "python3 (pid 1234)", "Windows (excluded range ...)"
    quint16 freePort = 0;   // suggestion, 0 = none
    // A setting a person must change first: Tether did not retry (policy/failure.h fixFirst).
    policy::FixFirst fix = policy::FixFirst::Nothing;
    std::optional<policy::ExitFacts> exit; // how the service's last process ended, when seen
    // The same facts as cause, apart, for the words a person reads (ui/status_text.h):
    policy::PortBlock portBlock = policy::PortBlock::None;
    QStringList portHolderNames; // "python3": the programs on the port, no pids
    quint16 port = 0;            // the port in the way
    QString reservedRange;       // "49152-49251" when Windows keeps it
    int failedStarts = 0;        // gave up after this many crashes or failed starts ...
    qint64 withinMs = 0;         // ... within this long ([recovery] burstWindowMs)
    QString program;             // what was to be started (a detail: a path)

    bool isEmpty() const { return cause.isEmpty() && serviceLog.isEmpty(); }
    QJsonObject toJson() const;
    static FailureStatus fromJson(const QJsonObject &o);
};

struct ServiceStatus {
    policy::State state = policy::State::Stopped;
    std::optional<policy::Dialect> profile; // empty: not resolved (status --json prints "")
    qint64 pid = 0;
    quint16 port = 0;
    QString url;
    QString version;
    QString installedVersion;
    bool external = false; // adopted, not started by this Tether
    bool versionMismatch = false;
    int restarts = 0;
    QString lastError;
    qint64 lastProbeMs = -1; // latency of the last answered probe, -1 when none
    QDateTime startedAt;     // when the current service process started (wall clock, display only)
    QList<McpChildStatus> mcp;
    QList<OrphanStatus> orphans;
    ActivityStatus activity;
    InterruptedStatus lastInterrupted;         // what the last replacement or forced stop cut short
    FailureStatus failure;                     // why it is Failed (empty otherwise)
    std::optional<policy::ExitFacts> lastExit; // how Tether's last child ended (this attempt)
    ServicePath servicePath; // the PATH the service was given, and where it came from
    // What Tether will do by itself and when (policy::nextSteps; wall clock, display only):
    // replace a service that stays silent, start again after a back-off, give up on a start
    // that has not answered by its start-up deadline. Invalid: nothing due.
    QDateTime replaceAt;
    QDateTime restartAt;
    QDateTime startupDeadlineAt;
    // Tether's own files it could not save (a full, read-only or immutable disk; a link or a
    // FIFO in a file's place), one line each: the file keeps its last good contents meanwhile.
    QStringList stateFileErrors;

    QJsonObject toJson() const;
    // What toJson wrote, back (the CLI reads the running Tether's answer with it, to say it in
    // the same words as the tray); what JSON does not carry is left at its default.
    static ServiceStatus fromJson(const QJsonObject &o);
};

} // namespace tether

// Plain policy enums carried by signals (Supervisor::notice) and QSignalSpy/QVariant in tests;
// declared here because core/policy has no Qt.
Q_DECLARE_METATYPE(tether::policy::NoticeKind)
