#include "shell/control_verbs.h"

#include "settings/autostart.h"
#include "settings/autostart_entries.h"
#include "shell/diagnostics.h"
#include "service/words.h"
#include "shell/runtime.h"
#include "ui/format.h"
#include "ui/status_text.h"

#include <QJsonArray>
#include <QTimer>

namespace tether {

ControlVerbs::ControlVerbs(Runtime &runtime, QObject *parent)
    : QObject(parent)
    , runtime_(runtime) {
    diagnosticsPool_.setMaxThreadCount(1);
}

ControlVerbs::~ControlVerbs() = default;

void ControlVerbs::handle(const control::Request &request, control::ControlServer::Reply reply) {
    if (request.verb == control::Verb::Cleanup) {
        // Off the GUI thread: probes and other verbs are answered while the sweep waits.
        const bool dryRun = request.args.value(QLatin1String("dryRun")).toBool();
        // Possible orphans (matched by command only) go only when a person said --yes.
        const bool yes = request.args.value(QLatin1String("yes")).toBool();
        runtime_.mcpMonitor()->cleanup(dryRun, {}, yes, [this, dryRun, reply](const auto &summary) {
            reply(cleanupReply(dryRun, summary));
        });
        return;
    }
    if (request.verb == control::Verb::Diagnostics) {
        // Off the GUI thread too, one report at a time: it reads logs, files and the process
        // table, and a flood of these held every other client up (status took seconds).
        diagnosticsPool_.start([this, input = runtime_.diagnosticsInput(), reply] {
            const QString report = diagnostics::build(input);
            QMetaObject::invokeMethod(
                this,
                [reply, report] {
                    reply(control::okReply({{QStringLiteral("report"), report}}));
                },
                Qt::QueuedConnection);
        });
        return;
    }
    reply(answer(request));
}

QJsonObject cleanupReport(bool dryRun, const mcp::McpMonitor::CleanupSummary &summary) {
    QJsonArray found;
    for (const OrphanStatus &o : summary.found)
        found.append(QJsonObject{{QStringLiteral("pid"), o.pid},
                                 {QStringLiteral("kind"), o.kind},
                                 {QStringLiteral("argv"), QJsonArray::fromStringList(o.argv)}});
    QString message = summary.lines.join(QLatin1Char('\n'));
    if (summary.found.isEmpty()) message = Words::tr("No orphaned MCP processes.");
    return {{QStringLiteral("dryRun"), dryRun},
            {QStringLiteral("found"), found},
            {QStringLiteral("killed"), summary.killed},
            {QStringLiteral("exitedOnTerm"), summary.exitedOnTerm},
            {QStringLiteral("alreadyGone"), summary.alreadyGone},
            {QStringLiteral("refused"), summary.refused},
            {QStringLiteral("message"), message}};
}

QByteArray ControlVerbs::cleanupReply(bool dryRun, const mcp::McpMonitor::CleanupSummary &summary) {
    for (const QString &line : summary.lines)
        runtime_.log(QStringLiteral("cleanup: ") + line);
    // A person's `tether cleanup`: the Events tab says what it did.
    if (!dryRun)
        runtime_.log(
            ui::personCleanupLogLine(summary.killed + summary.exitedOnTerm + summary.alreadyGone,
                                     summary.refused + summary.unknown));
    return control::okReply(cleanupReport(dryRun, summary));
}

QByteArray ControlVerbs::answer(const control::Request &request) {
    using control::Verb;
    if (runtime_.isShuttingDown() && (request.verb == Verb::Start || request.verb == Verb::Restart))
        return control::errorReply(Words::tr("Tether is shutting down: it starts no service now."));
    switch (request.verb) {
    case Verb::Status: {
        QJsonObject status = runtime_.supervisor()->status().toJson();
        // Read back from the OS, as the tray does: the user may have changed it in Windows.
        const AutostartStatus login = platformAutostart()->status();
        status.insert(QStringLiteral("startAtLogin"),
                      QJsonObject{{QStringLiteral("state"), autostartStateName(login.state)},
                                  {QStringLiteral("detail"), autostartDescription(login)}});
        return control::okReply({{QStringLiteral("status"), status}});
    }
    case Verb::Start:
        runtime_.supervisor()->start();
        return control::okReply();
    case Verb::Stop:
    case Verb::Restart:
    case Verb::Quit: {
        // The tray asks; a verb is refused unless --force says yes.
        const policy::PersonAction action = request.verb == Verb::Stop ? policy::PersonAction::Stop
                                            : request.verb == Verb::Restart
                                                ? policy::PersonAction::Restart
                                                : policy::PersonAction::Quit;
        if (runtime_.needsConsent(action) && !request.args.value(QLatin1String("force")).toBool()) {
            // The tray's words for what runs, and one whole sentence per verb (issue 27: the
            // CLI said "running tool … for 206 s" in English whatever the language).
            QString work = ui::activityText(runtime_.supervisor()->status());
            if (work.isEmpty()) work = Words::tr("A tool call is running");
            const QString why =
                request.verb == Verb::Stop
                    ? Words::tr("%1. Stopping now interrupts this work; add --force to stop "
                                "anyway.")
                : request.verb == Verb::Restart
                    ? Words::tr("%1. Restarting now interrupts this work; add --force to "
                                "restart anyway.")
                    : Words::tr("%1. Quitting stops the service and interrupts this work; add "
                                "--force to quit anyway.");
            return control::refusedReply(why.arg(work), QStringLiteral("busy"));
        }
        if (request.verb == Verb::Stop)
            runtime_.supervisor()->stop();
        else if (request.verb == Verb::Restart)
            runtime_.supervisor()->restart();
        else
            QTimer::singleShot(0, &runtime_, &Runtime::quitRequested);
        return control::okReply();
    }
    case Verb::Show:
        QTimer::singleShot(0, &runtime_, &Runtime::showRequested);
        return control::okReply();
    case Verb::Cleanup:
        return control::errorReply(QStringLiteral("cleanup is answered by handle()"));
    case Verb::Diagnostics:
        return control::errorReply(QStringLiteral("diagnostics is answered by handle()"));
    case Verb::McpConnect:
    case Verb::McpDisconnect: {
        const QString name = request.args.value(QLatin1String("name")).toString();
        if (name.isEmpty()) return control::errorReply(Words::tr("Name the MCP server."));
        if (!runtime_.supervisor()->serviceIdentity())
            return control::errorReply(Words::tr("The service is not running."));
        runtime_.setMcpConnected(name, request.verb == Verb::McpConnect);
        return control::okReply();
    }
    }
    return control::errorReply(
        QStringLiteral("%1 is not available in this build").arg(control::toString(request.verb)));
}

} // namespace tether
