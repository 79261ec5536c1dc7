// The windows render what the model holds: the status window with data (and a timeline that
// is not blank). The orphan and settings dialogs are tst_dialogs'.
#include "service/health_history.h"
#include "tray/tray_icons.h"
#include "ui/health_timeline.h"
#include "ui/status_window.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
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
        QCOMPARE(table->item(0, 4)->text(), QStringLiteral("20.0 MiB"));

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
