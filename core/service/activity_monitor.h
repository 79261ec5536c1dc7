// Follows the service's event stream (opencode 1.x GET /global/event and the demo's copy;
// opencode 2.x GET /api/event: server-sent events) and keeps policy::Activity from it. It decides
// nothing: the fold is the policy's, and the supervisor reads the activity and the proof of life it
// gives.
#pragma once

#include "policy/activity.h"
#include "service/activity_event.h"
#include "service/activity_catch_up.h"
#include "service/http_exchange.h"
#include "service/sse_parser.h"

#include <QByteArray>
#include <QObject>
#include <QTimer>
#include <QUrl>
#include <functional>
#include <optional>

namespace tether {

class ActivityMonitor : public QObject {
    Q_OBJECT
public:
    struct Config {
        std::function<qint64()> clock; // monotonic ms, the supervisor's; default steady
        // A completed tool part carries its whole output on one line: generous, but bounded.
        // The connection is read 64 KiB a turn (HttpExchange): a flood waits in the kernel's
        // socket buffer, not in Tether's memory.
        qint64 maxLineBytes = 4 * 1024 * 1024;
        qint64 maxEventBytes = 4 * 1024 * 1024;
        int backoffInitialMs = 500;
        int backoffMaxMs = 30000;
        // opencode sends server.connected at once; a connection that brings no event by then
        // is dropped and tried again: requests in the first moments after the port listens can
        // hang for good (seen in the e2e run under ASan: the stream never followed).
        int firstEventMs = 5000;
        policy::ActivityLimits limits;
        // Directories remembered from the stream's events for the catch-up's questions.
        int maxDirectories = 16;
        bool v2 = false; // opencode 2.x: its event shapes and /api/session/active
    };

    explicit ActivityMonitor(Config config, QObject *parent = nullptr);
    ~ActivityMonitor() override;
    // New settings with another profile (while nothing is followed): its event shapes.
    void setV2(bool v2) { config_.v2 = v2; }

    // Follow url (the full event URL) for the service `identity` (pid@start): a new identity
    // starts from nothing; the same one only reconnects if the stream is down. An empty url
    // stops following (a profile without a stream, no service).
    void follow(const QUrl &url, const QByteArray &authorization, const std::string &identity);
    // Lets the stream go; `why` is said as lastError() (the log's "event stream lost: why").
    void stopFollowing(const QString &why = QStringLiteral("Tether stopped following it"));

    const policy::Activity &activity() const { return activity_; }
    bool connected() const { return connected_; }
    // Connected, and what ran before the connect is known (the catch-up answered or failed).
    bool caughtUp() const { return connected_ && !activity_.catchingUp; }
    QUrl url() const { return url_; } // empty: not following
    int reconnects() const { return reconnects_; }
    QString lastError() const { return lastError_; }
    // Why the last catch-up learnt less than it asked (a 404 from a service without the
    // routes, a timeout, an oversized answer); empty when every question was answered.
    QString catchUpError() const { return catchUpError_; }

signals:
    void activityChanged();
    // Any event arrived, heartbeats included: the service's event loop runs (at: the clock).
    void alive(qint64 at);
    void connectedChanged(bool connected);

private:
    void connectNow();
    void onBody(const QByteArray &body);
    void dropReply();
    void dropAndRetry(const QString &why);
    void scheduleRetry();
    void setConnected(bool c);
    bool dispatch(const QByteArray &data, qint64 at); // false: not an event
    void rememberDirectory(const std::string &directory);
    void onCaughtUp(const policy::ActivitySnapshot &snapshot, const QStringList &directories,
                    const QString &error);
    qint64 now() const { return config_.clock(); }

    Config config_;
    policy::Activity activity_;
    QUrl url_;
    QByteArray authorization_;
    HttpExchange *stream_ = nullptr; // the stream's connection (its own: see connectNow)
    SseParser parser_;               // the events in that body, bounded by the caps above
    QTimer retry_;
    QTimer firstEvent_; // the deadline of a new connection's first event
    ActivityCatchUp catchUp_;
    QStringList directories_; // where sessions of this service work, most recent first
    int backoffMs_ = 0;
    // When the current connection brought its first event: only one that stayed up longer than
    // the longest back-off starts the next one from the shortest (a stream that says
    // server.connected and then breaks must not be fetched again every half second).
    std::optional<qint64> connectedAt_;
    int reconnects_ = 0;
    bool connected_ = false;
    QString lastError_;
    QString catchUpError_;
};

} // namespace tether
