// Not compiled on the Linux build machines: written against the documented AppKit API
// (NSWorkspace.sharedWorkspace.notificationCenter, NSWorkspaceDidWakeNotification).
#include "shell/wake_macos.h"

#import <AppKit/AppKit.h>

namespace tether {

MacWakeSource::MacWakeSource(QObject *parent)
    : QObject(parent) {
    // NSWorkspace posts on its own center, not the default one. The main queue is the Qt thread.
    NSNotificationCenter *center = [[NSWorkspace sharedWorkspace] notificationCenter];
    id observer = [center addObserverForName:NSWorkspaceDidWakeNotification
                                      object:nil
                                       queue:[NSOperationQueue mainQueue]
                                  usingBlock:^(NSNotification *) {
                                    emit resumed();
                                  }];
    observer_ = (__bridge_retained void *)observer;
}

MacWakeSource::~MacWakeSource() {
    if (!observer_) return;
    id observer = (__bridge_transfer id)observer_;
    [[[NSWorkspace sharedWorkspace] notificationCenter] removeObserver:observer];
    observer_ = nullptr;
}

} // namespace tether
