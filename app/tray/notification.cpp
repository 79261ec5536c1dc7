#include "tray/notification.h"

#include "service/words.h"
#include "ui/status_text.h"

namespace tether {

namespace {

QString clickFor(NoticeTarget target) {
    switch (target) {
    case NoticeTarget::Failure:
        return Words::tr("Click to see what to do.");
    case NoticeTarget::Orphans:
        return Words::tr("Click to choose which to end.");
    case NoticeTarget::McpServers:
        return Words::tr("Click to see the MCP servers.");
    case NoticeTarget::Status:
    case NoticeTarget::Events:
        break;
    }
    return QString();
}

QString joined(const QStringList &sentences) {
    QStringList out;
    for (const QString &s : sentences)
        if (!s.isEmpty()) out << s;
    return out.join(QLatin1Char(' '));
}

} // namespace

Notification notificationFor(policy::NoticeKind kind, const ServiceStatus &st, bool afterCrash,
                             bool cutShort) {
    using policy::NoticeKind;
    Notification n;
    const QString name = ui::serviceNameText(st.profile);
    const QString title = phrase(policy::noticeTitleWords(kind));
    n.title = title.contains(QLatin1String("%1")) ? title.arg(name) : title;
    const QString cut =
        cutShort ? Words::tr("Tool calls it was running were cut short.") : QString();
    const QString exit = st.lastExit ? ui::exitSentence(*st.lastExit) : QString();
    switch (kind) {
    case NoticeKind::Crashed:
        n.text = joined({exit, cut, Words::tr("Tether is starting it again.")});
        n.target = NoticeTarget::Events;
        break;
    case NoticeKind::Restarted:
    case NoticeKind::Recovered:
        if (afterCrash) {
            n.title = Words::tr("%1 stopped unexpectedly and was restarted").arg(name);
            n.text = joined({exit, cut, Words::tr("It is running again.")});
        } else {
            n.text = Words::tr("It answers again.");
        }
        n.target = NoticeTarget::Events;
        break;
    case NoticeKind::GaveUp:
    case NoticeKind::MustFix:
        n.target = NoticeTarget::Failure;
        n.text = joined({ui::failureText(st), clickFor(n.target)});
        break;
    case NoticeKind::PortHeld:
        n.target = NoticeTarget::Failure;
        n.text = ui::failureText(st);
        // The way out, in the notice itself: a free port to click through to. The click opens
        // the window at "Use a free port", focused: the change is the person's, one more press
        // (it said "Click to use port … instead", which a click did not do).
        if (st.failure.freePort != 0)
            n.text = joined(
                {n.text,
                 Words::tr("Port %1 is free: click to choose it.").arg(st.failure.freePort)});
        else
            n.text = joined({n.text, clickFor(n.target)});
        break;
    case NoticeKind::VersionMismatch:
        n.text = Words::tr("It runs %1; %2 is installed. Restart it when it suits you.")
                     .arg(st.version, st.installedVersion);
        break;
    case NoticeKind::Stale:
        n.text = Words::tr("The process it named was gone or another program; nothing was "
                           "stopped.");
        n.target = NoticeTarget::Events;
        break;
    case NoticeKind::OrphansFound:
        n.target = NoticeTarget::Orphans;
        n.text = joined({Words::tr("%n MCP process(es) from an earlier service still running.",
                                   nullptr, int(st.orphans.size())),
                         clickFor(n.target)});
        break;
    case NoticeKind::McpResources: {
        n.target = NoticeTarget::McpServers;
        QStringList flagged;
        for (const McpChildStatus &c : st.mcp)
            if (c.flagged)
                flagged << Words::tr("%1 %2.", "an MCP server, then why it is flagged")
                               .arg(c.name, ui::mcpFlagText(c));
        // "it" for one server, "them" for all of several (not a count: a sentence each).
        n.text = joined({flagged.join(QLatin1Char(' ')),
                         flagged.size() == 1
                             ? Words::tr("Restart it from the menu when it suits you.")
                             : Words::tr("Restart them from the menu when it suits you.")});
        break;
    }
    case NoticeKind::Interrupted: {
        const QString what = ui::interruptedText(st.lastInterrupted);
        n.text = joined({what.isEmpty() ? Words::tr("Work in progress was cut short.") : what,
                         Words::tr("The agent may need to be asked again.")});
        n.target = NoticeTarget::Events;
        break;
    }
    case NoticeKind::StartedElsewhere:
        n.text = Words::tr("Tether watches over it again.");
        n.target = NoticeTarget::Events;
        break;
    case NoticeKind::StoppedElsewhere:
        n.text = Words::tr("Tether leaves it stopped. Start it from the tray when you need it.");
        n.target = NoticeTarget::Events;
        break;
    case NoticeKind::StateNotSaved:
        n.text = Words::tr("Its last good copy is kept. Free some space or fix the file, and "
                           "Tether saves it again.");
        n.target = NoticeTarget::Status;
        break;
    }
    return n;
}

} // namespace tether
