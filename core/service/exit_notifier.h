// A process's exit delivered on the event loop, without polling: os::ExitWatch (pidfd, kqueue,
// process handle) under a QSocketNotifier (POSIX) or QWinEventNotifier (Windows). One place for
// the adopted service (Supervisor) and the MCP processes Tether tracks (McpMonitor).
#pragma once

#include "os/process.h"

#include <QObject>
#include <memory>
#include <string>

namespace tether {

class ExitNotifier : public QObject {
    Q_OBJECT
public:
    // Identity verified while the watch pins the process. nullptr with *why when the kernel gives
    // no watch here or `id` is not that process any more (os::alive tells the two apart).
    static std::unique_ptr<ExitNotifier> open(const os::Identity &id, std::string *why = nullptr);
    ~ExitNotifier() override;

    const os::Identity &identity() const { return id_; }

signals:
    void exited(const tether::os::Identity &id); // once

private:
    ExitNotifier(const os::Identity &id, std::unique_ptr<os::ExitWatch> watch);
    os::Identity id_;
    std::unique_ptr<os::ExitWatch> watch_;
    QObject *notifier_ = nullptr; // child of this
};

} // namespace tether
