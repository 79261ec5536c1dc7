#include "service/activity_catch_up.h"
#include "service/activity_events_v2.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrlQuery>
#include <algorithm>

namespace tether {

QStringList parseSessionDirectories(const QByteArray &body, int max) {
    const QJsonArray sessions = QJsonDocument::fromJson(body).array();
    QList<QPair<qint64, QString>> byTime;
    for (const QJsonValue &v : sessions) {
        const QJsonObject s = v.toObject();
        const QString dir = s.value(QLatin1String("directory")).toString();
        if (dir.isEmpty()) continue;
        const QJsonObject time = s.value(QLatin1String("time")).toObject();
        const qint64 updated =
            qint64(time.value(QLatin1String("updated"))
                       .toDouble(time.value(QLatin1String("created")).toDouble()));
        byTime.append({updated, dir});
    }
    std::stable_sort(byTime.begin(), byTime.end(),
                     [](const auto &a, const auto &b) { return a.first > b.first; });
    QStringList out;
    for (const auto &entry : byTime) {
        if (out.size() >= max) break;
        if (!out.contains(entry.second)) out << entry.second;
    }
    return out;
}

QStringList parseBusySessions(const QByteArray &body) {
    const QJsonObject all = QJsonDocument::fromJson(body).object();
    QStringList out;
    for (auto it = all.begin(); it != all.end(); ++it) {
        const QString type = it.value().toObject().value(QLatin1String("type")).toString();
        if (!it.key().isEmpty() && !type.isEmpty() && type != QLatin1String("idle"))
            out << it.key();
    }
    return out;
}

std::vector<policy::ActivitySnapshotTool>
parseOpenToolParts(const QByteArray &body, const QString &session, qint64 wallNowMs) {
    std::vector<policy::ActivitySnapshotTool> out;
    for (const QJsonValue &m : QJsonDocument::fromJson(body).array()) {
        for (const QJsonValue &p : m.toObject().value(QLatin1String("parts")).toArray()) {
            const QJsonObject part = p.toObject();
            if (part.value(QLatin1String("type")).toString() != QLatin1String("tool")) continue;
            const QJsonObject state = part.value(QLatin1String("state")).toObject();
            const QString status = state.value(QLatin1String("status")).toString();
            if (status != QLatin1String("pending") && status != QLatin1String("running")) continue;
            const QString id = part.value(QLatin1String("id")).toString();
            if (id.isEmpty()) continue;
            const QString partSession = part.value(QLatin1String("sessionID")).toString();
            if (!partSession.isEmpty() && partSession != session) continue;
            const double start = state.value(QLatin1String("time"))
                                     .toObject()
                                     .value(QLatin1String("start"))
                                     .toDouble(-1);
            // A start in the future (clocks apart) or none (pending) counts as just now.
            const qint64 ran = start > 0 ? std::max<qint64>(0, wallNowMs - qint64(start)) : 0;
            out.push_back({session.toStdString(), id.toStdString(),
                           part.value(QLatin1String("tool")).toString().toStdString(), ran});
        }
    }
    return out;
}

ActivityCatchUp::ActivityCatchUp(Config config, QObject *parent)
    : QObject(parent)
    , config_(std::move(config)) {
    if (!config_.wallClock) config_.wallClock = [] { return QDateTime::currentMSecsSinceEpoch(); };
}

ActivityCatchUp::~ActivityCatchUp() {
    cancel();
}

void ActivityCatchUp::cancel() {
    ++generation_; // what was asked before goes unheard
    pending_ = 0;
    const QList<QPointer<HttpExchange>> asked = std::exchange(inFlight_, {});
    for (const QPointer<HttpExchange> &e : asked)
        if (e) {
            e->cancel();
            e->deleteLater();
        }
}

void ActivityCatchUp::start(const QUrl &base, const QByteArray &authorization,
                            const QStringList &known) {
    cancel();
    base_ = base;
    authorization_ = authorization;
    directories_ = known.mid(0, config_.maxDirectories);
    statusAsked_ = false;
    snapshot_ = {};
    busy_.clear();
    error_.clear();
    if (config_.v2) {
        statusAsked_ = true;
        get(Step::ActiveV2, QStringLiteral("/api/session/active"), {}, {});
        return;
    }
    get(Step::Sessions, QStringLiteral("/session"), {}, {});
}

void ActivityCatchUp::get(Step step, const QString &path, const QString &directory,
                          const QString &session) {
    QUrl url = base_.resolved(QUrl(path));
    QUrlQuery query;
    if (!directory.isEmpty()) query.addQueryItem(QStringLiteral("directory"), directory);
    if (step == Step::Sessions) // the most recently updated first (opencode's order)
        query.addQueryItem(QStringLiteral("limit"), QString::number(4 * config_.maxDirectories));
    if (step == Step::Messages)
        query.addQueryItem(QStringLiteral("limit"), QString::number(config_.messageLimit));
    url.setQuery(query);
    // Through the one capped client (service/http_client.h): Qt buffers no more of a hostile
    // answer than its read buffer, and the body stops at the cap as it arrives.
    HttpCall call;
    call.url = url;
    call.authorization = authorization_;
    call.timeoutMs = config_.requestTimeoutMs;
    call.maxBodyBytes = config_.maxBodyBytes;
    ++pending_;
    const quint64 generation = generation_;
    inFlight_.removeAll(nullptr);
    inFlight_ << sendHttp(call, this, [=](const HttpResult &r) {
        if (generation != generation_) return;
        --pending_;
        onReply(r, path, step, directory, session);
    });
}

void ActivityCatchUp::onReply(const HttpResult &r, const QString &path, Step step,
                              const QString &directory, const QString &session) {
    const bool ok = r.transportOk && r.status == 200;
    const QByteArray body = ok ? r.body : QByteArray();
    if (!ok && error_.isEmpty())
        error_ = r.tooLarge
                     ? QStringLiteral("%1 answered more than %2 bytes")
                           .arg(path)
                           .arg(config_.maxBodyBytes)
                     : QStringLiteral("%1: %2").arg(
                           path, r.transportOk ? QStringLiteral("HTTP %1").arg(r.status) : r.error);
    switch (step) {
    case Step::Sessions:
        for (const QString &d : parseSessionDirectories(body, config_.maxDirectories))
            if (!directories_.contains(d) && directories_.size() < config_.maxDirectories)
                directories_ << d;
        askStatus();
        break;
    case Step::Status:
        for (const QString &id : parseBusySessions(body)) {
            const bool known = std::any_of(busy_.begin(), busy_.end(),
                                           [&](const auto &b) { return b.first == id; });
            if (known || busy_.size() >= config_.maxSessions) continue;
            busy_.append({id, directory});
            snapshot_.busySessions.push_back(id.toStdString());
            get(Step::Messages,
                QStringLiteral("/session/%1/message")
                    .arg(QString::fromLatin1(QUrl::toPercentEncoding(id))),
                directory, id);
        }
        break;
    case Step::ActiveV2:
        for (const QString &id : parseActiveSessionsV2(body))
            if (int(snapshot_.busySessions.size()) < config_.maxSessions)
                snapshot_.busySessions.push_back(id.toStdString());
        break;
    case Step::Messages:
        for (policy::ActivitySnapshotTool &t :
             parseOpenToolParts(body, session, config_.wallClock()))
            snapshot_.tools.push_back(std::move(t));
        break;
    }
    maybeFinish();
}

// Each directory's status, and the service's own directory (no parameter): opencode answers
// /session/status per directory only.
void ActivityCatchUp::askStatus() {
    statusAsked_ = true;
    get(Step::Status, QStringLiteral("/session/status"), {}, {});
    for (const QString &d : directories_)
        get(Step::Status, QStringLiteral("/session/status"), d, {});
}

void ActivityCatchUp::maybeFinish() {
    if (!statusAsked_ || pending_ > 0) return;
    emit finished(snapshot_, directories_, error_);
}

} // namespace tether
