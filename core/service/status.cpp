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
    };
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
    };
}

} // namespace tether
