// The PATH the service gets. An app started from Finder or launchd inherits
// PATH=/usr/bin:/bin:/usr/sbin:/sbin, so opencode in /opt/homebrew/bin or an npm prefix is not
// found and npx-based MCP entries fail inside the service ("spawn npx ENOENT"). The user's login
// shell knows the real PATH: it is asked once at start, bounded by a timeout and an output cap.
// Portable POSIX code, on by default on macOS only (TETHER_LOGIN_SHELL_PATH=1/0 overrides).
#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

namespace tether {

struct ServicePath {
    QString source; // "login shell /bin/zsh" | "inherited"
    QString value;  // the PATH itself
    QString note;   // why the login shell's PATH was not used; empty when it was or not asked
};

inline constexpr char kPathBegin[] = "__TETHER_PATH_BEGIN__";
inline constexpr char kPathEnd[] = "__TETHER_PATH_END__";

// Pure: the PATH printed between the markers in a shell's output, which may carry anything an
// rc file echoes before or after. Empty when the markers are missing or what lies between them
// is no PATH (no absolute directory, control characters).
std::optional<QString> extractMarkedPath(const QByteArray &output);
// Pure: the login shell's PATH first, then the inherited directories it lacks, so nothing that
// was found before is lost.
QString mergePath(const QString &login, const QString &inherited);

// $SHELL, else the user's shell from the password database (getpwuid), else /bin/sh.
QString loginShell();

struct LoginShellQuery {
    QString shell;
    int timeoutMs = 3000;         // for each of the two attempts (-l -i -c, then -l -c)
    qint64 maxOutput = 64 * 1024; // more than this from an rc file is not a PATH: given up
};
// Runs the shell (interactive login first, where zsh users set PATH in .zshrc; then login
// only) printing PATH between markers. The shell leads its own session and is killed with its
// group when it overruns. Empty, with *why, when neither attempt gave a PATH.
std::optional<QString> queryLoginShellPath(const LoginShellQuery &query, QString *why);

// Whether this platform asks the login shell by default (macOS), with the environment override.
bool loginShellPathEnabled();
// Asks the login shell when enabled and merges its PATH with the inherited one; else inherited.
ServicePath resolveServicePath(bool enabled, const LoginShellQuery &query);
// Puts the PATH into Tether's own environment: the service (QProcessEnvironment::
// systemEnvironment) and the lookups of its program and of opencode all use it.
void applyServicePath(const ServicePath &path);

} // namespace tether
