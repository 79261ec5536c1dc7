// Command-line options of `tether demo-service --protocol v2`, the opencode 2.x stand-in, as
// plain data parsed by a pure function. Built from docs/opencode2-protocol.md only.
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace tether::standin_v2 {

struct StandinOptions {
    QString channel = QStringLiteral("latest"); // OPENCODE_CHANNEL of the build imitated [R14]
    QString version;                            // empty: the channel's (defaultVersion)
    bool printVersion = false;
    std::optional<int> port; // --port ?? service config port ?? the channel's default [R9]
    QString hostname;        // --hostname ?? service config hostname ?? 127.0.0.1 [R9]

    int registrationCheckMs = 5000; // service.json re-read [R12]
    int heartbeatMs = 15000;        // `: heartbeat` on /api/event [R38]
    int portWaitMs = 15000;         // how long a taken port is retried for an incumbent [R9]
    int bootMs = 0;                 // time spent "starting" after registering [R17]
    bool bootFails = false;         // the boot ends in the failed state [R17]
    bool ptyHandoff = true;         // false: no handoff route (an older service) [R7] [R46]

    // Test hooks and fault switches, as the 1.x demo has them. Times in ms from process start.
    QString busyTool; // a tool call started once ready (--busy-tool NAME:SECONDS)
    int busyToolSeconds = 0;
    int slowStartMs = 0;
    int busyAfterMs = -1;
    int busyForMs = 0;
    int crashAfterMs = -1;
    int freezeAfterMs = -1;
    bool ignoreTerm = false;
};

struct ParsedStandinOptions {
    StandinOptions options;
    QString error; // empty when the arguments are valid
};

// `arguments` starts with the verb ("demo-service"), as QCoreApplication::arguments() does.
ParsedStandinOptions parseStandinOptions(const QStringList &arguments);

QString standinUsage();

// The version a build of `channel` reports: a release for latest, `local` for unbuilt runs,
// 0.0.0-<channel>-<build> for previews [R14] [R49].
QString defaultVersion(const QString &channel);

inline constexpr int kMaxToolCallSeconds = 24 * 3600;

} // namespace tether::standin_v2
