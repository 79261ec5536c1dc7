// The one table of control verbs: the control protocol parses against it, the running Tether
// dispatches on its enum (shell/runtime.cpp), and the CLI takes its names, help lines,
// arguments and timeouts from it (`tether --help`, `tether help`, `tether <verb>`).
// On the wire a verb is its name: {"verb":"status","args":{...}}.
#pragma once

#include <QLatin1String>
#include <QString>

namespace tether::control {

enum class Verb {
    Status,
    Start,
    Stop,
    Restart,
    Cleanup,
    McpConnect,
    McpDisconnect,
    Quit,
    Show,
    Diagnostics
};

struct VerbInfo {
    Verb verb;
    const char *name;    // on the wire and on the command line
    const char *options; // shown after the name in help ("[--json]", "NAME"); "" for none; a
                         // placeholder (NAME, FILE) is in the catalogue
    const char *summary; // one line of help, in English: phrase() says it in the person's language
    bool takesName;      // a positional NAME (the MCP server), sent as args {"name": ...}
    int timeoutMs;       // how long the CLI waits for the answer
    bool cli;            // a command-line verb (show comes only from a second `tether` launch)
};

inline constexpr VerbInfo kVerbTable[] = {
    {Verb::Status, "status", "[--json] [--details]",
     QT_TRANSLATE_NOOP("Tether", "state, what it does or why it failed, MCP servers, orphans; "
                                 "--details: process IDs, paths"),
     false, 10000, true},
    {Verb::Start, "start", "", QT_TRANSLATE_NOOP("Tether", "start the service"), false, 10000,
     true},
    {Verb::Stop, "stop", "[--force]",
     QT_TRANSLATE_NOOP(
         "Tether",
         "stop the service (identity verified; refused while tool calls run unless --force)"),
     false, 10000, true},
    {Verb::Restart, "restart", "[--force]",
     QT_TRANSLATE_NOOP(
         "Tether",
         "restart the service (identity verified; refused while tool calls run unless --force)"),
     false, 10000, true},
    {Verb::Cleanup, "cleanup", "[--dry-run] [--yes] [--json]",
     QT_TRANSLATE_NOOP(
         "Tether",
         "remove orphaned MCP processes (possible ones only with --yes); no Tether needed"),
     false, 60000, true},
    {Verb::McpConnect, "mcp-connect", QT_TRANSLATE_NOOP("Tether", "NAME"),
     QT_TRANSLATE_NOOP("Tether", "connect an MCP server through the service"), true, 10000, true},
    {Verb::McpDisconnect, "mcp-disconnect", QT_TRANSLATE_NOOP("Tether", "NAME"),
     QT_TRANSLATE_NOOP("Tether", "disconnect an MCP server through the service"), true, 10000,
     true},
    {Verb::Quit, "quit", "",
     QT_TRANSLATE_NOOP("Tether", "quit Tether (the service keeps running unless configured)"),
     false, 10000, true},
    {Verb::Show, "show", "",
     QT_TRANSLATE_NOOP("Tether", "raise the running Tether's status window"), false, 10000, false},
    {Verb::Diagnostics, "diagnostics", QT_TRANSLATE_NOOP("Tether", "FILE"),
     QT_TRANSLATE_NOOP(
         "Tether",
         "write one report to attach to a bug, secrets removed (- prints it); no Tether needed"),
     false, 15000, true},
};

inline const VerbInfo &verbInfo(Verb v) {
    for (const VerbInfo &i : kVerbTable)
        if (i.verb == v) return i;
    return kVerbTable[0]; // unreachable: every Verb has a row
}

inline QString toString(Verb v) {
    return QString::fromLatin1(verbInfo(v).name);
}

// The row named `name` exactly (case-sensitive, as on the wire); null when there is none.
inline const VerbInfo *findVerb(const QString &name) {
    for (const VerbInfo &i : kVerbTable)
        if (name == QLatin1String(i.name)) return &i;
    return nullptr;
}

inline bool fromString(const QString &name, Verb *out) {
    const VerbInfo *i = findVerb(name);
    if (i) *out = i->verb;
    return i != nullptr;
}

} // namespace tether::control
