#include "service/activity_monitor.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <algorithm>
#include <memory>

namespace tether {

namespace {

std::string str(const QJsonValue &v) {
    return v.toString().toStdString();
}

} // namespace

std::optional<policy::ActivityEvent> parseActivityEvent(const QByteArray &data, qint64 wallNowMs) {
    using K = policy::ActivityEventKind;
    const QJsonDocument doc = QJsonDocument::fromJson(data);
    if (!doc.isObject()) return std::nullopt;
    const QJsonObject root = doc.object();
    // opencode 1.18.33 wraps every event in {payload: ...}; a bare event is accepted as well.
    const QJsonObject ev = root.value(QLatin1String("payload")).isObject()
                               ? root.value(QLatin1String("payload")).toObject()
                               : root;
    const QString type = ev.value(QLatin1String("type")).toString();
    if (type.isEmpty()) return std::nullopt;
    const QJsonObject props = ev.value(QLatin1String("properties")).toObject();

    policy::ActivityEvent out;
    out.session = str(props.value(QLatin1String("sessionID")));
    out.directory = str(root.value(QLatin1String("directory")));
    if (type == QLatin1String("server.connected")) {
        out.kind = K::Connected;
    } else if (type == QLatin1String("server.heartbeat")) {
        out.kind = K::Heartbeat;
    } else if (type == QLatin1String("session.status")) {
        const QString status =
            props.value(QLatin1String("status")).toObject().value(QLatin1String("type")).toString();
        // "retry" is opencode's: the session waits to try the model again; it still works.
        out.kind = status == QLatin1String("idle") ? K::SessionIdle : K::SessionBusy;
    } else if (type == QLatin1String("session.idle")) {
        out.kind = K::SessionIdle;
    } else if (type == QLatin1String("message.part.updated")) {
        const QJsonObject part = props.value(QLatin1String("part")).toObject();
        if (part.value(QLatin1String("type")).toString() != QLatin1String("tool")) {
            out.kind = K::Other;
            return out;
        }
        const QString status =
            part.value(QLatin1String("state")).toObject().value(QLatin1String("status")).toString();
        out.part = str(part.value(QLatin1String("id")));
        out.tool = str(part.value(QLatin1String("tool")));
        if (out.session.empty()) out.session = str(part.value(QLatin1String("sessionID")));
        const double start = part.value(QLatin1String("state"))
                                 .toObject()
                                 .value(QLatin1String("time"))
                                 .toObject()
                                 .value(QLatin1String("start"))
                                 .toDouble(-1);
        if (start > 0) {
            const qint64 wall = wallNowMs >= 0 ? wallNowMs : QDateTime::currentMSecsSinceEpoch();
            out.runningMs = std::max<qint64>(0, wall - qint64(start)); // clocks apart: just now
        }
        if (status == QLatin1String("pending"))
            out.kind = K::ToolPending;
        else if (status == QLatin1String("running"))
            out.kind = K::ToolRunning;
        else // completed, error, and whatever a later version adds: no longer runs
            out.kind = K::ToolEnded;
    } else {
        out.kind = K::Other; // includes "sync", the duplicate of every directory event
    }
    return out;
}

ActivityMonitor::ActivityMonitor(Config config, QObject *parent)
    : QObject(parent)
    , config_(std::move(config))
    , catchUp_(ActivityCatchUp::Config{config_.nam,
                                       {},
                                       8 * 1024 * 1024,
                                       5000,
                                       config_.maxDirectories,
                                       int(config_.limits.maxSessions),
                                       4}) {
    if (!config_.clock) {
        auto timer = std::make_shared<QElapsedTimer>();
        timer->start();
        config_.clock = [timer] { return timer->elapsed(); };
    }
    retry_.setSingleShot(true);
    connect(&retry_, &QTimer::timeout, this, &ActivityMonitor::connectNow);
    firstEvent_.setSingleShot(true);
    connect(&firstEvent_, &QTimer::timeout, this, [this] {
        if (reply_ && !connected_)
            dropAndRetry(
                QStringLiteral("no event within %1 ms of connecting").arg(config_.firstEventMs));
    });
    connect(&catchUp_, &ActivityCatchUp::finished, this, &ActivityMonitor::onCaughtUp);
}

ActivityMonitor::~ActivityMonitor() {
    if (reply_) {
        reply_->disconnect(this);
        reply_->abort();
        reply_->deleteLater();
    }
}

void ActivityMonitor::follow(const QUrl &url, const QByteArray &authorization,
                             const std::string &identity) {
    if (url.isEmpty()) {
        stopFollowing(QStringLiteral("the service has no event stream"));
        return;
    }
    const bool same = url == url_ && authorization == authorization_;
    const policy::Activity before = activity_;
    activity_ = policy::onServiceIdentity(activity_, identity);
    if (before.identity != activity_.identity) directories_.clear(); // another service's
    if (before.identity != activity_.identity && policy::isBusy(before)) emit activityChanged();
    if (same && before.identity == identity && (reply_ || retry_.isActive())) return;
    url_ = url;
    authorization_ = authorization;
    backoffMs_ = 0;
    retry_.stop();
    connectNow();
}

// Forgets the current connection, if any, without letting it report anything more.
void ActivityMonitor::dropReply() {
    catchUp_.cancel(); // its answers would describe the connection being dropped
    if (!reply_) return;
    QNetworkReply *r = reply_;
    reply_ = nullptr;
    r->disconnect(this);
    r->abort();
    r->deleteLater();
}

void ActivityMonitor::stopFollowing(const QString &why) {
    if (connected_) lastError_ = why;
    retry_.stop();
    firstEvent_.stop();
    url_.clear();
    dropReply();
    const bool wasBusy = policy::isBusy(activity_);
    activity_ = policy::onStreamReconnected(activity_);
    setConnected(false);
    if (wasBusy) emit activityChanged();
}

void ActivityMonitor::connectNow() {
    if (url_.isEmpty()) return;
    dropReply();
    buffer_.clear();
    event_.clear();
    QNetworkRequest request(url_);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute,
                         QNetworkRequest::AlwaysNetwork);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setRawHeader("Accept", "text/event-stream");
    if (!authorization_.isEmpty()) request.setRawHeader("Authorization", authorization_);
    // A stream has no end: no transfer timeout. A frozen service is the supervisor's to judge.
    request.setTransferTimeout(0);
    reply_ = config_.nam->get(request);
    firstEvent_.start(config_.firstEventMs);
    connect(reply_, &QNetworkReply::metaDataChanged, this, [this] {
        const int status = reply_->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        // Not from inside Qt's signal: aborting there makes it report the reply's error twice.
        if (status != 200)
            QMetaObject::invokeMethod(
                this,
                [this, status, r = reply_] {
                    if (reply_ != r) return; // that reply is already gone
                    dropAndRetry(QStringLiteral("the event stream answered HTTP %1").arg(status));
                },
                Qt::QueuedConnection);
    });
    connect(reply_, &QNetworkReply::readyRead, this, &ActivityMonitor::onReadyRead);
    connect(reply_, &QNetworkReply::finished, this, &ActivityMonitor::onFinished);
}

void ActivityMonitor::onReadyRead() {
    if (!reply_) return;
    buffer_ += reply_->readAll();
    qsizetype start = 0;
    for (;;) {
        const qsizetype nl = buffer_.indexOf('\n', start);
        if (nl < 0) break;
        QByteArray line = buffer_.mid(start, nl - start);
        start = nl + 1;
        if (line.endsWith('\r')) line.chop(1);
        if (line.size() > config_.maxLineBytes) {
            dropAndRetry(QStringLiteral("an event stream line is larger than %1 bytes")
                             .arg(config_.maxLineBytes));
            return;
        }
        if (line.isEmpty()) { // the blank line ends an event
            if (!event_.isEmpty()) dispatch(event_);
            event_.clear();
            if (!reply_) return; // dispatch may have dropped the stream
            continue;
        }
        if (line.startsWith("data:")) {
            QByteArray value = line.mid(5);
            if (value.startsWith(' ')) value.remove(0, 1);
            if (!event_.isEmpty()) event_ += '\n';
            event_ += value;
            if (event_.size() > config_.maxEventBytes) {
                dropAndRetry(
                    QStringLiteral("an event is larger than %1 bytes").arg(config_.maxEventBytes));
                return;
            }
        }
        // event:, id:, retry: and comments (":") carry nothing Tether uses.
    }
    buffer_.remove(0, start);
    if (buffer_.size() > config_.maxLineBytes)
        dropAndRetry(QStringLiteral("an event stream line is larger than %1 bytes")
                         .arg(config_.maxLineBytes));
}

void ActivityMonitor::dispatch(const QByteArray &data) {
    const std::optional<policy::ActivityEvent> e = parseActivityEvent(data);
    if (!e) return;
    const qint64 t = now();
    if (e->kind == policy::ActivityEventKind::Connected || !connected_) {
        // A new stream: what happened while none was open is unknown (opencode has no replay).
        activity_ = policy::onStreamReconnected(activity_);
        backoffMs_ = 0;
        firstEvent_.stop();
        setConnected(true);
        catchUp_.start(url_, authorization_, directories_);
    }
    rememberDirectory(e->directory);
    const policy::Activity before = activity_;
    activity_ = policy::applyActivityEvent(activity_, *e, t, config_.limits);
    emit alive(t);
    if (before.sessions.size() != activity_.sessions.size() ||
        before.tools.size() != activity_.tools.size() ||
        e->kind == policy::ActivityEventKind::Connected)
        emit activityChanged();
}

void ActivityMonitor::rememberDirectory(const std::string &directory) {
    if (directory.empty()) return;
    const QString d = QString::fromStdString(directory);
    if (!directories_.isEmpty() && directories_.front() == d) return;
    directories_.removeAll(d);
    directories_.prepend(d);
    while (directories_.size() > config_.maxDirectories)
        directories_.removeLast();
}

void ActivityMonitor::onCaughtUp(const policy::ActivitySnapshot &snapshot,
                                 const QStringList &directories, const QString &error) {
    for (auto it = directories.rbegin(); it != directories.rend(); ++it)
        if (!directories_.contains(*it) && directories_.size() < config_.maxDirectories)
            directories_.append(*it);
    catchUpError_ = error;
    activity_ = policy::applyActivitySnapshot(activity_, snapshot, now(), config_.limits);
    emit activityChanged(); // caughtUp() changed, and perhaps what runs
}

void ActivityMonitor::onFinished() {
    if (!reply_) return;
    const int status = reply_->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status != 0 && status != 200) {
        dropAndRetry(QStringLiteral("the event stream answered HTTP %1").arg(status));
        return;
    }
    const QString why = reply_->error() == QNetworkReply::NoError
                            ? QStringLiteral("the event stream ended")
                            : reply_->errorString();
    dropAndRetry(why);
}

void ActivityMonitor::dropAndRetry(const QString &why) {
    lastError_ = why;
    dropReply();
    setConnected(false);
    scheduleRetry();
}

void ActivityMonitor::scheduleRetry() {
    if (url_.isEmpty()) return;
    backoffMs_ =
        backoffMs_ == 0 ? config_.backoffInitialMs : std::min(config_.backoffMaxMs, backoffMs_ * 2);
    ++reconnects_;
    retry_.start(backoffMs_);
}

void ActivityMonitor::setConnected(bool c) {
    if (connected_ == c) return;
    connected_ = c;
    emit connectedChanged(c);
}

} // namespace tether
