#include "control/control_protocol.h"

#include "settings/storage.h"

#include <QCryptographicHash>
#include <QJsonDocument>

namespace tether::control {

ParsedRequest parseRequest(const QByteArray &line) {
    ParsedRequest out;
    if (line.size() > kMaxLineBytes) {
        out.error = QStringLiteral("request too long");
        return out;
    }
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject()) {
        out.error = QStringLiteral("request is not a JSON object");
        return out;
    }
    const QJsonObject o = doc.object();
    const QJsonValue verbName = o.value(QLatin1String("verb"));
    Verb verb = Verb::Status;
    if (!verbName.isString() || !fromString(verbName.toString(), &verb)) {
        out.error = QStringLiteral("unknown verb");
        return out;
    }
    const QJsonValue args = o.value(QLatin1String("args"));
    if (!args.isUndefined() && !args.isObject()) {
        out.error = QStringLiteral("args must be an object");
        return out;
    }
    out.ok = true;
    out.request = Request{verb, args.toObject()};
    return out;
}

QByteArray serializeRequest(const Request &r) {
    QJsonObject o{{QStringLiteral("verb"), toString(r.verb)}};
    if (!r.args.isEmpty()) o.insert(QStringLiteral("args"), r.args);
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

QByteArray okReply(const QJsonObject &payload) {
    QJsonObject o = payload;
    o.insert(QStringLiteral("ok"), true);
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

QByteArray errorReply(const QString &message) {
    const QJsonObject o{{QStringLiteral("ok"), false}, {QStringLiteral("error"), message}};
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

QByteArray refusedReply(const QString &message, const QString &refused) {
    const QJsonObject o{{QStringLiteral("ok"), false},
                        {QStringLiteral("error"), message},
                        {QStringLiteral("refused"), refused}};
    return QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
}

QString serverName() {
#ifdef Q_OS_WIN
    const QByteArray hash =
        QCryptographicHash::hash(storage::dataDir().toUtf8(), QCryptographicHash::Sha256);
    return QStringLiteral("tether-") + QString::fromLatin1(hash.toHex().left(16));
#else
    return storage::dataPath(QStringLiteral("control.sock"));
#endif
}

} // namespace tether::control
