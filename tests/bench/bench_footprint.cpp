// Idle footprint and launch latency of the real `tether` with its tray, beside a floor: a bare
// QSystemTrayIcon program (bench_tray_floor), both under the same X display with a tray host
// (scripts/bench.sh starts Xvfb + trayer). For each service (demo, opencode):
//   launch -> tray icon shown   until the tray host's pixels change (the tray area grabbed from
//                               the root window every ~5 ms, compared with the tray before launch)
//   launch -> service healthy   via `tether status --json`
//   idle 10 min                 RSS (mean of 1 s samples), CPU time (the scheduler's run time of
//                               every thread, /proc/PID/task/TID/schedstat, in ns: utime+stime
//                               count 10 ms ticks, too coarse for a few ms a minute) and wake-ups
//                               (voluntary context switches, summed over the threads'
//                               /proc/PID/task/TID/status) of the tether process alone, tray and
//                               --headless (each with a service of its own), and of the floors,
//                               measured side by side over the same minutes
// Targets (issue 28), each a ratio to its floor in the same run: RSS <= 1.15x the bare tray; CPU
// and wake-ups <= 1.5x the bare probing (the same 2 requests every 5 s, blocking sockets).
// BENCH_CHECK=1 (scripts/test.sh's footprint check): exit 1 when a ratio passes its guard:
// wake-ups 2.0x (the target with a third more: noise on a loaded machine moves both sides of a
// ratio over the same window, not a third); CPU 2.5x and RSS 1.40x.
// CPU time per wake moves with the machine, in episodes that touch Tether far more than the bare
// floor (CI once saw every Tether thread cost 8-12x its usual time per wake for the whole 90 s,
// the floor 1.9x: a ratio of 4.56x; here a 10 s window once cost 9.9x and
// the next 0.11x, on a machine doing nothing else of ours). So the idle time is three windows:
// RSS, wake-ups and each target are judged over all of them, the CPU guard on the quietest one,
// with up to three windows more while none has held it. A regression shows in every window.
// working: the demo with a tool call running all along, beside the idle demo of the same run
// (target: CPU and wake-ups <= 2x idle, tray and headless).
// Usage: bench_footprint [demo|working|opencode]... (needs DISPLAY, TETHER_BIN,
// BENCH_TRAY_FLOOR; opencode also TETHER_E2E_CACHE; BENCH_TRAY_FLOOR_NET adds the bare tray that
// probes with QtNetwork (tray_floor.cpp) to the RSS breakdown). BENCH_IDLE_S overrides the 600 s
// (the three windows together).
#include "bench_util.h"

#include <QDir>
#include <QGuiApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QPixmap>
#include <QProcess>
#include <QScreen>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>

#include <arpa/inet.h>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <functional>
#include <mutex>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace {

// Resident memory of a process (VmRSS), in KiB.
double rssKiB(qint64 pid) {
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (status.open(QIODevice::ReadOnly))
        for (const QByteArray &l : status.readAll().split('\n'))
            if (l.startsWith("VmRSS:")) return l.mid(6).trimmed().split(' ').first().toDouble();
    return 0;
}

// What else the machine did over the window, to read a failed guard by: the threads of each
// measured process (run time and wake-ups), the whole machine's busy and stolen time from
// /proc/stat, and the processes that used the most CPU beside the measured ones.
struct ThreadUse {
    QString name;
    double ms = 0, wakeups = 0;
};
// Page faults of a whole process, minor and major: memory the kernel took away and gave back,
// which costs CPU that the process's own work does not explain.
struct Faults {
    double minor = 0, major = 0;
};
Faults faults(qint64 pid) {
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray line = f.readAll();
    // After "(comm) ": state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
    const QList<QByteArray> rest = line.mid(line.lastIndexOf(')') + 2).split(' ');
    if (rest.size() < 10) return {};
    return {rest[7].toDouble(), rest[9].toDouble()};
}
QMap<QString, ThreadUse> threads(qint64 pid) {
    QMap<QString, ThreadUse> out;
    const QDir tasks(QStringLiteral("/proc/%1/task").arg(pid));
    for (const QString &tid : tasks.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        ThreadUse t;
        QFile comm(tasks.filePath(tid + QStringLiteral("/comm")));
        if (comm.open(QIODevice::ReadOnly)) t.name = QString::fromUtf8(comm.readAll().trimmed());
        QFile st(tasks.filePath(tid + QStringLiteral("/schedstat")));
        if (st.open(QIODevice::ReadOnly)) t.ms = st.readAll().split(' ').first().toDouble() / 1e6;
        QFile status(tasks.filePath(tid + QStringLiteral("/status")));
        if (status.open(QIODevice::ReadOnly))
            for (const QByteArray &l : status.readAll().split('\n'))
                if (l.startsWith("voluntary_ctxt_switches:"))
                    t.wakeups = l.mid(24).trimmed().toDouble();
        out.insert(tid, t);
    }
    return out;
}
// What the threads alive at the window's end did in it (a thread born in it counts from zero;
// one that ended in it is missing: the figure is a floor).
ThreadUse threadDelta(const QMap<QString, ThreadUse> &before,
                      const QMap<QString, ThreadUse> &after) {
    ThreadUse d;
    for (auto it = after.cbegin(); it != after.cend(); ++it) {
        const ThreadUse was = before.value(it.key());
        d.ms += it->ms - was.ms;
        d.wakeups += it->wakeups - was.wakeups;
    }
    return d;
}
struct MachineUse {
    double busyMs = 0, stealMs = 0;
    int processes = 0, zombies = 0;
    QMap<qint64, QPair<QString, double>> perProcessMs; // pid -> (name, utime+stime ms)
};
MachineUse machine() {
    MachineUse m;
    const double tick = 1000.0 / double(sysconf(_SC_CLK_TCK));
    QFile stat(QStringLiteral("/proc/stat"));
    if (stat.open(QIODevice::ReadOnly)) {
        // cpu user nice system idle iowait irq softirq steal ...
        const QList<QByteArray> f = stat.readLine().simplified().split(' ');
        if (f.size() > 8) {
            for (int i : {1, 2, 3, 6, 7})
                m.busyMs += f[i].toDouble() * tick;
            m.stealMs = f[8].toDouble() * tick;
        }
    }
    const QDir proc(QStringLiteral("/proc"));
    for (const QString &pid : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool isPid = false;
        const qint64 n = pid.toLongLong(&isPid);
        if (!isPid) continue;
        QFile f(proc.filePath(pid + QStringLiteral("/stat")));
        if (!f.open(QIODevice::ReadOnly)) continue;
        const QByteArray line = f.readAll();
        const int open = line.indexOf('('), close = line.lastIndexOf(')');
        if (open < 0 || close < open) continue;
        const QList<QByteArray> rest = line.mid(close + 2).split(' ');
        ++m.processes;
        if (!rest.isEmpty() && rest[0] == "Z") ++m.zombies;
        if (rest.size() > 12)
            m.perProcessMs.insert(n, {QString::fromUtf8(line.mid(open + 1, close - open - 1)),
                                      (rest[11].toDouble() + rest[12].toDouble()) * tick});
    }
    return m;
}
void printWindow(const char *name, const QList<QPair<QString, qint64>> &measured,
                 const QList<QMap<QString, ThreadUse>> &before,
                 const QList<QMap<QString, ThreadUse>> &after, const QList<Faults> &faults0,
                 const QList<Faults> &faults1, const MachineUse &m0, const MachineUse &m1,
                 double seconds) {
    const double perMin = 60.0 / seconds;
    for (int k = 0; k < measured.size(); ++k) {
        QStringList parts;
        for (auto it = after[k].cbegin(); it != after[k].cend(); ++it) {
            const ThreadUse was = before[k].value(it.key());
            const double ms = it->ms - was.ms, w = it->wakeups - was.wakeups;
            if (ms < 0.05 && w < 0.5) continue;
            parts << QStringLiteral("%1 %2 ms/min %3 wake-ups/min")
                         .arg(it->name)
                         .arg(ms * perMin, 0, 'f', 1)
                         .arg(w * perMin, 0, 'f', 1);
        }
        std::printf("%-9s window: %s threads: %s; page faults %.1f minor, %.1f major /min\n", name,
                    qPrintable(measured[k].first), qPrintable(parts.join(QStringLiteral("; "))),
                    (faults1[k].minor - faults0[k].minor) * perMin,
                    (faults1[k].major - faults0[k].major) * perMin);
    }
    QList<QPair<double, QString>> others;
    for (auto it = m1.perProcessMs.cbegin(); it != m1.perProcessMs.cend(); ++it) {
        const auto was = m0.perProcessMs.value(it.key(), {it->first, 0.0});
        const double ms = it->second - was.second;
        if (ms >= 10) others.append({ms, QStringLiteral("%1 (%2)").arg(it->first).arg(it.key())});
    }
    std::sort(others.begin(), others.end(), [](auto &a, auto &b) { return a.first > b.first; });
    QStringList top;
    for (int i = 0; i < others.size() && i < 5; ++i)
        top << QStringLiteral("%1 %2 ms/min")
                   .arg(others[i].second)
                   .arg(others[i].first * perMin, 0, 'f', 0);
    std::printf("%-9s window: the machine %.0f ms/min busy (of %ld cores), %.0f ms/min stolen by "
                "the host; %d processes (%d zombies); most CPU: %s\n",
                name, (m1.busyMs - m0.busyMs) * perMin, sysconf(_SC_NPROCESSORS_ONLN),
                (m1.stealMs - m0.stealMs) * perMin, m1.processes, m1.zombies,
                qPrintable(top.isEmpty() ? QStringLiteral("none over 10 ms")
                                         : top.join(QStringLiteral(", "))));
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

// One Tether's own data dir, runtime dir, settings and free port (its own service beside).
struct Instance {
    QTemporaryDir data;
    QProcessEnvironment env;
    QString ini;
    QProcess proc;
    int port = 0;
};

// The floor of supervising at the default cadence: the same two requests Tether sends every
// 5 s (the health probe and the MCP status), done bare from a thread with blocking sockets
// (unauthorised: a 401 costs the same syscalls). Its own wake-ups and CPU over the idle time.
class BareProber {
public:
    explicit BareProber(int port)
        : port_(port)
        , thread_([this] { run(); }) {}
    ~BareProber() { stop(); }
    void stop() {
        {
            std::lock_guard<std::mutex> lock(m_);
            stop_ = true;
        }
        cv_.notify_all();
        if (thread_.joinable()) thread_.join();
    }
    double wakeups() const { return wakeups_; }
    double cpuMs() const { return cpuMs_; }

private:
    static double selfSwitches() {
        QFile f(QStringLiteral("/proc/thread-self/status"));
        if (!f.open(QIODevice::ReadOnly)) return 0;
        for (const QByteArray &l : f.readAll().split('\n'))
            if (l.startsWith("voluntary_ctxt_switches:")) return l.mid(24).trimmed().toDouble();
        return 0;
    }
    void run() {
        const double w0 = selfSwitches(), c0 = tether::bench::threadCpuMs();
        std::unique_lock<std::mutex> lock(m_);
        while (!cv_.wait_for(lock, std::chrono::seconds(5), [this] { return stop_; })) {
            tether::bench::bareGet(port_, "/global/health");
            tether::bench::bareGet(port_, "/mcp");
        }
        wakeups_ = selfSwitches() - w0;
        cpuMs_ = tether::bench::threadCpuMs() - c0;
    }
    int port_;
    std::mutex m_;
    std::condition_variable cv_;
    bool stop_ = false;
    double wakeups_ = 0, cpuMs_ = 0;
    std::thread thread_;
};

// BENCH_CPU_GUARD moves the CPU guard, to see the extra windows and a failure (2.5x).
double envOr(const char *name, double fallback) {
    bool ok = false;
    const double v = qEnvironmentVariable(name).toDouble(&ok);
    return ok ? v : fallback;
}

// "working": the demo with a tool call running all along (its "for N s" counts on every surface).
constexpr const char *kBusyTool = "everything_trigger-long-running-operation";

void prepare(Instance &in, const QString &name) {
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    const int port = probe.serverPort();
    probe.close();
    const QTemporaryDir &data = in.data;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TETHER_DATA_DIR"), data.filePath(QStringLiteral("tether")));
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), data.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), data.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    QString service = QStringLiteral("profile=demo\n");
    if (name == QLatin1String("working"))
        service += QStringLiteral("arguments=--busy-tool %1:86400\n").arg(QLatin1String(kBusyTool));
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
    in.env = env;
    in.port = port;
    in.ini = data.filePath(QStringLiteral("tether.ini"));
    QFile f(in.ini);
    f.open(QIODevice::WriteOnly);
    // Default probe cadence and recovery settings: the idle cost a user pays.
    f.write(QStringLiteral("[service]\n%1port=%2\n[probe]\nstartupDeadlineMs=180000\n[app]"
                           "\nstopServiceOnQuit=true\nnotifications=false\n")
                .arg(service)
                .arg(port)
                .toUtf8());
}

// Launch -> `tether status --json` says healthy (includes the service's own start-up); -1 never.
qint64 untilHealthy(const QProcessEnvironment &env, qint64 offsetMs) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 200000) {
        if (status(env).value(QLatin1String("state")).toString() == QLatin1String("healthy"))
            return t.elapsed() + offsetMs;
        QThread::msleep(20);
    }
    return -1;
}

void quitAndReap(Instance &in) {
    // stopServiceOnQuit=true: quitting stops the service Tether started.
    QProcess quit;
    quit.setProcessEnvironment(in.env);
    // --force: a tool call running (the working run) makes a plain quit ask first, and a
    // refused quit left the service running after the benchmark.
    quit.start(qEnvironmentVariable("TETHER_BIN"),
               {QStringLiteral("quit"), QStringLiteral("--force")});
    quit.waitForFinished(15000);
    if (!in.proc.waitForFinished(30000)) {
        in.proc.kill();
        in.proc.waitForFinished();
    }
}

// What a run measured of tether itself, per minute (tray, headless): for the working run's ratio.
struct TetherUse {
    double cpu[2] = {0, 0};
    double wake[2] = {0, 0};
    bool measured = false;
};

// One idle window of all three processes side by side, per minute; its diagnostics printed.
struct Window {
    double rssKiB[3] = {0, 0, 0};             // tray, headless, bare tray: mean of 1 s samples
    double cpu[2] = {0, 0}, wake[2] = {0, 0}; // tray, headless
    double floorCpu = 0, floorWake = 0;       // the bare tray's own
    double bareCpu = 0, bareWake = 0;         // bare probing
};
Window measureWindow(const QString &name, const qint64 pids[3], int headlessPort, int seconds) {
    Window w;
    QList<QMap<QString, ThreadUse>> t0, t1; // tray, headless, bare tray
    QList<Faults> f0, f1;
    for (int k = 0; k < 3; ++k)
        t0.append(threads(pids[k]));
    for (int k = 0; k < 2; ++k)
        f0.append(faults(pids[k]));
    const MachineUse m0 = machine();
    BareProber bare(headlessPort);
    for (int i = 0; i < seconds; ++i) {
        QThread::sleep(1);
        for (int k = 0; k < 3; ++k)
            w.rssKiB[k] += rssKiB(pids[k]) / seconds;
    }
    for (int k = 0; k < 3; ++k)
        t1.append(threads(pids[k]));
    const MachineUse m1 = machine();
    for (int k = 0; k < 2; ++k)
        f1.append(faults(pids[k]));
    bare.stop();
    printWindow(qPrintable(name),
                {{QStringLiteral("tray"), pids[0]}, {QStringLiteral("headless"), pids[1]}}, t0, t1,
                f0, f1, m0, m1, seconds);
    const double perMin = 60.0 / seconds;
    for (int k = 0; k < 2; ++k) {
        // Per thread: a thread that ends within the window (a pool worker expiring) would take
        // its whole count out of a process-wide sum and make the window's figure negative.
        const ThreadUse d = threadDelta(t0[k], t1[k]);
        w.cpu[k] = d.ms * perMin;
        w.wake[k] = d.wakeups * perMin;
        std::printf("%-9s window: %s CPU %.1f ms/min against bare probing %.1f: %.2fx\n",
                    qPrintable(name), k == 0 ? "tray" : "headless", w.cpu[k], bare.cpuMs() * perMin,
                    bare.cpuMs() > 0 ? w.cpu[k] / (bare.cpuMs() * perMin) : 0);
    }
    const ThreadUse floor = threadDelta(t0[2], t1[2]);
    w.floorCpu = floor.ms * perMin;
    w.floorWake = floor.wakeups * perMin;
    w.bareCpu = bare.cpuMs() * perMin;
    w.bareWake = bare.wakeups() * perMin;
    std::fflush(stdout);
    return w;
}

// The lowest CPU ratio to bare probing among the windows, for tray (0) or headless (1).
double quietestCpuRatio(const QList<Window> &windows, int k) {
    double quietest = -1;
    for (const Window &w : windows)
        if (const double r = w.bareCpu > 0 ? w.cpu[k] / w.bareCpu : 0; quietest < 0 || r < quietest)
            quietest = r;
    return quietest;
}

// Judges the windows measured (the header): prints one line per figure; false when a guard fails.
bool judge(const QString &name, const QList<Window> &windows, int seconds, bool check,
           double cpuGuard, TetherUse *use) {
    bool ok = true;
    Window all; // the mean of the windows, all of the same length
    const double n = windows.size();
    for (const Window &w : windows) {
        for (int k = 0; k < 3; ++k)
            all.rssKiB[k] += w.rssKiB[k] / n;
        for (int k = 0; k < 2; ++k) {
            all.cpu[k] += w.cpu[k] / n;
            all.wake[k] += w.wake[k] / n;
        }
        all.floorCpu += w.floorCpu / n;
        all.floorWake += w.floorWake / n;
        all.bareCpu += w.bareCpu / n;
        all.bareWake += w.bareWake / n;
    }
    const int idleS = int(seconds * n);
    std::printf("%-9s idle %d s, floors: bare tray RSS %.1f MiB, CPU %.1f ms/min, wake-ups "
                "%.1f /min; bare probing (the same 2 requests every 5 s, blocking sockets) "
                "CPU %.1f ms/min, wake-ups %.1f /min\n",
                qPrintable(name), idleS, all.rssKiB[2] / 1024, all.floorCpu, all.floorWake,
                all.bareCpu, all.bareWake);
    // One line per figure: value, floor, ratio, target, and (BENCH_CHECK) the guard.
    auto line = [&](const char *label, const char *what, double value, double floor,
                    const char *unit, double target, double guard, double judged,
                    const QString &judgedOn) {
        const double ratio = floor > 0 ? value / floor : 0;
        const bool held = judged <= guard;
        if (check && !held) ok = false;
        std::printf("%-9s idle %d s, %-8s %-8s %6.1f %s, floor %6.1f, ratio %.2fx (target <= "
                    "%.2fx: %s%s)\n",
                    qPrintable(name), idleS, label, what, value, unit, floor, ratio, target,
                    ratio <= target ? "met" : "MISSED",
                    check ? QStringLiteral("; %1guard %2x %3")
                                .arg(judgedOn)
                                .arg(guard)
                                .arg(held ? QStringLiteral("held") : QStringLiteral("FAILED"))
                                .toUtf8()
                                .constData()
                          : "");
    };
    const char *labels[2] = {"tray", "headless"};
    for (int k = 0; k < 2; ++k) {
        const double quietest = quietestCpuRatio(windows, k);
        const double rss = all.rssKiB[k] / all.rssKiB[2];
        const double wake = all.bareWake > 0 ? all.wake[k] / all.bareWake : 0;
        line(labels[k], "RSS", all.rssKiB[k] / 1024, all.rssKiB[2] / 1024, "MiB", 1.15, 1.40, rss,
             QString());
        line(labels[k], "CPU", all.cpu[k], all.bareCpu, "ms/min", 1.5, cpuGuard, quietest,
             QStringLiteral("quietest of %1 windows %2x, ")
                 .arg(windows.size())
                 .arg(quietest, 0, 'f', 2));
        line(labels[k], "wake-ups", all.wake[k], all.bareWake, "/min", 1.5, 2.0, wake, QString());
        use->cpu[k] = all.cpu[k];
        use->wake[k] = all.wake[k];
    }
    use->measured = true;
    std::fflush(stdout);
    return ok;
}

// Whether the quietest window so far holds the CPU guard for tray and headless alike.
bool cpuHeldIn(const QList<Window> &windows, double cpuGuard) {
    return quietestCpuRatio(windows, 0) <= cpuGuard && quietestCpuRatio(windows, 1) <= cpuGuard;
}

// Resident KiB of a process per mapping, from /proc/PID/smaps: a file by its name, "[heap]",
// "[stack]", and "[anon]" for the rest without a name.
QMap<QString, double> residentByMapping(qint64 pid) {
    QMap<QString, double> out;
    QFile f(QStringLiteral("/proc/%1/smaps").arg(pid));
    if (!f.open(QIODevice::ReadOnly)) return out;
    QString current;
    for (const QByteArray &l : f.readAll().split('\n')) {
        if (l.isEmpty()) continue;
        if (l.startsWith("Rss:")) {
            out[current] += l.mid(4).trimmed().split(' ').first().toDouble();
        } else if (!std::isupper(static_cast<unsigned char>(l.at(0))) || !l.contains(':')) {
            // A mapping's header: address perms offset dev inode [path]
            const QList<QByteArray> f = l.simplified().split(' ');
            current = f.size() > 5 ? QString::fromUtf8(f[5]).section(QLatin1Char('/'), -1)
                                   : QStringLiteral("[anon]");
        }
    }
    return out;
}

// Where the tray's resident memory is beside the floor's, at the end of the idle time: Tether's
// own binary, the libraries only the tray maps (QtNetwork and what it loads: the floor uses no
// network), heap and anonymous memory, and the libraries both map. The RSS target is judged on
// the whole; this says what a miss is made of.
// floorNetPid (when BENCH_TRAY_FLOOR_NET names the program): the bare tray probing the same
// service with QtNetwork (tray_floor.cpp), the least a tray that supervises over HTTP can be.
void printRssBreakdown(const QString &name, qint64 trayPid, qint64 floorPid, qint64 floorNetPid) {
    const QMap<QString, double> tray = residentByMapping(trayPid);
    const QMap<QString, double> floor = residentByMapping(floorPid);
    const QString binary = QFileInfo(qEnvironmentVariable("TETHER_BIN")).fileName();
    const QString floorBinary = QFileInfo(qEnvironmentVariable("BENCH_TRAY_FLOOR")).fileName();
    auto anonymous = [](const QString &m) { return m.startsWith(QLatin1Char('[')); };
    double trayAll = 0, floorAll = 0, own = 0, onlyTray = 0, anonTray = 0, anonFloor = 0,
           sharedTray = 0, sharedFloor = 0;
    QList<QPair<double, QString>> only;
    for (auto it = tray.cbegin(); it != tray.cend(); ++it) {
        trayAll += it.value();
        if (it.key() == binary) {
            own += it.value();
        } else if (anonymous(it.key())) {
            anonTray += it.value();
        } else if (!floor.contains(it.key())) {
            onlyTray += it.value();
            if (it.value() > 0) only.append({it.value(), it.key()});
        } else {
            sharedTray += it.value();
        }
    }
    for (auto it = floor.cbegin(); it != floor.cend(); ++it) {
        floorAll += it.value();
        if (anonymous(it.key()))
            anonFloor += it.value();
        else if (tray.contains(it.key()) && it.key() != floorBinary)
            sharedFloor += it.value();
    }
    std::sort(only.begin(), only.end(), [](auto &a, auto &b) { return a.first > b.first; });
    QStringList names;
    for (const auto &o : only)
        names << QStringLiteral("%1 %2").arg(o.second).arg(o.first / 1024, 0, 'f', 2);
    const double withoutOnly = trayAll - onlyTray;
    std::printf("%-9s tray RSS by mapping at the end (/proc/PID/smaps): %.1f MiB against the "
                "floor's %.1f. Tether's binary %.2f MiB; libraries only the tray maps %.2f MiB "
                "(%s); heap and anonymous %.2f MiB (floor %.2f); libraries both map %.2f MiB "
                "(floor %.2f). Without the libraries only the tray maps: %.1f MiB, %.2fx\n",
                qPrintable(name), trayAll / 1024, floorAll / 1024, own / 1024, onlyTray / 1024,
                qPrintable(names.join(QStringLiteral(", "))), anonTray / 1024, anonFloor / 1024,
                sharedTray / 1024, sharedFloor / 1024, withoutOnly / 1024,
                floorAll > 0 ? withoutOnly / floorAll : 0);
    if (floorNetPid > 0) {
        double net = 0;
        for (double kib : residentByMapping(floorNetPid))
            net += kib;
        std::printf("%-9s the bare tray probing the same service with QtNetwork every 5 s: %.1f "
                    "MiB, %.2fx the bare tray; the tray is %.2fx of it\n",
                    qPrintable(name), net / 1024, floorAll > 0 ? net / floorAll : 0,
                    net > 0 ? trayAll / net : 0);
    }
    std::fflush(stdout);
}

bool run(const QString &name, int idleS, bool check, TetherUse *use) {
    bool ok = true;
    Instance tray, headless;
    prepare(tray, name);
    prepare(headless, name);
    QProcess floorProc;
    const qint64 floorIcon =
        launchToIcon(floorProc, qEnvironmentVariable("BENCH_TRAY_FLOOR"), {}, tray.env);
    const qint64 tetherIcon = launchToIcon(tray.proc, qEnvironmentVariable("TETHER_BIN"),
                                           {QStringLiteral("--settings"), tray.ini}, tray.env);
    const qint64 healthyMs = untilHealthy(tray.env, tetherIcon);
    headless.proc.setProcessEnvironment(headless.env);
    headless.proc.setStandardOutputFile(QProcess::nullDevice());
    headless.proc.setStandardErrorFile(QProcess::nullDevice());
    headless.proc.start(qEnvironmentVariable("TETHER_BIN"),
                        {QStringLiteral("--headless"), QStringLiteral("--settings"), headless.ini});
    const qint64 headlessHealthyMs = untilHealthy(headless.env, 0);
    QProcess floorNet; // the bare tray probing the tray's service with QtNetwork
    if (!qEnvironmentVariableIsEmpty("BENCH_TRAY_FLOOR_NET")) {
        floorNet.setProcessEnvironment(tray.env);
        floorNet.setStandardOutputFile(QProcess::nullDevice());
        floorNet.setStandardErrorFile(QProcess::nullDevice());
        floorNet.start(qEnvironmentVariable("BENCH_TRAY_FLOOR_NET"), {QString::number(tray.port)});
    }
    std::printf(
        "%-9s launch -> tray icon shown: tether %lld ms (target < 300 ms: %s), floor %lld ms\n",
        qPrintable(name), static_cast<long long>(tetherIcon),
        tetherIcon >= 0 && tetherIcon < 300 ? "met" : "MISSED", static_cast<long long>(floorIcon));
    std::printf("%-9s launch -> service healthy (includes the service's start-up): %lld ms\n",
                qPrintable(name), static_cast<long long>(healthyMs));
    std::fflush(stdout);
    if (healthyMs >= 0 && headlessHealthyMs >= 0) {
        QThread::sleep(3); // let the start-up settle: measure the idle state only
        const qint64 pids[3] = {tray.proc.processId(), headless.proc.processId(),
                                floorProc.processId()};
        const double cpuGuard = envOr("BENCH_CPU_GUARD", 2.5);
        const int seconds = std::max(1, idleS / 3);
        QList<Window> windows;
        while (windows.size() < 3 ||
               (check && windows.size() < 6 && !cpuHeldIn(windows, cpuGuard))) {
            if (windows.size() == 3)
                std::printf("%-9s no window held the CPU guard: up to 3 windows more, for a "
                            "quiet one\n",
                            qPrintable(name));
            windows.append(measureWindow(name, pids, headless.port, seconds));
        }
        ok = judge(name, windows, seconds, check, cpuGuard, use) && ok;
        printRssBreakdown(name, pids[0], pids[2], floorNet.processId());
    } else {
        ok = false;
        std::printf("%-9s FAILED: never healthy: tray %s, headless %s\n", qPrintable(name),
                    QJsonDocument(status(tray.env)).toJson(QJsonDocument::Compact).constData(),
                    QJsonDocument(status(headless.env)).toJson(QJsonDocument::Compact).constData());
    }
    quitAndReap(tray);
    quitAndReap(headless);
    for (QProcess *p : {&floorProc, &floorNet}) {
        if (p->state() == QProcess::NotRunning) continue;
        p->terminate();
        if (!p->waitForFinished(5000)) {
            p->kill();
            p->waitForFinished();
        }
    }
    return ok;
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
                          : 600;
    const bool check = qEnvironmentVariableIntValue("BENCH_CHECK") == 1;
    bool ok = true;
    // "working" is measured beside the idle demo of the same run: its target is <= 2x that.
    if (which.contains(QLatin1String("working")) && !which.contains(QLatin1String("demo")))
        which.prepend(QStringLiteral("demo"));
    TetherUse idle, working;
    for (const QString &name : which) {
        TetherUse use;
        ok = run(name, idleS, check, &use) && ok;
        if (name == QLatin1String("demo")) idle = use;
        if (name == QLatin1String("working")) working = use;
    }
    if (working.measured && idle.measured) {
        const char *labels[2] = {"tray", "headless"};
        for (int k = 0; k < 2; ++k) {
            const double cpu = idle.cpu[k] > 0 ? working.cpu[k] / idle.cpu[k] : 0;
            const double wake = idle.wake[k] > 0 ? working.wake[k] / idle.wake[k] : 0;
            std::printf("working   a tool call running, %-8s CPU %.1f ms/min against idle %.1f: "
                        "%.2fx; wake-ups %.1f /min against idle %.1f: %.2fx (target <= 2x: %s)\n",
                        labels[k], working.cpu[k], idle.cpu[k], cpu, working.wake[k], idle.wake[k],
                        wake, cpu <= 2 && wake <= 2 ? "met" : "MISSED");
        }
    }
    if (check) std::printf("footprint check: %s\n", ok ? "PASSED" : "FAILED");
    return ok || !check ? 0 : 1;
}
