#include "service/login_path.h"

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QStringList>
#include <algorithm>

#ifdef Q_OS_UNIX
#include <csignal>
#include <pwd.h>
#include <unistd.h>
#endif

namespace tether {

std::optional<QString> extractMarkedPath(const QByteArray &output) {
    // The last begin marker: an rc file that echoes its own PATH cannot fake the markers
    // after ours, and our printf is the last thing the shell runs.
    const int begin = output.lastIndexOf(kPathBegin);
    if (begin < 0) return std::nullopt;
    const int from = begin + int(sizeof(kPathBegin) - 1);
    const int end = output.indexOf(kPathEnd, from);
    if (end < 0) return std::nullopt;
    const QString value = QString::fromUtf8(output.mid(from, end - from));
    for (const QChar c : value)
        if (c.category() == QChar::Other_Control) return std::nullopt;
    bool anyAbsolute = false;
    for (const QString &dir : value.split(QLatin1Char(':'), Qt::SkipEmptyParts))
        anyAbsolute = anyAbsolute || dir.startsWith(QLatin1Char('/'));
    if (!anyAbsolute) return std::nullopt;
    return value;
}

QString mergePath(const QString &login, const QString &inherited) {
    QStringList dirs;
    for (const QString &dir :
         (login + QLatin1Char(':') + inherited).split(QLatin1Char(':'), Qt::SkipEmptyParts))
        if (!dirs.contains(dir)) dirs << dir; // rc files that add a directory twice, too
    return dirs.join(QLatin1Char(':'));
}

QString loginShell() {
    const QString env = qEnvironmentVariable("SHELL");
    if (!env.isEmpty()) return env;
#ifdef Q_OS_UNIX
    if (const passwd *pw = ::getpwuid(::getuid()); pw && pw->pw_shell && *pw->pw_shell)
        return QString::fromLocal8Bit(pw->pw_shell);
#endif
    return QStringLiteral("/bin/sh");
}

namespace {

enum class Attempt { Ok, Failed, TimedOut };

Attempt runShell(const LoginShellQuery &q, const QStringList &flags, QString *value, QString *why) {
    QProcess p;
    p.setProgram(q.shell);
    const QString script = QStringLiteral("printf '%1%s%2\\n' \"$PATH\"")
                               .arg(QLatin1String(kPathBegin), QLatin1String(kPathEnd));
    p.setArguments(flags + QStringList{script});
    p.setStandardInputFile(QProcess::nullDevice()); // an interactive shell must not wait on us
    p.setStandardErrorFile(QProcess::nullDevice()); // "no job control" and other tty chatter
#ifdef Q_OS_UNIX
    // Its own session: no terminal to grab, and what its rc files start dies with its group.
    p.setChildProcessModifier([] { ::setsid(); });
#endif
    const QString how = q.shell + QLatin1Char(' ') + flags.join(QLatin1Char(' '));
    QElapsedTimer clock;
    clock.start();
    p.start();
    if (!p.waitForStarted(q.timeoutMs)) {
        *why = QStringLiteral("%1: %2").arg(how, p.errorString());
        return Attempt::Failed;
    }
    [[maybe_unused]] const qint64 pid = p.processId(); // Windows kills no group
    QByteArray out;
    bool overran = false;
    bool tooMuch = false;
    while (p.state() != QProcess::NotRunning) {
        const qint64 left = q.timeoutMs - clock.elapsed();
        if (left <= 0) {
            overran = true;
            break;
        }
        // Output, exit or the deadline; false at once when stdout is closed: wait for the exit.
        if (!p.waitForReadyRead(int(left))) p.waitForFinished(int(std::max<qint64>(1, left)));
        out += p.readAllStandardOutput();
        if (out.size() > q.maxOutput) {
            tooMuch = true;
            break;
        }
    }
    if (overran || tooMuch) {
#ifdef Q_OS_UNIX
        // The group our own child leads (setsid above). Its id is not reused while the child
        // runs, nor while anything it started is left in the group.
        if (p.state() != QProcess::NotRunning) ::kill(-pid, SIGKILL);
#endif
        p.kill();
        p.waitForFinished(1000);
        *why = overran ? QStringLiteral("%1 gave no PATH within %2 ms").arg(how).arg(q.timeoutMs)
                       : QStringLiteral("%1 printed more than %2 bytes").arg(how).arg(q.maxOutput);
        return overran ? Attempt::TimedOut : Attempt::Failed;
    }
    out += p.readAllStandardOutput();
    if (const std::optional<QString> path = extractMarkedPath(out)) {
        *value = *path;
        return Attempt::Ok;
    }
    *why = QStringLiteral("%1 printed no PATH (exit %2)").arg(how).arg(p.exitCode());
    return Attempt::Failed;
}

} // namespace

std::optional<QString> queryLoginShellPath(const LoginShellQuery &query, QString *why) {
    QString value;
    QString interactiveWhy;
    if (runShell(query, {QStringLiteral("-l"), QStringLiteral("-i"), QStringLiteral("-c")}, &value,
                 &interactiveWhy) == Attempt::Ok)
        return value;
    // Some shells refuse -i without a terminal, or an interactive rc file hangs: login only.
    QString loginWhy;
    if (runShell(query, {QStringLiteral("-l"), QStringLiteral("-c")}, &value, &loginWhy) ==
        Attempt::Ok)
        return value;
    if (why) *why = interactiveWhy + QStringLiteral("; ") + loginWhy;
    return std::nullopt;
}

bool loginShellPathEnabled() {
    const QByteArray env = qgetenv("TETHER_LOGIN_SHELL_PATH");
    if (env == "1") return true;
    if (env == "0") return false;
#ifdef Q_OS_MACOS
    return true;
#else
    return false;
#endif
}

ServicePath resolveServicePath(bool enabled, const LoginShellQuery &query) {
    const QString inherited = qEnvironmentVariable("PATH");
    ServicePath out{QStringLiteral("inherited"), inherited, QString()};
#ifdef Q_OS_UNIX
    if (!enabled) return out;
    QString why;
    if (const std::optional<QString> login = queryLoginShellPath(query, &why)) {
        out.source = QStringLiteral("login shell ") + query.shell;
        out.value = mergePath(*login, inherited);
    } else {
        out.note = why;
    }
#else
    (void)enabled; // Windows programs get the user's PATH from the registry, not a shell
    (void)query;
#endif
    return out;
}

void applyServicePath(const ServicePath &path) {
    if (path.value != qEnvironmentVariable("PATH")) qputenv("PATH", path.value.toLocal8Bit());
}

} // namespace tether
