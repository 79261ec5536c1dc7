// opencode 2.x's persistent terminals when its service is stopped or replaced, as its own
// clients do it: handed over to the next service through a sidecar file beside service.json,
// or shut down (an older service without the route, or a stop that starts nothing after).
#pragma once

#include "policy/supervision.h"

#include <QObject>
#include <QString>
#include <functional>
#include <string>

namespace tether {

class TerminalHandoff : public QObject {
    Q_OBJECT
public:
    explicit TerminalHandoff(QObject *parent = nullptr);

    // Before the service that service.json at `managedPath` names as `managedId` is signalled:
    // hand its terminals over, shut them down, or clear a stale handoff (policy::Terminals);
    // then done(). Another service than the one named is never asked.
    void prepare(policy::Terminals t, const QString &managedPath, const std::string &managedId,
                 const QString &authUser, std::function<void()> done);
    // The replacement is ready: a handoff published for an older service has done its job.
    static void complete(const QString &managedPath);

signals:
    void logLine(const QString &line);
};

} // namespace tether
