// The status window and the tray menu with 50 MCP rows, the field's worst scale:
//   status window open     construct + show -> the window exposed and painted    target < 150 ms
//   status window update   every row changed (pid, memory, CPU) -> refresh() + paint done
//   menu model             trayMenuModel() for 50 rows (what the tray computes on every change)
//   menu open / update     the tray's MCP submenu of those 50 rows (a row each, its action
//                          beside it) popped up and exposed / rebuilt
// Needs a display (scripts/bench.sh: Xvfb); QT_QPA_PLATFORM=offscreen measures without one.
#include "tray/tray_menu.h"
#include "tray/tray_menu_model.h"
#include "ui/status_window.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QMenu>
#include <QTimer>
#include <QWindow>

#include <cstdio>
#include <functional>

using namespace tether;

namespace {

double ms(const QElapsedTimer &t) {
    return double(t.nsecsElapsed()) / 1e6;
}

void line(const char *figure, double value, const char *goal = nullptr, bool met = true) {
    std::printf("%-52s %8.2f ms  %s%s\n", figure, value, goal ? goal : "",
                goal ? (met ? ": met" : ": MISSED") : "");
    std::fflush(stdout);
}

bool exposedSoon(QWidget &w) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 10000) {
        QApplication::processEvents();
        if (w.windowHandle() && w.windowHandle()->isExposed()) return true;
    }
    return false;
}

void fillRows(ServiceStatus &st, int n, int generation) {
    st.mcp.clear();
    for (int i = 0; i < n; ++i) {
        McpChildStatus r;
        r.name = QStringLiteral("mcp-server-%1").arg(i, 2, 10, QLatin1Char('0'));
        r.status = i % 7 == 0 ? QStringLiteral("failed") : QStringLiteral("connected");
        if (i % 7 == 0) r.error = QStringLiteral("exited with code 1");
        r.pid = 10000 + i + generation * 100;
        r.uptimeMs = 60000LL * (i + generation);
        r.rssKiB = quint64(40000 + 512 * i + generation);
        r.cpuPercent = double((i + generation) % 10);
        st.mcp << r;
    }
}

} // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    ServiceStatus status;
    HealthHistory health;
    QStringList events;
    status.state = policy::State::Healthy;
    status.pid = 4242;
    status.port = 4096;
    status.url = QStringLiteral("http://127.0.0.1:4096/");
    status.version = QStringLiteral("1.18.33");
    status.startedAt = QDateTime::currentDateTime().addSecs(-3600);
    fillRows(status, 50, 0);
    for (int i = 0; i < 200; ++i)
        events << QStringLiteral("2026-12-01T12:00:%1 an event line of the log").arg(i % 60);
    ui::UiModel model;
    model.status = [&]() -> const ServiceStatus & { return status; };
    model.health = [&]() -> const HealthHistory & { return health; };
    model.events = [&]() -> const QStringList & { return events; };
    std::printf("bench_ui: 50 MCP rows, platform %s\n",
                qPrintable(QGuiApplication::platformName()));

    QElapsedTimer t;
    t.start();
    auto *w = new ui::StatusWindow(model);
    w->show();
    const bool exposed = exposedSoon(*w);
    w->repaint(); // the first full paint, synchronously
    const double open = ms(t);
    line("status window (50 rows): open -> exposed + painted", exposed ? open : -1,
         "target < 150 ms", exposed && open < 150);

    double worst = 0, total = 0;
    for (int g = 1; g <= 10; ++g) {
        fillRows(status, 50, g);
        t.restart();
        w->refresh();
        w->repaint();
        const double u = ms(t);
        worst = std::max(worst, u);
        total += u;
    }
    line("status window (50 rows): update, mean of 10", total / 10);
    line("status window (50 rows): update, worst of 10", worst);
    // Shown, its uptime tick wakes Tether every second; hidden, it must not.
    const auto wakeupsOver = [](int ms) {
        const auto switches = [] {
            QFile f(QStringLiteral("/proc/thread-self/status"));
            if (!f.open(QIODevice::ReadOnly)) return -1.0;
            for (const QByteArray &l : f.readAll().split('\n'))
                if (l.startsWith("voluntary_ctxt_switches:")) return l.mid(24).trimmed().toDouble();
            return -1.0;
        };
        const double before = switches();
        QEventLoop loop;
        QTimer::singleShot(ms, &loop, &QEventLoop::quit);
        loop.exec();
        return (switches() - before) * 60000.0 / ms;
    };
    std::printf("%-52s %8.1f /min\n", "status window shown: wake-ups", wakeupsOver(5000));
    w->hide();
    QApplication::processEvents();
    std::printf("%-52s %8.1f /min  (the uptime tick stops: was 60 /min)\n",
                "status window hidden after that: wake-ups", wakeupsOver(5000));
    std::fflush(stdout);
    delete w;

    t.restart();
    TrayMenuModel m;
    for (int i = 0; i < 100; ++i)
        m = trayMenuModel(status, QDateTime::currentDateTime());
    line("tray menu model (50 rows), per call", ms(t) / 100);

    // The tray's own menu: its MCP submenu, a row per server with its action beside it.
    TrayMenu tray;
    t.restart();
    tray.setModel(m, QColor(Qt::darkGreen));
    QMenu &menu = *tray.mcpMenu();
    menu.popup(QPoint(10, 10));
    const bool shown = exposedSoon(menu);
    menu.repaint();
    const double menuOpen = ms(t);
    line("menu with 50 MCP rows: build + pop up -> exposed", shown ? menuOpen : -1);
    fillRows(status, 50, 11);
    t.restart();
    tray.setModel(trayMenuModel(status, QDateTime::currentDateTime()), QColor(Qt::darkGreen));
    menu.repaint();
    line("menu with 50 MCP rows: rebuild while open + paint", ms(t));
    menu.hide();
    return 0;
}
