// The windows render what the model holds: the status window with data (and a timeline that
// is not blank), in plain words, without moving under the pointer from one state to the next.
// The orphan and settings dialogs are tst_dialogs'.
#include "i18n.h"
#include "service/health_history.h"
#include "tray/tray_icons.h"
#include "ui/format.h"
#include "ui/health_timeline.h"
#include "ui/failure_panel.h"
#include "ui/status_window.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace tether;
using policy::State;

namespace {

QDateTime now0() {
    return QDateTime(QDate(2026, 1, 1), QTime(12, 0), Qt::UTC);
}

struct Fixture {
    ServiceStatus status;
    HealthHistory health;
    QStringList events;
    ui::UiModel model() {
        ui::UiModel m;
        m.status = [this]() -> const ServiceStatus & { return status; };
        m.health = [this]() -> const HealthHistory & { return health; };
        m.events = [this]() -> const QStringList & { return events; };
        m.now = [] { return now0(); };
        return m;
    }
};

void fill(Fixture &f) {
    f.status.state = State::Healthy;
    f.status.profile = policy::Dialect::Demo;
    f.status.pid = 4242;
    f.status.port = 4096;
    f.status.url = QStringLiteral("http://127.0.0.1:4096/");
    f.status.version = QStringLiteral("1.18.33");
    f.status.restarts = 2;
    f.status.startedAt = now0().addSecs(-125);
    const auto mcpRow = [](const char *name, const char *status, const char *error, qint64 pid,
                           qint64 uptimeMs, quint64 rssKiB, double cpu) {
        McpChildStatus r;
        r.name = QString::fromLatin1(name);
        r.status = QString::fromLatin1(status);
        r.error = QString::fromLatin1(error);
        r.pid = pid;
        r.uptimeMs = uptimeMs;
        r.rssKiB = rssKiB;
        r.cpuPercent = cpu;
        return r;
    };
    f.status.mcp = {mcpRow("filesystem", "connected", "", 11, 90000, 20480, 1.5),
                    mcpRow("github", "failed", "exit 1", 0, 0, 0, 0)};
    f.status.orphans = {{101,
                         {QStringLiteral("/usr/bin/node"), QStringLiteral("srv.js")},
                         QStringLiteral("ledger"),
                         5000,
                         900}};
    const qint64 t = now0().toMSecsSinceEpoch();
    // 50 minutes of probes: healthy, a busy stretch, a miss run, recovered.
    for (qint64 ms = t - 50 * 60000; ms <= t; ms += 15000) {
        const qint64 age = t - ms;
        const bool busy = age < 20 * 60000 && age > 15 * 60000;
        f.health.add({ms, busy ? -1 : 20 + (ms / 15000) % 30, true,
                      busy ? State::NotResponding : State::Healthy});
    }
    f.events = {QStringLiteral("2026-01-01T11:00:00 service started"),
                QStringLiteral("2026-01-01T11:40:00 recovered")};
}

int distinctColours(const QImage &img) {
    QSet<QRgb> seen;
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2)
            seen.insert(img.pixel(x, y));
    return int(seen.size());
}

int pixelsNear(const QImage &img, const QColor &c) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor p(img.pixel(x, y));
            n += qAbs(p.red() - c.red()) + qAbs(p.green() - c.green()) + qAbs(p.blue() - c.blue()) <
                 12;
        }
    return n;
}

QString outDir() {
    const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/ui-shots");
    QDir().mkpath(dir);
    return dir;
}

} // namespace

class TstWindows : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qputenv("TETHER_LANGUAGE", "en");
        QCOMPARE(i18n::install(qApp), QStringLiteral("en"));
    }

    void statusWindowRendersTheModel() {
        Fixture f;
        fill(f);
        ui::StatusWindow w(f.model());
        w.resize(760, 780);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const QImage shot = w.grab().toImage();
        QVERIFY(shot.save(outDir() + QStringLiteral("/offscreen-status-window.png")));

        auto labels = w.findChildren<QLabel *>();
        auto hasText = [&](const QString &t) {
            return std::any_of(labels.begin(), labels.end(),
                               [&](QLabel *l) { return l->text().contains(t); });
        };
        // Issue 27 (5): no pid unless a person asks for details.
        QVERIFY(!w.mcpTable()->isColumnHidden(0));
        QVERIFY(w.mcpTable()->isColumnHidden(4));
        auto shownLabels = [&] {
            QStringList out;
            for (QLabel *l : w.findChildren<QLabel *>())
                if (l->isVisible()) out << l->text();
            return out.join(QLatin1Char('|'));
        };
        QVERIFY2(!shownLabels().contains(QStringLiteral("4242")), qPrintable(shownLabels()));
        w.detailsBox()->setChecked(true);
        QVERIFY(hasText(QStringLiteral("4242")));
        QVERIFY2(shownLabels().contains(QStringLiteral("4242")), qPrintable(shownLabels()));
        QVERIFY(!w.mcpTable()->isColumnHidden(4));
        w.detailsBox()->setChecked(false);
        QVERIFY(hasText(QStringLiteral("1.18.33")));
        QVERIFY(hasText(QStringLiteral("2 min")));
        auto *table = w.findChild<QTableWidget *>();
        QCOMPARE(table->rowCount(), 2);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("filesystem"));
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("failed: exit 1"));
        QCOMPARE(table->item(0, 2)->text(), QStringLiteral("20.0 MiB"));
        // Issue 16: every column has a header; the name is shown whole ("de..." before).
        for (int col = 0; col < table->columnCount(); ++col)
            QVERIFY(!table->horizontalHeaderItem(col)->text().isEmpty());
        QVERIFY(table->columnWidth(0) >=
                table->fontMetrics().horizontalAdvance(QStringLiteral("filesystem")));

        QPushButton *start = nullptr, *cleanup = nullptr;
        for (QPushButton *b : w.findChildren<QPushButton *>()) {
            const QString text = QString(b->text()).remove(QLatin1Char('&'));
            if (text == QLatin1String("Start")) start = b;
            if (text.startsWith(QLatin1String("Clean up"))) cleanup = b;
        }
        QVERIFY(start && !start->isEnabled());
        QVERIFY(cleanup && cleanup->isVisible());
        // Its own line since issue 27's D1: the click was connected before the button existed.
        QSignalSpy cleanupAsked(&w, &ui::StatusWindow::cleanupRequested);
        cleanup->click();
        QCOMPARE(cleanupAsked.size(), 1);
        QSignalSpy reconnect(&w, &ui::StatusWindow::reconnectRequested);
        qobject_cast<QPushButton *>(table->cellWidget(0, 6))->click();
        QCOMPARE(reconnect.size(), 1);
        QCOMPARE(reconnect.first().first().toString(), QStringLiteral("filesystem"));

        // The model changes; the window follows on refresh, keeping no copy of its own.
        f.status.state = State::Stopped;
        f.status.orphans.clear();
        w.refresh();
        QVERIFY(start->isEnabled());
        QVERIFY(!cleanup->isVisible());
    }

    // Issue 16, 27 (5): not responding is a planned wait, said with what comes next, in words
    // (the machine's "no answer within 1000 ms" is for the log).
    void notRespondingSaysWhatHappensNext() {
        Fixture f;
        fill(f);
        f.status.state = State::NotResponding;
        f.status.lastError = QStringLiteral("no answer within 1000 ms");
        f.status.replaceAt = now0().addMSecs(17500);
        const QString next = ui::nextStepText(f.status, now0());
        QVERIFY2(next.contains(QStringLiteral("it will be replaced in 18 s if it stays silent")),
                 qPrintable(next));
        QVERIFY(!next.contains(f.status.lastError));
        ui::StatusWindow w(f.model());
        auto labels = w.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [&](QLabel *l) {
            // The window says the orphans on their own line.
            return l->text() == ui::nextStepText(f.status, now0(), false);
        }));
        // At 2x on 1280x800 the window gets 624x352 points: the two-line sentence, the facts
        // and three MCP rows fit without scrolling the window (a scroll bar appeared there).
        w.resize(624, 352);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *scroll = w.findChild<QScrollArea *>();
        QVERIFY(scroll);
        QVERIFY2(!scroll->verticalScrollBar()->isVisible(),
                 qPrintable(QStringLiteral("content %1 high in %2")
                                .arg(scroll->widget()->height())
                                .arg(scroll->viewport()->height())));
        w.grab().save(outDir() + QStringLiteral("/offscreen-status-not-responding-624x352.png"));
        // Failed, with the service's twelve last lines and its remedies, after three MCP rows:
        // the same room, no scroll bar.
        f.status.state = State::Failed;
        f.status.failure.fix = policy::FixFirst::Arguments;
        f.status.failure.errorLine = QStringLiteral("Unknown option 'bogus'.");
        f.status.failure.logPath = QStringLiteral("/x/service.log");
        f.status.failure.cause = QStringLiteral("the service stopped at once");
        for (int i = 0; i < 12; ++i)
            f.status.failure.serviceLog << QStringLiteral("line %1").arg(i);
        f.status.mcp.clear();
        w.refresh();
        QApplication::processEvents();
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        QVERIFY2(!scroll->verticalScrollBar()->isVisible(),
                 qPrintable(QStringLiteral("failed: content %1 high in %2")
                                .arg(scroll->widget()->height())
                                .arg(scroll->viewport()->height())));
        w.grab().save(outDir() + QStringLiteral("/offscreen-status-failed-624x352.png"));
        f.status.state = State::NotResponding;
        f.status.failure = FailureStatus{};
        f.status.state = State::Healthy;
        f.status.orphans.clear();
        QCOMPARE(ui::nextStepText(f.status, now0()),
                 QStringLiteral("It answers its health checks."));
        // What waits for a person is said in any state: an update, orphans (a real plural).
        f.status.versionMismatch = true;
        f.status.installedVersion = QStringLiteral("1.19.0");
        f.status.orphans = {{101, {QStringLiteral("node")}, QStringLiteral("ledger"), 5000, 900}};
        QCOMPARE(ui::nextStepText(f.status, now0()),
                 QStringLiteral("It answers its health checks. Version 1.19.0 is installed: "
                                "restart to update. 1 MCP process from an earlier service is "
                                "still running."));
        f.status.orphans << f.status.orphans.first();
        QVERIFY(ui::nextStepText(f.status, now0())
                    .endsWith(QStringLiteral("2 MCP processes from an earlier service are still "
                                             "running.")));
        f.status.state = State::Restarting;
        f.status.restartAt = now0().addSecs(4);
        f.status.versionMismatch = false;
        f.status.orphans.clear();
        f.status.lastError = QStringLiteral("pid 77 was killed or crashed");
        QCOMPARE(ui::nextStepText(f.status, now0()),
                 QStringLiteral("It stopped; starting again in 4 s."));
    }

    // Issue 27 (4): nothing above the tabs comes and goes: the next step, the activity or the
    // interruption, a failure with its log all keep one height, so the tabs stay where a
    // person is about to click, whatever the state; the fact columns keep their places too.
    void theWindowDoesNotMoveUnderThePointer() {
        Fixture f;
        fill(f);
        ui::StatusWindow w(f.model());
        w.resize(680, 520);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const auto tabsAt = [&] {
            w.refresh();
            QApplication::processEvents();
            return w.tabs()->tabBar()->mapTo(&w, QPoint(0, 0));
        };
        const QPoint healthy = tabsAt();
        QList<QPair<QString, QPoint>> seen;
        // Not responding: a two-line next step and what the service was doing.
        f.status.state = State::NotResponding;
        f.status.replaceAt = now0().addSecs(18);
        f.status.activity.busySessions = 1;
        f.status.activity.runningTools = {
            {QStringLiteral("s"), QStringLiteral("everything_trigger-long-running-operation"),
             45000}};
        seen.append({QStringLiteral("not responding"), tabsAt()});
        // Healthy again, with the interruption of a stop said where the activity was.
        f.status.state = State::Healthy;
        f.status.activity = ActivityStatus{};
        f.status.lastInterrupted.tools = {{QStringLiteral("s"), QStringLiteral("bash"), 3000}};
        f.status.lastInterrupted.at = now0();
        f.status.version = QStringLiteral("1.18.33-demo-with-a-much-longer-version-name");
        seen.append({QStringLiteral("interrupted"), tabsAt()});
        // Failed, with the cause, twelve lines of the service's output and what mends it.
        f.status.state = State::Failed;
        f.status.failure.errorLine = QStringLiteral("Unknown option 'bogus'.");
        f.status.failure.fix = policy::FixFirst::Arguments;
        f.status.failure.logPath = QStringLiteral("/x/service.log");
        for (int i = 0; i < 12; ++i)
            f.status.failure.serviceLog << QStringLiteral("line %1 of what it said").arg(i);
        f.status.failure.cause = QStringLiteral("the service stopped at once");
        seen.append({QStringLiteral("failed"), tabsAt()});
        QVERIFY(w.failurePanel()->isVisible());
        f.status.state = State::Stopped;
        f.status.failure = FailureStatus{};
        seen.append({QStringLiteral("stopped"), tabsAt()});
        for (const auto &[state, at] : seen)
            QVERIFY2(at == healthy, qPrintable(QStringLiteral("%1: the tabs moved from %2,%3 to "
                                                              "%4,%5")
                                                   .arg(state)
                                                   .arg(healthy.x())
                                                   .arg(healthy.y())
                                                   .arg(at.x())
                                                   .arg(at.y())));
        // The facts' value columns are as wide in every state: a long version is cut, whole in
        // its tooltip, and the Port column stays put.
        QLabel *port = nullptr;
        for (QLabel *l : w.findChildren<QLabel *>())
            if (l->accessibleName() == QLatin1String("Port")) port = l;
        QVERIFY(port);
        const int portX = port->mapTo(&w, QPoint(0, 0)).x();
        f.status.state = State::Healthy;
        f.status.version = QStringLiteral("1");
        w.refresh();
        QApplication::processEvents();
        QCOMPARE(port->mapTo(&w, QPoint(0, 0)).x(), portX);
        // An installed update is said in the line above; the fact is the running version, not
        // cut in the middle ("1.18.3…-demo)").
        QLabel *version = nullptr;
        for (QLabel *l : w.findChildren<QLabel *>())
            if (l->accessibleName() == QLatin1String("Version")) version = l;
        QVERIFY(version);
        f.status.version = QStringLiteral("1.18.30-demo");
        f.status.versionMismatch = true;
        f.status.installedVersion = QStringLiteral("1.18.33-demo");
        w.refresh();
        QCOMPARE(version->text(), QStringLiteral("1.18.30-demo"));
        QVERIFY(version->toolTip().isEmpty());
        // The button says what the menu says ("Restart to update" beside the menu's "Update
        // and restart" read as two actions).
        const auto buttons = w.findChildren<QPushButton *>();
        QVERIFY(std::any_of(buttons.begin(), buttons.end(), [](QPushButton *b) {
            return b->text().remove(QLatin1Char('&')) == QLatin1String("Update and restart");
        }));
    }

    // Issue 27 (10): Esc and Ctrl+W close the window; Tab does not walk the table's cells.
    void keyboardPaths() {
        Fixture f;
        fill(f);
        auto *w = new ui::StatusWindow(f.model());
        w->setAttribute(Qt::WA_DeleteOnClose);
        QPointer<ui::StatusWindow> alive(w);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w));
        QApplication::setActiveWindow(w); // shortcuts act in the active window
        QCOMPARE(w->mcpTable()->focusPolicy(), Qt::NoFocus);
        QVERIFY(!w->mcpTable()->tabKeyNavigation());
        // Every tab keeps its mnemonic once the model fills in its title (the Health tab's
        // "Health, last minute" had lost its Alt+H).
        for (int i = 0; i < w->tabs()->count(); ++i)
            QVERIFY2(w->tabs()->tabText(i).contains(QLatin1Char('&')),
                     qPrintable(w->tabs()->tabText(i)));
        QTest::keyClick(w, Qt::Key_W, Qt::ControlModifier);
        QTRY_VERIFY(!alive);
        auto *again = new ui::StatusWindow(f.model());
        again->setAttribute(Qt::WA_DeleteOnClose);
        QPointer<ui::StatusWindow> second(again);
        again->show();
        QVERIFY(QTest::qWaitForWindowExposed(again));
        QApplication::setActiveWindow(again);
        QTest::keyClick(again, Qt::Key_Escape);
        QTRY_VERIFY(!second);
    }

    // Issue 16, 27 (5): events read as sentences with a short time, not raw log lines; the
    // log's own words (pids, paths, timings) only when a person asks for details.
    void eventsReadAsPlainWords() {
        const QDateTime now = now0();
        const auto text = [&](const char *line) {
            return ui::eventLine(QString::fromLatin1(line), now);
        };
        ui::EventLine e = text("2026-01-01T11:58:02.123 state healthy -> not-responding: no "
                               "answer within 1000 ms");
        QCOMPARE(e.time, QStringLiteral("11:58:02"));
        QCOMPARE(e.text, QStringLiteral("The service stopped answering; Tether waits for it."));
        QCOMPARE(text("2026-01-01T11:58:00.001 started pid 77 on port 4096").text,
                 QStringLiteral("The service started on port 4096."));
        QCOMPARE(text("2026-01-01T11:58:03.000 pid 77: exited-on-term").text,
                 QStringLiteral("The service exited when asked."));
        QCOMPARE(
            text("2026-01-01T11:58:00.000 state stopping -> starting: stopped on request").text,
            QStringLiteral("Starting the service."));
        // Lines for a bug report say nothing here: a scan that found nothing, the wake
        // sources, a PATH, a window spent in milliseconds.
        for (const char *line :
             {"2026-01-01T11:58:00.000 launch scan: 0 orphan(s) among 121 processes in 15.1 ms",
              "2026-01-01T11:58:00.000 wake notifications: none here (late timers still reveal a "
              "sleep)",
              "2026-01-01T11:58:00.000 service PATH: /usr/local/bin:/usr/bin:/bin (inherited)",
              "2026-01-01T11:58:00.000 no exit notification for pid 12 (x): looking every 50 ms"})
            QVERIFY2(text(line).text.isEmpty(), line);
        QCOMPARE(text("2026-01-01T11:58:00.000 launch scan: 2 orphan(s) among 121 processes").text,
                 QStringLiteral("Found 2 MCP processes left running by an earlier service."));
        // What a person did and what needs them are events too (issue 27): their clean-up of
        // orphans (the orphan dialog, `tether cleanup`), an MCP server over its limit.
        QCOMPARE(ui::eventLine(QStringLiteral("2026-01-01T11:58:00.000 ") +
                                   ui::personCleanupLogLine(2, 1),
                               now)
                     .text,
                 QStringLiteral("You cleaned up 2 orphaned MCP processes. 1 could not be ended "
                                "(Show details says why)."));
        QCOMPARE(text("2026-01-01T11:58:00.000 mcp resources: pid 4711 demo-1: memory 612 MiB is "
                      "over 500 MiB (+9 MiB/min). Restart it from the tray menu (MCP servers) "
                      "when it suits you.")
                     .text,
                 QStringLiteral("The MCP server demo-1 uses 612.0 MiB, over its 500.0 MiB limit: "
                                "restart it from the menu when it suits you."));
        QCOMPARE(text("2026-01-01T11:58:00.000 mcp resources: pid 4711 demo-2: a core busy for 12 "
                      "min. Restart it from the tray menu (MCP servers) when it suits you.")
                     .text,
                 QStringLiteral("The MCP server demo-2 has kept a processor busy for 12 min: "
                                "restart it from the menu when it suits you."));
        QCOMPARE(text("2025-12-30T08:00:00.000 something new").time,
                 QStringLiteral("30 Dec 08:00"));
        // Asked for: the log's own words.
        QCOMPARE(ui::eventLine(QStringLiteral("2026-01-01T11:58:00.001 started pid 77 on port "
                                              "4096"),
                               now, true)
                     .text,
                 QStringLiteral("started pid 77 on port 4096"));
        // Shown wrapped, without the stamp's date and milliseconds.
        Fixture f;
        fill(f);
        f.events << QStringLiteral("2026-01-01T11:58:02.123 state healthy -> not-responding: no "
                                   "answer within 1000 ms");
        ui::StatusWindow w(f.model());
        const QString shown = w.eventsView()->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("11:58:02  The service stopped answering")),
                 qPrintable(shown));
        QVERIFY(!shown.contains(QStringLiteral("2026-01-01T")));
        QVERIFY(!shown.contains(QStringLiteral("1000 ms")));
        QCOMPARE(w.eventsView()->lineWrapMode(), QPlainTextEdit::WidgetWidth);
        w.detailsBox()->setChecked(true);
        QVERIFY(w.eventsView()->toPlainText().contains(QStringLiteral("no answer within 1000 ms")));
    }

    // Issue 16: no empty grid: the MCP tab says so in words.
    void noMcpServersIsSaidInWords() {
        Fixture f;
        fill(f);
        f.status.mcp.clear();
        ui::StatusWindow w(f.model());
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(!w.mcpTable()->isVisible());
        auto labels = w.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [](QLabel *l) {
            return l->isVisible() && l->text() == QStringLiteral("The service has no MCP servers.");
        }));
        f.status.state = State::Failed;
        w.refresh();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [](QLabel *l) {
            return l->isVisible() && l->text() == QStringLiteral("The service is not running.");
        }));
        w.grab().save(outDir() + QStringLiteral("/offscreen-status-failed.png"));
        // Starting is not "not running": its servers come when it answers.
        f.status.state = State::Starting;
        w.refresh();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [](QLabel *l) {
            return l->isVisible() &&
                   l->text() == QStringLiteral("Its MCP servers show here once it answers.");
        }));
    }

    // Issue 16: a server over its limit is marked in the table and has a Restart button there.
    void aFlaggedServerIsMarkedInTheTable() {
        Fixture f;
        fill(f);
        f.status.mcp[0].flagged = f.status.mcp[0].memoryOver = true;
        f.status.mcp[0].rssKiB = 612 * 1024;
        f.status.mcp[0].memoryLimitKiB = 500 * 1024;
        f.status.mcp[0].flagReason = QStringLiteral("memory 612 MiB is over 500 MiB (+9 MiB/min)");
        ui::StatusWindow w(f.model());
        QCOMPARE(w.mcpTable()->item(0, 1)->text(), QStringLiteral("⚠ memory over its limit"));
        QCOMPARE(w.mcpTable()->item(0, 1)->toolTip(),
                 QStringLiteral("uses 612.0 MiB, over its 500.0 MiB limit"));
        QVERIFY(w.mcpTable()->item(0, 2)->font().bold()); // the number that is too high
        auto *button = qobject_cast<QPushButton *>(w.mcpTable()->cellWidget(0, 6));
        QCOMPARE(button->text(), QStringLiteral("Restart"));
        QCOMPARE(button->accessibleName(), QStringLiteral("Restart filesystem"));
        QCOMPARE(qobject_cast<QPushButton *>(w.mcpTable()->cellWidget(1, 6))->text(),
                 QStringLiteral("Reconnect"));
        // The tab is short (all three in view in a longer language); its tooltip says why.
        QCOMPARE(w.tabs()->tabText(0), QStringLiteral("⚠ &MCP servers (2)"));
        QVERIFY(w.tabs()->tabToolTip(0).contains(QStringLiteral("needs attention")));
        // Not responding: no figures ("—"), and a missing figure is no alarm (issue 27: the
        // Memory column showed a red, bold "—").
        f.status.state = State::NotResponding;
        ui::StatusWindow frozen(f.model());
        const QTableWidgetItem *memory = frozen.mcpTable()->item(0, 2);
        QCOMPARE(memory->text(), QStringLiteral("—"));
        QVERIFY(!memory->font().bold());
        QCOMPARE(memory->foreground(), QBrush());
        QVERIFY(frozen.mcpTable()->item(0, 1)->font().bold()); // the state still says it
    }

    // Issue 16: the timeline's span follows the history, so a 5 s spell is not 1 px of an hour.
    void timelineSpanFollowsTheHistory() {
        QCOMPARE(ui::timelineSpanMs(0), 60000);
        QCOMPARE(ui::timelineSpanMs(45000), 60000);
        QCOMPARE(ui::timelineSpanMs(4 * 60000), 5 * 60000);
        QCOMPARE(ui::timelineSpanMs(14 * 60000), 15 * 60000);
        QCOMPARE(ui::timelineSpanMs(2 * 3600000), 60 * 60000);
        QCOMPARE(ui::timelineTitle(5 * 60000), QStringLiteral("&Health, last 5 min"));
        QCOMPARE(ui::timelineTitle(60000), QStringLiteral("&Health, last minute")); // not "1 min"
        QCOMPARE(ui::timelineTitle(3600000), QStringLiteral("&Health, last hour"));
        // Two minutes of history with a 5 s spell not responding and a missed probe.
        Fixture f;
        const qint64 t = now0().toMSecsSinceEpoch();
        for (qint64 ms = t - 120000; ms <= t; ms += 1000) {
            const bool spell = ms > t - 60000 && ms <= t - 55000;
            f.health.add(
                {ms, spell ? -1 : 20, true, spell ? State::NotResponding : State::Healthy});
        }
        ui::HealthTimeline tl(f.model());
        QCOMPARE(tl.spanMs(), 5 * 60000);
        tl.resize(600, 140);
        const QImage img = tl.grab().toImage();
        img.save(outDir() + QStringLiteral("/offscreen-timeline-short.png"));
        // 5 s of 300 s across ~520 px: some 9 px wide, in the band and in the miss bars.
        QVERIFY2(pixelsNear(img, stateColor(State::NotResponding, tl.palette())) > 40,
                 qPrintable(QString::number(
                     pixelsNear(img, stateColor(State::NotResponding, tl.palette())))));
        QVERIFY(pixelsNear(img, stateColor(State::Failed, tl.palette())) > 200);
    }

    // Issue 27 (6): a stop a person asked for is no missed check; the picture has a legend and
    // says in words what it shows.
    void aStopIsNoMissAndTheTimelineSaysWhatItShows() {
        Fixture f;
        const qint64 t = now0().toMSecsSinceEpoch();
        for (qint64 ms = t - 120000; ms <= t - 60000; ms += 1000)
            f.health.add({ms, 20, true, State::Healthy});
        // Stopped on request: the checks in flight go unanswered while it stops.
        for (qint64 ms = t - 59000; ms <= t; ms += 1000)
            f.health.add({ms, -1, true, ms < t - 55000 ? State::Stopping : State::Stopped});
        ui::HealthTimeline tl(f.model());
        tl.resize(600, 140);
        const QImage img = tl.grab().toImage();
        QCOMPARE(pixelsNear(img, stateColor(State::Failed, tl.palette())), 0);
        // A miss while it served is marked.
        f.health.add({t, -1, true, State::Healthy});
        QVERIFY(pixelsNear(tl.grab().toImage(), stateColor(State::Failed, tl.palette())) > 20);
        QVERIFY2(tl.summary().startsWith(QStringLiteral("Healthy for 1 min")),
                 qPrintable(tl.summary()));
        QVERIFY2(tl.summary().contains(QStringLiteral("Stopped for")), qPrintable(tl.summary()));
        QVERIFY2(tl.summary().contains(QStringLiteral("1 check went unanswered.")),
                 qPrintable(tl.summary()));
        QVERIFY(tl.legendHtml().contains(QStringLiteral("no answer")));
    }

    void timelineDrawsBandsAndLatency() {
        Fixture f;
        fill(f);
        ui::HealthTimeline t(f.model());
        t.resize(600, 140);
        const QImage img = t.grab().toImage();
        img.save(outDir() + QStringLiteral("/offscreen-timeline.png"));
        QVERIFY(distinctColours(img) > 8);
        QVERIFY(pixelsNear(img, stateColor(State::Healthy, t.palette())) > 300);
        QVERIFY(pixelsNear(img, stateColor(State::NotResponding, t.palette())) > 30);
        QVERIFY(pixelsNear(img, t.palette().color(QPalette::Highlight)) > 100);

        Fixture empty;
        ui::HealthTimeline blank(empty.model());
        blank.resize(600, 140);
        const QImage none = blank.grab().toImage();
        QCOMPARE(pixelsNear(none, stateColor(State::Healthy, t.palette())), 0);
    }
};

QTEST_MAIN(TstWindows)
#include "tst_windows.moc"
