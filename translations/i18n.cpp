#include "i18n.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace tether::i18n {

namespace {

bool load(QCoreApplication *app, const QString &file, const QString &dir) {
    auto *t = new QTranslator(app);
    if (!t->load(file, dir)) {
        delete t;
        return false;
    }
    QCoreApplication::installTranslator(t);
    return true;
}

} // namespace

QString chooseLanguage(const QStringList &wanted, const QStringList &available) {
    for (const QString &language : wanted) {
        const QString code =
            language.section(QLatin1Char('-'), 0, 0).section(QLatin1Char('_'), 0, 0).toLower();
        if (code == QLatin1String("en")) return code;
        if (available.contains(code)) return code;
    }
    return QStringLiteral("en");
}

QString install(QCoreApplication *app) {
    // English plural forms first: a later translator is asked first, and falls back to these.
    load(app, QStringLiteral("tether_en"), QStringLiteral(":/i18n"));
    QStringList available;
    // Filtered by hand: a name filter compiles a regular expression, which would load and JIT
    // PCRE2 into every Tether for one listing (issue 28).
    for (const QString &qm : QDir(QStringLiteral(":/i18n")).entryList(QDir::Files))
        if (qm.startsWith(QLatin1String("tether_")) && qm.endsWith(QLatin1String(".qm")))
            available << qm.mid(int(qstrlen("tether_"))).section(QLatin1Char('.'), 0, 0);
    const QString forced = qEnvironmentVariable("TETHER_LANGUAGE");
    const QString code = chooseLanguage(
        forced.isEmpty() ? QLocale::system().uiLanguages() : QStringList{forced}, available);
    if (code == QLatin1String("en")) return code;
    if (!load(app, QStringLiteral("tether_") + code, QStringLiteral(":/i18n")))
        return QStringLiteral("en");
    // A language asked for by name writes its numbers too ("18,0 MiB" in German, not "18.0").
    if (!forced.isEmpty()) QLocale::setDefault(QLocale(code));
    // Qt's own words (standard buttons, a text field's context menu), where installed.
    load(app, QStringLiteral("qtbase_") + code, QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    return code;
}

} // namespace tether::i18n
