// What a notification says, in the person's language, and where a click on it leads: composed
// from its kind and the status at the moment it is shown (the cause in the service's own words,
// the free port to use, the tools cut short). Pure; the tray shows it and opens the target.
#pragma once

#include "policy/notice.h"
#include "service/status.h"

#include <QString>

namespace tether {

// Where a click on a notification takes a person.
enum class NoticeTarget {
    Status,     // the status window, its first tab
    Failure,    // the status window: its failure panel and what mends it
    McpServers, // the status window's MCP servers tab
    Events,     // the status window's events tab
    Orphans,    // the orphan dialog
};

struct Notification {
    QString title;
    QString text;
    NoticeTarget target = NoticeTarget::Status;
};

// afterCrash: the service is running again after a crash that is told in the same notice;
// cutShort: that crash (or the crash told now) interrupted tool calls.
Notification notificationFor(policy::NoticeKind kind, const ServiceStatus &st,
                             bool afterCrash = false, bool cutShort = false);

} // namespace tether
