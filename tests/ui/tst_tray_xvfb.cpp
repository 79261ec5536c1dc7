// The real tray: Tether under Xvfb with Debian's `trayer` as the tray host, driving the demo
// service through healthy -> not-responding -> recovered and a crash -> restarted, taking
// screenshots of the tray, the open menu and the status window into <build>/tests/ui-shots,
// and checking that the icon's pixels in the tray follow the state. Runs at 1x and 2x scale.
#include "policy/state.h"
#include "testsupport.h"
#include "tray_host.h"
#include "tray/tray_icons.h"

#include <QDir>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <functional>

using namespace tether;
using policy::State;

namespace {

constexpr int kTrayWidth = 128, kTrayHeight = 32;

using test::shotsDir;

bool waitFor(const std::function<bool()> &condition, int timeoutMs) {
    return test::waitFor(condition, timeoutMs, 100); // each look runs import or a CLI verb
}

class Scenario {
public:
    QString display;
    QProcessEnvironment env;
    QString settingsPath;

    QJsonObject status() const {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(test::tetherBin(), {QStringLiteral("status"), QStringLiteral("--json")});
        if (!p.waitForFinished(15000)) return {};
        return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    }
    QString state() const { return status().value(QLatin1String("state")).toString(); }
    bool waitState(State s, int timeoutMs) const {
        const QString want = QString::fromLatin1(policy::toString(s));
        return waitFor([&] { return state() == want; }, timeoutMs);
    }
    int run(const QStringList &args, int timeoutMs = 15000) const {
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(args.first(), args.mid(1));
        if (!p.waitForFinished(timeoutMs)) {
            p.kill();
            p.waitForFinished();
            return -1;
        }
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }
    // The whole screen, as ImageMagick's import reads the root. Not xwd: a Qt popup over
    // another window of the same program (the menu's submenu or a tooltip over the status
    // window) came out black in xwd's picture, while one plain GetImage of the root, import and
    // Qt's own grab all read it painted (issue 27). A failed capture is said with import's own
    // words, and tried once more: the fresh-root run once lost one capture (of the empty
    // display, between two rows) with no word of why.
    QImage screenshot(const QString &name) const {
        const QString file = shotsDir() + QLatin1Char('/') + name;
        for (int attempt = 1;; ++attempt) {
            QFile::remove(file);
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(QStringLiteral("/bin/sh"),
                    {QStringLiteral("-c"),
                     QStringLiteral("import -silent -display '%1' -window root '%2'")
                         .arg(display, file)});
            const bool done = p.waitForFinished(15000);
            if (!done) {
                p.kill();
                p.waitForFinished();
            }
            const QImage shot = done && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0
                                    ? QImage(file)
                                    : QImage();
            if (!shot.isNull() || attempt == 2) return shot;
            qWarning("screenshot %s failed (%s, exit %d): %s", qPrintable(name),
                     done ? "finished" : "timed out", p.exitCode(),
                     p.readAllStandardError().constData());
        }
    }
};

// The rightmost icon slot of the tray host (trayer: top right, kTrayHeight tall).
QImage trayRegion(const QImage &screen) {
    return screen.copy(screen.width() - kTrayHeight, 0, kTrayHeight, kTrayHeight)
        .convertToFormat(QImage::Format_RGB32);
}

int pixelsNear(const QImage &img, const QColor &c, int tolerance = 40) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor p(img.pixel(x, y));
            n += qAbs(p.red() - c.red()) + qAbs(p.green() - c.green()) + qAbs(p.blue() - c.blue()) <
                 tolerance;
        }
    return n;
}

int differingPixels(const QImage &a, const QImage &b) {
    if (a.size() != b.size()) return a.width() * a.height();
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            n += a.pixel(x, y) != b.pixel(x, y);
    return n;
}

// Our service, positively identified: the pid runs `tether demo-service --port P`.
bool isOurDemoService(qint64 pid, int port) {
    QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!f.open(QIODevice::ReadOnly)) return false;
    const QList<QByteArray> argv = f.readAll().split('\0');
    return argv.contains("demo-service") && argv.contains(QByteArray::number(port)) &&
           argv.first() == test::tetherBin().toLocal8Bit();
}

} // namespace

class TstTrayXvfb : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariableIsEmpty("TETHER_TEST_DISPLAY"),
                 "TETHER_TEST_DISPLAY is unset: run through scripts/test.sh, which starts an Xvfb "
                 "display");
        for (const char *tool : {"trayer", "import", "xdotool"})
            QVERIFY2(!QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty(),
                     qPrintable(
                         QStringLiteral("%1 is missing: apt-get install trayer imagemagick xdotool")
                             .arg(QLatin1String(tool))));
    }

    void trayFollowsTheService_data() {
        QTest::addColumn<QString>("scale");
        QTest::newRow("1x") << QStringLiteral("1");
        QTest::newRow("2x") << QStringLiteral("2");
    }

    void trayFollowsTheService() {
        QFETCH(QString, scale);
        const QString tag = scale + QLatin1Char('x');
        Scenario sc;
        sc.display = qEnvironmentVariable("TETHER_TEST_DISPLAY");
        QTemporaryDir data;
        QVERIFY(data.isValid());
        const int port = test::freeLoopbackPort();
        sc.settingsPath = data.filePath(QStringLiteral("tether.ini"));
        {
            QFile ini(sc.settingsPath);
            QVERIFY(ini.open(QIODevice::WriteOnly));
            ini.write(
                QStringLiteral("[service]\nprofile=demo\nport=%1\narguments=--busy-after, 12000, "
                               "--busy-for, 4000\n"
                               "[probe]\nintervalMs=200\ntimeoutMs=200\n"
                               "[recovery]\nwindowMs=8000\ngraceMs=500\nbackoffInitialMs=200\n")
                    .arg(port)
                    .toUtf8());
        }
        sc.env = QProcessEnvironment::systemEnvironment();
        sc.env.insert(QStringLiteral("DISPLAY"), sc.display);
        sc.env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
        sc.env.insert(QStringLiteral("QT_SCALE_FACTOR"), scale);
        sc.env.insert(QStringLiteral("TETHER_DATA_DIR"), data.path());
        sc.env.insert(QStringLiteral("XDG_CONFIG_HOME"), data.filePath(QStringLiteral("config")));
        sc.env.insert(QStringLiteral("XDG_RUNTIME_DIR"), data.path());

        const QImage before = sc.screenshot(QStringLiteral("tray-%1-0-empty.png").arg(tag));
        QVERIFY2(!before.isNull(), "cannot take a screenshot of the Xvfb display");

        QProcess trayer;
        trayer.setProcessEnvironment(sc.env);
        test::startTrayer(trayer, kTrayWidth, kTrayHeight);
        QVERIFY(trayer.waitForStarted());
        auto stopTrayer = qScopeGuard([&] { test::stopTrayer(trayer); });
        // The tray host is up when its panel is drawn.
        QVERIFY2(waitFor(
                     [&] {
                         return differingPixels(
                                    trayRegion(sc.screenshot(QStringLiteral("probe.png"))),
                                    trayRegion(before)) > 50;
                     },
                     15000),
                 "trayer did not appear");
        const QImage emptyTray =
            trayRegion(sc.screenshot(QStringLiteral("tray-%1-0-empty.png").arg(tag)));

        QProcess tether;
        tether.setProcessEnvironment(sc.env);
        tether.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        tether.start(test::tetherBin(), {QStringLiteral("--settings"), sc.settingsPath});
        QVERIFY(tether.waitForStarted());
        auto stopTether = qScopeGuard([&] {
            // Stop the service it started, then quit; never leave a demo service behind.
            sc.run({test::tetherBin(), QStringLiteral("stop")});
            sc.waitState(State::Stopped, 10000);
            sc.run({test::tetherBin(), QStringLiteral("quit")});
            if (!tether.waitForFinished(10000)) {
                tether.terminate();
                tether.waitForFinished(5000);
            }
        });

        // Healthy: a green icon in the tray.
        QVERIFY2(sc.waitState(State::Healthy, 30000), qPrintable(sc.state()));
        const QPalette light;
        QImage healthyTray;
        QVERIFY2(waitFor(
                     [&] {
                         healthyTray = trayRegion(
                             sc.screenshot(QStringLiteral("tray-%1-1-healthy.png").arg(tag)));
                         return pixelsNear(healthyTray, stateColor(State::Healthy, light)) > 20;
                     },
                     10000),
                 "no green icon in the tray");
        QVERIFY(differingPixels(healthyTray, emptyTray) > 50);
        const qint64 firstPid = sc.status().value(QLatin1String("pid")).toInteger();
        QVERIFY(firstPid > 0);

        // Busy (12 s after it started, the demo blocks its event loop for 4 s, inside the 8 s
        // window): not responding, amber, never killed. The spell starts late enough that a
        // loaded machine has shown the healthy icon first (at 5 s it had once passed unseen).
        QVERIFY2(sc.waitState(State::NotResponding, 20000), qPrintable(sc.state()));
        QImage busyTray;
        const bool amber = waitFor(
            [&] {
                busyTray = trayRegion(
                    sc.screenshot(QStringLiteral("tray-%1-2-not-responding.png").arg(tag)));
                return pixelsNear(busyTray, stateColor(State::NotResponding, light)) > 20;
            },
            3000);
        // Recovered: green again, same process.
        QVERIFY2(sc.waitState(State::Healthy, 15000), qPrintable(sc.state()));
        QVERIFY2(amber, "the tray icon did not turn amber while the service was busy");
        QVERIFY(differingPixels(busyTray, healthyTray) > 20);
        QCOMPARE(sc.status().value(QLatin1String("pid")).toInteger(), firstPid);
        QVERIFY(waitFor(
            [&] {
                return pixelsNear(trayRegion(sc.screenshot(
                                      QStringLiteral("tray-%1-3-recovered.png").arg(tag))),
                                  stateColor(State::Healthy, light)) > 20;
            },
            5000));

        // Crash: SIGKILL the verified service pid; Tether restarts it.
        QVERIFY2(isOurDemoService(firstPid, port), "the status pid is not our demo service");
        QCOMPARE(::kill(pid_t(firstPid), SIGKILL), 0);
        QVERIFY2(waitFor(
                     [&] {
                         const QJsonObject st = sc.status();
                         return st.value(QLatin1String("state")).toString() ==
                                    QLatin1String("healthy") &&
                                st.value(QLatin1String("pid")).toInteger() != firstPid &&
                                st.value(QLatin1String("restarts")).toInt() >= 1;
                     },
                     20000),
                 qPrintable(QJsonDocument(sc.status()).toJson()));
        QVERIFY(waitFor(
            [&] {
                return pixelsNear(trayRegion(sc.screenshot(
                                      QStringLiteral("tray-%1-4-restarted.png").arg(tag))),
                                  stateColor(State::Healthy, light)) > 20;
            },
            5000));

        // The menu: right-click the icon. The restart's notification (Qt's own balloon here) is
        // still shown: Qt reports any click on the icon meanwhile as a click on it too, and the
        // status window opened over the menu; this step passed on the window's pixels (issue 27).
        const QImage beforeMenu = sc.screenshot(QStringLiteral("tray-%1-4-restarted.png").arg(tag));
        const int x = beforeMenu.width() - kTrayHeight / 2, y = kTrayHeight / 2;
        QCOMPARE(sc.run({QStringLiteral("xdotool"), QStringLiteral("mousemove"), QString::number(x),
                         QString::number(y), QStringLiteral("click"), QStringLiteral("3")}),
                 0);
        QVERIFY2(waitFor(
                     [&] {
                         return differingPixels(
                                    sc.screenshot(QStringLiteral("tray-%1-5-menu.png").arg(tag)),
                                    beforeMenu) > 2000;
                     },
                     10000),
                 "the menu did not open");
        QTest::qWait(300); // let the menu finish painting before the kept screenshot
        const QImage menuShot = sc.screenshot(QStringLiteral("tray-%1-5-menu.png").arg(tag));
        // The menu opens at the icon; the status window, which a click on a notification opens,
        // in the middle. Left of the middle nothing changes for the menu, at 1x and at 2x.
        const QRect aside(beforeMenu.width() / 4 - 20, beforeMenu.height() / 2 - 20, 40, 40);
        QVERIFY2(differingPixels(menuShot.copy(aside), beforeMenu.copy(aside)) == 0,
                 "the click opened the status window, not the menu");
        sc.run({QStringLiteral("xdotool"), QStringLiteral("key"), QStringLiteral("Escape")});

        // A second launch hands over to the first, which shows the status window.
        const QImage beforeWindow = sc.screenshot(QStringLiteral("probe.png"));
        QCOMPARE(sc.run({test::tetherBin(), QStringLiteral("--settings"), sc.settingsPath}), 0);
        QVERIFY2(waitFor(
                     [&] {
                         return differingPixels(
                                    sc.screenshot(
                                        QStringLiteral("tray-%1-6-status-window.png").arg(tag)),
                                    beforeWindow) > 20000;
                     },
                     10000),
                 "the status window did not appear");
        QTest::qWait(1500); // a few probes into the timeline
        sc.screenshot(QStringLiteral("tray-%1-6-status-window.png").arg(tag));
        QFile::remove(shotsDir() + QStringLiteral("/probe.png"));
    }
};

QTEST_MAIN(TstTrayXvfb)
#include "tst_tray_xvfb.moc"
