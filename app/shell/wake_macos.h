// macOS: NSWorkspaceDidWakeNotification on NSWorkspace's own notification center. Compiled
// only on macOS (wake_macos.mm); not compiled on the Linux build machines: written against
// the documented AppKit API.
#pragma once

#include <QObject>

namespace tether {

class MacWakeSource : public QObject {
    Q_OBJECT
public:
    explicit MacWakeSource(QObject *parent = nullptr);
    ~MacWakeSource() override;

signals:
    void resumed();

private:
    void *observer_ = nullptr; // id<NSObject>, retained
};

} // namespace tether
