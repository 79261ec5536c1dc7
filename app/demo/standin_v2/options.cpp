#include "demo/standin_v2/options.h"

#include "demo/common/option_values.h"

#include <QCommandLineParser>
#include <QHostAddress>

#include <limits>

namespace tether::standin_v2 {

using demo::parseOptionsOnly;
using demo::readIntOption;
using demo::readToolSpec;

namespace {

const QCommandLineOption kProtocol{"protocol", "v2: this stand-in.", "v"};
const QCommandLineOption kChannel{"channel", "Build channel (default latest).", "name"};
const QCommandLineOption kVersion{"version", "Version to report (default by channel).", "v"};
const QCommandLineOption kPrintVersion{"print-version", "Print the version and exit."};
const QCommandLineOption kPort{"port", "Port (default: service config, else by channel).", "p"};
const QCommandLineOption kHostname{"hostname",
                                   "Address (default: service config, else "
                                   "127.0.0.1).",
                                   "ip"};
const QCommandLineOption kRegistrationCheck{"registration-check-ms",
                                            "Re-read service.json every MS (5000).", "ms"};
const QCommandLineOption kHeartbeat{"heartbeat-ms", "/api/event heartbeat (15000).", "ms"};
const QCommandLineOption kPortWait{"port-wait-ms", "Port taken: await an incumbent (15000).", "ms"};
const QCommandLineOption kBootMs{"boot-ms", "Stay starting (503) for MS after registering.", "ms"};
const QCommandLineOption kBootFails{"boot-fails", "The boot fails (500); the process stays."};
const QCommandLineOption kNoPtyHandoff{"no-pty-handoff", "No persistent-pty handoff route."};
const QCommandLineOption kBusyTool{"busy-tool", "Run tool NAME for S seconds once ready.",
                                   "name:s"};
const QCommandLineOption kSlowStart{"slow-start", "Wait MS before listening.", "ms"};
const QCommandLineOption kBusyAfter{"busy-after", "Block the event loop after MS...", "ms"};
const QCommandLineOption kBusyFor{"busy-for", "...for MS.", "ms"};
const QCommandLineOption kCrashAfter{"crash-after", "SIGKILL itself after MS.", "ms"};
const QCommandLineOption kFreezeAfter{"freeze-after", "Hang forever after MS.", "ms"};
const QCommandLineOption kIgnoreTerm{"ignore-term", "Ignore SIGTERM (only SIGKILL stops it)."};

void addAll(QCommandLineParser &p) {
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    p.addOptions({kProtocol, kChannel, kVersion, kPrintVersion, kPort, kHostname,
                  kRegistrationCheck, kHeartbeat, kPortWait, kBootMs, kBootFails, kNoPtyHandoff,
                  kBusyTool, kSlowStart, kBusyAfter, kBusyFor, kCrashAfter, kFreezeAfter,
                  kIgnoreTerm});
}

} // namespace

QString defaultVersion(const QString &channel) {
    if (channel == QLatin1String("latest")) return QStringLiteral("2.0.17");
    if (channel == QLatin1String("local")) return QStringLiteral("local");
    return QStringLiteral("0.0.0-%1-1").arg(channel);
}

QString standinUsage() {
    QCommandLineParser p;
    addAll(p);
    return QStringLiteral("usage: tether demo-service --protocol v2 [options]\n"
                          "  the opencode 2.x managed service, as docs/opencode2-protocol.md "
                          "records it\n") +
           p.helpText().section(QLatin1Char('\n'), 2);
}

ParsedStandinOptions parseStandinOptions(const QStringList &arguments) {
    ParsedStandinOptions result;
    StandinOptions &o = result.options;
    QString &error = result.error;
    QCommandLineParser p;
    addAll(p);
    if (!parseOptionsOnly(p, arguments, error)) return result;
    const QString protocol = p.value(kProtocol);
    if (p.isSet(kProtocol) && protocol != QLatin1String("v2") && protocol != QLatin1String("2")) {
        error = QStringLiteral("--protocol v2 selects this stand-in, got \"%1\"").arg(protocol);
        return result;
    }
    if (p.isSet(kChannel)) {
        o.channel = p.value(kChannel);
        if (o.channel.isEmpty()) {
            error = QStringLiteral("--channel must not be empty");
            return result;
        }
    }
    o.version = p.isSet(kVersion) ? p.value(kVersion) : defaultVersion(o.channel);
    if (o.version.isEmpty()) {
        error = QStringLiteral("--version must not be empty");
        return result;
    }
    o.printVersion = p.isSet(kPrintVersion);
    if (o.printVersion) return result;
    if (p.isSet(kHostname)) {
        o.hostname = p.value(kHostname);
        if (QHostAddress(o.hostname).isNull()) {
            error = QStringLiteral("--hostname must be an IP address, got \"%1\"").arg(o.hostname);
            return result;
        }
    }
    constexpr int kMaxMs = std::numeric_limits<int>::max();
    int port = 0;
    if (!readIntOption(p, kPort, 1, 65535, port, error) ||
        !readIntOption(p, kRegistrationCheck, 10, kMaxMs, o.registrationCheckMs, error) ||
        !readIntOption(p, kHeartbeat, 10, kMaxMs, o.heartbeatMs, error) ||
        !readIntOption(p, kPortWait, 0, kMaxMs, o.portWaitMs, error) ||
        !readIntOption(p, kBootMs, 0, kMaxMs, o.bootMs, error) ||
        !readIntOption(p, kSlowStart, 0, kMaxMs, o.slowStartMs, error) ||
        !readIntOption(p, kBusyAfter, 0, kMaxMs, o.busyAfterMs, error) ||
        !readIntOption(p, kBusyFor, 0, kMaxMs, o.busyForMs, error) ||
        !readIntOption(p, kCrashAfter, 0, kMaxMs, o.crashAfterMs, error) ||
        !readIntOption(p, kFreezeAfter, 0, kMaxMs, o.freezeAfterMs, error))
        return result;
    if (p.isSet(kPort)) o.port = port;
    if (p.isSet(kBusyAfter) != p.isSet(kBusyFor)) {
        error = QStringLiteral("--busy-after and --busy-for go together");
        return result;
    }
    o.bootFails = p.isSet(kBootFails);
    o.ptyHandoff = !p.isSet(kNoPtyHandoff);
    o.ignoreTerm = p.isSet(kIgnoreTerm);
    if (p.isSet(kBusyTool)) {
        if (!readToolSpec(p.value(kBusyTool), kMaxToolCallSeconds, o.busyTool, o.busyToolSeconds,
                          error))
            return result;
    }
    return result;
}

} // namespace tether::standin_v2
