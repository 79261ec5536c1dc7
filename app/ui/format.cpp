#include "ui/format.h"

#include "policy/notice.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace tether::ui {

QString stateLabel(policy::State s) {
    using policy::State;
    switch (s) {
    case State::Stopped:
        return QCoreApplication::translate("tether", "Stopped");
    case State::Starting:
        return QCoreApplication::translate("tether", "Starting");
    case State::Healthy:
        return QCoreApplication::translate("tether", "Healthy");
    case State::NotResponding:
        return QCoreApplication::translate("tether", "Not responding");
    case State::Recovering:
        return QCoreApplication::translate("tether", "Recovering");
    case State::Restarting:
        return QCoreApplication::translate("tether", "Restarting");
    case State::Stopping:
        return QCoreApplication::translate("tether", "Stopping");
    case State::Failed:
        return QCoreApplication::translate("tether", "Failed");
    }
    return QString();
}

QString durationText(qint64 ms) {
    const qint64 s = qMax<qint64>(ms, 0) / 1000;
    if (s < 60) return QStringLiteral("%1 s").arg(s);
    if (s < 3600) return QStringLiteral("%1 min").arg(s / 60);
    if (s < 86400)
        return QStringLiteral("%1 h %2 min")
            .arg(s / 3600)
            .arg((s % 3600) / 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1 d %2 h").arg(s / 86400).arg((s % 86400) / 3600);
}

QString memoryText(quint64 kib) {
    if (kib < 1024) return QStringLiteral("%1 KiB").arg(kib);
    if (kib < 1024 * 1024) return QStringLiteral("%1 MiB").arg(double(kib) / 1024.0, 0, 'f', 1);
    return QStringLiteral("%1 GiB").arg(double(kib) / (1024.0 * 1024.0), 0, 'f', 1);
}

} // namespace tether::ui

namespace tether::ui {

namespace {
QString tr(const char *text) {
    return QCoreApplication::translate("tether", text);
}

// Seconds still to wait, rounded up: "in 18 s" while 17.2 s remain, never "in 0 s" too early.
qint64 secondsUntil(const QDateTime &at, const QDateTime &now) {
    return qMax<qint64>(0, (now.msecsTo(at) + 999) / 1000);
}

QString outcomeText(const QString &outcome) {
    if (outcome == QLatin1String("exited-on-term")) return tr("exited when asked");
    if (outcome == QLatin1String("killed")) return tr("did not exit in time and was ended");
    if (outcome == QLatin1String("already-gone")) return tr("was already gone");
    return outcome;
}
} // namespace

namespace {
QString stateStep(const ServiceStatus &st, const QDateTime &now);
} // namespace

// The state's sentence, then what waits for a person whatever the state: an update, orphans,
// records that could not be saved.
QString nextStepText(const ServiceStatus &st, const QDateTime &now) {
    QStringList parts;
    const QString step = stateStep(st, now);
    if (!step.isEmpty()) parts << step;
    if (st.versionMismatch && !st.installedVersion.isEmpty())
        parts << tr("Version %1 is installed: restart to update.").arg(st.installedVersion);
    if (!st.orphans.isEmpty())
        parts << (st.orphans.size() == 1
                      ? tr("1 orphaned MCP process from an earlier service still runs.")
                      : tr("%1 orphaned MCP processes from an earlier service still run.")
                            .arg(st.orphans.size()));
    for (const QString &e : st.stateFileErrors)
        parts << tr("Not saved: %1.").arg(e);
    return parts.join(QLatin1Char(' '));
}

namespace {
QString stateStep(const ServiceStatus &st, const QDateTime &now) {
    using policy::State;
    switch (st.state) {
    case State::Stopped:
        return tr("The service is not running.");
    case State::Starting:
        return tr("Starting: waiting for the service's first answer.");
    case State::Healthy:
        return QString();
    case State::NotResponding: {
        // The planned wait, not an error: what the last check saw, then what comes next.
        QString why =
            st.lastError.isEmpty()
                ? tr("The service does not answer its health checks.")
                : tr("The service does not answer its health checks (%1).").arg(st.lastError);
        if (!st.replaceAt.isValid()) return why + QLatin1Char(' ') + tr("Waiting for it.");
        const qint64 s = secondsUntil(st.replaceAt, now);
        return why + QLatin1Char(' ') +
               (s > 0 ? tr("Waiting; it will be replaced in %1 s if it does not answer.").arg(s)
                      : tr("Waiting; it will be replaced if the next check goes unanswered."));
    }
    case State::Recovering:
        return tr("It did not answer in time: Tether is replacing it.");
    case State::Restarting: {
        const qint64 s = st.restartAt.isValid() ? secondsUntil(st.restartAt, now) : 0;
        QString text = s > 0 ? tr("Starting again in %1 s").arg(s) : tr("Starting again");
        if (!st.lastError.isEmpty()) text += QStringLiteral(" (") + st.lastError + QLatin1Char(')');
        return text + QLatin1Char('.');
    }
    case State::Stopping:
        return tr("Stopping: waiting for the service to exit.");
    case State::Failed:
        // The failure panel below says why in the service's words; this line says what Tether
        // did and what a person does next.
        if (!st.failure.cause.isEmpty())
            return tr("Tether stopped trying to start it. Fix the cause below, then press Try "
                      "again.");
        return st.lastError.isEmpty() ? tr("Tether stopped trying to start it.")
                                      : tr("Tether stopped trying: %1.").arg(st.lastError);
    }
    return QString();
}
} // namespace

EventLine eventLine(const QString &logLine, const QDateTime &now) {
    EventLine out;
    QString text = logLine;
    // "2026-12-01T15:20:49.633 text": the stamp Runtime::writeLog puts first.
    const int space = logLine.indexOf(QLatin1Char(' '));
    if (space > 0) {
        const QDateTime at = QDateTime::fromString(logLine.left(space), Qt::ISODateWithMs);
        if (at.isValid()) {
            out.time = at.date() == now.date() ? at.toString(QStringLiteral("HH:mm:ss"))
                                               : at.toString(QStringLiteral("d MMM HH:mm"));
            text = logLine.mid(space + 1);
        }
    }
    text = text.trimmed();
    static const QRegularExpression stateRe(QStringLiteral("^state (\\S+) -> (\\S+)(?:: (.*))?$"));
    static const QRegularExpression startedRe(
        QStringLiteral("^started pid (\\d+) on port (\\d+)$"));
    static const QRegularExpression termRe(QStringLiteral("^terminating pid (\\d+): (.*)$"));
    static const QRegularExpression outcomeRe(QStringLiteral("^pid (\\d+): ([a-z-]+)(.*)$"));
    static const QRegularExpression scanRe(
        QStringLiteral("^launch scan: (\\d+) orphan\\(s\\) among \\d+ processes"));
    static const QRegularExpression endedRe(
        QStringLiteral("^service pid (\\d+) ended: (\\d+) orphaned MCP process\\(es\\)"));
    static const QRegularExpression helloRe(
        QStringLiteral("^tether (\\S+): profile (\\S+), port (\\d+)"));
    static const QRegularExpression lostRe(QStringLiteral("^event stream lost: (.*)$"));
    QRegularExpressionMatch m;
    if ((m = stateRe.match(text)).hasMatch()) {
        policy::State from = policy::State::Stopped, to = policy::State::Stopped;
        if (policy::fromString(m.captured(1).toLatin1().constData(), &from) &&
            policy::fromString(m.captured(2).toLatin1().constData(), &to)) {
            text = stateLabel(to);
            if (!m.captured(3).isEmpty()) text += QStringLiteral(": ") + m.captured(3);
        }
    } else if ((m = startedRe.match(text)).hasMatch()) {
        text = tr("Service started (pid %1, port %2)").arg(m.captured(1), m.captured(2));
    } else if ((m = termRe.match(text)).hasMatch()) {
        text = tr("Asking the service (pid %1) to exit: %2").arg(m.captured(1), m.captured(2));
    } else if ((m = outcomeRe.match(text)).hasMatch()) {
        text = tr("The service (pid %1) %2%3")
                   .arg(m.captured(1), outcomeText(m.captured(2)), m.captured(3));
    } else if ((m = scanRe.match(text)).hasMatch()) {
        const int n = m.captured(1).toInt();
        text = n == 0 ? QString()
                      : tr("Found %1 from an earlier run")
                            .arg(QString::fromStdString(policy::countOf(n, "orphaned MCP process",
                                                                        "orphaned MCP processes")));
    } else if ((m = endedRe.match(text)).hasMatch()) {
        const int n = m.captured(2).toInt();
        text = n == 0 ? QString()
                      : tr("Removed %1 the service left behind")
                            .arg(QString::fromStdString(
                                policy::countOf(n, "MCP process", "MCP processes")));
    } else if ((m = helloRe.match(text)).hasMatch()) {
        text = tr("Tether %1 started (%2 service, port %3)")
                   .arg(m.captured(1), m.captured(2), m.captured(3));
    } else if (text == QLatin1String("following the service's event stream")) {
        text = tr("Following what the service does");
    } else if ((m = lostRe.match(text)).hasMatch()) {
        text = tr("Lost the service's event stream (%1)").arg(m.captured(1));
    }
    out.text = text;
    return out;
}

qint64 timelineSpanMs(qint64 historyMs) {
    for (qint64 minutes : {1, 5, 15})
        if (historyMs <= minutes * 60000) return minutes * 60000;
    return 60 * 60000;
}

QString timelineTitle(qint64 spanMs) {
    return spanMs >= 3600000 ? tr("Health, last hour")
                             : tr("Health, last %1 min").arg(spanMs / 60000);
}

} // namespace tether::ui
