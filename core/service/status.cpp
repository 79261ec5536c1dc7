#include "service/status.h"

#include <QJsonArray>
#include <algorithm>

namespace tether {

QJsonObject FailureStatus::toJson() const {
    return QJsonObject{
        {QStringLiteral("cause"), cause},
        {QStringLiteral("errorLine"), errorLine},
        {QStringLiteral("serviceLog"), QJsonArray::fromStringList(serviceLog)},
        {QStringLiteral("logPath"), logPath},
        {QStringLiteral("portHeld"), portHeld},
        {QStringLiteral("portHolder"), portHolder},
        {QStringLiteral("freePort"), freePort},
        {QStringLiteral("fix"), QString::fromLatin1(policy::toString(fix))},
        {QStringLiteral("portBlock"), int(portBlock)},
        {QStringLiteral("portHolderNames"), QJsonArray::fromStringList(portHolderNames)},
        {QStringLiteral("port"), port},
        {QStringLiteral("reservedRange"), reservedRange},
        {QStringLiteral("failedStarts"), failedStarts},
        {QStringLiteral("withinMs"), withinMs},
        {QStringLiteral("program"), program},
        {QStringLiteral("exit"), exit ? QJsonObject{{QStringLiteral("code"), exit->code},
                                                    {QStringLiteral("crashed"), exit->crashed},
                                                    {QStringLiteral("ranMs"), exit->ranMs}}
                                      : QJsonObject{}},
    };
}

namespace {

QStringList strings(const QJsonValue &v) {
    QStringList out;
    for (const QJsonValue &s : v.toArray())
        out << s.toString();
    return out;
}

QList<RunningToolStatus> tools(const QJsonValue &v) {
    QList<RunningToolStatus> out;
    for (const QJsonValue &t : v.toArray()) {
        const QJsonObject o = t.toObject();
        out.append({o.value(QLatin1String("session")).toString(),
                    o.value(QLatin1String("tool")).toString(),
                    o.value(QLatin1String("runningMs")).toInteger()});
    }
    return out;
}

} // namespace

FailureStatus FailureStatus::fromJson(const QJsonObject &o) {
    FailureStatus f;
    f.cause = o.value(QLatin1String("cause")).toString();
    f.errorLine = o.value(QLatin1String("errorLine")).toString();
    f.serviceLog = strings(o.value(QLatin1String("serviceLog")));
    f.logPath = o.value(QLatin1String("logPath")).toString();
    f.portHeld = o.value(QLatin1String("portHeld")).toBool();
    f.portHolder = o.value(QLatin1String("portHolder")).toString();
    f.freePort = quint16(o.value(QLatin1String("freePort")).toInt());
    const QString fix = o.value(QLatin1String("fix")).toString();
    for (policy::FixFirst k : {policy::FixFirst::Arguments, policy::FixFirst::Program})
        if (fix == QLatin1String(policy::toString(k))) f.fix = k;
    f.portBlock = policy::PortBlock(o.value(QLatin1String("portBlock")).toInt());
    f.portHolderNames = strings(o.value(QLatin1String("portHolderNames")));
    f.port = quint16(o.value(QLatin1String("port")).toInt());
    f.reservedRange = o.value(QLatin1String("reservedRange")).toString();
    f.failedStarts = o.value(QLatin1String("failedStarts")).toInt();
    f.withinMs = o.value(QLatin1String("withinMs")).toInteger();
    f.program = o.value(QLatin1String("program")).toString();
    const QJsonObject exit = o.value(QLatin1String("exit")).toObject();
    if (exit.contains(QLatin1String("code")))
        f.exit = policy::ExitFacts{exit.value(QLatin1String("code")).toInt(),
                                   exit.value(QLatin1String("crashed")).toBool(),
                                   exit.value(QLatin1String("ranMs")).toInteger()};
    return f;
}

ServiceStatus ServiceStatus::fromJson(const QJsonObject &o) {
    ServiceStatus s;
    policy::fromString(o.value(QLatin1String("state")).toString().toLatin1().constData(), &s.state);
    policy::Dialect d{};
    if (policy::fromString(o.value(QLatin1String("profile")).toString().toLatin1().constData(), &d))
        s.profile = d;
    s.pid = o.value(QLatin1String("pid")).toInteger();
    s.port = quint16(o.value(QLatin1String("port")).toInt());
    s.url = o.value(QLatin1String("url")).toString();
    s.version = o.value(QLatin1String("version")).toString();
    s.installedVersion = o.value(QLatin1String("installedVersion")).toString();
    s.external = o.value(QLatin1String("external")).toBool();
    s.versionMismatch = o.value(QLatin1String("versionMismatch")).toBool();
    s.restarts = o.value(QLatin1String("restarts")).toInt();
    s.lastError = o.value(QLatin1String("lastError")).toString();
    s.stateFileErrors = strings(o.value(QLatin1String("stateFileErrors")));
    s.startedAt =
        QDateTime::fromString(o.value(QLatin1String("startedAt")).toString(), Qt::ISODateWithMs);
    for (const QJsonValue &v : o.value(QLatin1String("mcp")).toArray()) {
        const QJsonObject m = v.toObject();
        McpChildStatus c;
        c.name = m.value(QLatin1String("name")).toString();
        c.status = m.value(QLatin1String("status")).toString();
        c.error = m.value(QLatin1String("error")).toString();
        c.pid = m.value(QLatin1String("pid")).toInteger();
        c.flagged = m.value(QLatin1String("flagged")).toBool();
        c.flagReason = m.value(QLatin1String("flagReason")).toString();
        c.memoryOver = m.value(QLatin1String("memoryOver")).toBool();
        c.cpuBusy = m.value(QLatin1String("cpuBusy")).toBool();
        c.memoryLimitKiB = quint64(m.value(QLatin1String("memoryLimitKiB")).toInteger());
        c.rssKiB = quint64(m.value(QLatin1String("rssKiB")).toInteger());
        c.cpuBusyMs = m.value(QLatin1String("trend"))
                          .toObject()
                          .value(QLatin1String("cpuBusyMs"))
                          .toInteger();
        s.mcp << c;
    }
    for (const QJsonValue &v : o.value(QLatin1String("orphans")).toArray()) {
        const QJsonObject m = v.toObject();
        OrphanStatus orphan;
        orphan.pid = m.value(QLatin1String("pid")).toInteger();
        orphan.argv = strings(m.value(QLatin1String("argv")));
        orphan.kind = m.value(QLatin1String("kind")).toString();
        orphan.ageMs = m.value(QLatin1String("ageMs")).toInteger();
        s.orphans << orphan;
    }
    const QJsonObject activity = o.value(QLatin1String("activity")).toObject();
    s.activity.followed = activity.value(QLatin1String("followed")).toBool();
    s.activity.busySessions = activity.value(QLatin1String("busySessions")).toInt();
    s.activity.runningTools = tools(activity.value(QLatin1String("runningTools")));
    s.activity.summary = activity.value(QLatin1String("summary")).toString();
    for (const RunningToolStatus &t : tools(o.value(QLatin1String("lastInterrupted")))) {
        if (!t.tool.isEmpty()) s.lastInterrupted.tools << t;
        s.lastInterrupted.sessions << t.session;
    }
    s.lastInterrupted.at = QDateTime::fromString(
        o.value(QLatin1String("lastInterruptedAt")).toString(), Qt::ISODateWithMs);
    s.failure = FailureStatus::fromJson(o.value(QLatin1String("failure")).toObject());
    return s;
}

QJsonObject ServiceStatus::toJson() const {
    QJsonArray mcpArray;
    for (const McpChildStatus &m : mcp) {
        mcpArray.append(QJsonObject{
            {QStringLiteral("name"), m.name},
            {QStringLiteral("status"), m.status},
            {QStringLiteral("error"), m.error},
            {QStringLiteral("pid"), m.pid},
            {QStringLiteral("uptimeMs"), m.uptimeMs},
            {QStringLiteral("rssKiB"), static_cast<qint64>(m.rssKiB)},
            {QStringLiteral("cpuPercent"), m.cpuPercent},
            {QStringLiteral("trend"),
             QJsonObject{
                 {QStringLiteral("rssKiBBefore"), static_cast<qint64>(m.rssKiBBefore)},
                 {QStringLiteral("spanMs"), m.trendSpanMs},
                 {QStringLiteral("rssGrowthKiBPerMin"), m.rssGrowthKiBPerMin},
                 {QStringLiteral("cpuAvgPercent"), m.cpuAvgPercent},
                 {QStringLiteral("cpuBusyMs"), m.cpuBusyMs},
             }},
            {QStringLiteral("flagged"), m.flagged},
            {QStringLiteral("flagReason"), m.flagReason},
            {QStringLiteral("memoryOver"), m.memoryOver},
            {QStringLiteral("cpuBusy"), m.cpuBusy},
            {QStringLiteral("memoryLimitKiB"), static_cast<qint64>(m.memoryLimitKiB)},
        });
    }
    QJsonArray orphanArray;
    for (const OrphanStatus &o : orphans) {
        orphanArray.append(QJsonObject{
            {QStringLiteral("pid"), o.pid},
            {QStringLiteral("argv"), QJsonArray::fromStringList(o.argv)},
            {QStringLiteral("kind"), o.kind},
            {QStringLiteral("ageMs"), o.ageMs},
            {QStringLiteral("rssKiB"), static_cast<qint64>(o.rssKiB)},
        });
    }
    const auto toolArray = [](const QList<RunningToolStatus> &tools) {
        QJsonArray a;
        for (const RunningToolStatus &t : tools)
            a.append(QJsonObject{{QStringLiteral("session"), t.session},
                                 {QStringLiteral("tool"), t.tool},
                                 {QStringLiteral("runningMs"), t.runningMs}});
        return a;
    };
    QJsonArray interrupted = toolArray(lastInterrupted.tools);
    // Busy sessions without a running tool were interrupted too: listed with an empty tool.
    for (const QString &session : lastInterrupted.sessions) {
        const bool named =
            std::any_of(lastInterrupted.tools.begin(), lastInterrupted.tools.end(),
                        [&](const RunningToolStatus &t) { return t.session == session; });
        if (!named)
            interrupted.append(QJsonObject{{QStringLiteral("session"), session},
                                           {QStringLiteral("tool"), QString()},
                                           {QStringLiteral("runningMs"), 0}});
    }
    return QJsonObject{
        {QStringLiteral("state"), QString::fromLatin1(policy::toString(state))},
        {QStringLiteral("profile"),
         profile ? QString::fromLatin1(policy::toString(*profile)) : QString()},
        {QStringLiteral("pid"), pid},
        {QStringLiteral("port"), port},
        {QStringLiteral("url"), url},
        {QStringLiteral("version"), version},
        {QStringLiteral("installedVersion"), installedVersion},
        {QStringLiteral("external"), external},
        {QStringLiteral("versionMismatch"), versionMismatch},
        {QStringLiteral("restarts"), restarts},
        {QStringLiteral("lastError"), lastError},
        {QStringLiteral("lastProbeMs"), lastProbeMs},
        {QStringLiteral("startedAt"),
         startedAt.isValid() ? startedAt.toString(Qt::ISODateWithMs) : QString()},
        {QStringLiteral("mcp"), mcpArray},
        {QStringLiteral("orphans"), orphanArray},
        {QStringLiteral("activity"),
         QJsonObject{{QStringLiteral("followed"), activity.followed},
                     {QStringLiteral("busySessions"), activity.busySessions},
                     {QStringLiteral("runningTools"), toolArray(activity.runningTools)},
                     {QStringLiteral("summary"), activity.summary}}},
        {QStringLiteral("lastInterrupted"), interrupted},
        {QStringLiteral("failure"), failure.toJson()},
        {QStringLiteral("lastInterruptedAt"),
         lastInterrupted.at.isValid() ? lastInterrupted.at.toString(Qt::ISODateWithMs) : QString()},
        {QStringLiteral("servicePath"), QJsonObject{{QStringLiteral("source"), servicePath.source},
                                                    {QStringLiteral("value"), servicePath.value},
                                                    {QStringLiteral("note"), servicePath.note}}},
        {QStringLiteral("stateFileErrors"), QJsonArray::fromStringList(stateFileErrors)},
    };
}

} // namespace tether
