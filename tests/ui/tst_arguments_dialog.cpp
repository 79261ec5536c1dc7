// The Settings dialog reads "a list of arguments" as the INI file does (one parser,
// settings/argument_list.h): what a person types there is saved and read back as the same
// arguments, quotes and all, and an unclosed quote is refused before anything is saved.
#include "settings/settings.h"
#include "ui/settings_dialog.h"

#include <QApplication>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QtTest>

using namespace tether;

class TestArgumentsDialog : public QObject {
    Q_OBJECT
private slots:
    void typedArgumentsSurviveASave() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tether.ini"));
        Settings applied;
        ui::SettingsDialog::Hooks hooks;
        hooks.apply = [&](const Settings &s) { applied = s; };
        ui::SettingsDialog d(Settings{}, path, hooks);
        auto *edit = qobject_cast<QLineEdit *>(d.field(QStringLiteral("service/arguments")));
        QVERIFY(edit);
        edit->setText(QStringLiteral("--mcp 3 --name \"my server\""));
        QVERIFY2(d.warnings().isEmpty(), qPrintable(d.warnings().join(QLatin1Char('\n'))));
        QVERIFY(d.trySave());
        const QStringList expected{"--mcp", "3", "--name", "my server"};
        QCOMPARE(applied.arguments, expected);
        QCOMPARE(loadSettings(path).settings.arguments, expected);

        // Opened again, the dialog shows what reads back as the same arguments.
        ui::SettingsDialog again(loadSettings(path).settings, path, hooks);
        auto *shown = qobject_cast<QLineEdit *>(again.field(QStringLiteral("service/arguments")));
        QCOMPARE(settingsFromValues({{QStringLiteral("service/arguments"), shown->text()}})
                     .settings.arguments,
                 expected);
    }

    void anUnclosedQuoteIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tether.ini"));
        ui::SettingsDialog d(Settings{}, path, {});
        auto *edit = qobject_cast<QLineEdit *>(d.field(QStringLiteral("service/arguments")));
        edit->setText(QStringLiteral("--name \"my server"));
        QVERIFY(!d.warnings().isEmpty());
        QVERIFY(d.warnings().first().contains(QStringLiteral("service/arguments")));
        QVERIFY(!d.trySave());
        QVERIFY(!QFile::exists(path));
    }
};

QTEST_MAIN(TestArgumentsDialog)
#include "tst_arguments_dialog.moc"
