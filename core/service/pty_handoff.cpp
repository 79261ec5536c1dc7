#include "service/pty_handoff.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace tether {

namespace {

struct Sidecar {
    QString id;
    qint64 pid = 0;
    QString url;
    QJsonValue handoff;
    qint64 expiresAt = 0;
};

std::optional<Sidecar> readSidecar(const QByteArray &bytes) {
    const QJsonObject o = QJsonDocument::fromJson(bytes).object();
    const QJsonObject source = o.value(QLatin1String("source")).toObject();
    const QJsonValue pid = source.value(QLatin1String("pid"));
    const QJsonValue url = source.value(QLatin1String("url"));
    const QJsonValue expires = o.value(QLatin1String("expiresAt"));
    if (!pid.isDouble() || !url.isString() || !expires.isDouble() ||
        !o.contains(QLatin1String("handoff")))
        return std::nullopt;
    const QJsonValue handoff = o.value(QLatin1String("handoff"));
    if (!handoff.isNull() && !handoff.isObject()) return std::nullopt;
    return Sidecar{source.value(QLatin1String("id")).toString(), qint64(pid.toDouble()),
                   url.toString(), handoff, qint64(expires.toDouble())};
}

bool sameSource(const Sidecar &s, const ManagedRegistration &r) {
    return s.id == r.id && s.pid == r.pid && s.url == r.url.toString();
}

bool validHandoff(const QJsonObject &h) {
    return h.value(QLatin1String("directory")).isString() &&
           h.value(QLatin1String("instanceID")).isString() &&
           h.value(QLatin1String("ticket")).isString() &&
           h.value(QLatin1String("expiresAt")).isDouble();
}

} // namespace

QString ptyHandoffSidecarPath(const QString &registrationPath) {
    return registrationPath + QStringLiteral(".pty-handoff");
}

PtyHandoffAnswer parsePtyHandoffAnswer(const QByteArray &body, qint64 nowMs) {
    PtyHandoffAnswer a;
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (!o.contains(QLatin1String("handoff"))) {
        a.error = QStringLiteral("the terminal handoff answer has no \"handoff\"");
        return a;
    }
    const QJsonValue h = o.value(QLatin1String("handoff"));
    if (h.isNull()) {
        a.ok = true;
        a.handoff = "null";
        return a;
    }
    if (!h.isObject() || !validHandoff(h.toObject())) {
        a.error = QStringLiteral("the terminal handoff answer is not a handoff");
        return a;
    }
    a.expiresAt = qint64(h.toObject().value(QLatin1String("expiresAt")).toDouble());
    if (a.expiresAt <= nowMs) {
        a.error = QStringLiteral("the terminal handoff had expired when it arrived");
        return a;
    }
    a.ok = true;
    a.handoff = QJsonDocument(h.toObject()).toJson(QJsonDocument::Compact);
    return a;
}

QByteArray ptyHandoffSidecar(const ManagedRegistration &source, const PtyHandoffAnswer &answer,
                             qint64 nowMs) {
    const QJsonValue handoff = answer.handoff == "null"
                                   ? QJsonValue(QJsonValue::Null)
                                   : QJsonValue(QJsonDocument::fromJson(answer.handoff).object());
    QJsonObject o{
        {QStringLiteral("source"), QJsonObject{{QStringLiteral("id"), source.id},
                                               {QStringLiteral("pid"), double(source.pid)},
                                               {QStringLiteral("url"), source.url.toString()}}},
        {QStringLiteral("handoff"), handoff},
        {QStringLiteral("expiresAt"),
         double(answer.expiresAt > 0 ? answer.expiresAt : nowMs + kPtyHandoffDefaultTtlMs)}};
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

std::optional<QByteArray> ptyHandoffForLaunch(const QByteArray &sidecar,
                                              const std::optional<ManagedRegistration> &current,
                                              qint64 nowMs) {
    const std::optional<Sidecar> s = readSidecar(sidecar);
    if (!s || s->expiresAt <= nowMs || !s->handoff.isObject()) return std::nullopt;
    if (current && !sameSource(*s, *current)) return std::nullopt;
    return QJsonDocument(s->handoff.toObject()).toJson(QJsonDocument::Compact);
}

bool ptyHandoffDone(const QByteArray &sidecar, const ManagedRegistration &ready) {
    const std::optional<Sidecar> s = readSidecar(sidecar);
    return s && !sameSource(*s, ready);
}

} // namespace tether
