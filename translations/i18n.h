// Tether in the person's language: its own catalogue (":/i18n/tether_<lang>.qm", built by
// translations/CMakeLists.txt) and Qt's for the standard dialogs, chosen from the system's UI
// languages. English, the language of the sources, needs only its plural forms.
#pragma once

#include <QString>

class QCoreApplication;

namespace tether::i18n {

// Installs the translators on app (which owns them) and returns the language chosen: "de", or
// "en" when no catalogue matches. TETHER_LANGUAGE names one instead of the system's: "de",
// "en", or "pseudo", the tests' pseudo-language (every string of the catalogue marked, see
// translations/pseudo_ts.cpp).
QString install(QCoreApplication *app);

// Of the UI languages a person asked for, in their order ("de-AT", "en-US", ...), the first
// one Tether has (`available`: "de", "pseudo"); "en" for English or when none is there.
QString chooseLanguage(const QStringList &wanted, const QStringList &available);

} // namespace tether::i18n
