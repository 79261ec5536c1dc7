// opencode 2.x's service.json, looked at on a cadence while the machine wants it watched: its
// content judged against the process table (managed_registration.h) whenever it changed, or
// when the last judgement could not be made. It only looks; the Supervisor feeds what it
// reports to the machine as policy::ManagedRegistrationChanged.
#pragma once

#include "policy/supervision.h"
#include "supervision/managed_watch.h"

#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>

namespace tether {

class ManagedRegistrationWatch : public QObject {
    Q_OBJECT
public:
    // `path`: service.json now (it follows the settings); `launchedPid`: Tether's own launch,
    // which the judgement tells apart from another client's.
    ManagedRegistrationWatch(std::function<QString()> path, std::function<qint64()> launchedPid,
                             QObject *parent = nullptr);

    // Look every `everyMs` (0: not at all, and forget what was judged).
    void follow(int everyMs);
    bool following() const { return timer_.isActive(); }
    // What was judged no longer applies (another profile): the next look judges afresh.
    void forget() { watch_.forget(); }
    // One look now, if following.
    void look();

signals:
    void changed(const tether::policy::ManagedFacts &facts);

private:
    std::function<QString()> path_;
    std::function<qint64()> launchedPid_;
    QTimer timer_;
    supervision::ManagedWatch watch_;
};

} // namespace tether
