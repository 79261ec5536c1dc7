// One end-to-end scenario's world: a temporary HOME (XDG dirs inside) whose opencode.json
// configures real MCP servers plus a stubborn one, a Tether settings file for the opencode1
// profile, and the real `tether --headless` driven over its control socket.
#pragma once

#include "os/process.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <memory>
#include <vector>

namespace tether::e2e {

// Where scripts/e2e-deps.sh put the pinned npm packages.
inline QString cacheDir() {
    if (!qEnvironmentVariableIsEmpty("TETHER_E2E_CACHE"))
        return qEnvironmentVariable("TETHER_E2E_CACHE");
    if (QFileInfo(QStringLiteral("/var/cache/tether-e2e")).isDir())
        return QStringLiteral("/var/cache/tether-e2e");
    const QString xdg =
        qEnvironmentVariable("XDG_CACHE_HOME", QDir::homePath() + QStringLiteral("/.cache"));
    return xdg + QStringLiteral("/tether-e2e");
}
inline QString opencodeBin() {
    return cacheDir() + QStringLiteral("/node_modules/opencode-linux-x64/bin/opencode");
}
inline QString everythingJs() {
    return cacheDir() +
           QStringLiteral("/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
}
inline QString filesystemBin() {
    return cacheDir() + QStringLiteral("/node_modules/.bin/mcp-server-filesystem");
}

// Empty when everything the scenarios need is installed; else what is missing and how to fix it.
inline QString missingDependencies() {
    QStringList missing;
    if (!QFileInfo(opencodeBin()).isExecutable()) missing << opencodeBin();
    if (!QFileInfo::exists(everythingJs())) missing << everythingJs();
    if (!QFileInfo::exists(filesystemBin())) missing << filesystemBin();
    if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty())
        missing << QStringLiteral("node (apt-get install nodejs)");
    if (missing.isEmpty()) return {};
    return QStringLiteral(
               "end-to-end dependencies missing: %1. Run `bash scripts/e2e-deps.sh` (or "
               "scripts/test.sh, which runs it) with npm and the npm registry reachable; "
               "TETHER_E2E_CACHE names the cache folder")
        .arg(missing.join(QStringLiteral(", ")));
}

struct Timings {
    int probeIntervalMs = 500;
    int probeTimeoutMs = 3000;
    int windowMs = 20000;
    int graceMs = 1000;
    int backoffInitialMs = 200;
};

// Runs `tether ARGS` in `env` (its control socket's); returns its stdout, *errorOut its stderr.
inline QByteArray tetherCli(const QProcessEnvironment &env, const QStringList &args,
                            int *exitCode = nullptr, int timeoutMs = 30000,
                            QByteArray *errorOut = nullptr) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(test::tetherBin(), args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    if (exitCode) *exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    if (errorOut) *errorOut = p.readAllStandardError();
    return p.readAllStandardOutput();
}

class OpencodeHome {
public:
    QTemporaryDir dir;
    QProcessEnvironment env;
    QString settingsPath;
    int port = 0;
    std::unique_ptr<QProcess> tether;
    std::vector<os::Identity> spawned; // every service / MCP process seen: killed if a test fails

    QString path(const QString &rel) const { return dir.filePath(rel); }

    // stubbornSource: tests/e2e (where stubborn-mcp.sh and .mjs live).
    bool prepare(const QString &stubbornSource, const Timings &t, QString *why) {
        if (!dir.isValid()) return fail(why, QStringLiteral("no temporary directory"));
        port = test::freeLoopbackPort();
        for (const char *d : {".config/opencode", ".local/share", ".local/state", ".cache", "run",
                              "tether", "project", "files"})
            QDir().mkpath(path(QString::fromLatin1(d)));
        QFile::setPermissions(path(QStringLiteral("run")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        for (const char *f : {"stubborn-mcp.sh", "stubborn-mcp.mjs"}) {
            const QString name = QString::fromLatin1(f);
            if (!QFile::copy(stubbornSource + QLatin1Char('/') + name, path(name)))
                return fail(why,
                            QStringLiteral("cannot copy %1 from %2").arg(name, stubbornSource));
        }
        QFile::setPermissions(path(QStringLiteral("stubborn-mcp.sh")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        auto local = [](const QStringList &command) {
            return QJsonObject{{QStringLiteral("type"), QStringLiteral("local")},
                               {QStringLiteral("command"), QJsonArray::fromStringList(command)}};
        };
        const QJsonObject mcp{
            {QStringLiteral("everything"),
             local({QStringLiteral("node"), everythingJs(), QStringLiteral("stdio")})},
            {QStringLiteral("filesystem"), local({filesystemBin(), path(QStringLiteral("files"))})},
            {QStringLiteral("stubborn"), local({path(QStringLiteral("stubborn-mcp.sh")),
                                                everythingJs(), QStringLiteral("stdio")})},
        };
        // No provider configured, no sharing, no auto-update: opencode stays offline-quiet.
        const QJsonObject config{
            {QStringLiteral("$schema"), QStringLiteral("https://opencode.ai/config.json")},
            {QStringLiteral("autoupdate"), false},
            {QStringLiteral("share"), QStringLiteral("disabled")},
            {QStringLiteral("mcp"), mcp}};
        if (!write(path(QStringLiteral(".config/opencode/opencode.json")),
                   QJsonDocument(config).toJson()))
            return fail(why, QStringLiteral("cannot write opencode.json"));
        settingsPath = path(QStringLiteral("tether.ini"));
        const QString ini =
            QStringLiteral("[service]\nprofile=opencode1\nprogram=%1\nport=%2\n"
                           "[probe]\nintervalMs=%3\ntimeoutMs=%4\nstartupDeadlineMs=180000\n"
                           "[recovery]\nwindowMs=%5\ngraceMs=%6\nbackoffInitialMs=%7\n"
                           "[orphans]\ngraceMs=300\n")
                .arg(opencodeBin())
                .arg(port)
                .arg(t.probeIntervalMs)
                .arg(t.probeTimeoutMs)
                .arg(t.windowMs)
                .arg(t.graceMs)
                .arg(t.backoffInitialMs);
        if (!write(settingsPath, ini.toUtf8()))
            return fail(why, QStringLiteral("cannot write tether.ini"));

        env = QProcessEnvironment::systemEnvironment();
        const QString home = dir.path();
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/.config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/.local/share"));
        env.insert(QStringLiteral("XDG_STATE_HOME"), home + QStringLiteral("/.local/state"));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), home + QStringLiteral("/.cache"));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), home + QStringLiteral("/run"));
        env.insert(QStringLiteral("TETHER_DATA_DIR"), home + QStringLiteral("/tether"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.remove(QStringLiteral("OPENCODE_SERVER_PASSWORD")); // Tether sets its own per start
        for (const char *quiet :
             {"OPENCODE_DISABLE_AUTOUPDATE", "OPENCODE_DISABLE_MODELS_FETCH",
              "OPENCODE_DISABLE_DEFAULT_PLUGINS", "OPENCODE_DISABLE_LSP_DOWNLOAD",
              "OPENCODE_DISABLE_SHARE", "OPENCODE_DISABLE_CLAUDE_CODE",
              "OPENCODE_DISABLE_EXTERNAL_SKILLS"})
            env.insert(QString::fromLatin1(quiet), QStringLiteral("1"));
        return true;
    }

    bool startTether() {
        tether = std::make_unique<QProcess>();
        tether->setProcessEnvironment(env);
        tether->setWorkingDirectory(path(QStringLiteral("project")));
        tether->setProcessChannelMode(QProcess::MergedChannels);
        tether->setStandardOutputFile(path(QStringLiteral("tether.out")), QIODevice::Append);
        tether->start(test::tetherBin(),
                      {QStringLiteral("--headless"), QStringLiteral("--settings"), settingsPath});
        return tether->waitForStarted(30000);
    }

    // Runs `tether ARGS` against this scenario's control socket; returns its stdout.
    // stdout; *errorOut (when given) gets stderr, where a refusal or an error is said.
    QByteArray cli(const QStringList &args, int *exitCode = nullptr, int timeoutMs = 30000,
                   QByteArray *errorOut = nullptr) const {
        return tetherCli(env, args, exitCode, timeoutMs, errorOut);
    }
    QJsonObject status() const {
        return QJsonDocument::fromJson(cli({QStringLiteral("status"), QStringLiteral("--json")}))
            .object();
    }
    bool waitFor(const std::function<bool(const QJsonObject &)> &condition, int timeoutMs,
                 QJsonObject *last = nullptr) const {
        QDeadlineTimer deadline(timeoutMs);
        QJsonObject s;
        do {
            s = status();
            if (condition(s)) {
                if (last) *last = s;
                return true;
            }
            QTest::qWait(200);
        } while (!deadline.hasExpired());
        if (last) *last = s;
        return false;
    }
    static QJsonObject mcpRow(const QJsonObject &s, const QString &name) {
        for (const QJsonValue &v : s.value(QLatin1String("mcp")).toArray())
            if (v.toObject().value(QLatin1String("name")).toString() == name) return v.toObject();
        return {};
    }
    // Healthy, and every configured MCP server connected with a live pid.
    static bool allConnected(const QJsonObject &s) {
        if (s.value(QLatin1String("state")).toString() != QLatin1String("healthy")) return false;
        for (const char *name : {"everything", "filesystem", "stubborn"}) {
            const QJsonObject r = mcpRow(s, QString::fromLatin1(name));
            if (r.value(QLatin1String("status")).toString() != QLatin1String("connected") ||
                r.value(QLatin1String("pid")).toInteger() <= 0)
                return false;
        }
        return true;
    }

    // The service pid, verified to be the opencode we configured on our port; remembered.
    std::optional<os::Identity> service(qint64 pid) {
        const os::Lookup l = os::inspect(pid);
        if (l.status != os::Lookup::Status::Found || l.info.argv.empty() ||
            QString::fromStdString(l.info.argv.front()) != opencodeBin())
            return std::nullopt;
        bool ourPort = false;
        for (const std::string &a : l.info.argv)
            ourPort |= a == std::to_string(port);
        if (!ourPort) return std::nullopt;
        return remember(pid);
    }
    std::optional<os::Identity> remember(qint64 pid) {
        const auto id = os::identityOf(pid);
        if (id) spawned.push_back(*id);
        return id;
    }
    QString tetherLog() const {
        QFile f(path(QStringLiteral("tether.out")));
        QString out =
            f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll().right(6000)) : QString();
        QFile l(path(QStringLiteral("tether/logs/tether.log")));
        if (l.open(QIODevice::ReadOnly))
            out +=
                QStringLiteral("\n--- tether.log\n") + QString::fromUtf8(l.readAll().right(6000));
        return out;
    }

    // Stop the service through Tether, quit Tether, then kill whatever this scenario spawned
    // and is still alive (verified identities only).
    void tearDown() {
        if (tether && tether->state() != QProcess::NotRunning) {
            cli({QStringLiteral("stop")});
            waitFor(
                [](const QJsonObject &s) {
                    return s.value(QLatin1String("state")).toString() == QLatin1String("stopped");
                },
                20000);
            cli({QStringLiteral("quit")});
            if (!tether->waitForFinished(20000)) {
                tether->kill();
                tether->waitForFinished();
            }
        }
        for (const os::Identity &id : spawned)
            if (os::alive(id) == os::Liveness::Alive) {
                for (const os::Pid child : os::descendants(id.pid))
                    if (const auto c = os::identityOf(child))
                        os::signalIdentity(*c, os::Signal::Kill);
                os::signalIdentity(id, os::Signal::Kill);
            }
    }

private:
    static bool fail(QString *why, const QString &text) {
        if (why) *why = text;
        return false;
    }
    static bool write(const QString &file, const QByteArray &data) {
        QFile f(file);
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
    }
};

// Counted gone: absent, or a zombie nobody reaps (this machine's PID 1 does not).
inline bool goneOrZombie(const os::Identity &id) {
    return os::alive(id) == os::Liveness::Gone;
}

} // namespace tether::e2e
