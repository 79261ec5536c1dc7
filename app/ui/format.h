// How durations, memory, states and events read for a person: one place, so the tray, the
// status window and the dialogs say the same thing the same way. Pure functions.
#pragma once

#include "policy/state.h"
#include "service/status.h"

#include <QDateTime>
#include <QString>
#include <QtGlobal>

namespace tether::ui {

QString stateLabel(policy::State s); // "Healthy", "Not responding", ...
QString durationText(qint64 ms);     // "45 s", "12 min", "3 h 05 min", "2 d 4 h"
QString memoryText(quint64 kib);     // "812 KiB", "14.2 MiB", "1.3 GiB"

// What is going on and what happens next, in a sentence or two: "Waiting for the service; it
// will be replaced in 18 s if it does not answer." Empty when there is nothing to add (healthy).
// withOrphans false: without the orphans' sentence, for a view that says them on a line of its
// own (the status window), so that its two lines hold the rest.
QString nextStepText(const ServiceStatus &st, const QDateTime &now, bool withOrphans = true);

// One line of Tether's log as a person reads it in the Events list: a short local time and a
// sentence ("14:02:11", "The service stopped answering."). Lines that are for a bug report (a
// scan that found nothing, a PATH, pids, timings) say nothing: text is empty, unless `details`
// asks for the log's own words.
struct EventLine {
    QString time;
    QString text;
};
EventLine eventLine(const QString &logLine, const QDateTime &now, bool details = false);
// The log line of a clean-up a person asked for (the orphan dialog, `tether cleanup`): how many
// ended and how many did not; the Events tab says it as a sentence.
QString personCleanupLogLine(int ended, int notEnded);

// The span the health timeline shows: the shortest of 1, 5, 15 and 60 minutes that holds the
// history it has, so a 5-second spell in a young history is wide enough to see.
qint64 timelineSpanMs(qint64 historyMs);
QString timelineTitle(qint64 spanMs); // "&Health, last 5 min"

} // namespace tether::ui
