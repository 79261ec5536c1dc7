// Secrets never leave in a diagnostics report: the passwords Tether knows (its registration,
// opencode 2.x's service.json, the environment) are replaced wherever they appear, and text
// that names a secret (password=..., "password": "...", Authorization: Basic ..., user:pass@)
// loses the value even when Tether did not know it.
#pragma once

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace tether {

inline constexpr char kRedacted[] = "[redacted]";

// Pure. secrets: exact values to remove (empty and very short ones are ignored: "1" would
// blank out every digit).
QString redactSecrets(const QString &text, const QStringList &secrets);

// Is this environment variable's value a secret by its name? PASSWORD, TOKEN, SECRET, KEY,
// AUTH, CREDENTIAL anywhere in it.
bool secretName(const QString &name);
// The values of the environment variables secretName() picks.
QStringList secretValues(const QProcessEnvironment &env);

} // namespace tether
