#include "service/health.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace tether {

namespace {

// opencode's own clients take an answer from another pid as a stale registration.
QString notTheRegisteredPid(qint64 reported, qint64 expected) {
    return QStringLiteral("pid %1 answers on the port, not the registered pid %2")
        .arg(reported)
        .arg(expected);
}

} // namespace

HealthVerdict judgeHealth(policy::Dialect dialect, int httpStatus, const QByteArray &body,
                          qint64 expectedPid) {
    HealthVerdict v;
    if (dialect == policy::Dialect::Opencode2 && (httpStatus == 503 || httpStatus == 500)) {
        // Only opencode's info body {version, pid} of the registered pid says how the boot
        // stands; anything else is no registered service (service.ts probeResult, decodeInfo).
        const QJsonObject o = QJsonDocument::fromJson(body).object();
        const double pid = o.value(QLatin1String("pid")).toDouble(-1);
        const bool wholePid = pid >= 0 && pid < 4294967296.0 && pid == std::floor(pid);
        if (!o.value(QLatin1String("version")).isString() || !wholePid) {
            v.error = QStringLiteral("/api/info answered HTTP %1 without its pid and version")
                          .arg(httpStatus);
            return v;
        }
        if (expectedPid > 0 && qint64(pid) != expectedPid) {
            v.error = notTheRegisteredPid(qint64(pid), expectedPid);
            return v;
        }
        v.version = o.value(QLatin1String("version")).toString().left(64);
        if (pid >= 2) v.reportedPid = qint64(pid);
        v.boot = httpStatus == 503 ? policy::Boot::Starting : policy::Boot::Failed;
        v.error = httpStatus == 503
                      ? QStringLiteral("not ready: it is starting or stopping (HTTP 503)")
                      : QStringLiteral("it says its start failed (HTTP 500 from /api/info)");
        return v;
    }
    if (httpStatus == 401 || httpStatus == 403) {
        v.error =
            QStringLiteral("health endpoint refused the credentials (HTTP %1)").arg(httpStatus);
        return v;
    }
    if (httpStatus < 200 || httpStatus > 299) {
        v.error = QStringLiteral("health endpoint answered HTTP %1").arg(httpStatus);
        return v;
    }
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject()) {
        v.error = QStringLiteral("health answer is not a JSON object");
        return v;
    }
    const QJsonObject o = doc.object();
    const QJsonValue version = o.value(QLatin1String("version"));
    if (version.isString()) v.version = version.toString().left(64);
    if (dialect == policy::Dialect::Opencode2) {
        // A whole number above 1 only: 1.3 would truncate to init's pid (found by fuzz_health).
        const double pid = o.value(QLatin1String("pid")).toDouble(0);
        if (pid >= 2 && pid < 4294967296.0 && pid == std::floor(pid)) v.reportedPid = qint64(pid);
        if (!version.isString()) {
            v.error = QStringLiteral("/api/info has no version");
            return v;
        }
        // opencode's own clients take another pid as a stale registration: not this service.
        if (expectedPid > 0 && v.reportedPid > 0 && v.reportedPid != expectedPid) {
            v.error = notTheRegisteredPid(v.reportedPid, expectedPid);
            return v;
        }
        v.healthy = true;
        return v;
    }
    const QJsonValue healthy = o.value(QLatin1String("healthy"));
    if (healthy.isBool() && !healthy.toBool()) {
        v.error = QStringLiteral("service reports itself unhealthy");
        return v;
    }
    if (!healthy.isUndefined() && !healthy.isBool()) {
        v.error = QStringLiteral("health answer has a non-boolean \"healthy\"");
        return v;
    }
    v.healthy = true;
    return v;
}

} // namespace tether
