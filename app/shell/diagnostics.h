// One plain-text report a person can attach to a bug: versions, OS, settings, status,
// transitions, the last lines of Tether's and the service's logs, the registration, the port
// owner and the service's process tree. Secrets removed (service/redaction.h). It reads files
// and the OS itself, so it works when the service is down and when no Tether runs.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

namespace tether::diagnostics {

struct Input {
    QString settingsPath;              // empty: the user's file
    std::optional<QJsonObject> status; // the running Tether's status; none: not running
    QString tetherState;               // "running", "not running (...)", "not answering (...)"
    QStringList eventLog;              // the running Tether's recent lines; empty: from its log
};

QString build(const Input &input);

// `tether diagnostics FILE`: from the running Tether when it answers, else built here.
// Returns the exit code.
int runVerb(const QStringList &args);

} // namespace tether::diagnostics
