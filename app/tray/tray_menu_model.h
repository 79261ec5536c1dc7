// What the tray menu shows for a given status: which actions exist, which are enabled, their
// labels, the MCP rows and the orphan entry. Pure, so tests check it without a tray; the
// status window's buttons use the same answers.
#pragma once

#include "service/status.h"
#include "settings/autostart.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace tether {

struct McpMenuRow {
    QString name;
    QString label;         // "name — status"
    bool reconnectEnabled; // the service is up to take the request
    // The resource watch flagged it (memory or CPU): offer "Restart this MCP server".
    bool flagged = false;
    QString flagReason;
};

bool operator==(const McpMenuRow &a, const McpMenuRow &b);

struct TrayMenuModel {
    QString statusLine;   // state, version, port, uptime
    QString activityLine; // what the service is doing, a line of its own; empty when idle
    QString tooltip;
    QString url;
    bool openEnabled = false;
    bool startEnabled = false;
    bool stopEnabled = false;
    bool restartEnabled = false;
    QString restartLabel;
    QList<McpMenuRow> mcpRows;
    QString mcpEmptyText; // non-empty when there are no rows
    int mcpFlaggedCount = 0;
    QString mcpMenuTitle; // "MCP servers", marked when one needs attention
    int orphanCount = 0;
    QString orphanLabel; // empty: no orphan entry in the menu
    // Failed: what went wrong (failure.cause, elided for the menu) and what can be done.
    QString failureLine; // empty when not Failed
    bool tryAgainEnabled = false;
    bool showLogEnabled = false;
    QString useFreePortLabel; // "Use a free port (4097)"; empty = no item
};

// The question to ask before `action` ("Stop", "Restart", "Quit and stop") while tool calls run,
// naming each of them; empty when none runs and nothing needs a person's consent.
QString consentQuestion(const ServiceStatus &st, const QString &action);

// Equal models show the same menu and tooltip: the tray skips an update that changes nothing.
bool operator==(const TrayMenuModel &a, const TrayMenuModel &b);
inline bool operator!=(const TrayMenuModel &a, const TrayMenuModel &b) {
    return !(a == b);
}

TrayMenuModel trayMenuModel(const ServiceStatus &status, const QDateTime &now);

// The "Start at login" checkbox, from the entry as read back from the OS: checked only when
// our entry is there, and disabled (with the reason) when the entry is another program's or
// unreadable, because Tether will not touch it. When the OS's own startup settings switched
// our entry off (Windows Task Manager / Settings), the label says so and checking it turns
// it back on.
struct LoginMenuItem {
    QString text;
    bool checked = false;
    bool enabled = false;
    QString toolTip;
};
LoginMenuItem loginMenuItem(const AutostartStatus &status);

} // namespace tether
