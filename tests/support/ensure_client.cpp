// Follows packages/client/src/effect/service.ts @ 018554f75161c3631ac03141d3f2803f6edd0583
// (`ensure`, `probeResult`, `read`, `terminate`, `same`); quoted conditions are the source's.
#include "ensure_client.h"

#include "os/process.h"
#include "testsupport.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QProcess>
#include <QTest>

#include <cmath>
#include <optional>

namespace tether::test {

namespace {

struct Info { // `Info` schema: url and pid > 0 required; id, version, password optional
    QString id, version, url, password;
    qint64 pid = 0;
};

// `read`: "A missing or corrupt file means no valid info".
std::optional<Info> read(const QString &file) {
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    const double pid = o.value("pid").toDouble(0);
    if (!o.value("url").isString() || pid <= 0 || pid != std::floor(pid)) return std::nullopt;
    return Info{o.value("id").toString(), o.value("version").toString(), o.value("url").toString(),
                o.value("password").toString(), qint64(pid)};
}

// `same`: id, version, url and pid (not the password).
bool same(const Info &a, const Info &b) {
    return a.id == b.id && a.version == b.version && a.url == b.url && a.pid == b.pid;
}

struct Service {
    Info info;
    QString version;
    enum class State { Ready, Waiting, Failed } state = State::Waiting;
    bool compatible = true;
};
struct Probe {
    std::optional<Service> service;
    bool timedOut = false;
};

// `probeResult`: GET /api/info with Basic opencode:<password>, aborted after requestTimeout.
Probe probe(const Info &info, int timeoutMs) {
    static QNetworkAccessManager nam;
    nam.setProxy(QNetworkProxy::NoProxy);
    QNetworkRequest request(QUrl(info.url).resolved(QUrl(QStringLiteral("/api/info"))));
    if (!info.password.isEmpty())
        request.setRawHeader("Authorization",
                             "Basic " + ("opencode:" + info.password.toUtf8()).toBase64());
    std::unique_ptr<QNetworkReply> reply(nam.get(request));
    if (!QTest::qWaitFor([&] { return reply->isFinished(); }, timeoutMs)) {
        reply->abort();
        return {std::nullopt, true}; // "timedOut: signal.aborted"
    }
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 0) return {}; // a network error: no service
    // "The previous V2 service exposes /api/status instead. Its authenticated 404 is enough to
    // recognize the registered daemon as incompatible and route it through replacement."
    if (status == 404) return {Service{info, info.version, Service::State::Ready, false}, false};
    // `decodeInfo`: {version: string, pid: int >= 0}, else ignored.
    const QJsonObject body = QJsonDocument::fromJson(reply->readAll()).object();
    const double pid = body.value("pid").toDouble(-1);
    if (!body.value("version").isString() || pid < 0 || pid != std::floor(pid)) return {};
    if (qint64(pid) != info.pid) return {}; // "serverInfo.value.pid !== info.pid"
    const QString version = body.value("version").toString();
    if (!info.version.isEmpty() && version != info.version) return {};
    const auto state = status >= 200 && status < 300 ? Service::State::Ready
                       : status == 500               ? Service::State::Failed
                                                     : Service::State::Waiting;
    return {Service{info, version, state, true}, false};
}

} // namespace

EnsureClient::EnsureClient(EnsureOptions options)
    : o_(std::move(options)) {
}

EnsureClient::~EnsureClient() = default;

EnsureResult EnsureClient::ensure() {
    EnsureResult r;
    const EnsureTiming &t = o_.timing;
    QElapsedTimer clock;
    clock.start();
    std::optional<std::pair<Info, int>> timeouts; // the registration and its consecutive count
    qint64 lastSpawn = 0;                         // ms on `clock`; 0: never (Date.now() - 0)
    bool spawnedOnce = false;
    int spawnDelay = t.spawnDelayMs;
    std::vector<QProcess *> live; // outstanding contenders
    const auto now = [&] { return clock.elapsed() + 1; };
    const auto announce = [&](const QString &reason, const QString &previous = {}) {
        if (r.started.isEmpty()) r.started = reason, r.previousVersion = previous;
    };
    // `terminate`: re-read and continue only for the same registration; TERM, ~5 s, KILL, ~5 s;
    // then remove the file if it still names it.
    const auto terminate = [&](const Info &info) -> bool {
        const auto current = read(o_.file);
        if (!current || !same(*current, info)) return true;
        if (!o_.maySignal || !o_.maySignal(info.pid)) {
            r.error =
                QStringLiteral("refused to signal pid %1: not verified by the test").arg(info.pid);
            r.log << r.error;
            return false;
        }
        const auto identity = os::identityOf(os::Pid(info.pid));
        if (!identity) return true; // already gone
        const auto gone = [&] {
            for (int i = 0; i < t.stopPollAttempts; ++i, QTest::qWait(t.stopPollMs))
                if (absentOrZombie(info.pid)) return true;
            return false;
        };
        os::signalIdentity(*identity, os::Signal::Terminate);
        if (!gone()) {
            const auto latest = read(o_.file);
            if (!latest || !same(*latest, info)) return true;
            os::signalIdentity(*identity, os::Signal::Kill);
            if (!gone()) {
                r.error = QStringLiteral("Server process %1 is still running").arg(info.pid);
                return false;
            }
        }
        const auto latest = read(o_.file);
        if (latest && same(*latest, info)) QFile::remove(o_.file);
        return true;
    };

    // `Effect.repeat(... Schedule.spaced(pollInterval).pipe(Schedule.upTo(promiseTimeout)))`
    for (; clock.elapsed() < t.promiseTimeoutMs; QTest::qWait(t.pollMs)) {
        const std::optional<Info> info = read(o_.file);
        const Probe found = info ? probe(*info, t.requestTimeoutMs) : Probe{};
        if (found.timedOut && info) {
            timeouts = {*info, timeouts && same(timeouts->first, *info) ? timeouts->second + 1 : 1};
            // "Require sustained unresponsiveness before evicting" (count >= 5).
            if (timeouts->second >= t.evictAfterTimeouts) {
                announce(QStringLiteral("missing"));
                r.log << QStringLiteral("Background service is unresponsive; recovery cannot "
                                        "preserve persistent terminals");
                QFile::remove(o_.file + QStringLiteral(".pty-handoff")); // PtyHandoff.clear
                if (!terminate(*info)) return r;
                ++r.evictions;
                timeouts.reset();
                lastSpawn = now() - spawnDelay;
                spawnedOnce = true;
            }
        } else {
            timeouts.reset();
        }
        if (found.service) {
            const Service &s = *found.service;
            spawnDelay = t.spawnDelayMs;
            const bool compatible =
                s.compatible && (o_.version.isEmpty() || s.version == o_.version);
            if (compatible && s.state == Service::State::Ready) {
                r.ok = true;
                r.url = QUrl(s.info.url);
                r.pid = s.info.pid;
                return r;
            }
            if (compatible && s.state == Service::State::Failed) {
                r.error = QStringLiteral("Background service failed to start");
                return r;
            }
            if (compatible) continue;
            announce(QStringLiteral("version-mismatch"), s.version);
            // `stop({pty: ...})`: here the terminals are cleared (see the header).
            QFile::remove(o_.file + QStringLiteral(".pty-handoff"));
            if (!terminate(s.info)) return r; // a refusal ends it here (the test said no)
            lastSpawn = 0;
            spawnedOnce = false;
            continue;
        }
        if (!spawnedOnce && info) { // "else if (lastSpawn === 0 && info !== undefined)"
            lastSpawn = now();
            spawnedOnce = true;
        }
        // Finished contenders: a clean exit lost the election (the delay doubles); a failure
        // fails ensure() once no contender is left.
        QString failure;
        bool lost = false;
        for (auto it = live.begin(); it != live.end();) {
            QProcess *p = *it;
            if (p->state() != QProcess::NotRunning) {
                ++it;
                continue;
            }
            if (p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0)
                lost = true;
            else if (failure.isEmpty())
                failure = QStringLiteral("Failed to start server: %1")
                              .arg(QString::fromUtf8(p->readAllStandardError().right(8192)));
            it = live.erase(it);
        }
        if (lost) spawnDelay = std::min(spawnDelay * 2, t.maxSpawnDelayMs);
        if (!failure.isEmpty() && live.empty()) {
            r.error = failure;
            return r;
        }
        // "Keep one candidate plus one lock probe"; none while probes keep timing out.
        if (!timeouts && live.size() < 2 && (!spawnedOnce || now() - lastSpawn >= spawnDelay)) {
            announce(QStringLiteral("missing"));
            auto p = std::make_unique<QProcess>();
            p->setProgram(o_.command.value(0));
            p->setArguments(o_.command.mid(1));
            p->setProcessEnvironment(o_.env.isEmpty() ? QProcessEnvironment::systemEnvironment()
                                                      : o_.env);
            p->setStandardOutputFile(QProcess::nullDevice()); // stdio: ignore, ignore, pipe
            p->start();
            if (!p->waitForStarted(t.requestTimeoutMs)) {
                r.error = QStringLiteral("Failed to start server: %1").arg(p->errorString());
                return r;
            }
            r.log << QStringLiteral("contender pid %1").arg(p->processId());
            ++r.contendersSpawned;
            live.push_back(p.get());
            spawned_.push_back(std::move(p));
            lastSpawn = now();
            spawnedOnce = true;
        }
    }
    r.error = QStringLiteral("Timed out waiting for the background service to start");
    return r;
}

} // namespace tether::test
