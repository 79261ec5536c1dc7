#include "ui/status_text.h"

#include "policy/notice.h"
#include "service/words.h"
#include "ui/format.h"

#include <QLocale>

namespace tether::ui {

namespace {

bool serving(policy::State s) {
    return s == policy::State::Healthy || s == policy::State::NotResponding;
}

// “…”: the service's own words, marked as a quotation in the person's language.
QString quoted(const QString &words) {
    return Words::tr("“%1”", "the service's own words, quoted").arg(words);
}

QString timeOfDay(const QDateTime &at) {
    return QLocale().toString(at.time(), QLocale::ShortFormat);
}

} // namespace

QString serviceNameText(const std::optional<policy::Dialect> &profile) {
    return phrase(policy::serviceName(profile));
}

QString toolNames(const QList<RunningToolStatus> &tools, int most) {
    QStringList names;
    for (const RunningToolStatus &t : tools)
        names << (t.tool.isEmpty() ? Words::tr("an unnamed tool") : t.tool);
    if (names.isEmpty()) return QString();
    if (names.size() == 1) return names.first();
    if (names.size() <= most + 1)
        return Words::tr("%1 and %2", "the last two of a list")
            .arg(QStringList(names.mid(0, names.size() - 1)).join(Words::tr(", ")), names.last());
    return Words::tr("%1 and %n more", "tools named, then the rest counted",
                     int(names.size()) - most)
        .arg(QStringList(names.mid(0, most)).join(Words::tr(", ")));
}

QString activityText(const ServiceStatus &st, int most, Precision precision) {
    if (!serving(st.state)) return QString();
    const ActivityStatus &a = st.activity;
    if (a.runningTools.size() == 1) {
        const qint64 ms = a.runningTools.first().runningMs;
        return Words::tr("Running a tool: %1 (%2)")
            .arg(toolNames(a.runningTools), precision == Precision::Minutes && ms < 60000
                                                ? Words::tr("less than a minute")
                                                : durationText(ms));
    }
    if (!a.runningTools.isEmpty())
        return Words::tr("Running %n tools: %1", nullptr, int(a.runningTools.size()))
            .arg(toolNames(a.runningTools, most));
    if (a.busySessions > 0) return Words::tr("Working on %n request(s)", nullptr, a.busySessions);
    return QString();
}

QString interruptedText(const InterruptedStatus &i) {
    if (i.tools.isEmpty() && i.sessions.isEmpty()) return QString();
    const QString at = timeOfDay(i.at);
    if (i.tools.size() == 1)
        return Words::tr("%1 was cut short at %2.").arg(toolNames(i.tools), at);
    if (!i.tools.isEmpty())
        return Words::tr("%n tool calls were cut short at %2: %1.", nullptr, int(i.tools.size()))
            .arg(toolNames(i.tools), at);
    return Words::tr("%n request(s) were cut short at %1.", nullptr, int(i.sessions.size()))
        .arg(at);
}

QString exitSentence(const policy::ExitFacts &e) {
    if (e.crashed) return Words::tr("It was killed or crashed.");
    if (e.code == 0) return Words::tr("It ended by itself, without an error.");
    return Words::tr("It ended with %1.").arg(exitText(e));
}

QString exitText(const policy::ExitFacts &e) {
    if (e.crashed) return Words::tr("killed or crashed");
    if (e.code == 0) return Words::tr("it ended by itself, without an error");
    const std::string meaning = policy::exitCodeMeaning(e.code);
    if (meaning.empty()) return Words::tr("exit code %1").arg(e.code);
    return Words::tr("exit code %1: %2").arg(e.code).arg(phrase(meaning));
}

QString failureText(const ServiceStatus &st) {
    if (st.state != policy::State::Failed) return QString();
    const FailureStatus &f = st.failure;
    const QString name = serviceNameText(st.profile);
    const QString port = QString::number(f.port ? f.port : st.port);
    using policy::PortBlock;
    switch (f.portBlock) {
    case PortBlock::Held:
        if (f.portHolderNames.isEmpty())
            return Words::tr("Port %1 is used by another program.").arg(port);
        return Words::tr("Port %1 is used by %2.")
            .arg(port,
                 f.portHolderNames.size() == 1
                     ? f.portHolderNames.first()
                     : Words::tr("%1 and %2", "the last two of a list")
                           .arg(QStringList(f.portHolderNames.mid(0, f.portHolderNames.size() - 1))
                                    .join(Words::tr(", ")),
                                f.portHolderNames.last()));
    case PortBlock::Invisible:
        return Words::tr("Port %1 is used by a program Tether cannot see (another user's?).")
            .arg(port);
    case PortBlock::Reserved:
        return Words::tr("Windows keeps port %1 for itself (ports %2).").arg(port, f.reservedRange);
    case PortBlock::Denied:
        return Words::tr("Port %1 may not be used on this computer.").arg(port);
    case PortBlock::None:
        break;
    }
    const QString line = f.errorLine.isEmpty() ? QString() : quoted(f.errorLine);
    switch (f.fix) {
    case policy::FixFirst::Arguments:
        return line.isEmpty()
                   ? Words::tr("%1 refused its arguments (%2).")
                         .arg(name, f.exit ? exitText(*f.exit) : Words::tr("bad arguments"))
                   : Words::tr("%1 refused its arguments: %2").arg(name, line);
    case policy::FixFirst::Program:
        return line.isEmpty()
                   ? Words::tr("%1 could not be started: its program did not run.").arg(name)
                   : Words::tr("%1 could not be started: %2").arg(name, line);
    case policy::FixFirst::Nothing:
        break;
    }
    if (f.failedStarts > 0) {
        const QString times = Words::tr("It failed %n time(s) within %1.", nullptr, f.failedStarts)
                                  .arg(durationText(f.withinMs));
        if (!line.isEmpty())
            return times + QLatin1Char(' ') + Words::tr("Last it said: %1").arg(line);
        if (f.exit) return times + QLatin1Char(' ') + Words::tr("Last: %1.").arg(exitText(*f.exit));
        return times;
    }
    if (f.exit) {
        const QString how = exitText(*f.exit);
        return line.isEmpty() ? Words::tr("%1 stopped (%2).").arg(name, how)
                              : Words::tr("%1 stopped: %2 (%3)").arg(name, line, how);
    }
    return Words::tr("Tether could not keep %1 running.").arg(name);
}

QString fixActionText(policy::FixFirst fix) {
    switch (fix) {
    case policy::FixFirst::Arguments:
        return Words::tr("Edit a&rguments…");
    case policy::FixFirst::Program:
        return Words::tr("Choose &program…");
    case policy::FixFirst::Nothing:
        break;
    }
    return QString();
}

QString fixSettingKey(policy::FixFirst fix) {
    switch (fix) {
    case policy::FixFirst::Arguments:
        return QStringLiteral("service/arguments");
    case policy::FixFirst::Program:
        return QStringLiteral("service/program");
    case policy::FixFirst::Nothing:
        break;
    }
    return QString();
}

QString mcpStatusText(const McpChildStatus &c, policy::State service) {
    using policy::State;
    if (service == State::NotResponding || service == State::Recovering)
        return Words::tr("no answer from the service");
    if (!serving(service)) return Words::tr("waiting for the service");
    if (c.memoryOver) return Words::tr("memory over its limit");
    if (c.cpuBusy) return Words::tr("busy too long");
    QString status;
    if (c.status == QLatin1String("connected"))
        status = Words::tr("connected");
    else if (c.status == QLatin1String("disabled"))
        status = Words::tr("turned off");
    else if (c.status == QLatin1String("failed"))
        status = Words::tr("failed");
    else if (c.status == QLatin1String("needs_auth"))
        status = Words::tr("needs sign-in");
    else if (c.status == QLatin1String("needs_client_registration"))
        status = Words::tr("needs registration");
    else
        status = Words::tr("state unknown");
    // The service's own words about it (an error message) follow, as it gave them.
    return c.error.isEmpty()
               ? status
               : Words::tr("%1: %2", "a state, then the service's words").arg(status, c.error);
}

QString mcpFlagText(const McpChildStatus &c) {
    QStringList why;
    if (c.memoryOver)
        why << Words::tr("uses %1, over its %2 limit")
                   .arg(memoryText(c.rssKiB), memoryText(c.memoryLimitKiB));
    if (c.cpuBusy)
        why << Words::tr("has kept a processor busy for %1").arg(durationText(c.cpuBusyMs));
    return why.join(Words::tr("; "));
}

QString orphanCountText(int n) {
    return Words::tr("%n orphaned MCP process(es)", nullptr, n);
}

} // namespace tether::ui
