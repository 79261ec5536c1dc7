// The windows render what the model holds: the status window with data (and a timeline that
// is not blank). The orphan and settings dialogs are tst_dialogs'.
#include "service/health_history.h"
#include "tray/tray_icons.h"
#include "ui/format.h"
#include "ui/health_timeline.h"
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
        QVERIFY(hasText(QStringLiteral("4242")));
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
            if (b->text() == QLatin1String("Start")) start = b;
            if (b->text().startsWith(QLatin1String("Clean up"))) cleanup = b;
        }
        QVERIFY(start && !start->isEnabled());
        QVERIFY(cleanup && cleanup->isVisible());
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

    // Issue 16: not responding is a planned wait, said with what comes next, not as an error.
    void notRespondingSaysWhatHappensNext() {
        Fixture f;
        fill(f);
        f.status.state = State::NotResponding;
        f.status.lastError = QStringLiteral("no answer within 1000 ms");
        f.status.replaceAt = now0().addMSecs(17500);
        const QString next = ui::nextStepText(f.status, now0());
        QVERIFY2(next.contains(QStringLiteral("it will be replaced in 18 s if it does not answer")),
                 qPrintable(next));
        QVERIFY(next.contains(f.status.lastError));
        ui::StatusWindow w(f.model());
        auto labels = w.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.begin(), labels.end(),
                            [&](QLabel *l) { return l->text() == next; }));
        QVERIFY(std::none_of(labels.begin(), labels.end(), [](QLabel *l) {
            return l->text().contains(QStringLiteral("Last error"));
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
        f.status.state = State::Healthy;
        f.status.orphans.clear();
        QVERIFY(ui::nextStepText(f.status, now0()).isEmpty());
        // What waits for a person is said in any state: an update, orphans.
        f.status.versionMismatch = true;
        f.status.installedVersion = QStringLiteral("1.19.0");
        f.status.orphans = {{101, {QStringLiteral("node")}, QStringLiteral("ledger"), 5000, 900}};
        QCOMPARE(ui::nextStepText(f.status, now0()),
                 QStringLiteral("Version 1.19.0 is installed: restart to update. 1 orphaned MCP "
                                "process from an earlier service still runs."));
        f.status.state = State::Restarting;
        f.status.restartAt = now0().addSecs(4);
        f.status.versionMismatch = false;
        f.status.orphans.clear();
        f.status.lastError = QStringLiteral("pid 77 was killed or crashed");
        QCOMPARE(ui::nextStepText(f.status, now0()),
                 QStringLiteral("Starting again in 4 s (pid 77 was killed or crashed)."));
    }

    // Issue 16: events read as plain words with a short time, not raw log lines.
    void eventsReadAsPlainWords() {
        const QDateTime now = now0();
        const auto text = [&](const char *line) {
            return ui::eventLine(QString::fromLatin1(line), now);
        };
        ui::EventLine e = text("2026-01-01T11:58:02.123 state healthy -> not-responding: no "
                               "answer within 1000 ms");
        QCOMPARE(e.time, QStringLiteral("11:58:02"));
        QCOMPARE(e.text, QStringLiteral("Not responding: no answer within 1000 ms"));
        QCOMPARE(text("2026-01-01T11:58:00.001 started pid 77 on port 4096").text,
                 QStringLiteral("Service started (pid 77, port 4096)"));
        QCOMPARE(text("2026-01-01T11:58:03.000 pid 77: exited-on-term").text,
                 QStringLiteral("The service (pid 77) exited when asked"));
        QVERIFY(text("2026-01-01T11:58:00.000 launch scan: 0 orphan(s) among 121 processes in "
                     "15.1 ms")
                    .text.isEmpty());
        QCOMPARE(text("2025-12-30T08:00:00.000 something new").time,
                 QStringLiteral("30 Dec 08:00"));
        QCOMPARE(text("2025-12-30T08:00:00.000 something new").text,
                 QStringLiteral("something new"));
        // Shown wrapped, without the stamp's date and milliseconds.
        Fixture f;
        fill(f);
        f.events << QStringLiteral("2026-01-01T11:58:02.123 state healthy -> not-responding: no "
                                   "answer within 1000 ms");
        ui::StatusWindow w(f.model());
        const QString shown = w.eventsView()->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("11:58:02  Not responding")), qPrintable(shown));
        QVERIFY(!shown.contains(QStringLiteral("2026-01-01T")));
        QCOMPARE(w.eventsView()->lineWrapMode(), QPlainTextEdit::WidgetWidth);
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
            return l->isVisible() && l->text() == QStringLiteral("No MCP servers");
        }));
        f.status.state = State::Failed;
        w.refresh();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [](QLabel *l) {
            return l->isVisible() && l->text() == QStringLiteral("Service not running");
        }));
        w.grab().save(outDir() + QStringLiteral("/offscreen-status-failed.png"));
    }

    // Issue 16: a server over its limit is marked in the table and has a Restart button there.
    void aFlaggedServerIsMarkedInTheTable() {
        Fixture f;
        fill(f);
        f.status.mcp[0].flagged = true;
        f.status.mcp[0].flagReason = QStringLiteral("memory 612 MiB is over 500 MiB (+9 MiB/min)");
        ui::StatusWindow w(f.model());
        QCOMPARE(w.mcpTable()->item(0, 1)->text(), QStringLiteral("⚠ memory over its limit"));
        QCOMPARE(w.mcpTable()->item(0, 1)->toolTip(), f.status.mcp[0].flagReason);
        QVERIFY(w.mcpTable()->item(0, 2)->font().bold()); // the number that is too high
        auto *button = qobject_cast<QPushButton *>(w.mcpTable()->cellWidget(0, 6));
        QCOMPARE(button->text(), QStringLiteral("Restart filesystem"));
        QCOMPARE(qobject_cast<QPushButton *>(w.mcpTable()->cellWidget(1, 6))->text(),
                 QStringLiteral("Reconnect"));
        QVERIFY(w.tabs()->tabText(0).contains(QStringLiteral("need attention")));
    }

    // Issue 16: the timeline's span follows the history, so a 5 s spell is not 1 px of an hour.
    void timelineSpanFollowsTheHistory() {
        QCOMPARE(ui::timelineSpanMs(0), 60000);
        QCOMPARE(ui::timelineSpanMs(45000), 60000);
        QCOMPARE(ui::timelineSpanMs(4 * 60000), 5 * 60000);
        QCOMPARE(ui::timelineSpanMs(14 * 60000), 15 * 60000);
        QCOMPARE(ui::timelineSpanMs(2 * 3600000), 60 * 60000);
        QCOMPARE(ui::timelineTitle(5 * 60000), QStringLiteral("Health, last 5 min"));
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
