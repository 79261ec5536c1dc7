// The settings and orphan dialogs as a person sees them, offscreen: settings on pages by task
// with human labels, units, ranges from core/settings and a line of help each; a refused value
// named in plain words with nothing lost; orphans by the program a person started; the result
// of a clean-up; Tether's icon on each. Screenshots land in ui-shots/ beside the binary (run
// with QT_SCALE_FACTOR=2 for the 2x ones).
#include "i18n.h"
#include "settings/settings.h"
#include "ui/about_dialog.h"
#include "ui/app_icon.h"
#include "ui/orphan_dialog.h"
#include "ui/settings_dialog.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace tether;

namespace {

QString outDir() {
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/ui-shots");
    QDir().mkpath(dir);
    return dir;
}

QString shotName(const char *what) {
    const QByteArray scale = qgetenv("QT_SCALE_FACTOR");
    return outDir() + QStringLiteral("/dialog-%1-%2x")
                          .arg(QLatin1String(what),
                               scale.isEmpty() ? QStringLiteral("1") : QString::fromLatin1(scale));
}

// The keys of one settings page, in the order the form shows them.
QStringList keysOnPage(ui::SettingsDialog &d, int page) {
    auto *stack = d.findChild<QStackedWidget *>();
    auto *form = stack->widget(page)->findChild<QFormLayout *>();
    QStringList keys;
    for (int r = 0; r < form->rowCount(); ++r)
        // A spanning row (a check box) answers for the field role too: one key per row.
        if (QLayoutItem *item = form->itemAt(r, QFormLayout::FieldRole))
            if (item->widget() && item->widget()->objectName().contains(QLatin1Char('/')))
                keys << item->widget()->objectName();
    return keys;
}

// The help line under a field: the next row of its form, a label of its own.
QString helpFor(ui::SettingsDialog &d, const QString &key) {
    QWidget *field = d.field(key);
    for (auto *form : d.findChildren<QFormLayout *>()) {
        int row = -1;
        QFormLayout::ItemRole role;
        form->getWidgetPosition(field, &row, &role);
        if (row < 0) continue;
        QLayoutItem *next = form->itemAt(row + 1, QFormLayout::SpanningRole);
        auto *help = next ? qobject_cast<QLabel *>(next->widget()) : nullptr;
        return help ? help->text() : QString();
    }
    return {};
}

// The label as shown, its mnemonic's & left out.
QString shownLabel(ui::SettingsDialog &d, const QString &key) {
    QWidget *field = d.field(key);
    if (auto *box = qobject_cast<QCheckBox *>(field))
        return QString(box->text()).remove(QLatin1Char('&'));
    for (auto *form : d.findChildren<QFormLayout *>())
        if (auto *label = qobject_cast<QLabel *>(form->labelForField(field)))
            return QString(label->text()).remove(QLatin1Char('&'));
    return {};
}

QPushButton *saveButton(ui::SettingsDialog &d) {
    for (QPushButton *b : d.findChild<QDialogButtonBox *>()->findChildren<QPushButton *>())
        if (b->text() == QLatin1String("&Save")) return b;
    return nullptr;
}

// As a person sees it: laid out for what it now holds, then grabbed.
void shoot(QWidget &w, const char *what) {
    w.layout()->activate();
    QVERIFY(w.grab().save(shotName(what) + QStringLiteral(".png")));
}

void grabPages(ui::SettingsDialog &d, const char *prefix) {
    auto *list = d.findChild<QListWidget *>();
    auto *stack = d.findChild<QStackedWidget *>();
    for (int i = 0; i < list->count(); ++i) {
        list->setCurrentRow(i);
        d.layout()->activate();
        // Every help line gets the height its wrapped text needs: the page scrolls rather than
        // squeezing rows into each other.
        auto *page = qobject_cast<QScrollArea *>(stack->currentWidget());
        QTRY_VERIFY(page->widget()->height() >=
                    page->widget()->layout()->totalHeightForWidth(page->viewport()->width()));
        // What does not fit can be scrolled to.
        if (page->widget()->height() > page->viewport()->height()) {
            QTRY_VERIFY2(page->verticalScrollBar()->isVisible(), qPrintable(list->item(i)->text()));
            QCOMPARE(page->verticalScrollBar()->maximum(),
                     page->widget()->height() - page->viewport()->height());
        }
        for (QLabel *help : page->widget()->findChildren<QLabel *>())
            if (help->wordWrap())
                QVERIFY2(help->height() >= help->heightForWidth(help->width()),
                         qPrintable(help->text()));
        QVERIFY(d.grab().save(shotName(prefix) + QStringLiteral("-page%1.png").arg(i + 1)));
    }
    list->setCurrentRow(0);
}

} // namespace

class TstDialogs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qputenv("TETHER_LANGUAGE", "en");
        QCOMPARE(i18n::install(qApp), QStringLiteral("en"));
    }

    // Issue 27 (7): what most people set is in view (the service, Startup with Start at login,
    // the MCP servers); the tuning is behind "Show advanced settings"; no page scrolls at 1x.
    void settingsArePagesByTask() {
        ui::SettingsDialog d(Settings{}, QString(), {});
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        QCOMPARE(d.pageTitles(), (QStringList{QStringLiteral("General"), QStringLiteral("Startup"),
                                              QStringLiteral("MCP servers")}));
        // What to run comes first, not in alphabetical order ("Arguments" first, as before).
        QCOMPARE(
            keysOnPage(d, 0),
            (QStringList{QStringLiteral("service/profile"), QStringLiteral("service/program"),
                         QStringLiteral("service/arguments"), QStringLiteral("service/port")}));
        // Start at login on its page, beside what happens when Tether starts and quits.
        QVERIFY(d.startAtLoginBox());
        QVERIFY(d.findChild<QStackedWidget *>()->widget(1)->isAncestorOf(d.startAtLoginBox()));
        QVERIFY(keysOnPage(d, 2).contains(QStringLiteral("mcp/memoryWarnMiB")));
        // No tuning in view until asked for.
        for (const char *tuning :
             {"recovery/burst", "recovery/backoffInitialMs", "probe/timeoutMs"})
            QVERIFY2(!keysOnPage(d, 0).contains(QLatin1String(tuning)) &&
                         !keysOnPage(d, 1).contains(QLatin1String(tuning)) &&
                         !keysOnPage(d, 2).contains(QLatin1String(tuning)),
                     tuning);
        d.advancedBox()->setChecked(true);
        QCOMPARE(d.pageTitles().mid(3),
                 (QStringList{QStringLiteral("Recovery"), QStringLiteral("Health checks"),
                              QStringLiteral("Other")}));
        QCOMPARE(keysOnPage(d, 3).mid(0, 2), (QStringList{QStringLiteral("recovery/windowMs"),
                                                          QStringLiteral("recovery/burst")}));
        // Every setting is on exactly one page.
        QStringList all;
        for (int p = 0; p < d.pageTitles().size(); ++p)
            all += keysOnPage(d, p);
        QStringList expected = settingsToValues(Settings{}).keys();
        std::sort(all.begin(), all.end());
        QCOMPARE(all, expected);
        // No tabs behind scroll arrows: the page list shows every page in the dialog's width.
        auto *list = d.findChild<QListWidget *>();
        for (int i = 0; i < list->count(); ++i)
            QVERIFY(list->visualItemRect(list->item(i)).right() <= list->viewport()->width());
        QVERIFY(d.width() <= 640);
        QVERIFY(d.screen()->availableGeometry().contains(d.frameGeometry()));
        // At 1x (a screen with room) no page scrolls.
        if (d.screen()->devicePixelRatio() == 1.0 && d.screen()->availableSize().height() >= 700) {
            auto *stack = d.findChild<QStackedWidget *>();
            for (int i = 0; i < list->count(); ++i) {
                list->setCurrentRow(i);
                d.layout()->activate();
                auto *page = qobject_cast<QScrollArea *>(stack->currentWidget());
                QTRY_VERIFY2(!page->verticalScrollBar()->isVisible(),
                             qPrintable(list->item(i)->text()));
            }
        }
        grabPages(d, "settings");
    }

    void settingsSpeakAPersonsLanguage() {
        ui::SettingsDialog d(Settings{}, QString(), {});
        for (const QString &key : settingsToValues(Settings{}).keys()) {
            const QString name = key.section(QLatin1Char('/'), 1);
            const QString label = shownLabel(d, key);
            QVERIFY2(!label.isEmpty(), qPrintable(key));
            QVERIFY2(label.startsWith(d.label(key)), qPrintable(label));
            // Not the INI key spelt out ("Burst", "Stable reset (ms)", as the form had them) unless
            // that already is a plain word, nor a unit in the label.
            QString spelt = name;
            spelt.replace(QRegularExpression(QStringLiteral("(Ms|MiB|Minutes)$")), QString());
            spelt.replace(QRegularExpression(QStringLiteral("([a-z])([A-Z])")),
                          QStringLiteral("\\1 \\2"));
            const bool plainAlready =
                key == QLatin1String("service/port") || key == QLatin1String("service/program");
            QVERIFY2(plainAlready || d.label(key).compare(spelt, Qt::CaseInsensitive) != 0,
                     qPrintable(label));
            QVERIFY2(name == name.toLower() || !label.contains(name),
                     qPrintable(label)); // camelCase
            QVERIFY2(!label.contains(QStringLiteral("(ms)")), qPrintable(label));
            QVERIFY2(!label.contains(QLatin1Char('/')), qPrintable(label));
            QVERIFY2(helpFor(d, key).size() > 20, qPrintable(key));
        }
        QCOMPARE(d.label(QStringLiteral("recovery/burst")),
                 QStringLiteral("Restarts before giving up"));
        QCOMPARE(d.label(QStringLiteral("recovery/windowMs")),
                 QStringLiteral("Wait for a busy service"));
        // Fixed choices in words, the file's text behind them.
        auto *profile = qobject_cast<QComboBox *>(d.field(QStringLiteral("service/profile")));
        QVERIFY(profile->currentText().startsWith(QStringLiteral("Automatic")));
        QCOMPARE(profile->currentData().toString(), QStringLiteral("auto"));
        // What only another kind of service reads is greyed out, and kept.
        QWidget *health = d.field(QStringLiteral("service/healthPath"));
        QVERIFY(!health->isEnabled());
        profile->setCurrentIndex(profile->findData(QStringLiteral("custom")));
        QVERIFY(health->isEnabled());
        QVERIFY(!d.field(QStringLiteral("service/stateDir"))->isEnabled());
        QCOMPARE(d.values().value(QStringLiteral("service/healthPath")).toString(), QString());
        auto *whileRunning =
            qobject_cast<QComboBox *>(d.field(QStringLiteral("orphans/whileRunning")));
        QCOMPARE(whileRunning->currentText(), QStringLiteral("End them"));
    }

    void settingsHaveUnitsAndTheValidationsRanges() {
        ui::SettingsDialog d(Settings{}, QString(), {});
        int timed = 0;
        for (const QString &key : settingsToValues(Settings{}).keys()) {
            const std::optional<SettingRange> range = settingRange(key);
            if (!range) continue;
            if (key.endsWith(QLatin1String("Ms"))) {
                auto *spin = qobject_cast<QDoubleSpinBox *>(d.field(key));
                QVERIFY2(spin, qPrintable(key));
                QCOMPARE(spin->suffix(), QStringLiteral(" s"));
                QCOMPARE(qint64(std::llround(spin->minimum() * 1000)), range->min);
                QCOMPARE(qint64(std::llround(spin->maximum() * 1000)), range->max);
                ++timed;
            } else {
                auto *spin = qobject_cast<QSpinBox *>(d.field(key));
                QVERIFY2(spin, qPrintable(key));
                QCOMPARE(qint64(spin->minimum()), range->min);
                QCOMPARE(qint64(spin->maximum()), range->max);
            }
        }
        QVERIFY(timed >= 10);
        auto text = [&](const char *key) {
            return qobject_cast<QAbstractSpinBox *>(d.field(QLatin1String(key)))->text();
        };
        QCOMPARE(text("recovery/stableResetMs"), QStringLiteral("600 s"));
        QCOMPARE(text("probe/timeoutMs"), QStringLiteral("2 s"));
        QCOMPARE(text("orphans/graceMs"), QStringLiteral("0.5 s"));
        QCOMPARE(text("mcp/memoryWarnMiB"), QStringLiteral("1024 MiB"));
        QCOMPARE(text("mcp/cpuBusyMinutes"), QStringLiteral("10 min"));
        QCOMPARE(text("service/port"), QStringLiteral("4096"));

        // A port past the range cannot even be typed.
        auto *port = qobject_cast<QSpinBox *>(d.field(QStringLiteral("service/port")));
        port->selectAll();
        QTest::keyClicks(port, QStringLiteral("99999"));
        QVERIFY(port->value() <= 65535);
        QVERIFY(port->value() != 99999);

        // A value the file holds to the millisecond is shown and kept as it is.
        Settings odd;
        odd.timings.probeTimeoutMs = 1234;
        ui::SettingsDialog e(odd, QString(), {});
        QCOMPARE(
            qobject_cast<QAbstractSpinBox *>(e.field(QStringLiteral("probe/timeoutMs")))->text(),
            QStringLiteral("1.234 s"));
        QCOMPARE(e.values().value(QStringLiteral("probe/timeoutMs")).toLongLong(), 1234);
    }

    void aRefusedValueIsNamedForAPersonAndNothingIsLost() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tether.ini"));
        int applied = 0;
        ui::SettingsDialog::Hooks hooks;
        hooks.apply = [&](const Settings &) { ++applied; };
        ui::SettingsDialog d(Settings{}, path, hooks);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        QVERIFY(d.problems().isEmpty());
        QPushButton *save = saveButton(d);
        QVERIFY(save && save->isEnabled());

        qobject_cast<QSpinBox *>(d.field(QStringLiteral("service/port")))->setValue(4100);
        qobject_cast<QLineEdit *>(d.field(QStringLiteral("service/arguments")))
            ->setText(QStringLiteral("--busy-after 100 \"--label=a b\""));
        // Shorter than the 2 s a health check may take: one slow answer would spend it all.
        qobject_cast<QDoubleSpinBox *>(d.field(QStringLiteral("recovery/windowMs")))->setValue(1.0);
        const QStringList problems = d.problems();
        QCOMPARE(problems.size(), 1);
        const QString &message = problems.first();
        QVERIFY2(message.contains(QStringLiteral("Wait for a busy service")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("Answer expected within")), qPrintable(message));
        // Each setting with its own page (issue 27 verification D10: the message named the first
        // one's page for both, and the second sits elsewhere).
        QVERIFY2(message.contains(QStringLiteral("“Wait for a busy service” (Recovery)")),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("“Answer expected within” (%1)")
                                      .arg(d.pageTitle(QStringLiteral("probe/timeoutMs")))),
                 qPrintable(message));
        QVERIFY(d.pageTitle(QStringLiteral("probe/timeoutMs")) != QStringLiteral("Recovery"));
        for (const char *logWord : {"windowMs", "recovery/", "setting", "ignored", "default", "ms"})
            QVERIFY2(!message.contains(QLatin1String(logWord)), qPrintable(message));
        // The person sees it, in the dialog, and cannot save; the advanced pages where it is
        // are shown, and the line under the field itself says what is wrong.
        QVERIFY(d.advancedBox()->isChecked());
        bool shown = false;
        for (QLabel *l : d.findChildren<QLabel *>())
            shown |= l->isVisible() &&
                     l->text().contains(QStringLiteral("Wait for a busy service")) &&
                     l->text().contains(QStringLiteral("use it all up"));
        QVERIFY(shown);
        QVERIFY2(helpFor(d, QStringLiteral("recovery/windowMs"))
                     .contains(QStringLiteral("use it all up")),
                 qPrintable(helpFor(d, QStringLiteral("recovery/windowMs"))));
        QVERIFY(d.field(QStringLiteral("recovery/windowMs"))
                    ->accessibleDescription()
                    .contains(QStringLiteral("use it all up")));
        // Issue 27 (7): the field keeps its look: a style sheet on it took its arrows away.
        auto *window = qobject_cast<QDoubleSpinBox *>(d.field(QStringLiteral("recovery/windowMs")));
        QVERIFY(window->styleSheet().isEmpty());
        QCOMPARE(window->buttonSymbols(), QAbstractSpinBox::UpDownArrows);
        QVERIFY(!save->isEnabled());
        shoot(d, "settings-refused");
        QVERIFY(!d.trySave());
        QVERIFY(!QFile::exists(path));
        QCOMPARE(applied, 0);
        // Nothing the person typed is lost.
        QCOMPARE(qobject_cast<QSpinBox *>(d.field(QStringLiteral("service/port")))->value(), 4100);
        QCOMPARE(
            qobject_cast<QDoubleSpinBox *>(d.field(QStringLiteral("recovery/windowMs")))->value(),
            1.0);

        // The longest pause below the first one: refused too, both named.
        qobject_cast<QDoubleSpinBox *>(d.field(QStringLiteral("recovery/windowMs")))->setValue(30);
        qobject_cast<QDoubleSpinBox *>(d.field(QStringLiteral("recovery/backoffMaxMs")))
            ->setValue(0.5);
        QCOMPARE(d.problems().size(), 1);
        QVERIFY(d.problems().first().contains(QStringLiteral("Longest pause")));
        QVERIFY(d.problems().first().contains(QStringLiteral("First restart after")));
        QVERIFY(d.problems().first().contains(QStringLiteral("(Recovery)")));
        QVERIFY(!d.trySave());

        qobject_cast<QDoubleSpinBox *>(d.field(QStringLiteral("recovery/backoffMaxMs")))
            ->setValue(20);
        qobject_cast<QComboBox *>(d.field(QStringLiteral("orphans/onLaunch")))
            ->setCurrentIndex(qobject_cast<QComboBox *>(d.field(QStringLiteral("orphans/onLaunch")))
                                  ->findData(QStringLiteral("clean")));
        qobject_cast<QCheckBox *>(d.field(QStringLiteral("app/notifications")))->setChecked(false);
        QVERIFY(d.problems().isEmpty());
        QVERIFY(save->isEnabled());
        QVERIFY(d.trySave());
        QCOMPARE(applied, 1);

        const LoadedSettings back = loadSettings(path);
        QVERIFY(back.warnings.isEmpty());
        QCOMPARE(back.settings.port, 4100);
        QCOMPARE(back.settings.timings.windowMs, 30000);
        QCOMPARE(back.settings.timings.backoffMaxMs, 20000);
        QCOMPARE(back.settings.orphansOnLaunch, policy::OrphanMode::Clean);
        QCOMPARE(back.settings.notifications, false);
        QCOMPARE(back.settings.arguments,
                 (QStringList{QStringLiteral("--busy-after"), QStringLiteral("100"),
                              QStringLiteral("--label=a b")}));
    }

    void servicePortChangeNeedsConfirmation() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tether.ini"));
        int asked = 0, applied = 0;
        bool answer = false;
        ui::SettingsDialog::Hooks hooks;
        hooks.apply = [&](const Settings &) { ++applied; };
        hooks.confirm = [&](const QString &) {
            ++asked;
            return answer;
        };
        hooks.serviceRunning = [] { return true; };
        ui::SettingsDialog d(Settings{}, path, hooks);
        qobject_cast<QDoubleSpinBox *>(d.field(QStringLiteral("probe/intervalMs")))->setValue(1);
        QVERIFY(d.trySave()); // a timing change needs no service restart
        QCOMPARE(asked, 0);
        QCOMPARE(loadSettings(path).settings.timings.probeIntervalMs, 1000);
        qobject_cast<QSpinBox *>(d.field(QStringLiteral("service/port")))->setValue(4200);
        QVERIFY(!d.trySave()); // declined: nothing saved or applied
        QCOMPARE(asked, 1);
        QCOMPARE(applied, 1);
        QCOMPARE(loadSettings(path).settings.port, 4096);
        answer = true;
        QVERIFY(d.trySave());
        QCOMPARE(applied, 2);
        QCOMPARE(loadSettings(path).settings.port, 4200);
    }

    void orphansAreNamedByTheProgramAPersonStarted() {
        QCOMPARE(ui::programName({QStringLiteral("npx"), QStringLiteral("-y"),
                                  QStringLiteral("@modelcontextprotocol/server-everything")}),
                 QStringLiteral("npx @modelcontextprotocol/server-everything"));
        QCOMPARE(ui::programName({QStringLiteral("/usr/bin/node"),
                                  QStringLiteral("/root/.npm/_npx/1b2c/node_modules/.bin/"
                                                 "mcp-server-everything"),
                                  QStringLiteral("stdio")}),
                 QStringLiteral("node mcp-server-everything"));
        QCOMPARE(
            ui::programName({QStringLiteral("C:\\Program Files\\nodejs\\node.exe"),
                             QStringLiteral("C:\\Users\\me\\node_modules\\@modelcontextprotocol"
                                            "\\server-filesystem\\dist\\index.js"),
                             QStringLiteral("C:\\tmp")}),
            QStringLiteral("node @modelcontextprotocol/server-filesystem"));
        QCOMPARE(ui::programName({QStringLiteral("/usr/bin/node"), QStringLiteral("--no-warnings"),
                                  QStringLiteral("/srv/mcp/weather.js")}),
                 QStringLiteral("node weather.js"));
        QCOMPARE(ui::programName({QStringLiteral("/usr/bin/python3"), QStringLiteral("-m"),
                                  QStringLiteral("mcp_server_time")}),
                 QStringLiteral("python3 mcp_server_time"));
        QCOMPARE(ui::programName({QStringLiteral("uvx"), QStringLiteral("mcp-server-fetch")}),
                 QStringLiteral("uvx mcp-server-fetch"));
        // Tether's demo MCP server is not Tether.
        QCOMPARE(
            ui::programName({QStringLiteral("/opt/tether/bin/tether"), QStringLiteral("demo-mcp")}),
            QStringLiteral("tether demo-mcp"));
        QCOMPARE(ui::programName({QStringLiteral("tether"), QStringLiteral("demo-mcp"),
                                  QStringLiteral("--name"), QStringLiteral("demo-1"),
                                  QStringLiteral("--stubborn")}),
                 QStringLiteral("tether demo-mcp demo-1"));
        QCOMPARE(ui::programName({QStringLiteral("/opt/tether/bin/tether"),
                                  QStringLiteral("--settings"), QStringLiteral("x.ini")}),
                 QStringLiteral("tether"));
        QCOMPARE(ui::programName({QStringLiteral("/usr/bin/npx")}), QStringLiteral("npx"));
        // What npx runs as, with npm 7 and later: npm exec, then a shell, then node.
        QCOMPARE(ui::programName({QStringLiteral("npm"), QStringLiteral("exec"),
                                  QStringLiteral("@modelcontextprotocol/server-everything")}),
                 QStringLiteral("npm @modelcontextprotocol/server-everything"));
        QCOMPARE(ui::programName({QStringLiteral("sh"), QStringLiteral("-c"),
                                  QStringLiteral("mcp-server-everything stdio")}),
                 QStringLiteral("mcp-server-everything"));
        QCOMPARE(ui::programName({QStringLiteral("C:\\Windows\\system32\\cmd.exe"),
                                  QStringLiteral("/d"), QStringLiteral("/s"), QStringLiteral("/c"),
                                  QStringLiteral("node C:\\srv\\weather.js")}),
                 QStringLiteral("node weather.js"));
    }

    void orphanDialogSaysWhatAPersonNeeds() {
        ui::OrphanDialog d;
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        auto *list = d.findChild<QTreeWidget *>();
        auto button = [&](const QString &text) -> QPushButton * {
            for (QPushButton *b : d.findChildren<QPushButton *>())
                if (QString(b->text()).remove(QLatin1Char('&')) == text && b->isVisible()) return b;
            return nullptr;
        };
        QVERIFY(d.screen()->availableGeometry().contains(d.frameGeometry())); // fits at 2x too
        // Nothing listed: no talk of "possible orphans", nothing to clean, a way to close.
        QCOMPARE(d.introText(), QStringLiteral("No MCP servers are left running."));
        QVERIFY(!d.introText().contains(QStringLiteral("possible")));
        QVERIFY(!button(QStringLiteral("Clean up")));
        QVERIFY(button(QStringLiteral("Close")));
        shoot(d, "orphans-empty");

        // All of one kind: no column that says the same on every row.
        const QStringList npx{QStringLiteral("npx"), QStringLiteral("-y"),
                              QStringLiteral("@modelcontextprotocol/server-everything")};
        const QStringList node{QStringLiteral("/usr/bin/node"),
                               QStringLiteral("/srv/mcp/weather.js")};
        d.setOrphans({{101, npx, QStringLiteral("ledger"), 65000, 2048},
                      {103, node, QStringLiteral("job"), 1000, 100}});
        QVERIFY(list->isColumnHidden(4));
        QVERIFY(list->isColumnHidden(3)); // the pid is a detail: in the tooltip
        QVERIFY(list->topLevelItem(0)->toolTip(0).contains(QStringLiteral("101")));
        QCOMPARE(list->topLevelItem(0)->text(0),
                 QStringLiteral("npx @modelcontextprotocol/server-everything"));
        QCOMPARE(list->topLevelItem(0)->text(1), QStringLiteral("1 min"));
        QCOMPARE(list->topLevelItem(1)->text(0), QStringLiteral("node weather.js"));
        QVERIFY(!d.introText().contains(QStringLiteral("look like")));
        QCOMPARE(d.checkedPids(), (QList<qint64>{101, 103}));

        // Mixed: the kinds are told apart in words; look-alikes start unchecked.
        d.setOrphans({{101, npx, QStringLiteral("ledger"), 65000, 2048},
                      {102, node, QStringLiteral("possible"), 1000, 100},
                      {103, node, QStringLiteral("job"), 1000, 100}});
        QVERIFY(!list->isColumnHidden(4));
        QCOMPARE(list->topLevelItem(0)->text(4), QStringLiteral("left by a crashed service"));
        QCOMPARE(list->topLevelItem(1)->text(4), QStringLiteral("looks like one"));
        QVERIFY(d.introText().contains(QStringLiteral("look like")));
        QCOMPARE(d.checkedPids(), (QList<qint64>{101, 103}));
        shoot(d, "orphans-mixed");
        list->topLevelItem(1)->setCheckState(0, Qt::Checked);
        list->topLevelItem(0)->setCheckState(0, Qt::Unchecked);
        // A refresh from the model keeps a person's choices; a gone process drops out.
        d.setOrphans({{101, npx, QStringLiteral("ledger"), 66000, 2048},
                      {102, node, QStringLiteral("possible"), 2000, 100},
                      {103, node, QStringLiteral("job"), 2000, 100}});
        QCOMPARE(d.checkedPids(), (QList<qint64>{102, 103}));

        // Clean up: asked for, the dialog stays to tell the result.
        QSignalSpy spy(&d, &ui::OrphanDialog::cleanupRequested);
        button(QStringLiteral("Clean up"))->click();
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy.first().first().value<QList<qint64>>(), (QList<qint64>{102, 103}));
        QVERIFY(d.isVisible());
        QCOMPARE(d.resultText(), QStringLiteral("Ending 2 processes…"));
        QVERIFY(!button(QStringLiteral("Clean up"))->isEnabled()); // not twice at once
        d.setOrphans({{101, npx, QStringLiteral("ledger"), 67000, 2048}});
        d.showCleanupResult(1, {QStringLiteral("it is no longer the process Tether found")});
        QCOMPARE(d.resultText(), QStringLiteral("1 process ended. 1 could not be ended: it is no "
                                                "longer the process Tether found."));
        shoot(d, "orphans-result");
        d.setOrphans({});
        d.showCleanupResult(3, {});
        QCOMPARE(d.resultText(), QStringLiteral("3 processes ended."));
        QVERIFY(button(QStringLiteral("Close")));
    }

    void cleanupResultInWords() {
        QCOMPARE(ui::cleanupResultText(1, {}), QStringLiteral("1 process ended."));
        QCOMPARE(ui::cleanupResultText(0, {QStringLiteral("a"), QStringLiteral("b")}),
                 QStringLiteral("2 could not be ended: a; b."));
        QCOMPARE(ui::cleanupResultText(0, {}), QStringLiteral("0 processes ended."));
    }

    void dialogsShowTethersIcon() {
        const QIcon app = ui::appIcon();
        QVERIFY(!app.isNull());
        QVERIFY(app.availableSizes().contains(QSize(16, 16)));
        QVERIFY(app.availableSizes().contains(QSize(256, 256)));
        ui::SettingsDialog s(Settings{}, QString(), {});
        ui::OrphanDialog o;
        QCOMPARE(s.windowIcon().cacheKey(), app.cacheKey());
        QCOMPARE(o.windowIcon().cacheKey(), app.cacheKey());
        // The pixels are the app's, not a blank or a default.
        const QImage px = s.windowIcon().pixmap(QSize(32, 32), 1.0).toImage();
        QCOMPARE(px, QImage(QStringLiteral(":/icons/hicolor/32x32/apps/dev.tether.Tether.png"))
                         .convertToFormat(px.format()));
    }

    // Issue 27 (12): About was a bare message box. Now: the version, the licence in full, Qt's
    // licence notice (LGPLv3, its source) and About Qt, and a link to the project.
    void aboutSaysVersionLicenceQtAndWhere() {
        ui::AboutDialog about;
        QCOMPARE(about.versionText(),
                 QStringLiteral("Version %1").arg(QCoreApplication::applicationVersion()));
        const QString licence = about.licenceText();
        QVERIFY(licence.contains(QStringLiteral("MIT licence")));
        QVERIFY(licence.contains(QStringLiteral("Permission is hereby granted")));
        QVERIFY(licence.contains(QStringLiteral("GNU Lesser General Public License version 3")));
        QVERIFY(licence.contains(QString::fromLatin1(qVersion())));
        bool link = false, aboutQt = false;
        for (QLabel *l : about.findChildren<QLabel *>())
            link = link || (l->openExternalLinks() && l->text().contains(QStringLiteral("href")));
        for (QPushButton *b : about.findChildren<QPushButton *>())
            aboutQt =
                aboutQt || QString(b->text()).remove(QLatin1Char('&')) == QLatin1String("About Qt");
        QVERIFY(link);
        QVERIFY(aboutQt);
        QCOMPARE(about.windowIcon().cacheKey(), ui::appIcon().cacheKey());
        about.show();
        QVERIFY(QTest::qWaitForWindowExposed(&about));
        auto *focused = qobject_cast<QPushButton *>(about.focusWidget());
        QVERIFY(focused);
        QCOMPARE(QString(focused->text()).remove(QLatin1Char('&')), QStringLiteral("Close"));
        shoot(about, "about");
    }

    // Issue 27 (6): the orphan dialog's "Running for 10 s" never moved on.
    void anOrphansAgeMovesOn() {
        ui::OrphanDialog d;
        OrphanStatus o{101,
                       {QStringLiteral("node"), QStringLiteral("x.js")},
                       QStringLiteral("ledger"),
                       10000,
                       900};
        o.startedAt = QDateTime::currentDateTime().addSecs(-10);
        d.setOrphans({o});
        auto *list = d.findChild<QTreeWidget *>();
        const QString first = list->topLevelItem(0)->text(1);
        QVERIFY2(first == QStringLiteral("10 s") || first == QStringLiteral("11 s"),
                 qPrintable(first));
        // Its age follows the clock, with no new scan.
        QTRY_VERIFY_WITH_TIMEOUT(list->topLevelItem(0)->text(1) != first, 5000);
    }
};

QTEST_MAIN(TstDialogs)
#include "tst_dialogs.moc"
