// `tether <verb>`: talk to the running Tether over the control socket.
#pragma once

#include <QJsonObject>
#include <QStringList>

namespace tether::cli {

// A command-line verb of control/verbs.h (not "show", which only a second launch sends).
bool isVerb(const QString &arg);
// The verbs with their options and one help line each, from control/verbs.h: for `tether
// --help`, `tether help` and `tether <verb> --help`.
QString verbHelp();
// args: the verb and its options (argv without the program). Returns the exit code.
int runVerb(const QStringList &args);
QString describeStatus(const QJsonObject &status); // one human line

} // namespace tether::cli
