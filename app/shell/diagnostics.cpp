#include "shell/diagnostics.h"

#include "control/control_client.h"
#include "os/process.h"
#include "service/managed_registration.h"
#include "service/port_doctor.h"
#include "service/redaction.h"
#include "service/registration.h"
#include "settings/settings.h"
#include "settings/storage.h"
#include "shell/cli.h"
#include "shell/console.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLibraryInfo>
#include <QProcessEnvironment>
#include <QSaveFile>
#include <QSysInfo>

namespace tether::diagnostics {

namespace {

constexpr int kLogLines = 40;
constexpr int kTransitionLines = 30;

QStringList tailLines(const QString &path, int n) {
    QFile f;
    QString refused; // a link or a FIFO in the log's place: says so instead of its lines
    if (!storage::openForReading(f, path, &refused))
        return QFileInfo::exists(path) || QFileInfo(path).isSymLink() ? QStringList{refused}
                                                                      : QStringList();
    constexpr qint64 kTail = 256 * 1024;
    if (f.size() > kTail) f.seek(f.size() - kTail);
    QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    while (!lines.isEmpty() && lines.last().trimmed().isEmpty())
        lines.removeLast();
    return lines.mid(std::max<qsizetype>(0, lines.size() - n));
}

QString section(const QString &title, const QString &body) {
    return QStringLiteral("\n== %1 ==\n%2\n")
        .arg(title, body.isEmpty() ? QStringLiteral("(none)") : body);
}

QString processLine(const os::ProcessInfo &p) {
    QStringList argv;
    for (const std::string &a : p.argv)
        argv << QString::fromStdString(a);
    return QStringLiteral("pid %1 ppid %2 pgid %3 rss %4 KiB: %5")
        .arg(p.pid)
        .arg(p.ppid)
        .arg(p.pgid)
        .arg(p.rssKiB)
        .arg(argv.join(QLatin1Char(' ')));
}

const char *bindText(policy::BindResult b) {
    switch (b) {
    case policy::BindResult::Ok:
        return "a bind works (nothing in the way)";
    case policy::BindResult::InUse:
        return "in use";
    case policy::BindResult::AccessDenied:
        return "access denied";
    case policy::BindResult::Other:
        break;
    }
    return "bind failed";
}

} // namespace

QString build(const Input &in) {
    const QString settingsPath =
        in.settingsPath.isEmpty() ? defaultSettingsPath() : in.settingsPath;
    const LoadedSettings loaded = loadSettings(settingsPath);
    const Settings &s = loaded.settings;

    // Every secret Tether can know of, removed wherever it appears below.
    QStringList secrets = secretValues(QProcessEnvironment::systemEnvironment());
    const RegistrationRead reg = readRegistration(registrationPath());
    if (reg.status == RegistrationRead::Status::Ok) secrets << reg.registration.password;
    // The release channel's file unless [service] channel names another: running opencode
    // --version here to tell would make a report of a stuck machine stick too.
    const QString managedPath = managedRegistrationPath(
        s.stateDir, s.channel.isEmpty() ? QStringLiteral("latest") : s.channel);
    const ManagedRegistrationRead managed = readManagedRegistration(managedPath);
    if (managed.status == ManagedRegistrationRead::Status::Ok)
        secrets << managed.registration.password;

    QString out = QStringLiteral("Tether diagnostics, %1\n")
                      .arg(QDateTime::currentDateTime().toString(Qt::ISODate));
    out +=
        section(QStringLiteral("Versions"),
                QStringLiteral("tether %1 (Qt %2 at run time, built with %3)\nOS: %4 (%5 %6, %7)")
                    .arg(QCoreApplication::applicationVersion().isEmpty()
                             ? QStringLiteral(TETHER_VERSION)
                             : QCoreApplication::applicationVersion(),
                         QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR),
                         QSysInfo::prettyProductName(), QSysInfo::kernelType(),
                         QSysInfo::kernelVersion(), QSysInfo::currentCpuArchitecture()));
    out += section(QStringLiteral("Tether"),
                   QStringLiteral("%1\ndata: %2").arg(in.tetherState, storage::dataDir()));

    QFile ini;
    QString iniError;
    QString settingsText = storage::openForReading(ini, settingsPath, &iniError, true)
                               ? QString::fromUtf8(ini.read(64 * 1024)).trimmed()
                           : QFileInfo::exists(settingsPath)
                               ? iniError
                               : QStringLiteral("(no file: every setting has its default)");
    for (const QString &w : loaded.warnings)
        settingsText += QStringLiteral("\nwarning: ") + w;
    out += section(QStringLiteral("Settings (%1)").arg(settingsPath), settingsText);

    qint64 servicePid = 0;
    int port = s.port;
    if (in.status) {
        const QJsonObject &st = *in.status;
        servicePid = st.value(QLatin1String("pid")).toInteger();
        if (st.value(QLatin1String("port")).toInt() > 0)
            port = st.value(QLatin1String("port")).toInt();
        QString text = cli::describeStatus(st); // the failure's cause included
        text += QStringLiteral("\n\n") +
                QString::fromUtf8(QJsonDocument(st).toJson(QJsonDocument::Indented)).trimmed();
        out += section(QStringLiteral("Status"), text);
    } else {
        out += section(QStringLiteral("Status"), QStringLiteral("unknown: %1").arg(in.tetherState));
    }

    const QString tetherLog = storage::logsDir() + QStringLiteral("/tether.log");
    const QStringList logLines = in.eventLog.isEmpty() ? tailLines(tetherLog, 2000) : in.eventLog;
    QStringList transitions;
    for (const QString &l : logLines)
        if (l.contains(QLatin1String(" state ")) && l.contains(QLatin1String(" -> ")))
            transitions << l;
    out += section(QStringLiteral("Transitions"),
                   transitions.mid(std::max<qsizetype>(0, transitions.size() - kTransitionLines))
                       .join(QLatin1Char('\n')));
    out += section(
        QStringLiteral("Tether log (%1)").arg(tetherLog),
        logLines.mid(std::max<qsizetype>(0, logLines.size() - kLogLines)).join(QLatin1Char('\n')));
    const QString serviceLog = storage::logsDir() + QStringLiteral("/service.log");
    out += section(QStringLiteral("Service log (%1)").arg(serviceLog),
                   tailLines(serviceLog, kLogLines).join(QLatin1Char('\n')));

    QString regText;
    switch (reg.status) {
    case RegistrationRead::Status::Missing:
        regText = QStringLiteral("none");
        break;
    case RegistrationRead::Status::Invalid:
        regText = QStringLiteral("unreadable: ") + reg.error;
        break;
    case RegistrationRead::Status::Ok: {
        Registration r = reg.registration;
        r.password = r.password.isEmpty() ? QString() : QLatin1String(kRedacted);
        regText = QString::fromUtf8(serializeRegistration(r)).trimmed();
        if (servicePid == 0 && os::alive({os::Pid(r.pid), r.startTime}) == os::Liveness::Alive)
            servicePid = r.pid; // Tether is down, its service may not be
        break;
    }
    }
    if (managed.status == ManagedRegistrationRead::Status::Ok) {
        const ManagedRegistration &m = managed.registration;
        regText += QStringLiteral("\nopencode 2.x %1: id %2, version %3, url %4, pid %5, "
                                  "password %6")
                       .arg(managedPath, m.id, m.version, m.url.toString())
                       .arg(m.pid)
                       .arg(QLatin1String(kRedacted));
    }
    out += section(QStringLiteral("Registration (%1)").arg(registrationPath()), regText);

    const os::PortOwners owners = os::listeningPortOwners(quint16(port));
    QStringList portText;
    if (!owners.ok)
        portText
            << QStringLiteral("listeners unreadable: %1").arg(QString::fromStdString(owners.error));
    for (const os::PortListener &l : owners.listeners)
        portText << QStringLiteral("listener: %1%2%3")
                        .arg(l.pid > 0
                                 ? QStringLiteral("%1 (pid %2)").arg(programName(l.pid)).arg(l.pid)
                                 : QStringLiteral("an owner Tether cannot see"),
                             l.ipv6 ? QStringLiteral(", IPv6") : QStringLiteral(", IPv4"),
                             l.wildcard ? QStringLiteral(", all addresses") : QString());
    if (owners.ok && owners.listeners.empty()) portText << QStringLiteral("nobody listens");
    portText << QStringLiteral("127.0.0.1:%1: %2")
                    .arg(port)
                    .arg(QLatin1String(bindText(tryBindLoopback(quint16(port)))));
    out += section(QStringLiteral("Port %1").arg(port), portText.join(QLatin1Char('\n')));

    QStringList tree;
    if (servicePid > 0)
        for (const os::ProcessInfo &p : os::snapshotTree(os::Pid(servicePid)))
            tree << processLine(p);
    out += section(QStringLiteral("Service process tree"),
                   servicePid > 0 ? tree.join(QLatin1Char('\n'))
                                  : QStringLiteral("no service process known"));
    return redactSecrets(out, secrets);
}

int runVerb(const QStringList &args) {
    using console::Stream;
    const QString file = args.value(1);
    const QString usage = QStringLiteral(
        "usage: tether diagnostics FILE [--settings file]\n\nWrites one plain-text report for a "
        "bug (FILE - prints it): versions, OS, settings, status,\ntransitions, the last lines of "
        "Tether's and the service's logs, the registration, the port\nowner and the service's "
        "process tree. Passwords and tokens are removed. Works without a\nrunning Tether.");
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        console::writeLine(Stream::Out, usage);
        return cli::kExitOk;
    }
    if (file.isEmpty() || (file.startsWith(QLatin1Char('-')) && file != QLatin1String("-"))) {
        console::writeLine(Stream::Err, usage);
        return cli::kExitUsage;
    }
    QString settingsPath;
    const int at = int(args.indexOf(QStringLiteral("--settings")));
    if (at > 0) settingsPath = args.value(at + 1);

    QString report;
    const control::Reply reply = control::call({control::Verb::Diagnostics, {}}, 15000);
    switch (reply.status) {
    case control::Reply::Status::Ok:
        report = reply.body.value(QLatin1String("report")).toString();
        break;
    case control::Reply::Status::NotRunning:
        report = build({settingsPath, std::nullopt, QStringLiteral("not running"), {}});
        break;
    case control::Reply::Status::NotAnswering:
    case control::Reply::Status::NoAnswer:
    case control::Reply::Status::Error:
        report = build({settingsPath,
                        std::nullopt,
                        QStringLiteral("running but not answering: %1").arg(reply.error),
                        {}});
        break;
    }
    if (file == QLatin1String("-")) {
        console::writeLine(Stream::Out, report);
        return cli::kExitOk;
    }
    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(report.toUtf8()) < 0 || !out.commit()) {
        console::writeLine(Stream::Err,
                           QStringLiteral("tether diagnostics: cannot write %1").arg(file));
        return cli::kExitFailed;
    }
    console::writeLine(Stream::Out, QStringLiteral("diagnostics written to %1").arg(file));
    return cli::kExitOk;
}

} // namespace tether::diagnostics
