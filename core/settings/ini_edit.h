// Changes written into an INI file's text as its owner wrote it: a changed key's line is
// rewritten in place (its inline "; comment" kept), a key not there yet goes at the end of its
// section (a section not there, at the end of the file), and every other line (comments, blank
// lines, keys and their order) stays as it was. QSettings itself rewrites the whole file in its
// own order and drops comments. Pure, over text.
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QVariant>

namespace tether {

// "group/key" and the value to write, as iniValueText gives it.
using IniChange = QPair<QString, QString>;
QByteArray editIni(const QByteArray &text, const QList<IniChange> &changes);

// A value as QSettings' INI format writes it and reads it back: true/false, numbers, strings
// with backslash escapes, quoted when they hold ; , = or start or end with a space.
QString iniValueText(const QVariant &value);

} // namespace tether
