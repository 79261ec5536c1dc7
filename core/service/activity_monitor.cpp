#include "service/activity_monitor.h"
#include "service/activity_events_v2.h"

#include <QElapsedTimer>
#include <algorithm>
#include <memory>

namespace tether {

ActivityMonitor::ActivityMonitor(Config config, QObject *parent)
    : QObject(parent)
    , config_(std::move(config))
    , parser_(SseParser::Limits{config_.maxLineBytes, config_.maxEventBytes})
    , catchUp_(ActivityCatchUp::Config{{},
                                       8 * 1024 * 1024,
                                       5000,
                                       config_.maxDirectories,
                                       int(config_.limits.maxSessions),
                                       4,
                                       config_.v2}) {
    if (!config_.clock) {
        auto timer = std::make_shared<QElapsedTimer>();
        timer->start();
        config_.clock = [timer] { return timer->elapsed(); };
    }
    retry_.setSingleShot(true);
    connect(&retry_, &QTimer::timeout, this, &ActivityMonitor::connectNow);
    firstEvent_.setSingleShot(true);
    connect(&firstEvent_, &QTimer::timeout, this, [this] {
        if (stream_ && !connected_)
            dropAndRetry(
                QStringLiteral("no event within %1 ms of connecting").arg(config_.firstEventMs));
    });
    connect(&catchUp_, &ActivityCatchUp::finished, this, &ActivityMonitor::onCaughtUp);
}

ActivityMonitor::~ActivityMonitor() {
    dropReply();
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
    if (same && before.identity == identity && (stream_ || retry_.isActive())) return;
    url_ = url;
    authorization_ = authorization;
    backoffMs_ = 0;
    retry_.stop();
    connectNow();
}

// Forgets the current connection, if any, without letting it report anything more.
void ActivityMonitor::dropReply() {
    catchUp_.cancel(); // its answers would describe the connection being dropped
    if (!stream_) return;
    HttpExchange *s = stream_;
    stream_ = nullptr;
    s->cancel();
    s->deleteLater();
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

// The stream is read over a connection of its own (service/http_exchange.h), 64 KiB a turn:
// what Tether has not read yet waits in the kernel's socket buffer, and a flood with it.
void ActivityMonitor::connectNow() {
    if (url_.isEmpty()) return;
    dropReply();
    parser_.reset();
    connectedAt_.reset();
    stream_ = new HttpExchange({"GET", url_, authorization_, "text/event-stream"}, this);
    connect(stream_, &HttpExchange::head, this, [this](int status, qint64) {
        if (status != 200)
            dropAndRetry(QStringLiteral("the event stream answered HTTP %1").arg(status));
    });
    connect(stream_, &HttpExchange::body, this, &ActivityMonitor::onBody);
    connect(stream_, &HttpExchange::ended, this, [this](bool complete, const QString &error) {
        dropAndRetry(complete ? QStringLiteral("the event stream ended") : error);
    });
    firstEvent_.start(config_.firstEventMs);
    stream_->start();
}

void ActivityMonitor::onBody(const QByteArray &body) {
    if (!stream_) return;
    QList<QByteArray> events;
    int comments = 0;
    const bool ok = parser_.feed(body, &events, &comments);
    const qint64 t = now();
    bool any = false;
    for (const QByteArray &data : events) {
        any = dispatch(data, t) || any;
        if (!stream_) return; // dispatch may have dropped the stream
    }
    // opencode 2.x sends the comment ": heartbeat" every 15 s and nothing else while idle:
    // proof that its event loop runs, once the stream has said it is connected.
    if (comments > 0 && connected_) {
        policy::ActivityEvent beat;
        beat.kind = policy::ActivityEventKind::Heartbeat;
        activity_ = policy::applyActivityEvent(activity_, beat, t, config_.limits);
        any = true;
    }
    // One proof of life per bite: a heartbeat flood is one event for the supervisor, not 1,000.
    if (any) emit alive(t);
    if (!ok) dropAndRetry(parser_.error());
}

bool ActivityMonitor::dispatch(const QByteArray &data, qint64 t) {
    const std::optional<policy::ActivityEvent> e =
        config_.v2 ? parseActivityEventV2(data) : parseActivityEvent(data);
    if (!e) return false;
    const bool fresh = !connected_; // the connection's first event, whichever it is
    if (fresh) {
        // A new stream: what happened while none was open is unknown (opencode has no replay).
        activity_ = policy::onStreamReconnected(activity_);
        connectedAt_ = t;
        firstEvent_.stop();
        setConnected(true);
        catchUp_.start(url_, authorization_, directories_);
    }
    rememberDirectory(e->directory);
    const policy::Activity before = activity_;
    activity_ = policy::applyActivityEvent(activity_, *e, t, config_.limits);
    if (before.sessions.size() != activity_.sessions.size() ||
        before.tools.size() != activity_.tools.size() || fresh)
        emit activityChanged();
    return true;
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

void ActivityMonitor::dropAndRetry(const QString &why) {
    lastError_ = why;
    dropReply();
    setConnected(false);
    scheduleRetry();
}

void ActivityMonitor::scheduleRetry() {
    if (url_.isEmpty()) return;
    if (connectedAt_ && now() - *connectedAt_ >= config_.backoffMaxMs) backoffMs_ = 0; // it held
    connectedAt_.reset();
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
