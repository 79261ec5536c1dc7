// `tether <verb>`: talk to the running Tether over the control socket.
#pragma once

#include <QJsonObject>
#include <QStringList>

namespace tether::cli {

// Exit codes of the verbs, listed in `tether help`: scripts and cmd's %ERRORLEVEL% read them.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1; // Tether answered with an error, or not at all
inline constexpr int kExitUsage = 2;  // unknown verb or option, missing NAME
// stop/restart refused: tool calls run (`--force` interrupts them); the code issue 15 names.
inline constexpr int kExitBusy = 3;
inline constexpr int kExitNotRunning = 4; // no Tether runs for this user (nobody on the socket)
// A Tether holds the control socket but did not answer in time (busy, stalled, stopped).
inline constexpr int kExitNotAnswering = 5;

// A command-line verb of control/verbs.h (not "show", which only a second launch sends).
bool isVerb(const QString &arg);
// The verbs with their options and one help line each, from control/verbs.h: for `tether
// --help`, `tether help` and `tether <verb> --help`.
QString verbHelp();
// args: the verb and its options (argv without the program). Returns the exit code.
int runVerb(const QStringList &args);
// The running Tether's status in a person's words, as the tray says it (ui/status_text.h);
// details: the pids, the log's path, the last error in the log's words, as before.
QString describeStatus(const QJsonObject &status, bool details = false);

} // namespace tether::cli
