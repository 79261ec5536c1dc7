// The catalogue's context for words outside a QObject: Words::tr("...") in free functions and
// plain structs (lupdate reads it as the class's tr, context "Tether"), and the phrases core/policy
// marks with TETHER_WORDS, looked up when they are shown.
#pragma once

#include <QCoreApplication>
#include <QString>

#include <string>

namespace tether {

struct Words {
    Q_DECLARE_TR_FUNCTIONS(Tether)
};

// A phrase core/policy returned (marked with TETHER_WORDS), in the person's language.
inline QString phrase(const char *english) {
    return QCoreApplication::translate("Tether", english);
}
inline QString phrase(const std::string &english) {
    return phrase(english.c_str());
}

} // namespace tether
