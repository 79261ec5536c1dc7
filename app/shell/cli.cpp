#include "shell/cli.h"

#include "control/control_client.h"
#include "control/verbs.h"
#include "policy/notice.h"
#include "shell/cleanup_once.h"
#include "shell/console.h"
#include "shell/diagnostics.h"
#include "service/status.h"
#include "service/words.h"
#include "tray/tray_menu_model.h"
#include "ui/format.h"
#include "ui/status_text.h"

#include <QCommandLineParser>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace tether::cli {

namespace {

// Qt's parser writes some of the help itself ("Usage: %1", "Options:", the help and version
// options) and its errors, with QCommandLineParser::tr. Listed here, they are in Tether's
// catalogue too (lupdate reads these), so `tether --help` is German where Qt's own catalogue is
// not installed (Windows, a bare Linux).
[[maybe_unused]] constexpr const char *kQtParserWords[] = {
    QT_TRANSLATE_NOOP("QCommandLineParser", "Usage: %1"),
    QT_TRANSLATE_NOOP("QCommandLineParser", "[options]"),
    QT_TRANSLATE_NOOP("QCommandLineParser", "Options:"),
    QT_TRANSLATE_NOOP("QCommandLineParser", "Arguments:"),
    QT_TRANSLATE_NOOP("QCommandLineParser", "Displays help on commandline options."),
    QT_TRANSLATE_NOOP("QCommandLineParser", "Displays help including Qt specific options."),
    QT_TRANSLATE_NOOP("QCommandLineParser", "Displays version information."),
    QT_TRANSLATE_NOOP("QCommandLineParser", "Unknown option '%1'."),
    QT_TRANSLATE_NOOP("QCommandLineParser", "Unknown options: %1."),
    QT_TRANSLATE_NOOP("QCommandLineParser", "Missing value after '%1'."),
    QT_TRANSLATE_NOOP("QCommandLineParser", "Unexpected value after '%1'."),
};
using control::Verb;
using control::VerbInfo;

const VerbInfo *cliVerb(const QString &name) {
    const VerbInfo *info = control::findVerb(name);
    return info && info->cli ? info : nullptr;
}

QString cliVerbNames() {
    QStringList names;
    for (const VerbInfo &v : control::kVerbTable)
        if (v.cli) names << QString::fromLatin1(v.name);
    return names.join(QStringLiteral(", ")); // wrapped between names, not inside one
}

using console::Stream;
void print(Stream to, const QString &text) {
    console::writeLine(to, text);
}

} // namespace

bool isVerb(const QString &arg) {
    return cliVerb(arg) != nullptr;
}

QString verbHelp() {
    QStringList usages;
    int width = 0;
    for (const VerbInfo &v : control::kVerbTable) {
        if (!v.cli) continue;
        QString usage = QString::fromLatin1(v.name);
        if (*v.options) usage += QLatin1Char(' ') + phrase(v.options);
        width = std::max(width, int(usage.size()));
        usages << usage;
    }
    QString text = Words::tr("Verbs (talk to the running Tether):");
    int row = 0;
    for (const VerbInfo &v : control::kVerbTable) {
        if (!v.cli) continue;
        text += QStringLiteral("\n  tether %1  %2")
                    .arg(usages.at(row++), -width)
                    .arg(phrase(v.summary));
    }
    text += QStringLiteral("\n\n") +
            Words::tr("Exit codes: 0 done, 1 failed, 2 usage error, 3 refused: the service is "
                      "running\ntool calls (stop, restart and a quit that stops the service go "
                      "ahead with --force),\n4 Tether is not running, 5 Tether is running but did "
                      "not answer in time.");
#if defined(Q_OS_WIN)
    // cmd and PowerShell do not wait for a GUI program, so only a console program's exit code
    // reaches them.
    text += QStringLiteral("\n\n") +
            Words::tr(
                "On Windows run the verbs with tether-cli.exe: cmd and PowerShell wait for it and "
                "see\nits exit code. tether.exe runs them too and prints to the same console, but "
                "the shell\ndoes not wait for it (its prompt may come first, %ERRORLEVEL% is not "
                "its exit code).\ntether-cli.exe without a verb only prints this help "
                "(`tether-cli --headless` runs the\nsupervisor in the console); the tray is "
                "tether.exe.");
#endif
    return text;
}

QString describeStatus(const QJsonObject &s, bool details) {
    const ServiceStatus st = ServiceStatus::fromJson(s);
    const TrayMenuModel m = trayMenuModel(st, QDateTime::currentDateTime());
    QStringList lines;
    QString head = m.statusLine;
    if (!m.detailLine.isEmpty()) head += QStringLiteral(" · ") + m.detailLine;
    if (st.external) head += Words::tr(" · started outside Tether");
    lines << head;
    const QString next = ui::nextStepText(st, QDateTime::currentDateTime());
    if (!next.isEmpty() && st.state != policy::State::Healthy) lines << next;
    // What it does, whole (a terminal has the width the menu has not), or why it failed.
    const QString work = ui::activityText(st);
    if (!m.thirdLine.isEmpty()) lines << (work.isEmpty() ? m.thirdLine : work);
    const QString cut = ui::interruptedText(st.lastInterrupted);
    if (!cut.isEmpty()) lines << cut;
    // Failed: what mends it, from a terminal.
    if (st.state == policy::State::Failed) {
        if (st.failure.freePort != 0)
            lines << Words::tr("Port %1 is free: set [service] port=%1 in the settings file, or "
                               "choose “Use a free port” in the tray.")
                         .arg(st.failure.freePort);
        else if (!m.fixKey.isEmpty())
            lines << Words::tr("Change [%1] %2 in the settings file (or in Settings in the tray), "
                               "then `tether start`.")
                         .arg(m.fixKey.section(QLatin1Char('/'), 0, 0),
                              m.fixKey.section(QLatin1Char('/'), 1));
    }
    for (const QString &e : st.stateFileErrors)
        lines << Words::tr("Not saved: %1").arg(e);
    if (st.versionMismatch && !st.installedVersion.isEmpty() && st.state != policy::State::Failed)
        lines << Words::tr("Version %1 is installed: `tether restart` updates it.")
                     .arg(st.installedVersion);
    for (const McpMenuRow &row : m.mcpRows)
        lines << QStringLiteral("  ") + row.label +
                     (row.flagText.isEmpty() ? QString() : QStringLiteral(": ") + row.flagText);
    // Start at login only when it needs a person: off in Windows Settings, foreign, unreadable.
    const QJsonObject login = s.value(QLatin1String("startAtLogin")).toObject();
    const QString loginState = login.value(QLatin1String("state")).toString();
    if (!loginState.isEmpty() && loginState != QLatin1String("on") &&
        loginState != QLatin1String("off"))
        lines
            << Words::tr("Start at login: %1").arg(login.value(QLatin1String("detail")).toString());
    if (!st.orphans.isEmpty())
        lines << Words::tr("%1: `tether cleanup` ends them.")
                     .arg(ui::orphanCountText(int(st.orphans.size())));
    if (details) {
        // The machine's numbers and the log's own words, for a bug report; labelled in the
        // person's language (the values are what they are).
        if (st.pid > 0) lines << Words::tr("Service process ID: %1").arg(st.pid);
        for (const McpChildStatus &c : st.mcp)
            if (c.pid > 0)
                lines << Words::tr("MCP server %1: process ID %2").arg(c.name).arg(c.pid);
        if (!st.failure.cause.isEmpty())
            lines << Words::tr("Failure, in the log's words: %1").arg(st.failure.cause);
        if (!st.failure.logPath.isEmpty())
            lines << Words::tr("Service log: %1").arg(st.failure.logPath);
        if (!st.lastError.isEmpty())
            lines << Words::tr("Last error, in the log's words: %1").arg(st.lastError);
        if (!st.activity.summary.isEmpty())
            lines << Words::tr("Activity, in the log's words: %1").arg(st.activity.summary);
        for (const OrphanStatus &o : st.orphans)
            lines << (o.kind == QLatin1String("possible")
                          ? Words::tr("Possible orphan, process ID %1: %2")
                          : Words::tr("Orphan, process ID %1: %2"))
                         .arg(o.pid)
                         .arg(o.argv.join(QLatin1Char(' ')));
    }
    return lines.join(QLatin1Char('\n'));
}

int runVerb(const QStringList &args) {
    // Local work: the report is written here, from the running Tether's answer or without it.
    if (args.value(0) == QLatin1String("diagnostics")) return diagnostics::runVerb(args);
    QCommandLineParser parser;
    parser.setApplicationDescription(Words::tr("Talk to the running Tether.") +
                                     QStringLiteral("\n\n") + verbHelp());
    parser.addPositionalArgument(Words::tr("verb"), cliVerbNames());
    parser.addPositionalArgument(Words::tr("name"),
                                 Words::tr("MCP server name (mcp-connect, mcp-disconnect)"));
    const QCommandLineOption json(QStringLiteral("json"), Words::tr("Print JSON."));
    const QCommandLineOption details(
        QStringLiteral("details"),
        Words::tr("status: the process IDs, paths and the log's own words as well."));
    const QCommandLineOption dryRun(QStringLiteral("dry-run"),
                                    Words::tr("cleanup: only list what would be removed."));
    const QCommandLineOption yes(
        QStringLiteral("yes"),
        Words::tr("cleanup: remove possible orphans too (matched by their command only)."));
    const QCommandLineOption settings(
        QStringLiteral("settings"),
        Words::tr("Settings file (cleanup and diagnostics without a running Tether)."),
        Words::tr("file"));
    const QCommandLineOption force(
        QStringLiteral("force"),
        Words::tr("stop, restart, quit (when it stops the service): go ahead even though tool "
                  "calls run (they are lost)."));
    parser.addOptions({json, details, dryRun, yes, settings, force});
    const QCommandLineOption help = parser.addHelpOption();
    // parse(), not process(): Qt's own messages would bypass console::writeLine (and show a
    // message box on Windows).
    if (!parser.parse(QStringList{QStringLiteral("tether")} + args)) {
        print(Stream::Err, QStringLiteral("tether: %1\n\n%2").arg(parser.errorText(), verbHelp()));
        return kExitUsage;
    }
    if (parser.isSet(help)) {
        print(Stream::Out, parser.helpText().trimmed());
        return kExitOk;
    }
    const QStringList positional = parser.positionalArguments();
    const QString verb = positional.value(0);
    const VerbInfo *info = cliVerb(verb);
    if (!info) {
        print(Stream::Err, Words::tr("tether: unknown verb %1\n\n%2").arg(verb, verbHelp()));
        return kExitUsage;
    }

    control::Request request{info->verb, {}};
    if (info->verb == Verb::Cleanup) {
        request.args.insert(QStringLiteral("dryRun"), parser.isSet(dryRun));
        request.args.insert(QStringLiteral("yes"), parser.isSet(yes));
    }
    if ((info->verb == Verb::Stop || info->verb == Verb::Restart || info->verb == Verb::Quit) &&
        parser.isSet(force))
        request.args.insert(QStringLiteral("force"), true);
    if (info->takesName) {
        if (positional.size() < 2) {
            print(Stream::Err, Words::tr("tether %1: name the MCP server.").arg(verb));
            return kExitUsage;
        }
        request.args.insert(QStringLiteral("name"), positional.value(1));
    }
    control::Reply reply = control::call(request, info->timeoutMs);
    if (reply.status == control::Reply::Status::NotRunning && info->verb == Verb::Cleanup) {
        // No Tether: the same scan and sweep, once, here.
        bool another = false;
        QString error;
        const std::optional<QJsonObject> report = cleanupWithoutTether(
            {parser.isSet(dryRun), parser.isSet(yes), parser.value(settings)}, &another, &error);
        if (report) {
            reply.status = control::Reply::Status::Ok;
            reply.body = *report;
        } else if (another) {
            reply = control::call(request, info->timeoutMs); // one started meanwhile: ask it
        } else {
            print(Stream::Err, QStringLiteral("tether cleanup: %1").arg(error));
            return kExitFailed;
        }
    }
    switch (reply.status) {
    case control::Reply::Status::NotAnswering:
        if (info->verb == Verb::Status && parser.isSet(json))
            print(Stream::Out, QStringLiteral("{\"running\":true,\"answering\":false}"));
        else
            print(Stream::Err,
                  Words::tr("tether %1: Tether is running but not answering (%2); it may be busy: "
                            "try again, or see its log.")
                      .arg(verb, reply.error));
        return kExitNotAnswering;
    case control::Reply::Status::NotRunning:
        if (info->verb == Verb::Status && parser.isSet(json))
            print(Stream::Out, QStringLiteral("{\"running\":false}"));
        else
            print(
                Stream::Err,
                Words::tr("tether: not running (start it with `tether` or `tether --headless`)."));
        return kExitNotRunning;
    case control::Reply::Status::Error:
        if (reply.body.value(QLatin1String("refused")).toString() == QLatin1String("busy")) {
            print(Stream::Err, QStringLiteral("tether %1: %2").arg(verb, reply.error));
            return kExitBusy;
        }
        print(Stream::Err, QStringLiteral("tether %1: %2").arg(verb, reply.error));
        return kExitFailed;
    case control::Reply::Status::NoAnswer:
        print(Stream::Err, QStringLiteral("tether %1: %2").arg(verb, reply.error));
        return kExitFailed;
    case control::Reply::Status::Ok:
        break;
    }
    if (parser.isSet(json)) {
        QJsonObject body = reply.body;
        body.remove(QStringLiteral("ok"));
        const QJsonObject out =
            info->verb == Verb::Status ? body.value(QLatin1String("status")).toObject() : body;
        print(Stream::Out, QString::fromUtf8(QJsonDocument(out).toJson(QJsonDocument::Compact)));
    } else if (info->verb == Verb::Status) {
        print(Stream::Out, describeStatus(reply.body.value(QLatin1String("status")).toObject(),
                                          parser.isSet(details)));
    } else if (reply.body.contains(QLatin1String("message"))) {
        print(Stream::Out, reply.body.value(QLatin1String("message")).toString());
    }
    return kExitOk;
}

} // namespace tether::cli
