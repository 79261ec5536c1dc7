// Another opencode client, for tests: what opencode 2.x's `Service.ensure()` does to find or
// start the one managed service (packages/client/src/effect/service.ts @ 018554f7, the record's
// R2; docs/opencode2-protocol.md, Health and Stop), run against `tether demo-service --protocol
// v2` beside Tether. Each step names the source lines it follows in ensure_client.cpp.
// Left out: semver ranges (a version is matched exactly, as `matchesVersion` does for a plain
// version) and the persistent-terminal handoff of a replacement (the terminals are cleared, as
// for a service that is not ready); the handoff is Tether's own stop, tested on its own.
#pragma once

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <memory>
#include <vector>

class QProcess;

namespace tether::test {

struct EnsureTiming { // packages/client/src/service-timing.ts (R4, newest via the record)
    int pollMs = 25;
    int requestTimeoutMs = 2000;
    int promiseTimeoutMs = 120000;
    int spawnDelayMs = 5000;
    int maxSpawnDelayMs = 30000;
    int evictAfterTimeouts = 5;
    int stopPollMs = 50;
    int stopPollAttempts = 100;
};

struct EnsureOptions {
    QString file;            // the registration: <state>/opencode/service.json
    QStringList command;     // program + arguments of a contender (`opencode serve --service`)
    QProcessEnvironment env; // the contenders' environment
    QString version;         // empty: any version is compatible
    EnsureTiming timing;
    // The only processes the client may signal (an eviction, a replacement): the test says
    // which pids are its own or Tether's verified service. Unset: none, and it says so.
    std::function<bool(qint64 pid)> maySignal;
};

struct EnsureResult {
    bool ok = false;
    QUrl url;                // the service found or started
    qint64 pid = 0;          // its registered pid
    QString error;           // as ensure() words it, when !ok
    QString started;         // "missing" or "version-mismatch" (onStart), empty if none
    QString previousVersion; // the replaced service's, on a version mismatch
    int contendersSpawned = 0;
    int evictions = 0;
    QStringList log;
};

class EnsureClient {
public:
    explicit EnsureClient(EnsureOptions options);
    // opencode releases its contenders (the winner is the service); here they are the test's
    // children and end with the client (QProcess), so a test keeps it while it needs them.
    ~EnsureClient();

    EnsureResult ensure();

    // The contenders it spawned (for the test's own clean-up and identification).
    const std::vector<std::unique_ptr<QProcess>> &contenders() const { return spawned_; }

private:
    EnsureOptions o_;
    std::vector<std::unique_ptr<QProcess>> spawned_;
};

} // namespace tether::test
