// "A list of arguments": the INI file and the Settings dialog read it with one parser, so what
// a person writes means the same in both; an argument with spaces survives a save and a load.
#include "settings/argument_list.h"
#include "settings/settings.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace tether;

class TestArgumentList : public QObject {
    Q_OBJECT

    static QStringList loadedArguments(const QByteArray &iniLine) {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tether.ini"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(path));
        f.write("[service]\n" + iniLine + "\n");
        f.close();
        return loadSettings(path).settings.arguments;
    }

private slots:
    void spacesSeparateAndQuotesGroup() {
        QCOMPARE(parseArgumentList(QStringLiteral("--mcp 3")).arguments,
                 (QStringList{"--mcp", "3"}));
        QCOMPARE(parseArgumentList(QStringLiteral("  --name \"my server\"  --x  ")).arguments,
                 (QStringList{"--name", "my server", "--x"}));
        QCOMPARE(parseArgumentList(QStringLiteral("--say \"a \\\"quoted\\\" word\"")).arguments,
                 (QStringList{"--say", "a \"quoted\" word"}));
        QCOMPARE(parseArgumentList(QStringLiteral("--empty \"\" x")).arguments,
                 (QStringList{"--empty", "", "x"}));
        QCOMPARE(parseArgumentList(QString()).arguments, QStringList());
        // Windows paths: backslashes are kept as they are.
        QCOMPARE(
            parseArgumentList(QStringLiteral("\"C:\\Program Files\\x\\y.exe\" C:\\t")).arguments,
            (QStringList{"C:\\Program Files\\x\\y.exe", "C:\\t"}));
    }

    void anUnclosedQuoteIsReported() {
        const ArgumentList a = parseArgumentList(QStringLiteral("--name \"my server"));
        QVERIFY(!a.error.isEmpty());
        QCOMPARE(a.arguments, (QStringList{"--name", "my server"}));
    }

    void joinIsTheInverse() {
        const QList<QStringList> cases = {
            {"--mcp", "3"}, {"--name", "my server"}, {"a \"b\" c", "", "C:\\x y\\z"}, {}};
        for (const QStringList &args : cases)
            QCOMPARE(parseArgumentList(joinArgumentList(args)).arguments, args);
    }

    // Found by fuzz_settings: an argument ending in a backslash came back with its quote open,
    // and one holding a newline came back as two.
    void joinRoundTripsEveryArgument() {
        const QStringList hard{QStringLiteral("C:\\dir with space\\"),
                               QStringLiteral("a\nb"),
                               QStringLiteral("x\\\""),
                               QStringLiteral("\\ \\"),
                               QString(),
                               QStringLiteral("tab\there"),
                               QString(QChar(0))};
        QCOMPARE(parseArgumentList(joinArgumentList(hard)).arguments, hard);
        // Seeded random arguments from the characters that matter to the syntax.
        const QString alphabet =
            QStringLiteral("ab\\\" \t\n\r\v,-=") + QChar(0) + QChar(0x2028) + QChar(0xa0);
        const quint32 seed = qEnvironmentVariableIsSet("TETHER_MODEL_SEED")
                                 ? quint32(qEnvironmentVariableIntValue("TETHER_MODEL_SEED"))
                                 : 20261201u;
        QRandomGenerator rng(seed);
        for (int round = 0; round < 20000; ++round) {
            QStringList args;
            for (int n = int(rng.bounded(5)); n > 0; --n) {
                QString a;
                for (int k = int(rng.bounded(8)); k > 0; --k)
                    a += alphabet.at(int(rng.bounded(quint32(alphabet.size()))));
                args << a;
            }
            const QString text = joinArgumentList(args);
            const ArgumentList back = parseArgumentList(text);
            QVERIFY2(back.error.isEmpty() && back.arguments == args,
                     qPrintable(QStringLiteral("seed %1 round %2: [%3] -> %4")
                                    .arg(seed)
                                    .arg(round)
                                    .arg(args.join(QStringLiteral("|")), text)));
        }
    }

    void theIniFileReadsWhatAPersonWrites() {
        // The issue: `arguments=--mcp 3` silently became one argument.
        QCOMPARE(loadedArguments("arguments=--mcp 3"), (QStringList{"--mcp", "3"}));
        // The comma list QSettings knows: each item is one argument, spaces kept.
        QCOMPARE(loadedArguments("arguments=--mcp, 3"), (QStringList{"--mcp", "3"}));
        QCOMPARE(loadedArguments("arguments=--name, my server"),
                 (QStringList{"--name", "my server"}));
        // Quotes inside a quoted INI value.
        QCOMPARE(loadedArguments("arguments=\"--name \\\"my server\\\" --mcp 2\""),
                 (QStringList{"--name", "my server", "--mcp", "2"}));
        QCOMPARE(loadedArguments("arguments="), QStringList());
    }

    void anUnclosedQuoteInTheIniFileWarnsAndKeepsTheDefault() {
        QMap<QString, QVariant> values{
            {QStringLiteral("service/arguments"), QStringLiteral("--name \"oops")}};
        const LoadedSettings loaded = settingsFromValues(values);
        QCOMPARE(loaded.settings.arguments, QStringList());
        QCOMPARE(loaded.warnings.size(), 1);
        QVERIFY(loaded.warnings.first().contains(QStringLiteral("service/arguments")));
    }

    void aSavedArgumentWithSpacesReadsBackAsOne() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tether.ini"));
        Settings s;
        s.arguments = QStringList{"--name", "my server", "--path", "C:\\a b\\c", "x,y"};
        QString error;
        QVERIFY2(saveSettings(path, s, &error), qPrintable(error));
        QCOMPARE(loadSettings(path).settings.arguments, s.arguments);
    }

    void theDialogsTextGoesThroughTheSameParser() {
        // SettingsDialog::values() hands the line edit's text to settingsFromValues.
        const LoadedSettings loaded =
            settingsFromValues({{QStringLiteral("service/arguments"),
                                 QStringLiteral("--name \"my server\" --mcp 3")}});
        QCOMPARE(loaded.settings.arguments, (QStringList{"--name", "my server", "--mcp", "3"}));
        QVERIFY(loaded.warnings.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestArgumentList)
#include "tst_argument_list.moc"
