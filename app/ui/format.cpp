#include "ui/format.h"

#include "policy/notice.h"
#include "service/words.h"
#include "ui/status_text.h"

#include <QLocale>
#include <QRegularExpression>

namespace tether::ui {

QString stateLabel(policy::State s) {
    using policy::State;
    switch (s) {
    case State::Stopped:
        return Words::tr("Stopped");
    case State::Starting:
        return Words::tr("Starting");
    case State::Healthy:
        return Words::tr("Healthy");
    case State::NotResponding:
        return Words::tr("Not responding");
    case State::Recovering:
        return Words::tr("Recovering");
    case State::Restarting:
        return Words::tr("Restarting");
    case State::Stopping:
        return Words::tr("Stopping");
    case State::Failed:
        return Words::tr("Failed");
    }
    return QString();
}

QString durationText(qint64 ms) {
    const qint64 s = qMax<qint64>(ms, 0) / 1000;
    if (s < 60) return Words::tr("%1 s", "seconds").arg(s);
    if (s < 3600) return Words::tr("%1 min", "minutes").arg(s / 60);
    if (s < 86400)
        return Words::tr("%1 h %2 min", "hours and minutes")
            .arg(s / 3600)
            .arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    return Words::tr("%1 d %2 h", "days and hours").arg(s / 86400).arg((s % 86400) / 3600);
}

QString memoryText(quint64 kib) {
    const QLocale l;
    if (kib < 1024) return Words::tr("%1 KiB").arg(kib);
    if (kib < 1024 * 1024) return Words::tr("%1 MiB").arg(l.toString(double(kib) / 1024.0, 'f', 1));
    return Words::tr("%1 GiB").arg(l.toString(double(kib) / (1024.0 * 1024.0), 'f', 1));
}

namespace {

// Seconds still to wait, rounded up: "in 18 s" while 17.2 s remain, never "in 0 s" too early.
qint64 secondsUntil(const QDateTime &at, const QDateTime &now) {
    return qMax<qint64>(0, (now.msecsTo(at) + 999) / 1000);
}

QString stateStep(const ServiceStatus &st, const QDateTime &now) {
    using policy::State;
    switch (st.state) {
    case State::Stopped:
        return Words::tr("The service is not running.");
    case State::Starting:
        return Words::tr("Waiting for the service's first answer.");
    case State::Healthy:
        return Words::tr("It answers its health checks.");
    case State::NotResponding: {
        // The planned wait, not an error: what comes next.
        if (!st.replaceAt.isValid())
            return Words::tr("The service does not answer. Tether waits for it.");
        const qint64 s = secondsUntil(st.replaceAt, now);
        return s > 0 ? Words::tr("The service does not answer. Tether waits; it will be replaced "
                                 "in %1 if it stays silent.")
                           .arg(durationText(s * 1000))
                     : Words::tr("The service does not answer. It will be replaced unless it "
                                 "answers now.");
    }
    case State::Recovering:
        return Words::tr("It did not answer in time: Tether is replacing it.");
    case State::Restarting: {
        const qint64 s = st.restartAt.isValid() ? secondsUntil(st.restartAt, now) : 0;
        return s > 0 ? Words::tr("It stopped; starting again in %1.").arg(durationText(s * 1000))
                     : Words::tr("It stopped; starting again.");
    }
    case State::Stopping:
        return Words::tr("Waiting for the service to exit.");
    case State::Failed:
        // The failure panel below says why in the service's words; this line says what Tether
        // did and what a person does next.
        if (st.failure.portHeld)
            return Words::tr("Tether did not start it on a port in use. Use a free port, or "
                             "stop the other program, then try again.");
        switch (st.failure.fix) {
        case policy::FixFirst::Arguments:
            return Words::tr("Tether did not retry: it would fail the same way until its "
                             "arguments change.");
        case policy::FixFirst::Program:
            return Words::tr("Tether did not retry: choose a program that can run, then try "
                             "again.");
        case policy::FixFirst::Nothing:
            break;
        }
        if (st.failure.failedStarts > 0)
            return Words::tr("Tether stopped restarting it. Fix the cause, then try again.");
        return Words::tr("Tether stopped trying to start it.");
    }
    return QString();
}

} // namespace

// The state's sentence, then what waits for a person whatever the state: an update, orphans,
// records that could not be saved.
QString nextStepText(const ServiceStatus &st, const QDateTime &now, bool withOrphans) {
    QStringList parts;
    const QString step = stateStep(st, now);
    if (!step.isEmpty()) parts << step;
    // Failed: the next start runs the installed version anyway; the remedy is what counts.
    if (st.versionMismatch && !st.installedVersion.isEmpty() && st.state != policy::State::Failed)
        parts << Words::tr("Version %1 is installed: restart to update.").arg(st.installedVersion);
    if (withOrphans && !st.orphans.isEmpty())
        parts << Words::tr("%n MCP process(es) from an earlier service still running.", nullptr,
                           int(st.orphans.size()));
    for (const QString &e : st.stateFileErrors)
        parts << Words::tr("Not saved: %1.").arg(e);
    return parts.join(QLatin1Char(' '));
}

namespace {

// A state change as a sentence: where it went says enough; the reason is the log's.
QString transitionText(policy::State to) {
    using policy::State;
    switch (to) {
    case State::Stopped:
        return Words::tr("The service is stopped.");
    case State::Starting:
        return Words::tr("Starting the service.");
    case State::Healthy:
        return Words::tr("The service is running.");
    case State::NotResponding:
        return Words::tr("The service stopped answering; Tether waits for it.");
    case State::Recovering:
        return Words::tr("The service did not answer in time; Tether replaces it.");
    case State::Restarting:
        return Words::tr("The service stopped; Tether starts it again.");
    case State::Stopping:
        return Words::tr("Stopping the service.");
    case State::Failed:
        return Words::tr("The service failed; Tether stopped trying.");
    }
    return QString();
}

QString outcomeText(const QString &outcome) {
    if (outcome == QLatin1String("exited-on-term"))
        return Words::tr("The service exited when asked.");
    if (outcome == QLatin1String("killed"))
        return Words::tr("The service did not exit in time and was ended.");
    if (outcome == QLatin1String("already-gone")) return Words::tr("The service was already gone.");
    return QString();
}

} // namespace

EventLine eventLine(const QString &logLine, const QDateTime &now, bool details) {
    EventLine out;
    QString text = logLine;
    // "2026-12-01T15:20:49.633 text": the stamp Runtime::writeLog puts first.
    const int space = logLine.indexOf(QLatin1Char(' '));
    if (space > 0) {
        const QDateTime at = QDateTime::fromString(logLine.left(space), Qt::ISODateWithMs);
        if (at.isValid()) {
            const QLocale l;
            out.time = at.date() == now.date() ? l.toString(at.time(), QStringLiteral("HH:mm:ss"))
                                               : l.toString(at, QStringLiteral("d MMM HH:mm"));
            text = logLine.mid(space + 1);
        }
    }
    text = text.trimmed();
    if (details) { // the log's own words, as a bug report has them
        out.text = text;
        return out;
    }
    static const QRegularExpression stateRe(QStringLiteral("^state (\\S+) -> (\\S+)(?:: (.*))?$"));
    static const QRegularExpression startedRe(QStringLiteral("^started pid \\d+ on port (\\d+)$"));
    static const QRegularExpression termRe(QStringLiteral("^terminating pid \\d+: "));
    static const QRegularExpression outcomeRe(QStringLiteral("^pid \\d+: ([a-z-]+)"));
    static const QRegularExpression scanRe(
        QStringLiteral("^launch scan: (\\d+) orphan\\(s\\) among \\d+ processes"));
    static const QRegularExpression endedRe(
        QStringLiteral("^service pid \\d+ ended: (\\d+) orphaned MCP process\\(es\\)"));
    static const QRegularExpression helloRe(
        QStringLiteral("^tether (\\S+): profile (\\S+), port (\\d+)"));
    static const QRegularExpression portRe(QStringLiteral("^port (\\d+) chosen by a person"));
    static const QRegularExpression mcpRe(QStringLiteral("^mcp (.+) connect: HTTP 2\\d\\d$"));
    static const QRegularExpression gapRe(QStringLiteral("^time gap \\(system resumed"));
    static const QRegularExpression cleanupRe(
        QStringLiteral("^cleanup asked by a person: (\\d+) ended, (\\d+) not ended"));
    static const QRegularExpression memoryRe(
        QStringLiteral("^mcp resources: pid \\d+ (.+?): memory (\\d+) MiB is over (\\d+) MiB"));
    static const QRegularExpression cpuRe(
        QStringLiteral("^mcp resources: pid \\d+ (.+?): a core busy for (\\d+) min"));
    QRegularExpressionMatch m;
    QString said;
    if ((m = stateRe.match(text)).hasMatch()) {
        policy::State to = policy::State::Stopped;
        if (policy::fromString(m.captured(2).toLatin1().constData(), &to))
            said = transitionText(to);
    } else if ((m = startedRe.match(text)).hasMatch()) {
        said = Words::tr("The service started on port %1.").arg(m.captured(1));
    } else if (termRe.match(text).hasMatch()) {
        said = Words::tr("Asking the service to exit.");
    } else if ((m = outcomeRe.match(text)).hasMatch()) {
        said = outcomeText(m.captured(1));
    } else if ((m = scanRe.match(text)).hasMatch()) {
        const int n = m.captured(1).toInt();
        if (n > 0)
            said = Words::tr("Found %n MCP process(es) left running by an earlier service.",
                             nullptr, n);
    } else if ((m = endedRe.match(text)).hasMatch()) {
        const int n = m.captured(1).toInt();
        if (n > 0)
            said = Words::tr("Ended %n MCP process(es) the service left behind.", nullptr, n);
    } else if ((m = helloRe.match(text)).hasMatch()) {
        policy::Dialect d = policy::Dialect::Custom;
        policy::fromString(m.captured(2).toLatin1().constData(), &d);
        said = (d == policy::Dialect::Demo
                    ? Words::tr("Tether %1 started: it looks after its demo service on port %2.")
                : d == policy::Dialect::Custom
                    ? Words::tr("Tether %1 started: it looks after your service on port %2.")
                    : Words::tr("Tether %1 started: it looks after opencode on port %2."))
                   .arg(m.captured(1), m.captured(3));
    } else if ((m = portRe.match(text)).hasMatch()) {
        said = Words::tr("Port %1 chosen: the service starts there.").arg(m.captured(1));
    } else if ((m = mcpRe.match(text)).hasMatch()) {
        said = Words::tr("Reconnected the MCP server %1.").arg(m.captured(1));
    } else if ((m = cleanupRe.match(text)).hasMatch()) {
        const int ended = m.captured(1).toInt(), notEnded = m.captured(2).toInt();
        said = ended > 0 ? Words::tr("You cleaned up %n orphaned MCP process(es).", nullptr, ended)
                         : Words::tr("You cleaned up: no orphaned MCP process was left to end.");
        if (notEnded > 0)
            said += QLatin1Char(' ') +
                    Words::tr("%n could not be ended (Show details says why).", nullptr, notEnded);
    } else if ((m = memoryRe.match(text)).hasMatch()) {
        said = Words::tr("The MCP server %1 uses %2, over its %3 limit: restart it from the menu "
                         "when it suits you.")
                   .arg(m.captured(1), memoryText(m.captured(2).toULongLong() * 1024),
                        memoryText(m.captured(3).toULongLong() * 1024));
    } else if ((m = cpuRe.match(text)).hasMatch()) {
        said = Words::tr("The MCP server %1 has kept a processor busy for %2: restart it from the "
                         "menu when it suits you.")
                   .arg(m.captured(1), durationText(m.captured(2).toLongLong() * 60000));
    } else if (gapRe.match(text).hasMatch()) {
        said = Words::tr("The computer woke up; Tether waits for a fresh answer before judging "
                         "the service.");
    } else if (text == QLatin1String("following the service's event stream")) {
        said = Words::tr("Following what the service does.");
    } else if (text.startsWith(QLatin1String("event stream lost: "))) {
        said = Words::tr("Tether no longer sees what the service does.");
    } else if (text == QLatin1String("settings applied")) {
        said = Words::tr("New settings applied.");
    } else if (text.startsWith(QLatin1String("interrupted: "))) {
        said = Words::tr("Work in progress was cut short.");
    } else if (text.startsWith(QLatin1String("tether quits"))) {
        said = Words::tr("Tether quit.");
    }
    out.text = said;
    return out;
}

QString personCleanupLogLine(int ended, int notEnded) {
    return QStringLiteral("cleanup asked by a person: %1 ended, %2 not ended")
        .arg(ended)
        .arg(notEnded);
}

qint64 timelineSpanMs(qint64 historyMs) {
    for (qint64 minutes : {1, 5, 15})
        if (historyMs <= minutes * 60000) return minutes * 60000;
    return 60 * 60000;
}

// The Health tab's title: it keeps the tab's mnemonic (Alt+H) whatever span it names.
QString timelineTitle(qint64 spanMs) {
    return spanMs >= 3600000 ? Words::tr("&Health, last hour")
           : spanMs <= 60000 ? Words::tr("&Health, last minute")
                             : Words::tr("&Health, last %1 min").arg(spanMs / 60000);
}

} // namespace tether::ui
