#include "demo/service_options.h"

#include "demo/activity_events.h"
#include "demo/common/option_values.h"

#include <QCommandLineParser>
#include <QHostAddress>

#include <limits>

namespace tether::demo {

namespace {

const QCommandLineOption kHostname{"hostname", "Address to listen on (default 127.0.0.1).", "ip"};
const QCommandLineOption kPort{"port", "TCP port to listen on (required).", "port"};
const QCommandLineOption kVersion{"version", "Version to report (default 1.18.33-demo).", "v"};
const QCommandLineOption kPrintVersion{"print-version", "Print the version and exit."};
const QCommandLineOption kMcp{"mcp", "Number of MCP children demo-1..demo-N (default 0).", "n"};
const QCommandLineOption kStubborn{"stubborn", "MCP children ignore stdin EOF, SIGTERM, SIGHUP."};
const QCommandLineOption kMcpSetsid{"mcp-setsid", "MCP child K calls setsid().", "k"};
const QCommandLineOption kMcpSetsidEvery{"mcp-setsid-every", "Every K-th MCP child calls setsid().",
                                         "k"};
const QCommandLineOption kMcpStubbornEvery{"mcp-stubborn-every",
                                           "Every K-th MCP child is stubborn.", "k"};
const QCommandLineOption kMcpLeak{"mcp-leak-kib-per-s", "MCP children grow by K KiB/s.", "k"};
const QCommandLineOption kMcpLeakWhile{"mcp-leak-while-file", "...only while PATH exists.", "path"};
const QCommandLineOption kMcpTag{"mcp-tag", "MCP children carry --tag TEXT.", "text"};
const QCommandLineOption kSlowStart{"slow-start", "Wait MS before listening.", "ms"};
const QCommandLineOption kBusyAfter{"busy-after", "Block the event loop after MS...", "ms"};
const QCommandLineOption kBusyFor{"busy-for", "...for MS.", "ms"};
const QCommandLineOption kCrashAfter{"crash-after", "SIGKILL itself after MS.", "ms"};
const QCommandLineOption kFreezeAfter{"freeze-after", "Hang forever after MS.", "ms"};
const QCommandLineOption kIgnoreTerm{"ignore-term", "Ignore SIGTERM (only SIGKILL stops it)."};
const QCommandLineOption kHealthStatus{"health-status", "HTTP status of /global/health.", "code"};
const QCommandLineOption kHealthBody{"health-body", "garbage or huge (10 MiB).", "kind"};
const QCommandLineOption kHeartbeat{"heartbeat-ms", "/global/event heartbeat (10000).", "ms"};
const QCommandLineOption kBusyTool{"busy-tool", "Run tool NAME for S seconds at start.", "name:s"};
const QCommandLineOption kProtocol{"protocol", "v1 (opencode 1.x, the default) or v2.", "v"};

void addAll(QCommandLineParser &p) {
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    p.addOptions({kHostname,     kPort,       kVersion,        kPrintVersion,     kMcp,
                  kStubborn,     kMcpSetsid,  kMcpSetsidEvery, kMcpStubbornEvery, kMcpLeak,
                  kMcpLeakWhile, kSlowStart,  kBusyAfter,      kBusyFor,          kCrashAfter,
                  kFreezeAfter,  kIgnoreTerm, kHealthStatus,   kHealthBody,       kProtocol,
                  kHeartbeat,    kBusyTool,   kMcpTag});
}

} // namespace

bool requestsProtocolV2(const QStringList &arguments) {
    // As QCommandLineParser reads it here: -protocol, --protocol, either with =value.
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        if (arguments[i] == QLatin1String("--")) break;
        QString a = arguments[i];
        if (!a.startsWith(QLatin1Char('-'))) continue;
        a.remove(0, a.startsWith(QLatin1String("--")) ? 2 : 1);
        QString value;
        if (a == QLatin1String("protocol"))
            value = i + 1 < arguments.size() ? arguments[i + 1] : QString();
        else if (a.startsWith(QLatin1String("protocol=")))
            value = a.mid(9);
        else
            continue;
        return value == QLatin1String("v2") || value == QLatin1String("2");
    }
    return false;
}

QString demoServiceUsage() {
    QCommandLineParser p;
    addAll(p);
    return QStringLiteral("usage: tether demo-service --port P [options]\n") +
           p.helpText().section(QLatin1Char('\n'), 2);
}

ParsedServiceOptions parseDemoServiceOptions(const QStringList &arguments) {
    ParsedServiceOptions result;
    DemoServiceOptions &o = result.options;
    QString &error = result.error;
    QCommandLineParser p;
    addAll(p);
    if (!parseOptionsOnly(p, arguments, error)) return result;
    constexpr int kMaxMs = std::numeric_limits<int>::max();
    o.printVersion = p.isSet(kPrintVersion);
    if (p.isSet(kVersion)) {
        o.version = p.value(kVersion);
        if (o.version.isEmpty()) {
            error = QStringLiteral("--version must not be empty");
            return result;
        }
    }
    if (o.printVersion)
        return result; // the supervisor asks only for the version: nothing else matters
    if (!p.isSet(kPort)) {
        error = QStringLiteral("--port is required");
        return result;
    }
    if (p.isSet(kHostname)) {
        o.hostname = p.value(kHostname);
        if (o.hostname != QLatin1String("localhost") && QHostAddress(o.hostname).isNull()) {
            error = QStringLiteral("--hostname must be an IP address or localhost, got \"%1\"")
                        .arg(o.hostname);
            return result;
        }
    }
    o.mcpStubborn = p.isSet(kStubborn);
    o.mcpLeakWhileFile = p.value(kMcpLeakWhile);
    o.mcpTag = p.value(kMcpTag);
    o.ignoreTerm = p.isSet(kIgnoreTerm);
    if (!readIntOption(p, kPort, 1, 65535, o.port, error) ||
        !readIntOption(p, kMcp, 0, 512, o.mcpCount, error) ||
        !readIntOption(p, kMcpSetsid, 1, 512, o.mcpSetsidIndex, error) ||
        !readIntOption(p, kMcpSetsidEvery, 1, 512, o.mcpSetsidEvery, error) ||
        !readIntOption(p, kMcpStubbornEvery, 1, 512, o.mcpStubbornEvery, error) ||
        !readIntOption(p, kMcpLeak, 0, 1024 * 1024, o.mcpLeakKibPerSecond, error) ||
        !readIntOption(p, kSlowStart, 0, kMaxMs, o.slowStartMs, error) ||
        !readIntOption(p, kBusyAfter, 0, kMaxMs, o.busyAfterMs, error) ||
        !readIntOption(p, kBusyFor, 0, kMaxMs, o.busyForMs, error) ||
        !readIntOption(p, kCrashAfter, 0, kMaxMs, o.crashAfterMs, error) ||
        !readIntOption(p, kFreezeAfter, 0, kMaxMs, o.freezeAfterMs, error) ||
        !readIntOption(p, kHealthStatus, 100, 599, o.healthStatus, error) ||
        !readIntOption(p, kHeartbeat, 10, kMaxMs, o.heartbeatMs, error))
        return result;
    if (p.isSet(kBusyTool)) {
        if (!readToolSpec(p.value(kBusyTool), kMaxToolCallSeconds, o.busyTool, o.busyToolSeconds,
                          error))
            return result;
    }
    if (p.isSet(kProtocol)) { // v2 never gets here: it has a parser of its own
        const QString v = p.value(kProtocol);
        if (v != QLatin1String("v1") && v != QLatin1String("1")) {
            error = QStringLiteral("--protocol must be v1 or v2, got \"%1\"").arg(v);
            return result;
        }
    }
    if (o.mcpSetsidIndex > o.mcpCount) {
        error = QStringLiteral("--mcp-setsid %1 names no child: there are %2 (--mcp)")
                    .arg(o.mcpSetsidIndex)
                    .arg(o.mcpCount);
        return result;
    }
    if (p.isSet(kBusyAfter) != p.isSet(kBusyFor)) {
        error = QStringLiteral("--busy-after and --busy-for go together");
        return result;
    }
    if (p.isSet(kHealthBody)) {
        const QString kind = p.value(kHealthBody);
        if (kind == QLatin1String("garbage"))
            o.healthBody = HealthBody::Garbage;
        else if (kind == QLatin1String("huge"))
            o.healthBody = HealthBody::Huge;
        else {
            error = QStringLiteral("--health-body must be garbage or huge, got \"%1\"").arg(kind);
            return result;
        }
    }
    return result;
}

} // namespace tether::demo
