// `tether <verb>`: talk to the running Tether over the control socket.
#pragma once

#include <QJsonObject>
#include <QStringList>

namespace tether::cli {

bool isVerb(const QString &arg);
// args: the verb and its options (argv without the program). Returns the exit code.
int runVerb(const QStringList &args);
QString describeStatus(const QJsonObject &status); // one human line

} // namespace tether::cli
