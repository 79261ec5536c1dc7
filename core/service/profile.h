// How to start, find, probe and drive a service: opencode 1.x, opencode 2.x managed, custom,
// and the bundled demo. Resolution from settings is a pure function; detection runs programs.
#pragma once

#include "policy/dialect.h"
#include "settings/settings.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace tether {

inline constexpr char kDemoServiceVersion[] = "1.18.33-demo";
// MCP servers of the demo service when nothing is configured (auto profile, no opencode).
inline constexpr int kEmbeddedDemoMcpServers = 2;

struct Profile {
    policy::Dialect dialect = policy::Dialect::Demo; // policy::toString names it
    QString program;
    QStringList arguments; // the full argument list, port already filled in
    int port = 0;
    // The same with "{port}" where the port goes: what a launch on another port is given.
    QStringList argumentTemplate;
    QStringList argumentsFor(int port) const;
    QString healthPath;                      // GET, answered with a JSON object
    QString mcpStatusPath;                   // GET, empty when the service has none
    QString configPath;                      // GET, MCP entries with their command arrays
    bool mcpCommandsFromConfigFiles = false; // opencode2: no route has them (mcp/opencode_config.h)
    QString mcpActionPath;        // with %1 = name, %2 = connect|disconnect; empty when none
    QString eventPath;            // GET, server-sent events of the service's work; empty: none
    QString authUser;             // Basic auth user; empty: no auth
    QString passwordEnv;          // the environment variable that passes the per-start password
    bool selfRegistering = false; // opencode2: the service writes its own service.json
    QString channel;              // opencode2: its build channel (names service.json, its port)
    // opencode2: clients wait this long for a service to get ready (Service.ensure()); a
    // shorter [probe] startupDeadlineMs would kill a slow boot another client waits out.
    qint64 minStartupDeadlineMs = 0;
    QString installedVersion; // the version the installed program reports; empty: unknown
};

struct OpencodeInstall {
    QString program; // empty: not found
    QString version; // empty: could not be read
};

// Where the opencode binary is: PATH, then ~/.opencode/bin. Runs `opencode --version`.
OpencodeInstall detectOpencode();
// The lookup alone, over the given PATH directories and home (testable on any OS). Windows:
// opencode.exe, then opencode.cmd (an npm install puts only the .cmd wrapper on PATH), then
// %USERPROFILE%\.opencode\bin\opencode.exe (the installer's place); elsewhere opencode, then
// ~/.opencode/bin/opencode. Empty when none exists.
QString findOpencode(const QStringList &pathDirs, const QString &home, bool windows);
// The leading "1.18.33" of a version string such as "1.18.33\n" or "opencode 2.0.1".
QString parseVersionOutput(const QByteArray &output);
int majorVersion(const QString &version); // -1 when unknown

struct ProfileResolution {
    Profile profile;
    QString error; // non-empty: cannot run (for example the program is missing)
};

// Pure: settings + what was detected -> the profile. Auto picks opencode1/opencode2 by the
// installed major version, and the demo when no opencode is installed.
ProfileResolution resolveProfile(const Settings &settings, const OpencodeInstall &opencode,
                                 const QString &tetherBinary);

} // namespace tether
