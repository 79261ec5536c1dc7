// What a person reads about the service, in their language (Qt Linguist, context "Tether"): whole
// sentences with real plurals, and no pids, paths, session ids or milliseconds, which are details
// (the status window's Details, `tether status --details`). Pure functions of the status: the
// tray menu, its tooltip, the status window, the notifications and `tether status` share them.
// The log and status --json keep core's English (policy/*), which is for bug reports.
#pragma once

#include "service/status.h"

#include <QString>

namespace tether::ui {

// "opencode", "The demo service", "The service": the subject of a sentence.
QString serviceNameText(const std::optional<policy::Dialect> &profile);

// "bash", "bash and read", "bash, read and 2 more": tools by name, the rest counted.
QString toolNames(const QList<RunningToolStatus> &tools, int most = 2);
// What the service is doing, when it works: "Running a tool: bash (45 s)", "Running 3 tools:
// bash, read and 1 more" (tools named at most `most`), "Working on 2 requests". Empty when idle,
// unseen or not serving. Minutes: how long in whole minutes ("less than a minute", "3 min"), for
// surfaces refreshed once a minute (the tray's menu and tooltip).
enum class Precision { Seconds, Minutes };
QString activityText(const ServiceStatus &st, int most = 2,
                     Precision precision = Precision::Seconds);
// What the last replacement or stop cut short: "bash was cut short at 14:02." Empty if nothing.
QString interruptedText(const InterruptedStatus &i);

// "exit code 2: bad arguments", "killed or crashed".
QString exitText(const policy::ExitFacts &e);
// The same as a whole sentence: "It was killed or crashed.", "It ended with exit code 2: bad
// arguments." (a fragment inserted into "It ended with %1." read "It ended with killed or
// crashed.")
QString exitSentence(const policy::ExitFacts &e);
// Why it is Failed, one sentence: "Port 4096 is used by python3.", "The demo service refused
// its arguments: “Unknown option 'bogus'.”" Empty when not Failed.
QString failureText(const ServiceStatus &st);
// The one action that mends a failure a person must fix: "Edit arguments…" / "Choose
// program…"; empty for FixFirst::Nothing.
QString fixActionText(policy::FixFirst fix);
// The setting that action opens ("service/arguments", "service/program"); empty for Nothing.
QString fixSettingKey(policy::FixFirst fix);

// An MCP server's state, true to the service's: "connected", "failed: bad token", and "no answer
// from the service" while the service itself does not answer.
QString mcpStatusText(const McpChildStatus &c, policy::State service);
// Why it is flagged: "uses 612 MiB, over its 500 MiB limit"; empty when not flagged.
QString mcpFlagText(const McpChildStatus &c);
// "1 orphaned MCP process", "3 orphaned MCP processes".
QString orphanCountText(int n);

} // namespace tether::ui
