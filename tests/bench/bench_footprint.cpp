// Idle footprint and launch latency of the real `tether` with its tray, beside a floor: a bare
// QSystemTrayIcon program (bench_tray_floor), both under the same X display with a tray host
// (scripts/bench.sh starts Xvfb + trayer). For each service (demo, opencode):
//   launch -> tray icon shown   until the tray host's pixels change (the tray area grabbed from
//                               the root window every ~5 ms, compared with the tray before launch)
//   launch -> service healthy   via `tether status --json`
//   idle 60 s                   RSS (mean of 1 s samples) and CPU time (utime+stime) of the
//                               tether process alone, and of the floor, measured side by side
// Targets: memory <= 1.5x the floor; CPU <= 30 ms per minute; icon shown < 300 ms.
// Usage: bench_footprint [demo|opencode]... (needs DISPLAY, TETHER_BIN, BENCH_TRAY_FLOOR;
// opencode also TETHER_E2E_CACHE). BENCH_IDLE_S overrides the 60 s.
#include <QDir>
#include <QGuiApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPixmap>
#include <QProcess>
#include <QScreen>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>
#include <functional>
#include <unistd.h>

namespace {

struct Usage {
    double rssKiB = 0;
    double cpuMs = 0;
};

Usage sample(qint64 pid) {
    Usage u;
    QFile st(QStringLiteral("/proc/%1/stat").arg(pid));
    if (st.open(QIODevice::ReadOnly)) {
        const QByteArray s = st.readAll();
        const QList<QByteArray> f = s.mid(s.lastIndexOf(')') + 2).split(' ');
        if (f.size() > 13)
            u.cpuMs =
                (f.at(11).toDouble() + f.at(12).toDouble()) * 1000.0 / double(sysconf(_SC_CLK_TCK));
    }
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (status.open(QIODevice::ReadOnly))
        for (const QByteArray &l : status.readAll().split('\n'))
            if (l.startsWith("VmRSS:")) u.rssKiB = l.mid(6).trimmed().split(' ').first().toDouble();
    return u;
}

// The tray host's area (scripts/bench.sh: trayer at the top right, BENCH_TRAY_W x BENCH_TRAY_H).
QImage trayArea() {
    QScreen *screen = QGuiApplication::primaryScreen();
    const int w = qEnvironmentVariableIntValue("BENCH_TRAY_W") > 0
                      ? qEnvironmentVariableIntValue("BENCH_TRAY_W")
                      : 128;
    const int h = qEnvironmentVariableIntValue("BENCH_TRAY_H") > 0
                      ? qEnvironmentVariableIntValue("BENCH_TRAY_H")
                      : 32;
    return screen->grabWindow(0, screen->geometry().width() - w, 0, w, h)
        .toImage()
        .convertToFormat(QImage::Format_RGB32);
}

int changedPixels(const QImage &a, const QImage &b) {
    if (a.size() != b.size()) return a.width() * a.height();
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            n += a.pixel(x, y) != b.pixel(x, y);
    return n;
}

// Launch -> the program's icon drawn in the tray: the tray area differs from how it looked
// before the launch by more than a few pixels (an icon is at least 16 x 16).
qint64 launchToIcon(QProcess &p, const QString &program, const QStringList &args,
                    const QProcessEnvironment &env) {
    p.setProcessEnvironment(env);
    p.setStandardOutputFile(QProcess::nullDevice());
    p.setStandardErrorFile(QProcess::nullDevice());
    const QImage before = trayArea();
    QElapsedTimer t;
    t.start();
    p.start(program, args);
    if (!p.waitForStarted(10000)) return -1;
    while (t.elapsed() < 30000) {
        if (changedPixels(before, trayArea()) > 64) return t.elapsed();
        QThread::msleep(5);
    }
    return -1;
}

QJsonObject status(const QProcessEnvironment &env) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("TETHER_BIN"),
            {QStringLiteral("status"), QStringLiteral("--json")});
    p.waitForFinished(15000);
    return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
}

void run(const QString &name, int idleS) {
    QTemporaryDir data;
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    const int port = probe.serverPort();
    probe.close();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TETHER_DATA_DIR"), data.filePath(QStringLiteral("tether")));
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), data.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), data.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    QString service = QStringLiteral("profile=demo\n");
    if (name == QLatin1String("opencode")) {
        const QString cache =
            qEnvironmentVariable("TETHER_E2E_CACHE", QStringLiteral("/var/cache/tether-e2e"));
        const QString everything =
            cache +
            QStringLiteral("/node_modules/@modelcontextprotocol/server-everything/dist/index.js");
        QDir().mkpath(data.filePath(QStringLiteral("home/.config/opencode")));
        QFile f(data.filePath(QStringLiteral("home/.config/opencode/opencode.json")));
        f.open(QIODevice::WriteOnly);
        f.write(QJsonDocument(
                    QJsonObject{
                        {QStringLiteral("autoupdate"), false},
                        {QStringLiteral("share"), QStringLiteral("disabled")},
                        {QStringLiteral("mcp"),
                         QJsonObject{{QStringLiteral("everything"),
                                      QJsonObject{{QStringLiteral("type"), QStringLiteral("local")},
                                                  {QStringLiteral("command"),
                                                   QJsonArray{QStringLiteral("node"), everything,
                                                              QStringLiteral("stdio")}}}}}}})
                    .toJson());
        f.close();
        env.insert(QStringLiteral("HOME"), data.filePath(QStringLiteral("home")));
        for (const char *quiet :
             {"OPENCODE_DISABLE_AUTOUPDATE", "OPENCODE_DISABLE_MODELS_FETCH",
              "OPENCODE_DISABLE_DEFAULT_PLUGINS", "OPENCODE_DISABLE_LSP_DOWNLOAD",
              "OPENCODE_DISABLE_SHARE", "OPENCODE_DISABLE_CLAUDE_CODE",
              "OPENCODE_DISABLE_EXTERNAL_SKILLS"})
            env.insert(QString::fromLatin1(quiet), QStringLiteral("1"));
        service =
            QStringLiteral(
                "profile=opencode1\nprogram=%1/node_modules/opencode-linux-x64/bin/opencode\n")
                .arg(cache);
    }
    const QString ini = data.filePath(QStringLiteral("tether.ini"));
    {
        QFile f(ini);
        f.open(QIODevice::WriteOnly);
        // Default probe cadence and recovery settings: the idle cost a user pays.
        f.write(QStringLiteral("[service]\n%1port=%2\n[probe]\nstartupDeadlineMs=180000\n[app]"
                               "\nstopServiceOnQuit=true\nnotifications=false\n")
                    .arg(service)
                    .arg(port)
                    .toUtf8());
    }

    QProcess floorProc, tether;
    const qint64 floorIcon =
        launchToIcon(floorProc, qEnvironmentVariable("BENCH_TRAY_FLOOR"), {}, env);
    const qint64 tetherIcon = launchToIcon(tether, qEnvironmentVariable("TETHER_BIN"),
                                           {QStringLiteral("--settings"), ini}, env);
    QElapsedTimer t;
    t.start();
    qint64 healthyMs = -1;
    while (t.elapsed() < 200000) {
        if (status(env).value(QLatin1String("state")).toString() == QLatin1String("healthy")) {
            healthyMs = t.elapsed() + tetherIcon;
            break;
        }
        QThread::msleep(20);
    }
    std::printf(
        "%-9s launch -> tray icon shown: tether %lld ms (target < 300 ms: %s), floor %lld ms\n",
        qPrintable(name), static_cast<long long>(tetherIcon),
        tetherIcon >= 0 && tetherIcon < 300 ? "met" : "MISSED", static_cast<long long>(floorIcon));
    std::printf("%-9s launch -> service healthy (includes the service's start-up): %lld ms\n",
                qPrintable(name), static_cast<long long>(healthyMs));
    std::fflush(stdout);
    if (healthyMs >= 0) {
        QThread::sleep(3); // let the start-up settle: measure the idle state only
        const Usage t0 = sample(tether.processId()), f0 = sample(floorProc.processId());
        double tRss = 0, fRss = 0;
        for (int i = 0; i < idleS; ++i) {
            QThread::sleep(1);
            tRss += sample(tether.processId()).rssKiB;
            fRss += sample(floorProc.processId()).rssKiB;
        }
        const Usage t1 = sample(tether.processId()), f1 = sample(floorProc.processId());
        tRss /= idleS;
        fRss /= idleS;
        const double perMin = 60.0 / idleS;
        const double tCpu = (t1.cpuMs - t0.cpuMs) * perMin, fCpu = (f1.cpuMs - f0.cpuMs) * perMin;
        std::printf("%-9s idle %d s: RSS tether %.1f MiB, floor %.1f MiB, ratio %.2fx (target <= "
                    "1.5x: %s)\n",
                    qPrintable(name), idleS, tRss / 1024, fRss / 1024, tRss / fRss,
                    tRss / fRss <= 1.5 ? "met" : "MISSED");
        std::printf(
            "%-9s idle %d s: CPU tether %.1f ms/min, floor %.1f ms/min (target <= 30 ms/min: %s)\n",
            qPrintable(name), idleS, tCpu, fCpu, tCpu <= 30 ? "met" : "MISSED");
        std::fflush(stdout);
    } else {
        std::printf("%-9s FAILED: never healthy: %s\n", qPrintable(name),
                    QJsonDocument(status(env)).toJson(QJsonDocument::Compact).constData());
    }
    // stopServiceOnQuit=true: quitting stops the service Tether started.
    QProcess quit;
    quit.setProcessEnvironment(env);
    quit.start(qEnvironmentVariable("TETHER_BIN"), {QStringLiteral("quit")});
    quit.waitForFinished(15000);
    if (!tether.waitForFinished(30000)) {
        tether.kill();
        tether.waitForFinished();
    }
    floorProc.terminate();
    if (!floorProc.waitForFinished(5000)) {
        floorProc.kill();
        floorProc.waitForFinished();
    }
}

} // namespace

int main(int argc, char **argv) {
    QGuiApplication app(argc, argv); // for grabbing the tray's pixels off the X display
    QStringList which = app.arguments().mid(1);
    if (which.isEmpty()) which = {QStringLiteral("demo"), QStringLiteral("opencode")};
    if (qEnvironmentVariableIsEmpty("DISPLAY") || qEnvironmentVariableIsEmpty("TETHER_BIN") ||
        qEnvironmentVariableIsEmpty("BENCH_TRAY_FLOOR")) {
        std::printf(
            "bench_footprint: needs DISPLAY (with a tray host), TETHER_BIN and BENCH_TRAY_FLOOR\n");
        return 2;
    }
    const int idleS = qEnvironmentVariableIntValue("BENCH_IDLE_S") > 0
                          ? qEnvironmentVariableIntValue("BENCH_IDLE_S")
                          : 60;
    for (const QString &name : which)
        run(name, idleS);
    return 0;
}
