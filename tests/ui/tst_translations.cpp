// Issue 27 (10, 11): Tether in a person's language, usable with a keyboard and a screen reader.
// The catalogues the build made (lupdate over app/ and core/, then lrelease) are complete: every
// string has its German translation and every plural its English forms. Under the pseudo-language
// (every catalogue string marked ⟦…⟧), every window, menu and notification in every state shows
// no string that did not come through the catalogue; every control a keyboard reaches has an
// accessible name, the menus have mnemonics, and the health timeline says in words what it draws.
// Offscreen; tst_person_xvfb checks the same on the real tray at 2x.
#include "i18n.h"
#include "service/words.h"
#include "tray/menu_status.h"
#include "tray/notification.h"
#include "tray/tray_icons.h"
#include "tray/tray_menu.h"
#include "ui/about_dialog.h"
#include "ui/consent_dialog.h"
#include "ui/failure_panel.h"
#include "ui/format.h"
#include "ui/health_timeline.h"
#include "ui/orphan_dialog.h"
#include "ui/settings_dialog.h"
#include "ui/status_text.h"
#include "ui/status_window.h"
#include "ui_checks.h"

#include <QApplication>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLayout>
#include <QMessageBox>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest>

using namespace tether;
using policy::State;

namespace {

QDateTime now0() {
    return QDateTime(QDate(2026, 1, 1), QTime(12, 0), Qt::UTC);
}

// The catalogue's messages that lack a translation: "context: source".
QStringList unfinished(const QString &ts) {
    QFile f(ts);
    if (!f.open(QIODevice::ReadOnly)) return {QStringLiteral("cannot read ") + ts};
    QXmlStreamReader r(&f);
    QStringList out;
    QString context, source;
    int messages = 0;
    while (!r.atEnd()) {
        r.readNext();
        if (!r.isStartElement()) continue;
        if (r.name() == QLatin1String("name")) context = r.readElementText();
        if (r.name() == QLatin1String("message")) ++messages;
        if (r.name() == QLatin1String("source")) source = r.readElementText();
        if (r.name() != QLatin1String("translation")) continue;
        const QStringView type = r.attributes().value(QLatin1String("type"));
        bool missing = type == QLatin1String("unfinished") || type == QLatin1String("vanished");
        // Its text, or each of its plural forms, says something.
        QString text;
        int forms = 0;
        while (!r.atEnd()) {
            r.readNext();
            if (r.isEndElement() && r.name() == QLatin1String("translation")) break;
            if (r.isStartElement() && r.name() == QLatin1String("numerusform")) {
                ++forms;
                missing = missing || r.readElementText().trimmed().isEmpty();
            } else if (r.isCharacters()) {
                text += r.text();
            }
        }
        if (missing || (forms == 0 && text.trimmed().isEmpty()))
            out << context + QStringLiteral(": ") + source;
    }
    if (r.hasError()) out << ts + QStringLiteral(": ") + r.errorString();
    if (messages == 0) out << ts + QStringLiteral(" has no messages");
    return out;
}

// A service in each state a person meets, with what makes the words long: two MCP servers (one
// over its limit), orphans, an update, a tool call, a failure with the service's own words.
struct Scene {
    QString name;
    ServiceStatus status;
};

ServiceStatus base() {
    ServiceStatus st;
    st.profile = policy::Dialect::Demo;
    st.port = 4096;
    st.url = QStringLiteral("http://127.0.0.1:4096/");
    st.version = QStringLiteral("1.18.33-demo");
    st.installedVersion = QStringLiteral("1.18.33-demo");
    st.startedAt = now0().addSecs(-3725);
    st.pid = 4242;
    McpChildStatus a;
    a.name = QStringLiteral("demo-1");
    a.status = QStringLiteral("connected");
    a.pid = 11;
    a.uptimeMs = 60000;
    a.rssKiB = 20480;
    McpChildStatus b = a;
    b.name = QStringLiteral("demo-2");
    b.status = QStringLiteral("needs_auth");
    st.mcp = {a, b};
    return st;
}

QList<Scene> scenes() {
    QList<Scene> out;
    for (State s : {State::Stopped, State::Starting, State::Healthy, State::NotResponding,
                    State::Recovering, State::Restarting, State::Stopping}) {
        ServiceStatus st = base();
        st.state = s;
        if (s == State::NotResponding) st.replaceAt = now0().addSecs(18);
        if (s == State::Restarting) st.restartAt = now0().addSecs(4);
        out << Scene{QString::fromLatin1(policy::toString(s)), st};
    }
    ServiceStatus busy = base();
    busy.state = State::Healthy;
    busy.activity.busySessions = 2;
    busy.activity.runningTools = {{QStringLiteral("ses_1"),
                                   QStringLiteral("everything_trigger-long-running-operation"),
                                   45000},
                                  {QStringLiteral("ses_2"), QStringLiteral("bash"), 3000}};
    busy.lastInterrupted.tools = {{QStringLiteral("ses_0"), QStringLiteral("read"), 1000}};
    busy.lastInterrupted.at = now0();
    busy.versionMismatch = true;
    busy.installedVersion = QStringLiteral("1.19.0");
    busy.mcp[0].flagged = busy.mcp[0].memoryOver = true;
    busy.mcp[0].memoryLimitKiB = 10240;
    busy.orphans = {{101,
                     {QStringLiteral("node"), QStringLiteral("srv.js")},
                     QStringLiteral("ledger"),
                     5000,
                     900},
                    {102,
                     {QStringLiteral("npx"), QStringLiteral("server-x")},
                     QStringLiteral("possible"),
                     8000,
                     1200}};
    out << Scene{QStringLiteral("busy, flagged, orphans, update"), busy};
    ServiceStatus args = base();
    args.state = State::Failed;
    args.failure.fix = policy::FixFirst::Arguments;
    args.failure.exit = policy::ExitFacts{2, false, 40};
    args.failure.errorLine = QStringLiteral("Unknown option 'bogus'.");
    args.failure.serviceLog = {QStringLiteral("tether demo-service: Unknown option 'bogus'.")};
    args.failure.logPath = QStringLiteral("/x/service.log");
    args.failure.cause = QStringLiteral("the service stopped at once");
    out << Scene{QStringLiteral("failed: arguments"), args};
    ServiceStatus program = args;
    program.failure.fix = policy::FixFirst::Program;
    program.failure.errorLine.clear();
    program.failure.serviceLog.clear();
    out << Scene{QStringLiteral("failed: program"), program};
    ServiceStatus port = base();
    port.state = State::Failed;
    port.failure.portHeld = true;
    port.failure.portBlock = policy::PortBlock::Held;
    port.failure.portHolderNames = {QStringLiteral("python3")};
    port.failure.port = 4096;
    port.failure.freePort = 4097;
    port.failure.cause = QStringLiteral("port 4096 is held by python3 (pid 7)");
    port.orphans = busy.orphans;
    out << Scene{QStringLiteral("failed: port, orphans"), port};
    ServiceStatus gaveUp = base();
    gaveUp.state = State::Failed;
    gaveUp.failure.failedStarts = 5;
    gaveUp.failure.withinMs = 600000;
    gaveUp.failure.exit = policy::ExitFacts{1, false, 90000};
    gaveUp.failure.cause = QStringLiteral("gave up");
    out << Scene{QStringLiteral("failed: gave up"), gaveUp};
    return out;
}

// What the service and its world say themselves, quoted as they are: not Tether's words.
QStringList dataOf(const ServiceStatus &st) {
    QStringList d{st.version,
                  st.installedVersion,
                  QStringLiteral("python3"),
                  QStringLiteral("/global/health"),
                  QStringLiteral("opencode"),
                  st.failure.errorLine,
                  QStringLiteral("1.x"),
                  QStringLiteral("2.x"),
                  QStringLiteral("tether.ini"),
                  QStringLiteral("Qt")};
    d += st.failure.serviceLog;
    for (const McpChildStatus &c : st.mcp)
        d << c.name;
    for (const RunningToolStatus &t : st.activity.runningTools + st.lastInterrupted.tools)
        d << t.tool;
    for (const OrphanStatus &o : st.orphans)
        d += o.argv;
    return d;
}

} // namespace

class TstTranslations : public QObject {
    Q_OBJECT

    HealthHistory health_;
    QStringList events_;

    ui::UiModel modelFor(const ServiceStatus *st) {
        ui::UiModel m;
        m.status = [st]() -> const ServiceStatus & { return *st; };
        m.health = [this]() -> const HealthHistory & { return health_; };
        m.events = [this]() -> const QStringList & { return events_; };
        m.now = [] { return now0(); };
        return m;
    }

private slots:
    void initTestCase() {
        const qint64 t = now0().toMSecsSinceEpoch();
        for (qint64 ms = t - 240000; ms <= t; ms += 5000)
            health_.add({ms, ms > t - 60000 && ms < t - 40000 ? -1 : 25, true,
                         ms > t - 60000 && ms < t - 40000 ? State::NotResponding : State::Healthy});
        events_ = {QStringLiteral("2026-01-01T11:55:00.000 tether 0.1.0: profile demo, port 4096, "
                                  "data in /tmp/x"),
                   QStringLiteral("2026-01-01T11:55:00.100 started pid 77 on port 4096"),
                   QStringLiteral("2026-01-01T11:55:01.000 state starting -> healthy: answered"),
                   QStringLiteral("2026-01-01T11:59:00.000 state healthy -> not-responding: x"),
                   QStringLiteral("2026-01-01T11:59:20.000 launch scan: 2 orphan(s) among 9 "
                                  "processes"),
                   QStringLiteral("2026-01-01T11:59:30.000 wake notifications: none here")};
    }

    // "One complete second language": the built German catalogue lists every string of the
    // sources now (lupdate ran at build time) and none is without its translation.
    void theCataloguesAreComplete() {
        const QString dir = QStringLiteral(TETHER_I18N_DIR);
        const QStringList german = unfinished(dir + QStringLiteral("/tether_de.ts"));
        QVERIFY2(german.isEmpty(), qPrintable(QStringLiteral("%1 strings without German:\n%2")
                                                  .arg(german.size())
                                                  .arg(german.mid(0, 40).join(QLatin1Char('\n')))));
        const QStringList english = unfinished(dir + QStringLiteral("/tether_en.ts"));
        QVERIFY2(english.isEmpty(), qPrintable(QStringLiteral("plurals without English forms:\n") +
                                               english.join(QLatin1Char('\n'))));
    }

    // The person's language is the first of the system's UI languages Tether has a catalogue
    // for; English otherwise. German says every state in German.
    void germanIsChosenByTheSystemsLanguage() {
        const QStringList have{QStringLiteral("de"), QStringLiteral("pseudo")};
        QCOMPARE(i18n::chooseLanguage({QStringLiteral("de-DE"), QStringLiteral("en-US")}, have),
                 QStringLiteral("de"));
        QCOMPARE(i18n::chooseLanguage({QStringLiteral("fr-FR"), QStringLiteral("de-AT")}, have),
                 QStringLiteral("de"));
        QCOMPARE(i18n::chooseLanguage({QStringLiteral("fr-FR"), QStringLiteral("en-GB")}, have),
                 QStringLiteral("en"));
        QCOMPARE(i18n::chooseLanguage({QStringLiteral("C")}, have), QStringLiteral("en"));
        QTranslator german;
        QVERIFY(german.load(QStringLiteral("tether_de"), QStringLiteral(":/i18n")));
        for (State s : {State::Stopped, State::Starting, State::Healthy, State::NotResponding,
                        State::Recovering, State::Restarting, State::Stopping, State::Failed}) {
            const QString english = ui::stateLabel(s);
            const QString translated = german.translate("Tether", english.toUtf8().constData());
            QVERIFY2(!translated.isEmpty() && translated != english, qPrintable(english));
        }
        // A plural has German forms: one, and more.
        const QString one = german.translate("Tether", "%n orphaned MCP process(es)", nullptr, 1);
        const QString two = german.translate("Tether", "%n orphaned MCP process(es)", nullptr, 2);
        QVERIFY2(!one.isEmpty() && one != two, qPrintable(one + QStringLiteral(" / ") + two));
        // The German menu keeps a mnemonic of its own for each item, in every state.
        QCoreApplication::installTranslator(&german);
        QStringList found;
        for (const Scene &scene : scenes()) {
            TrayMenu menu;
            menu.setModel(trayMenuModel(scene.status, now0()), Qt::darkGreen);
            for (const QString &p : test::mnemonicProblems(menu.menu()))
                found << scene.name + QStringLiteral(": ") + p;
            // German is longer: the facts line ("… · läuft seit 10 s") on one line of the
            // menu's status block, whatever the uptime says.
            for (qint64 upMs : {5000, 10000, 3600000 * 23 + 59 * 60000}) {
                ServiceStatus st = scene.status;
                if (!st.startedAt.isValid()) break;
                st.startedAt = now0().addMSecs(-upMs);
                menu.setModel(trayMenuModel(st, now0()), Qt::darkGreen);
                menu.statusWidget()->sizeHint(); // laid out as the menu opens
                QLabel *facts = menu.statusWidget()->detailLabel();
                const int room = menu.statusWidget()->minimumWidth() -
                                 menu.statusWidget()->layout()->contentsMargins().left() -
                                 menu.statusWidget()->layout()->contentsMargins().right();
                if (facts->fontMetrics().horizontalAdvance(facts->text()) > room)
                    found << scene.name + QStringLiteral(" menu: the facts line wraps: ") +
                                 facts->text();
            }
            // German is longer: every tab of the window still in view, its title whole.
            ui::StatusWindow w(modelFor(&scene.status));
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            for (const QString &t : test::tabsOutOfView(&w, true))
                found << scene.name + QStringLiteral(" window: ") + t;
        }
        QCoreApplication::removeTranslator(&german);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }

    // The pseudo-language: everything a person reads is the catalogue's.
    void nothingVisibleEscapesTheCatalogue() {
        qputenv("TETHER_LANGUAGE", "pseudo");
        QCOMPARE(i18n::install(qApp), QStringLiteral("pseudo"));
        QVERIFY(ui::stateLabel(State::Healthy).startsWith(QStringLiteral("⟦")));
        QStringList found;
        const auto look = [&](const QString &where, QWidget *w, const QStringList &data) {
            for (const QString &s : test::untranslatedStrings(w, data))
                found << where + QStringLiteral(" | ") + s;
        };
        for (const Scene &scene : scenes()) {
            const QStringList data = dataOf(scene.status);
            TrayMenu menu;
            menu.setModel(trayMenuModel(scene.status, now0()), Qt::darkGreen);
            look(scene.name + QStringLiteral(" menu"), menu.menu(), data);
            for (bool details : {false, true}) {
                ui::StatusWindow w(modelFor(&scene.status));
                w.detailsBox()->setChecked(details);
                w.show();
                QVERIFY(QTest::qWaitForWindowExposed(&w));
                for (const QString &t : test::tabsOutOfView(&w))
                    found << scene.name + QStringLiteral(" window: ") + t;
                for (int tab = 0; tab < w.tabs()->count(); ++tab) {
                    w.tabs()->setCurrentIndex(tab);
                    if (!details || tab != w.tabs()->count() - 1) // the log's own words: asked for
                        look(scene.name + QStringLiteral(" window"), &w, data);
                }
                if (!details) {
                    const QString said = w.timeline()->accessibleDescription();
                    if (!test::untranslatedPart(said, data).isEmpty())
                        found << scene.name + QStringLiteral(" timeline: ") + said;
                }
            }
            for (int k = 0; k <= int(policy::NoticeKind::MustFix); ++k) {
                const Notification n =
                    notificationFor(policy::NoticeKind(k), scene.status, k == 1, true);
                for (const QString &text : {n.title, n.text})
                    if (!test::untranslatedPart(text, data).isEmpty())
                        found << scene.name + QStringLiteral(" notification: ") + text;
            }
            const QString ask = consentQuestion(scene.status, Words::tr("Stop"));
            if (!test::untranslatedPart(ask, data).isEmpty())
                found << QStringLiteral("ask: ") + ask;
        }
        const QStringList none;
        ui::SettingsDialog settings(Settings{}, QString(), {});
        settings.advancedBox()->setChecked(true);
        settings.show();
        QVERIFY(QTest::qWaitForWindowExposed(&settings));
        auto *window =
            qobject_cast<QDoubleSpinBox *>(settings.field(QStringLiteral("recovery/windowMs")));
        window->setValue(1.0); // a refused value, said in words
        look(QStringLiteral("settings"), &settings, dataOf(base()));
        ui::OrphanDialog orphans;
        orphans.setOrphans(scenes().constLast().status.orphans);
        orphans.show();
        look(QStringLiteral("orphans"), &orphans, dataOf(scenes().constLast().status));
        orphans.showCleanupResult(1, {QStringLiteral("it is no longer the process Tether found")});
        ui::AboutDialog about;
        about.show();
        // The licence pane keeps the MIT licence's own (binding) English words.
        QStringList licence = dataOf(base());
        licence << about.licenceText().split(QLatin1Char('\n'));
        look(QStringLiteral("about"), &about, licence);
        std::unique_ptr<QMessageBox> ask(
            ui::newConsentDialog(nullptr, Words::tr("Stop"), QStringLiteral("…")));
        look(QStringLiteral("consent"), ask.get(), none);
        QVERIFY2(found.isEmpty(), qPrintable(QStringLiteral("%1 strings do not come from the "
                                                            "catalogue:\n%2")
                                                 .arg(found.size())
                                                 .arg(found.mid(0, 60).join(QLatin1Char('\n')))));
    }

    // Issue 27 (10): a screen reader names every control, the menus have mnemonics, and the
    // timeline says what it shows.
    void everyControlHasANameAndTheMenusMnemonics() {
        QStringList found;
        for (const Scene &scene : scenes()) {
            TrayMenu menu;
            menu.setModel(trayMenuModel(scene.status, now0()), Qt::darkGreen);
            for (const QString &p : test::mnemonicProblems(menu.menu()))
                found << scene.name + QStringLiteral(" menu: ") + p;
            ui::StatusWindow w(modelFor(&scene.status));
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            for (const QString &c : test::unnamedControls(&w))
                found << scene.name + QStringLiteral(" window: ") + c;
            QAccessibleInterface *timeline = QAccessible::queryAccessibleInterface(w.timeline());
            QVERIFY(timeline);
            QVERIFY(!timeline->text(QAccessible::Name).isEmpty());
            QVERIFY2(
                timeline->text(QAccessible::Description).contains(ui::stateLabel(State::Healthy)),
                qPrintable(timeline->text(QAccessible::Description)));
        }
        ui::SettingsDialog settings(Settings{}, QString(), {});
        settings.advancedBox()->setChecked(true);
        settings.show();
        QVERIFY(QTest::qWaitForWindowExposed(&settings));
        for (const QString &c : test::unnamedControls(&settings))
            found << QStringLiteral("settings: ") + c;
        // Each setting: named by its label, described by its help line.
        QAccessibleInterface *port =
            QAccessible::queryAccessibleInterface(settings.field(QStringLiteral("service/port")));
        QVERIFY(port && !port->text(QAccessible::Description).isEmpty());
        ui::OrphanDialog orphans;
        orphans.setOrphans(scenes().constLast().status.orphans);
        orphans.show();
        for (const QString &c : test::unnamedControls(&orphans))
            found << QStringLiteral("orphans: ") + c;
        ui::AboutDialog about;
        about.show();
        for (const QString &c : test::unnamedControls(&about))
            found << QStringLiteral("about: ") + c;
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }

    // A language asked for by name (TETHER_LANGUAGE) writes its numbers too: the German window
    // said "18.0 MiB" on a machine whose own language is not German. Last: it changes the
    // process's default locale.
    void aLanguageAskedForByNameWritesItsNumbers() {
        qputenv("TETHER_LANGUAGE", "de");
        QCOMPARE(i18n::install(qApp), QStringLiteral("de"));
        QCOMPARE(ui::memoryText(18 * 1024 + 512), QStringLiteral("18,5 MiB"));
        QLocale::setDefault(QLocale::c());
    }
};

QTEST_MAIN(TstTranslations)
#include "tst_translations.moc"
