// Asks the service what it is doing now, for a stream that has just (re)connected: opencode
// replays nothing, so a tool call that started before Tether followed the stream (a Tether
// restart, a dropped stream) would be invisible until it ends, and a plain stop would not be
// refused. opencode 1.x: GET /session for the directories, /session/status?directory=D for the
// busy sessions, /session/{id}/message for their tool parts; opencode 2.x: GET
// /api/session/active. It decides nothing: the merge is policy::applyActivitySnapshot.
#pragma once

#include "policy/activity.h"
#include "service/http_client.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QUrl>
#include <functional>

namespace tether {

// The distinct directories of a GET /session answer, most recently updated first, at most max.
QStringList parseSessionDirectories(const QByteArray &body, int max);
// The sessions a GET /session/status answer calls anything but idle ("busy", "retry").
QStringList parseBusySessions(const QByteArray &body);
// The tool parts of a GET /session/{id}/message answer still pending or running, with how long
// each has run by wallNowMs (epoch ms; the part's state.time.start is the service's clock).
std::vector<policy::ActivitySnapshotTool>
parseOpenToolParts(const QByteArray &body, const QString &session, qint64 wallNowMs);

class ActivityCatchUp : public QObject {
    Q_OBJECT
public:
    struct Config {
        std::function<qint64()> wallClock; // epoch ms; default the system clock
        qint64 maxBodyBytes = 8 * 1024 * 1024;
        int requestTimeoutMs = 5000;
        int maxDirectories = 16;
        int maxSessions = 64;
        int messageLimit = 4; // the newest messages hold the running tool part
        // opencode 2.x: one question, GET /api/session/active (its sessions at work; no route
        // lists their tool calls, which the stream names as they start).
        bool v2 = false;
    };

    explicit ActivityCatchUp(Config config, QObject *parent = nullptr);
    ~ActivityCatchUp() override;

    // Starts over (an earlier round is dropped): base is any URL of the service (paths are
    // absolute); known are
    // directories the stream named before. finished() follows, always, unless cancelled.
    void start(const QUrl &base, const QByteArray &authorization, const QStringList &known);
    void cancel();
    bool running() const { return pending_ > 0; }

signals:
    // directories: every directory asked about (for the next round). error: the first failure,
    // empty when every request was answered; the snapshot holds what was learnt anyway.
    void finished(const tether::policy::ActivitySnapshot &snapshot, const QStringList &directories,
                  const QString &error);

private:
    enum class Step { Sessions, Status, Messages, ActiveV2 };
    void get(Step step, const QString &path, const QString &directory, const QString &session);
    void onReply(const HttpResult &r, const QString &path, Step step, const QString &directory,
                 const QString &session);
    void askStatus();
    void maybeFinish();

    Config config_;
    QUrl base_;
    QByteArray authorization_;
    QStringList directories_;
    int pending_ = 0;        // questions of this round not answered yet
    quint64 generation_ = 0; // a dropped round's answers, if any still come, are ignored
    QList<QPointer<HttpExchange>> inFlight_; // cancelled when the round is dropped
    bool statusAsked_ = false;
    policy::ActivitySnapshot snapshot_;
    QList<QPair<QString, QString>> busy_; // (session, directory)
    QString error_;
};

} // namespace tether
