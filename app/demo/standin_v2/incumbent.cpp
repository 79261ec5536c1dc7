#include "demo/standin_v2/incumbent.h"

#include "demo/standin_v2/files.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <cmath>

namespace tether::standin_v2 {

IncumbentProbe::IncumbentProbe(QObject *parent)
    : QObject(parent) {
    nam_.setProxy(QNetworkProxy::NoProxy); // a loopback service: never through a proxy
}

void IncumbentProbe::check(const QString &registrationPath, const QString &url,
                           std::function<void(std::optional<Incumbent>)> done) {
    const std::optional<RegistrationRead> reg = readRegistration(registrationPath);
    if (!reg) {
        QTimer::singleShot(0, this, [done] { done(std::nullopt); });
        return;
    }
    QNetworkRequest request(QUrl(url + QStringLiteral("/api/info")));
    if (reg->password)
        request.setRawHeader("Authorization",
                             "Basic " + ("opencode:" + reg->password->toUtf8()).toBase64());
    request.setTransferTimeout(kRequestTimeoutMs);
    QNetworkReply *reply = nam_.get(request);
    connect(reply, &QNetworkReply::finished, this, [reply, reg = *reg, done] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        // No answer, or 404 (an older, incompatible service): not an incumbent.
        if (status == 0 || status == 404) return done(std::nullopt);
        const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
        const QJsonValue pid = body.value(QLatin1String("pid"));
        const QJsonValue version = body.value(QLatin1String("version"));
        if (!version.isString() || !pid.isDouble() || std::floor(pid.toDouble()) != pid.toDouble())
            return done(std::nullopt);
        // Another pid, or another version than registered: a stale registration.
        if (static_cast<qint64>(pid.toDouble()) != reg.pid ||
            (reg.version && *reg.version != version.toString()))
            return done(std::nullopt);
        done(Incumbent{reg.pid, version.toString(), status});
    });
}

} // namespace tether::standin_v2
