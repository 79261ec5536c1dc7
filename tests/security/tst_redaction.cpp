// No password or token leaves in a diagnostics report: known secrets wherever they appear, and
// values that text names as secrets even when Tether did not know them.
#include "service/redaction.h"

#include <QElapsedTimer>
#include <QtTest>

using namespace tether;

class TestRedaction : public QObject {
    Q_OBJECT
private slots:
    void knownSecretsGoWherever() {
        const QString pass = QStringLiteral("Zq8-planted-Secret");
        const QString text = QStringLiteral("env OPENCODE_SERVER_PASSWORD set; argv: serve "
                                            "--pw=%1 and again %1.")
                                 .arg(pass);
        const QString out = redactSecrets(text, {pass});
        QVERIFY2(!out.contains(pass), qPrintable(out));
        QVERIFY(out.contains(QLatin1String(kRedacted)));
        QVERIFY(out.startsWith(QStringLiteral("env OPENCODE_SERVER_PASSWORD")));
    }

    void shortValuesAreNotBlankedEverywhere() {
        const QString out = redactSecrets(QStringLiteral("port 4096, pid 1"), {"1", ""});
        QCOMPARE(out, QStringLiteral("port 4096, pid 1"));
    }

    void namedSecretsLoseTheirValue_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("secret");
        QTest::newRow("json") << "{\"pid\": 12, \"password\": \"unknown-pw-1\", \"port\": 4096}"
                              << "unknown-pw-1";
        QTest::newRow("json-escaped") << "{\"apiToken\": \"tok\\\"en-2\"}"
                                      << "en-2";
        QTest::newRow("ini") << "OPENCODE_SERVER_PASSWORD=unknown-pw-3"
                             << "unknown-pw-3";
        QTest::newRow("argv") << "opencode serve --password unknown-pw-4 --port 1"
                              << "unknown-pw-4";
        QTest::newRow("colon") << "api_key: unknown-key-5"
                               << "unknown-key-5";
        QTest::newRow("basic") << "Authorization: Basic b3BlbmNvZGU6c2VjcmV0"
                               << "b3BlbmNvZGU6c2";
        QTest::newRow("bearer") << "authorization=Bearer abc.def.ghi"
                                << "abc.def.ghi";
        QTest::newRow("url") << "GET http://opencode:unknown-pw-6@127.0.0.1:4096/"
                             << "unknown-pw-6";
        // Quoted values went out verbatim (issue 26): only unquoted ones were removed.
        QTest::newRow("env double-quoted") << "ANTHROPIC_KEY=\"sk-ant-unknown-7 with space\""
                                           << "sk-ant-unknown-7";
        QTest::newRow("env single-quoted") << "export OPENAI_KEY='sk-unknown-8'"
                                           << "sk-unknown-8";
        QTest::newRow("argv double-quoted") << "opencode serve --password \"unknown pw 9\" --port 1"
                                            << "unknown pw 9";
        QTest::newRow("argv single-quoted") << "run --token 'unknown-tok-10'"
                                            << "unknown-tok-10";
        QTest::newRow("bare KEY") << "KEY=\"sk-unknown-11\""
                                  << "sk-unknown-11";
        QTest::newRow("quoted escape") << "SECRET=\"abc\\\"def-unknown-12\""
                                       << "def-unknown-12";
    }
    void namedSecretsLoseTheirValue() {
        QFETCH(QString, text);
        QFETCH(QString, secret);
        const QString out = redactSecrets(text, {});
        QVERIFY2(!out.contains(secret), qPrintable(out));
        QVERIFY2(out.contains(QLatin1String(kRedacted)), qPrintable(out));
    }

    void theRestIsKept() {
        const QString text = QStringLiteral("state healthy -> not-responding: probe timed out\n"
                                            "port 4096 is held by python3 (pid 1234)\n"
                                            "monkey business: keyboard layout \"us\"");
        QCOMPARE(redactSecrets(text, {QStringLiteral("unrelated-secret")}), text);
    }

    void aHugeHostileLogIsRedactedQuickly() {
        // Copy diagnostics runs on the GUI thread: a pathological log must not freeze the tray.
        QString text;
        for (int i = 0; i < 20000; ++i)
            text += QStringLiteral("a.b-c\"d ");
        text += QStringLiteral(" password=hidden-value-77");
        QElapsedTimer t;
        t.start();
        const QString out = redactSecrets(text, {QStringLiteral("zzzz-not-there")});
        qInfo("redacted %lld characters in %lld ms", qint64(text.size()), t.elapsed());
        QVERIFY(t.elapsed() < 2000);
        QVERIFY(!out.contains(QStringLiteral("hidden-value-77")));
    }

    void unclosedQuotesAreRedactedQuickly() {
        QString text;
        for (int i = 0; i < 20000; ++i)
            text += QStringLiteral("KEY=\"x ");
        text += QStringLiteral(" --password 'hidden-value-78'");
        QElapsedTimer t;
        t.start();
        const QString out = redactSecrets(text, {});
        qInfo("redacted %lld characters of unclosed quotes in %lld ms", qint64(text.size()),
              t.elapsed());
        QVERIFY(t.elapsed() < 2000);
        QVERIFY(!out.contains(QStringLiteral("hidden-value-78")));
    }

    void secretNamesInTheEnvironment() {
        QVERIFY(secretName(QStringLiteral("OPENCODE_SERVER_PASSWORD")));
        QVERIFY(secretName(QStringLiteral("GITHUB_TOKEN")));
        QVERIFY(secretName(QStringLiteral("ANTHROPIC_API_KEY")));
        QVERIFY(!secretName(QStringLiteral("PATH")));
        QVERIFY(!secretName(QStringLiteral("HOME")));
        QProcessEnvironment env;
        env.insert(QStringLiteral("MY_SECRET"), QStringLiteral("s3cr3t-value"));
        env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
        QCOMPARE(secretValues(env), QStringList{QStringLiteral("s3cr3t-value")});
    }
};

QTEST_GUILESS_MAIN(TestRedaction)
#include "tst_redaction.moc"
