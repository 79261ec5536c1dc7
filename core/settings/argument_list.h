// "A list of arguments" as a person writes it, in the INI file and in the Settings dialog:
// one parser, so `arguments=--mcp 3` means the same in both places.
//
// Syntax: arguments are separated by spaces; "double quotes" keep spaces (and commas) inside
// one argument; \" is a quote inside an argument; any other backslash is kept as it is, so
// Windows paths need no doubling. "" is an empty argument.
// In the INI file a comma-separated value (`arguments=--mcp, 3`) is also accepted, as QSettings
// reads it: each item is then one argument, as written.
#pragma once

#include <QString>
#include <QStringList>
#include <QVariant>

namespace tether {

struct ArgumentList {
    QStringList arguments;
    QString error; // non-empty: an unclosed quote (the arguments are read as if closed)
};

ArgumentList parseArgumentList(const QString &text);
// The inverse: quoted where needed, so parseArgumentList(joinArgumentList(a)) == a.
QString joinArgumentList(const QStringList &arguments);
// What QSettings gives for the key: a string (parsed) or a list (each item one argument).
ArgumentList argumentsFromSetting(const QVariant &value);

} // namespace tether
