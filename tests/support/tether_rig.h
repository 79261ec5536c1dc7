// Headless Tethers in a private data directory, driven as a person drives them: `tether
// --headless --settings FILE` with its own TETHER_DATA_DIR, the CLI verbs, the control socket
// timed from the connect to the answer, the log lines it prints. Every process it starts carries
// TETHER_TEST_TAG=<its root> in its environment (inherited by the service and its MCP servers),
// so finish() stops exactly what this rig and what it started left, each through a verified
// identity. Used by the suites that run the binary against hostile worlds (tests/hostile).
#pragma once

#include "os/process.h"
#include "testsupport.h"

#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QStringList>
#include <QVariant>
#include <memory>
#include <vector>

namespace tether::test {

// Every live process (but this one) whose environment carries variable=tag (Linux:
// /proc/PID/environ): what a test started, directly or through Tether and its service.
QList<os::Identity> taggedProcesses(const QByteArray &variable, const QString &tag);
// The demo services (not zombies) started for this port.
QList<qint64> demoServicesOnPort(int port);

// Peak resident memory of pid (Linux VmHWM) and its resident memory now (VmRSS), in KiB; 0 when
// unreadable.
qint64 peakRssKiB(qint64 pid);
qint64 rssKiB(qint64 pid);

class TetherRig {
public:
    using Values = QMap<QString, QVariant>;

    // root: a private directory of the test's; the data directory is root/data unless given.
    explicit TetherRig(const QString &root, const QString &dataDir = {});
    ~TetherRig(); // finish()

    QString root() const { return root_; }
    QString dataDir() const { return dataDir_; }
    QString dataPath(const QString &name) const { return dataDir_ + QLatin1Char('/') + name; }
    QString tag() const { return root_; }
    QProcessEnvironment env() const;
    QProcessEnvironment &extraEnv() { return extraEnv_; }

    // The demo profile on `port` with short timings; a test overrides what it is about.
    static Values demoSettings(int port);
    QString writeIni(const Values &values, const QString &name = QStringLiteral("tether.ini"));

    struct Instance {
        std::unique_ptr<QProcess> process;
        QStringList lines; // its stdout (the headless log), timestamps dropped
        QByteArray partial;
        qint64 pid() const { return process ? process->processId() : 0; }
    };
    Instance *start(const QString &ini);
    QStringList lines(Instance *t) const;
    bool waitForLine(Instance *t, const QString &contains, int timeoutMs);

    CliRun cli(const QStringList &args, int timeoutMs = 30000) const;
    // One request over the control socket; elapsedMs from the connect to the answer line (-1:
    // none in time). The answer's "status" object for status().
    QJsonObject request(const QString &verb, int timeoutMs, qint64 *elapsedMs = nullptr) const;
    QJsonObject status(qint64 *elapsedMs = nullptr, int timeoutMs = 10000) const;
    QString waitForState(const QStringList &states, int timeoutMs = 30000) const;
    // `tether quit`, then the Tether's end; killed (our child) when it does not end.
    bool quit(Instance *t, int timeoutMs = 15000);

    // Quits every Tether still running, then SIGKILLs what is left of ours by verified identity.
    // Returns what had to be killed, for a test that expects nothing to be left.
    QStringList finish();
    QString dump(Instance *t) const; // its last log lines and the last status, for a failure

private:
    QString root_;
    QString dataDir_;
    QProcessEnvironment extraEnv_;
    std::vector<std::unique_ptr<Instance>> tethers_;
    mutable QJsonObject lastStatus_;
};

} // namespace tether::test
