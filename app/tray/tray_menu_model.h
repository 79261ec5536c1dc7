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
    // The resource watch flagged it (memory or CPU): its one action says "Restart", and the
    // menu shows it at the top level (attentionLabel), not only in a submenu.
    bool flagged = false;
    QString flagReason;
    // The one action per server (disconnect + connect: a fresh process, the service left
    // alone): "Reconnect", or "Restart demo-1" when flagged. There is no second action doing
    // the same thing under another name.
    QString actionLabel;
    QString attentionLabel; // "⚠ Restart demo-1: memory 612 MiB is over 500 MiB"; empty if fine
};

bool operator==(const McpMenuRow &a, const McpMenuRow &b);

struct TrayMenuModel {
    // The first two lines of the menu, shown in normal text (not as disabled grey items):
    QString statusLine;   // the state and what happens next: "Not responding · replaced in 18 s"
    QString detailLine;   // version, port, uptime: "1.18.33 · port 4096 · up 3 min"
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

// The width the menu's status lines get, in average character widths: the same in every state,
// so the menu does not jump between ~160 and ~410 px as the state changes; longer lines wrap.
constexpr int kMenuStatusChars = 42;

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
