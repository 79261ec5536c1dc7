// Option values both demo services read the same way (pure).
#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>

namespace tether::demo {

// Parses `arguments` (the verb first) and refuses positional arguments. False with `error` set.
bool parseOptionsOnly(QCommandLineParser &p, const QStringList &arguments, QString &error);

// Reads an integer option within [min, max]; leaves `out` alone when the option is absent.
// False with `error` set ("--name must be an integer from min to max, got ...").
bool readIntOption(const QCommandLineParser &p, const QCommandLineOption &o, int min, int max,
                   int &out, QString &error);

// --busy-tool NAME:SECONDS, split at the last colon, SECONDS in 0..maxSeconds.
bool readToolSpec(const QString &value, int maxSeconds, QString &tool, int &seconds,
                  QString &error);

} // namespace tether::demo
