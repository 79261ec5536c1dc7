#include "tray/tray_menu_model.h"

#include "service/words.h"
#include "ui/format.h"
#include "ui/status_text.h"

namespace tether {

namespace {

bool serviceAnswers(policy::State s) {
    return s == policy::State::Healthy || s == policy::State::NotResponding;
}

// Seconds still to wait, rounded up.
qint64 secondsUntil(const QDateTime &at, const QDateTime &now) {
    return qMax<qint64>(0, (now.msecsTo(at) + 999) / 1000);
}

// At most two lines of the menu's width: the middle goes, the end (what changes) stays.
QString twoLines(const QString &text) {
    constexpr int kChars = 2 * kMenuStatusChars;
    constexpr int kTail = 16;
    return text.size() <= kChars
               ? text
               : text.left(kChars - kTail - 1) + QChar(0x2026) + text.right(kTail);
}

} // namespace

bool operator==(const McpMenuRow &a, const McpMenuRow &b) {
    return a.name == b.name && a.label == b.label && a.actionLabel == b.actionLabel &&
           a.actionEnabled == b.actionEnabled && a.flagged == b.flagged && a.flagText == b.flagText;
}

bool operator==(const TrayMenuModel &a, const TrayMenuModel &b) {
    return a.statusLine == b.statusLine && a.detailLine == b.detailLine &&
           a.thirdLine == b.thirdLine && a.updateLine == b.updateLine && a.tooltip == b.tooltip &&
           a.url == b.url && a.showOpen == b.showOpen && a.showStart == b.showStart &&
           a.showStop == b.showStop && a.showRestart == b.showRestart &&
           a.restartLabel == b.restartLabel && a.fixLabel == b.fixLabel && a.fixKey == b.fixKey &&
           a.useFreePortLabel == b.useFreePortLabel && a.showTryAgain == b.showTryAgain &&
           a.showShowLog == b.showShowLog && a.mcpRows == b.mcpRows &&
           a.mcpMenuTitle == b.mcpMenuTitle && a.mcpFlaggedCount == b.mcpFlaggedCount &&
           a.orphanCount == b.orphanCount && a.orphanLabel == b.orphanLabel;
}

QString consentQuestion(const ServiceStatus &st, const QString &action) {
    if (st.activity.runningTools.isEmpty()) return QString();
    QStringList tools;
    for (const RunningToolStatus &t : st.activity.runningTools)
        tools << Words::tr("%1 (running for %2)")
                     .arg(t.tool.isEmpty() ? Words::tr("an unnamed tool") : t.tool,
                          ui::durationText(t.runningMs));
    return Words::tr("%1 now? The service is running %n tool call(s), which will be interrupted:",
                     nullptr, int(tools.size()))
               .arg(action) +
           QStringLiteral("\n\n") + tools.join(QLatin1Char('\n'));
}

TrayMenuModel trayMenuModel(const ServiceStatus &st, const QDateTime &now) {
    using policy::State;
    TrayMenuModel m;
    const bool running = st.state != State::Stopped && st.state != State::Failed;
    const bool answers = serviceAnswers(st.state);

    // The state, and what Tether will do by itself next: the countdown a person waits on.
    m.statusLine = ui::stateLabel(st.state);
    if (st.state == State::NotResponding && st.replaceAt.isValid()) {
        const qint64 s = secondsUntil(st.replaceAt, now);
        m.statusLine += s > 0 ? Words::tr(" · replaced in %1").arg(ui::durationText(s * 1000))
                              : Words::tr(" · replaced unless it answers now");
    } else if (st.state == State::Starting && st.startupDeadlineAt.isValid()) {
        // What a start waits for, and until when (its start-up deadline): without it
        // "Starting" read as stuck when it took a while. Then it is replaced, as a silent one.
        const qint64 s = secondsUntil(st.startupDeadlineAt, now);
        m.statusLine += s > 0
                            ? Words::tr(" · first answer within %1").arg(ui::durationText(s * 1000))
                            : Words::tr(" · replaced unless it answers now");
    } else if (st.state == State::Starting) {
        // No deadline (an adopted service, the launch not done yet): what it waits for.
        m.statusLine += Words::tr(" · waiting for its first answer");
    } else if (st.state == State::Recovering) {
        // The silent one is being ended; what comes next is a new one, at once.
        m.statusLine += Words::tr(" · a new one starts next");
    } else if (st.state == State::Restarting && st.restartAt.isValid() &&
               secondsUntil(st.restartAt, now) > 0) {
        m.statusLine += Words::tr(" · again in %1")
                            .arg(ui::durationText(secondsUntil(st.restartAt, now) * 1000));
    }
    // The version alone: the demo's version already says "demo" ("1.18.33-demo").
    QStringList parts;
    if (!st.version.isEmpty()) parts << st.version;
    if (st.port != 0) parts << Words::tr("port %1").arg(st.port);
    // In whole minutes: the menu and the tooltip are refreshed once a minute while nothing
    // counts seconds, so "up 0 s" stood for that minute.
    if (running && st.startedAt.isValid()) {
        const qint64 up = st.startedAt.msecsTo(now);
        parts << (up < 60000 ? Words::tr("just started")
                             : Words::tr("up %1").arg(ui::durationText(up)));
    }
    // Each fact whole on its line: a line that must wrap breaks between them, never "10 | s".
    for (QString &part : parts)
        part.replace(QLatin1Char(' '), QChar::Nbsp);
    m.detailLine = parts.join(QStringLiteral(" · "));
    // In whole minutes: the menu and the tooltip are refreshed once a minute (and as the menu
    // opens), not every second a tool call runs.
    const QString activity = ui::activityText(st, 2, ui::Precision::Minutes);
    const QString failure = ui::failureText(st);
    // Its own line, wrapped to the menu's width and cut beyond two of its lines: appended to the
    // status line it made the menu wider than an 800-pixel screen (seen under Xvfb).
    // Long tool names: one named, the others counted, rather than a name cut in its middle.
    const QString shortActivity = activity.size() <= 2 * kMenuStatusChars
                                      ? activity
                                      : ui::activityText(st, 1, ui::Precision::Minutes);
    m.thirdLine = twoLines(st.state == State::Failed ? failure : shortActivity);
    // An update waiting: the version it brings has a line of its own in the status block, so
    // that the action stays short ("Neu starten: auf 1.18.33-demo aktualisieren" made the German
    // menu 348 pt wide, leaving the MCP submenu no room for its states at 2x), and the facts
    // line stays one line.
    if (st.versionMismatch && !st.installedVersion.isEmpty())
        m.updateLine = Words::tr("Version %1 is installed").arg(st.installedVersion);

    m.tooltip = Words::tr("Tether: %1").arg(m.statusLine);
    if (!m.detailLine.isEmpty()) m.tooltip += QLatin1Char('\n') + m.detailLine;
    if (!activity.isEmpty()) m.tooltip += QLatin1Char('\n') + activity;
    if (!failure.isEmpty()) m.tooltip += QLatin1Char('\n') + failure;
    const QString cut = ui::interruptedText(st.lastInterrupted);
    if (!cut.isEmpty()) m.tooltip += QLatin1Char('\n') + cut;
    if (st.versionMismatch && !st.installedVersion.isEmpty())
        m.tooltip +=
            QLatin1Char('\n') + Words::tr("Version %1 is installed").arg(st.installedVersion);
    if (!st.orphans.isEmpty())
        m.tooltip += QLatin1Char('\n') + ui::orphanCountText(int(st.orphans.size()));
    // Records Tether could not save: said whatever the state, since the next start relies on them.
    for (const QString &e : st.stateFileErrors)
        m.tooltip += QLatin1Char('\n') + Words::tr("Not saved: %1").arg(e);

    m.url = st.url;
    m.showOpen = !st.url.isEmpty() && answers;
    // While a stop runs, Start is offered: it wins once the stop is done (the last intent).
    m.showStart = st.state == State::Stopped || st.state == State::Stopping;
    m.showStop = running && st.state != State::Stopping;
    // Recovering and Restarting already replace the service; Stopped wants Start, Failed Try again.
    m.showRestart = st.state == State::Starting || answers;
    m.restartLabel = st.versionMismatch && !st.installedVersion.isEmpty()
                         ? Words::tr("&Update and restart")
                         : Words::tr("&Restart");
    if (st.state == State::Failed) {
        m.fixLabel = ui::fixActionText(st.failure.fix);
        m.fixKey = ui::fixSettingKey(st.failure.fix);
        if (st.failure.portHeld && st.failure.freePort != 0)
            m.useFreePortLabel = Words::tr("Use a &free port (%1)").arg(st.failure.freePort);
        m.showTryAgain = true;
        m.showShowLog = !st.failure.logPath.isEmpty();
    }

    for (const McpChildStatus &c : st.mcp) {
        McpMenuRow row{c.name,
                       QString(),
                       c.flagged ? Words::tr("Restart") : Words::tr("Reconnect"),
                       answers && st.state == State::Healthy,
                       c.flagged,
                       ui::mcpFlagText(c)};
        // A leaking or spinning server is marked; only a person restarts it.
        row.label = (c.flagged ? QStringLiteral("⚠ ") : QString()) +
                    Words::tr("%1 — %2", "an MCP server, then its state")
                        .arg(c.name, ui::mcpStatusText(c, st.state));
        m.mcpRows.append(row);
        m.mcpFlaggedCount += c.flagged ? 1 : 0;
    }
    m.mcpMenuTitle = m.mcpFlaggedCount > 0 ? Words::tr("⚠ &MCP servers (%n need(s) attention)",
                                                       nullptr, m.mcpFlaggedCount)
                                           : Words::tr("&MCP servers (%1)").arg(m.mcpRows.size());
    if (m.mcpFlaggedCount > 0)
        m.tooltip += QLatin1Char('\n') +
                     Words::tr("%n MCP server(s) over a limit", nullptr, m.mcpFlaggedCount);

    m.orphanCount = int(st.orphans.size());
    if (m.orphanCount > 0)
        m.orphanLabel = Words::tr("&Clean up %n orphaned process(es)…", nullptr, m.orphanCount);
    return m;
}

LoginMenuItem loginMenuItem(const AutostartStatus &status) {
    using State = AutostartStatus::State;
    LoginMenuItem item;
#ifdef Q_OS_MACOS
    const QString disabledBySystem = Words::tr("Start at &login (off in System Settings)");
#else
    const QString disabledBySystem = Words::tr("Start at &login (disabled in Windows Settings)");
#endif
    item.text =
        status.state == State::DisabledBySystem ? disabledBySystem : Words::tr("Start at &login");
    item.checked = status.state == State::On;
    item.enabled = status.state == State::On || status.state == State::Off ||
                   status.state == State::DisabledBySystem;
    item.toolTip = autostartDescription(status);
    return item;
}

} // namespace tether
