// Text to the user's terminal, the same way for every verb, the help and the errors.
// Windows: tether.exe is a GUI program with no console of its own, and a console shows UTF-8
// bytes in its code page ("healthy \xc2\xb7 pid" as "healthy ? pid"), so a console gets UTF-16
// through WriteConsoleW and a file or pipe gets UTF-8 bytes. Elsewhere: UTF-8 bytes.
#pragma once

#include <QString>

namespace tether::console {

enum class Stream { Out, Err };

// For tether.exe's verbs: attach to the console of the shell that started us, and point
// stdout / stderr at it unless they already go to a file or pipe (`tether status > out.txt`,
// QProcess). Returns whether there is somewhere to write. No-op (true) elsewhere and in the
// console-subsystem tether-cli.exe, which is on a console already.
bool attachParentConsole();

// Writes text plus a newline, flushed.
void writeLine(Stream stream, const QString &text);

} // namespace tether::console
