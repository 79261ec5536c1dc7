#include "tray/tray_menu_model.h"

#include "policy/notice.h"
#include "ui/format.h"

#include <QCoreApplication>

namespace tether {

namespace {

QString tr(const char *text) {
    return QCoreApplication::translate("tether", text);
}

bool serviceAnswers(policy::State s) {
    return s == policy::State::Healthy || s == policy::State::NotResponding;
}

// Seconds still to wait, rounded up.
qint64 secondsUntil(const QDateTime &at, const QDateTime &now) {
    return qMax<qint64>(0, (now.msecsTo(at) + 999) / 1000);
}

} // namespace

bool operator==(const McpMenuRow &a, const McpMenuRow &b) {
    return a.name == b.name && a.label == b.label && a.reconnectEnabled == b.reconnectEnabled &&
           a.flagged == b.flagged && a.flagReason == b.flagReason &&
           a.actionLabel == b.actionLabel && a.attentionLabel == b.attentionLabel;
}

bool operator==(const TrayMenuModel &a, const TrayMenuModel &b) {
    return a.statusLine == b.statusLine && a.detailLine == b.detailLine &&
           a.activityLine == b.activityLine && a.tooltip == b.tooltip && a.url == b.url &&
           a.openEnabled == b.openEnabled && a.startEnabled == b.startEnabled &&
           a.stopEnabled == b.stopEnabled && a.restartEnabled == b.restartEnabled &&
           a.restartLabel == b.restartLabel && a.mcpRows == b.mcpRows &&
           a.mcpEmptyText == b.mcpEmptyText && a.mcpFlaggedCount == b.mcpFlaggedCount &&
           a.mcpMenuTitle == b.mcpMenuTitle && a.orphanCount == b.orphanCount &&
           a.orphanLabel == b.orphanLabel && a.failureLine == b.failureLine &&
           a.tryAgainEnabled == b.tryAgainEnabled && a.showLogEnabled == b.showLogEnabled &&
           a.useFreePortLabel == b.useFreePortLabel;
}

QString consentQuestion(const ServiceStatus &st, const QString &action) {
    if (st.activity.runningTools.isEmpty()) return QString();
    QStringList tools;
    for (const RunningToolStatus &t : st.activity.runningTools)
        tools << tr("%1 (session %2, running for %3)")
                     .arg(t.tool.isEmpty() ? tr("an unnamed tool") : t.tool, t.session,
                          ui::durationText(t.runningMs));
    // Spelt out: without a translator Qt leaves "call(s)" as written.
    const QString list = tools.join(QLatin1Char('\n'));
    if (tools.size() == 1)
        return tr("%1 now? The service is running a tool call, which will be interrupted:\n\n%2")
            .arg(action, list);
    return tr("%1 now? The service is running %2 tool calls, which will be interrupted:\n\n%3")
        .arg(action, QString::number(tools.size()), list);
}

TrayMenuModel trayMenuModel(const ServiceStatus &st, const QDateTime &now) {
    using policy::State;
    TrayMenuModel m;
    const bool running = st.state != State::Stopped && st.state != State::Failed;

    // The state, and what Tether will do by itself next: the countdown a person waits on.
    m.statusLine = ui::stateLabel(st.state);
    if (st.state == State::NotResponding && st.replaceAt.isValid()) {
        const qint64 s = secondsUntil(st.replaceAt, now);
        m.statusLine += s > 0 ? tr(" · replaced in %1 s unless it answers").arg(s)
                              : tr(" · replaced unless the next check answers");
    } else if (st.state == State::Restarting && st.restartAt.isValid() &&
               secondsUntil(st.restartAt, now) > 0) {
        m.statusLine += tr(" · again in %1 s").arg(secondsUntil(st.restartAt, now));
    }
    if (st.external) m.statusLine += tr(" · adopted");
    // The version alone: the demo's version already says "demo" ("demo 1.18.33-demo").
    QStringList parts;
    if (!st.version.isEmpty()) parts << st.version;
    if (st.port != 0) parts << tr("port %1").arg(st.port);
    if (running && st.startedAt.isValid())
        parts << tr("up %1").arg(ui::durationText(st.startedAt.msecsTo(now)));
    m.detailLine = parts.join(QStringLiteral(" · "));
    // What the service is doing, in the policy's words ("busy: 1 session, tool X for 45 s").
    const bool working = !st.activity.summary.isEmpty() &&
                         (st.activity.busySessions > 0 || !st.activity.runningTools.isEmpty());
    // A line of its own, wrapped to the menu's width and elided beyond two of its lines: appended
    // to the status line it made the menu wider than an 800-pixel screen (seen under Xvfb). Cut
    // at 60 characters, one tool call with a long name (everything_trigger-long-running-operation)
    // wrapped anyway and lost the middle of its name ("trigger-lo…peration").
    constexpr int kActivityChars = 2 * kMenuStatusChars;
    if (working && serviceAnswers(st.state)) {
        const QString &a = st.activity.summary;
        constexpr int kTail = 16; // the middle goes: "for 45 s" is what changes
        m.activityLine = a.size() <= kActivityChars
                             ? a
                             : a.left(kActivityChars - kTail - 1) + QChar(0x2026) + a.right(kTail);
    }

    m.tooltip = QStringLiteral("Tether: ") + m.statusLine;
    if (!m.detailLine.isEmpty()) m.tooltip += QLatin1Char('\n') + m.detailLine;
    if (working && serviceAnswers(st.state)) m.tooltip += QLatin1Char('\n') + st.activity.summary;
    if (!st.lastInterrupted.summary.isEmpty())
        m.tooltip += QLatin1Char('\n') + tr("Last %1").arg(st.lastInterrupted.summary);
    if (st.versionMismatch)
        m.tooltip +=
            QLatin1Char('\n') + tr("Installed version %1 differs").arg(st.installedVersion);
    if (!st.orphans.isEmpty())
        m.tooltip += QLatin1Char('\n') +
                     QString::fromStdString(policy::countOf(
                         st.orphans.size(), "orphaned MCP process", "orphaned MCP processes"));
    // Records Tether could not save: said whatever the state, since the next start relies on them.
    for (const QString &e : st.stateFileErrors)
        m.tooltip += QLatin1Char('\n') + tr("Not saved: %1").arg(e);
    // Failed says what went wrong in the service's own words (failure.cause), else the machine's.
    const bool failed = st.state == State::Failed;
    const QString cause = !st.failure.cause.isEmpty() ? st.failure.cause : st.lastError;
    if (failed && !cause.isEmpty()) m.tooltip += QLatin1Char('\n') + cause;
    if (failed) {
        // The service's own words when it said any ("Unknown option 'bogus'."), else the cause;
        // at most as wide as the activity line (a wider one made the menu overflow small
        // screens). The tooltip and the status window have the whole cause.
        const QString shown = st.failure.errorLine.isEmpty() ? cause : st.failure.errorLine;
        constexpr int kFailureChars = 60;
        m.failureLine =
            shown.size() <= kFailureChars ? shown : shown.left(kFailureChars - 1) + QChar(0x2026);
        m.tryAgainEnabled = true;
        m.showLogEnabled = !st.failure.logPath.isEmpty();
        if (st.failure.portHeld && st.failure.freePort != 0)
            m.useFreePortLabel = tr("Use a free port (%1)").arg(st.failure.freePort);
    }

    m.url = st.url;
    m.openEnabled = !st.url.isEmpty() && serviceAnswers(st.state);
    // While a stop runs, Start is offered: it wins once the stop is done (the last intent).
    m.startEnabled =
        st.state == State::Stopped || st.state == State::Failed || st.state == State::Stopping;
    m.stopEnabled = running && st.state != State::Stopping;
    // Recovering and Restarting already replace the service; Stopped wants Start.
    m.restartEnabled =
        st.state == State::Starting || serviceAnswers(st.state) || st.state == State::Failed;
    m.restartLabel = st.versionMismatch && !st.installedVersion.isEmpty()
                         ? tr("Restart to update to %1").arg(st.installedVersion)
                         : tr("Restart");

    for (const McpChildStatus &c : st.mcp) {
        QString status = c.status.isEmpty() ? tr("unknown") : c.status;
        status.replace(QLatin1Char('_'), QLatin1Char(' '));
        // A leaking or spinning child is marked; only a person restarts it.
        const QString mark = c.flagged ? QStringLiteral("⚠ ") : QString();
        McpMenuRow row{c.name,
                       mark + c.name + QStringLiteral(" — ") + status,
                       serviceAnswers(st.state),
                       c.flagged,
                       c.flagReason,
                       QString(),
                       QString()};
        row.actionLabel = c.flagged ? tr("Restart %1").arg(c.name) : tr("Reconnect");
        // Short enough for the menu's width; the reason in full is the tooltip and the submenu.
        if (c.flagged)
            row.attentionLabel =
                QStringLiteral("⚠ ") + (c.flagReason.startsWith(QLatin1String("memory"))
                                            ? tr("Restart %1 (memory over its limit)")
                                            : tr("Restart %1 (CPU busy too long)"))
                                           .arg(c.name);
        m.mcpRows.append(row);
        m.mcpFlaggedCount += c.flagged ? 1 : 0;
    }
    m.mcpMenuTitle = m.mcpFlaggedCount > 0
                         ? tr("⚠ MCP servers (%1 need attention)").arg(m.mcpFlaggedCount)
                         : tr("MCP servers");
    if (m.mcpFlaggedCount > 0)
        m.tooltip += QLatin1Char('\n') +
                     tr("%1 MCP server(s) use too much memory or CPU").arg(m.mcpFlaggedCount);
    if (m.mcpRows.isEmpty())
        m.mcpEmptyText =
            serviceAnswers(st.state) ? tr("No MCP servers") : tr("Service not running");

    m.orphanCount = int(st.orphans.size());
    if (m.orphanCount > 0)
        m.orphanLabel = m.orphanCount == 1
                            ? tr("Clean up 1 orphaned process...")
                            : tr("Clean up %1 orphaned processes...").arg(m.orphanCount);
    return m;
}

LoginMenuItem loginMenuItem(const AutostartStatus &status) {
    using State = AutostartStatus::State;
    LoginMenuItem item;
#ifdef Q_OS_MACOS
    const QString disabledBySystem = tr("Start at login (off in System Settings)");
#else
    const QString disabledBySystem = tr("Start at login (disabled in Windows Settings)");
#endif
    item.text = status.state == State::DisabledBySystem ? disabledBySystem : tr("Start at login");
    item.checked = status.state == State::On;
    item.enabled = status.state == State::On || status.state == State::Off ||
                   status.state == State::DisabledBySystem;
    item.toolTip = autostartDescription(status);
    return item;
}

} // namespace tether
