// What the tray menu shows for a given status: one status block, the actions that apply now (the
// others are not shown, rather than shown disabled), the MCP servers one level deep, the orphan
// entry. Pure, so tests check it without a tray; the status window's buttons use the same answers.
#pragma once

#include "service/status.h"
#include "settings/autostart.h"

#include <QDateTime>
#include <QList>
#include <QString>

namespace tether {

// One MCP server in the MCP submenu: its name and state, and its one action (disconnect +
// connect: a fresh process, the service left alone), "Reconnect", or "Restart" when it is over a
// limit. Shown as one row: "demo-1 — connected" with the action's word beside it.
struct McpMenuRow {
    QString name;
    QString label;        // "demo-1 — connected", "⚠ demo-1 — memory over its limit"
    QString actionLabel;  // "Reconnect" / "Restart"
    bool actionEnabled;   // the service answers and can take the request
    bool flagged = false; // over its memory or CPU limit
    QString flagText;     // why, in words ("uses 612 MiB, over its 500 MiB limit")
};

bool operator==(const McpMenuRow &a, const McpMenuRow &b);

struct TrayMenuModel {
    // The status block at the top, in normal text (not as disabled grey items):
    QString statusLine; // the state and what happens next: "Not responding · replaced in 18 s"
    QString detailLine; // version, port, uptime: "1.18.33 · port 4096 · up 3 min"
    QString thirdLine;  // what it does ("Running a tool: bash (12 s)") or why it failed
    QString updateLine; // an update waiting: "Version 1.19.0 is installed"; empty: none
    QString tooltip;
    QString url;
    // The actions that apply now; each is shown only when it does.
    bool showOpen = false;
    bool showStart = false;
    bool showStop = false;
    bool showRestart = false;
    QString restartLabel;
    // Failed: what mends it. One "Try again" (no Start or Restart beside it).
    QString fixLabel;         // "Edit arguments…" / "Choose program…"; empty: none
    QString fixKey;           // the setting it opens ("service/arguments")
    QString useFreePortLabel; // "Use a free port (4097)"; empty = none
    bool showTryAgain = false;
    bool showShowLog = false;
    // MCP servers: a submenu, when the service has any.
    QList<McpMenuRow> mcpRows;
    QString mcpMenuTitle; // "MCP servers (3)", marked when one needs attention
    int mcpFlaggedCount = 0;
    int orphanCount = 0;
    QString orphanLabel; // empty: no orphan entry in the menu
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

// The "Start at login" checkbox (Settings), from the entry as read back from the OS: checked only
// when our entry is there, and disabled (with the reason) when the entry is another program's or
// unreadable, because Tether will not touch it. When the OS's own startup settings switched our
// entry off (Windows Task Manager / Settings), the label says so and checking it turns it on.
struct LoginMenuItem {
    QString text;
    bool checked = false;
    bool enabled = false;
    QString toolTip;
};
LoginMenuItem loginMenuItem(const AutostartStatus &status);

} // namespace tether
