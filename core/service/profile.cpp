#include "service/profile.h"

#include "service/managed_registration.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

namespace tether {

QString parseVersionOutput(const QByteArray &output) {
    static const QRegularExpression re(
        QStringLiteral("(\\d+\\.\\d+(?:\\.\\d+)?(?:[-+][0-9A-Za-z.-]+)?)"));
    const auto m = re.match(QString::fromUtf8(output.left(4096)));
    return m.hasMatch() ? m.captured(1) : QString();
}

int majorVersion(const QString &version) {
    bool ok = false;
    const int major = version.section(QLatin1Char('.'), 0, 0).toInt(&ok);
    return ok ? major : -1;
}

QString findOpencode(const QStringList &pathDirs, const QString &home, bool windows) {
    const QStringList names =
        windows ? QStringList{QStringLiteral("opencode.exe"), QStringLiteral("opencode.cmd")}
                : QStringList{QStringLiteral("opencode")};
    for (const QString &name : names) {
        // Windows needs no execute bit: the suffix is what makes a file runnable.
        for (const QString &dir : pathDirs) {
            if (dir.isEmpty()) continue;
            const QFileInfo f(QDir(dir).filePath(name));
            if (f.isFile() && (windows || f.isExecutable())) return f.absoluteFilePath();
        }
    }
    if (home.isEmpty()) return {};
    const QFileInfo f(QDir(home).filePath(windows ? QStringLiteral(".opencode/bin/opencode.exe")
                                                  : QStringLiteral(".opencode/bin/opencode")));
    return f.isFile() && (windows || f.isExecutable()) ? f.absoluteFilePath() : QString();
}

OpencodeInstall detectOpencode() {
    OpencodeInstall found;
#ifdef Q_OS_WIN
    constexpr bool windows = true;
    const QString home = qEnvironmentVariable("USERPROFILE", QDir::homePath());
#else
    constexpr bool windows = false;
    const QString home = QDir::homePath();
#endif
    found.program =
        findOpencode(qEnvironmentVariable("PATH").split(QDir::listSeparator(), Qt::SkipEmptyParts),
                     home, windows);
    if (found.program.isEmpty()) return found;
    QProcess p;
    p.start(found.program, {QStringLiteral("--version")});
    if (p.waitForFinished(10000) && p.exitStatus() == QProcess::NormalExit)
        found.version = parseVersionOutput(p.readAllStandardOutput());
    else
        p.kill();
    return found;
}

ProfileResolution resolveProfile(const Settings &s, const OpencodeInstall &opencode,
                                 const QString &tetherBinary) {
    ProfileResolution out;
    Profile &p = out.profile;
    using policy::Dialect;
    Dialect id = Dialect::Demo;
    if (s.profile)
        id = *s.profile;
    else if (!s.program.isEmpty() || !opencode.program.isEmpty())
        id = majorVersion(opencode.version) >= 2 ? Dialect::Opencode2 : Dialect::Opencode1;
    p.dialect = id;
    p.port = s.port;
    const QString port = QStringLiteral("{port}"); // filled in by argumentsFor

    if (id == Dialect::Opencode1 || id == Dialect::Opencode2) {
        p.program = s.program.isEmpty() ? opencode.program : s.program;
        p.installedVersion = s.program.isEmpty() ? opencode.version : QString();
        p.authUser = QStringLiteral("opencode");
        if (id == Dialect::Opencode1) {
            p.arguments = QStringList{QStringLiteral("serve"), QStringLiteral("--hostname"),
                                      QStringLiteral("127.0.0.1"), QStringLiteral("--port"), port} +
                          s.arguments;
            p.healthPath = QStringLiteral("/global/health");
            p.mcpStatusPath = QStringLiteral("/mcp");
            p.configPath = QStringLiteral("/config");
            p.mcpActionPath = QStringLiteral("/mcp/%1/%2");
            p.eventPath = QStringLiteral("/global/event");
            p.passwordEnv = QStringLiteral("OPENCODE_SERVER_PASSWORD");
        } else {
            // What opencode 2.x's own clients do (docs/opencode2-protocol.md): the service
            // picks its port and password and registers them in service.json. A program other
            // than opencode (a wrapper; the v2 stand-in in tests) gets exactly the configured
            // arguments; opencode itself gets `serve --service` first.
            const bool wrapper = !s.program.isEmpty() &&
                                 QFileInfo(s.program).baseName() != QLatin1String("opencode");
            p.arguments = wrapper
                              ? s.arguments
                              : QStringList{QStringLiteral("serve"), QStringLiteral("--service")} +
                                    s.arguments;
            p.port = 0; // the service's own: read from its config at each start
            p.channel = s.channel.isEmpty() ? opencodeChannel(p.installedVersion) : s.channel;
            p.healthPath = QStringLiteral("/api/info"); // what Service.ensure() probes
            p.mcpStatusPath = QStringLiteral("/api/mcp");
            p.mcpCommandsFromConfigFiles = true;
            p.mcpActionPath = QStringLiteral("/api/mcp/%1/%2");
            p.eventPath = QStringLiteral("/api/event");
            p.selfRegistering = true;
            p.minStartupDeadlineMs = 120000; // ensure()'s promiseTimeout
        }
        if (p.program.isEmpty() && id == Dialect::Opencode2)
            // A registered service can be adopted without the binary; only a launch needs it.
            p.program = QStringLiteral("opencode");
        else if (p.program.isEmpty())
            out.error =
                QStringLiteral("opencode is not installed (looked in PATH and ~/.opencode/bin); "
                               "install it or set [service] program");
    } else if (id == Dialect::Demo) {
        // [service] program names another tether (its demo-service), as settings.h says.
        p.program = s.program.isEmpty() ? tetherBinary : s.program;
        p.arguments = QStringList{QStringLiteral("demo-service"), QStringLiteral("--port"), port} +
                      s.arguments;
        // The embedded default (auto, no opencode, nothing configured) shows everything: two
        // MCP servers, so a newcomer sees the MCP rows, their menu and the orphan handling.
        if (!s.profile && s.arguments.isEmpty())
            p.arguments << QStringLiteral("--mcp") << QString::number(kEmbeddedDemoMcpServers);
        p.installedVersion = QString::fromLatin1(kDemoServiceVersion);
        p.healthPath = QStringLiteral("/global/health");
        p.mcpStatusPath = QStringLiteral("/mcp");
        p.configPath = QStringLiteral("/config");
        p.mcpActionPath = QStringLiteral("/mcp/%1/%2");
        p.eventPath = QStringLiteral("/global/event"); // the demo copies opencode 1.x's stream
        p.authUser = QStringLiteral("opencode");
        p.passwordEnv = QStringLiteral("OPENCODE_SERVER_PASSWORD");
    } else { // custom: the user's command; {port} is replaced by the port
        p.program = s.program;
        p.arguments = s.arguments;
        p.healthPath = s.healthPath.isEmpty() ? QStringLiteral("/global/health") : s.healthPath;
        if (p.program.isEmpty())
            out.error = QStringLiteral("the custom profile needs [service] program");
    }
    p.argumentTemplate = p.arguments;
    p.arguments = p.argumentsFor(p.port);
    const bool adoptOnly =
        id == Dialect::Opencode2 && s.program.isEmpty() && opencode.program.isEmpty();
    if (out.error.isEmpty() && !adoptOnly && !p.program.isEmpty() &&
        !QFileInfo(p.program).isExecutable() && QStandardPaths::findExecutable(p.program).isEmpty())
        out.error = QStringLiteral("the service program %1 does not exist or is not executable "
                                   "(setting [service] program)")
                        .arg(p.program);
    return out;
}

QStringList Profile::argumentsFor(int port) const {
    QStringList out;
    for (QString a : argumentTemplate)
        out << a.replace(QStringLiteral("{port}"), QString::number(port));
    return out;
}

} // namespace tether
