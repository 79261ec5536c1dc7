// When a service Tether adopted (not its child, so no QProcess tells) exits: the kernel says so
// where it can (ExitNotifier: pidfd, kqueue, a process handle), else a look on a cadence does.
// It only watches; the Supervisor feeds what it reports to the machine as policy::Exited.
#pragma once

#include "os/process.h"
#include "service/exit_notifier.h"

#include <QObject>
#include <QString>
#include <QTimer>
#include <memory>
#include <optional>

namespace tether {

class AdoptedExitWatch : public QObject {
    Q_OBJECT
public:
    explicit AdoptedExitWatch(QObject *parent = nullptr);

    // Watch `id` (nullopt: nothing). The same identity again changes nothing; another one
    // replaces it. Without a kernel notification, os::alive is asked every `lookEveryMs`.
    void watch(const std::optional<os::Identity> &id, int lookEveryMs);

signals:
    void exited(const tether::os::Identity &id, const QString &why); // once per watch()
    void logLine(const QString &line);

private:
    void stop();

    std::unique_ptr<ExitNotifier> notifier_;
    QTimer look_;
    os::Identity watched_;
};

} // namespace tether
