// Command-line options of `tether demo-service` as plain data, parsed by a pure function.
#pragma once

#include <QString>
#include <QStringList>

namespace tether::demo {

inline constexpr char kDefaultDemoVersion[] = "1.18.33-demo";

// What /global/health sends back (fault switches --health-status / --health-body).
enum class HealthBody { Json, Garbage, Huge };

struct DemoServiceOptions {
    QString hostname = QStringLiteral("127.0.0.1");
    int port = 0;
    QString version = QString::fromLatin1(kDefaultDemoVersion);
    bool printVersion = false;

    int mcpCount = 0;
    bool mcpStubborn = false;
    int mcpSetsidIndex = 0; // 1-based child that leaves the service's session; 0 = none
    // The field's worst scale (benchmarks): every K-th child in a session of its own, every
    // K-th stubborn; 0 = none.
    int mcpSetsidEvery = 0;
    int mcpStubbornEvery = 0;
    int mcpLeakKibPerSecond = 0;
    QString mcpLeakWhileFile; // when set, the children grow only while this file exists
    // A label on every child's command line (--tag): a test tells its MCP servers from those
    // of suites running beside it, which would otherwise have the same command.
    QString mcpTag;

    // Fault switches; times are milliseconds since the service process started, -1 = off.
    int slowStartMs = 0;
    int busyAfterMs = -1;
    int busyForMs = 0;
    int crashAfterMs = -1;
    int freezeAfterMs = -1;
    bool ignoreTerm = false; // SIGTERM ignored: a stop needs SIGKILL
    int healthStatus = 200;
    HealthBody healthBody = HealthBody::Json;

    // Activity (issue 15): /global/event heartbeat period (opencode: 10 s), and a tool call
    // started as soon as the service listens (--busy-tool NAME:SECONDS; empty name = none).
    int heartbeatMs = 10000;
    QString busyTool;
    int busyToolSeconds = 0;
};

struct ParsedServiceOptions {
    DemoServiceOptions options;
    QString error; // empty when the arguments are valid
};

// `arguments` starts with the verb ("demo-service"), as QCoreApplication::arguments() does.
ParsedServiceOptions parseDemoServiceOptions(const QStringList &arguments);

// True when the arguments ask for the opencode 2.x stand-in (`--protocol v2`, or `2`), which
// has options of its own (standin_v2/options.h).
bool requestsProtocolV2(const QStringList &arguments);

QString demoServiceUsage();

} // namespace tether::demo
