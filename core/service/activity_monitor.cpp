#include "service/activity_monitor.h"

#include <QElapsedTimer>
#include <QTcpSocket>
#include <algorithm>
#include <memory>

namespace tether {

namespace {

constexpr qint64 kStreamReadBytes = 64 * 1024;

} // namespace

ActivityMonitor::ActivityMonitor(Config config, QObject *parent)
    : QObject(parent)
    , config_(std::move(config))
    , parser_(SseParser::Limits{config_.maxLineBytes, config_.maxEventBytes})
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
        if (socket_ && !connected_)
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
        stopFollowing();
        return;
    }
    const bool same = url == url_ && authorization == authorization_;
    const policy::Activity before = activity_;
    activity_ = policy::onServiceIdentity(activity_, identity);
    if (before.identity != activity_.identity) directories_.clear(); // another service's
    if (before.identity != activity_.identity && policy::isBusy(before)) emit activityChanged();
    if (same && before.identity == identity && (socket_ || retry_.isActive())) return;
    url_ = url;
    authorization_ = authorization;
    backoffMs_ = 0;
    retry_.stop();
    connectNow();
}

// Forgets the current connection, if any, without letting it report anything more.
void ActivityMonitor::dropReply() {
    catchUp_.cancel(); // its answers would describe the connection being dropped
    if (!socket_) return;
    QTcpSocket *s = socket_;
    socket_ = nullptr;
    s->disconnect(this);
    s->abort();
    s->deleteLater();
}

void ActivityMonitor::stopFollowing() {
    retry_.stop();
    firstEvent_.stop();
    url_.clear();
    dropReply();
    const bool wasBusy = policy::isBusy(activity_);
    activity_ = policy::onStreamReconnected(activity_);
    setConnected(false);
    if (wasBusy) emit activityChanged();
}

// The stream is read over a socket of its own, not Qt's HTTP stack: Qt's read buffer bound
// did not hold for it (a stream without newlines grew Tether to 900 MB now and then), and its
// HTTP thread is shared with other requests. Here the kernel's socket buffer holds what Tether
// has not read yet, and Tether reads at most 64 KiB a turn.
void ActivityMonitor::connectNow() {
    if (url_.isEmpty()) return;
    dropReply();
    parser_.reset();
    http_ = HttpStreamReader();
    connectedAt_.reset();
    socket_ = new QTcpSocket(this);
    socket_->setReadBufferSize(kStreamReadBytes);
    QTcpSocket *s = socket_;
    connect(s, &QTcpSocket::connected, this, [this, s] {
        QByteArray target = url_.path(QUrl::FullyEncoded).toUtf8();
        if (target.isEmpty()) target = "/";
        if (url_.hasQuery()) target += '?' + url_.query(QUrl::FullyEncoded).toUtf8();
        const QString host = url_.host().contains(QLatin1Char(':'))
                                 ? QStringLiteral("[%1]").arg(url_.host())
                                 : url_.host();
        QByteArray request = "GET " + target + " HTTP/1.1\r\nHost: " + host.toUtf8() + ':' +
                             QByteArray::number(url_.port(80)) +
                             "\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n";
        if (!authorization_.isEmpty()) request += "Authorization: " + authorization_ + "\r\n";
        s->write(request + "\r\n");
    });
    connect(s, &QTcpSocket::readyRead, this, &ActivityMonitor::onReadyRead);
    connect(s, &QTcpSocket::disconnected, this, &ActivityMonitor::onFinished);
    connect(s, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError e) {
        if (e != QAbstractSocket::RemoteHostClosedError) onFinished();
    });
    firstEvent_.start(config_.firstEventMs);
    s->connectToHost(url_.host(), quint16(url_.port(80)));
}

void ActivityMonitor::onReadyRead() {
    if (!socket_) return;
    // At most the socket's read buffer per turn of the event loop: a flood is taken in bites,
    // with the probes, the control socket and the timers served in between.
    QByteArray body; // what the framing took before a fault in it still counts
    const HttpStreamReader::State state = http_.feed(socket_->readAll(), &body);
    if (http_.status() != 0 && http_.status() != 200) {
        dropAndRetry(QStringLiteral("the event stream answered HTTP %1").arg(http_.status()));
        return;
    }
    QList<QByteArray> events;
    const bool ok = parser_.feed(body, &events);
    const qint64 t = now();
    bool any = false;
    for (const QByteArray &data : events) {
        any = dispatch(data, t) || any;
        if (!socket_) return; // dispatch may have dropped the stream
    }
    // One proof of life per bite: a heartbeat flood is one event for the supervisor, not 1,000.
    if (any) emit alive(t);
    if (state == HttpStreamReader::State::Failed)
        dropAndRetry(http_.error());
    else if (!ok)
        dropAndRetry(parser_.error());
    else if (state == HttpStreamReader::State::Done)
        dropAndRetry(QStringLiteral("the event stream ended"));
}

bool ActivityMonitor::dispatch(const QByteArray &data, qint64 t) {
    const std::optional<policy::ActivityEvent> e = parseActivityEvent(data);
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

void ActivityMonitor::onFinished() {
    if (!socket_) return;
    const QString why = socket_->error() == QAbstractSocket::RemoteHostClosedError ||
                                socket_->state() != QAbstractSocket::UnconnectedState
                            ? QStringLiteral("the event stream ended")
                            : socket_->errorString();
    dropAndRetry(http_.status() != 0 && http_.status() != 200
                     ? QStringLiteral("the event stream answered HTTP %1").arg(http_.status())
                     : why);
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
