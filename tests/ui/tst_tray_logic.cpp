// The tray's pure parts: icons per state, the menu model per status, the notice rate limiter
// the health history ring and what a click on the icon does.
#include "service/health_history.h"
#include "tray/menu_status.h"
#include "tray/notice_limiter.h"
#include "tray/tray_click.h"
#include "tray/tray_icons.h"
#include "tray/tray_menu_model.h"
#include "ui/format.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QPainter>
#include <QLabel>
#include <QtTest>

using namespace tether;
using policy::State;

Q_DECLARE_METATYPE(tether::TrayPlatform)
Q_DECLARE_METATYPE(tether::TrayClick)

namespace {

const QList<State> kStates = {State::Stopped,       State::Starting,   State::Healthy,
                              State::NotResponding, State::Recovering, State::Restarting,
                              State::Stopping,      State::Failed};

QPalette lightPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0xf0, 0xf0, 0xf0));
    return p;
}
QPalette darkPalette() {
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x20, 0x20, 0x20));
    return p;
}

QImage render(State s, IconFlags f, int size, qreal dpr, const QPalette &pal, bool mask = false) {
    return stateIconPixmap(s, f, size, dpr, pal, mask)
        .toImage()
        .convertToFormat(QImage::Format_ARGB32);
}

int differingPixels(const QImage &a, const QImage &b) {
    int n = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            n += a.pixel(x, y) != b.pixel(x, y);
    return n;
}

QDateTime t0() {
    return QDateTime(QDate(2026, 1, 1), QTime(12, 0), Qt::UTC);
}

ServiceStatus statusIn(State s) {
    ServiceStatus st;
    st.state = s;
    st.profile = policy::Dialect::Demo;
    st.port = 4096;
    st.url = QStringLiteral("http://127.0.0.1:4096/");
    st.version = QStringLiteral("1.18.33");
    st.startedAt = t0().addSecs(-3 * 3600 - 5 * 60);
    st.pid = s == State::Stopped || s == State::Failed ? 0 : 1234;
    return st;
}

} // namespace

class TstTrayLogic : public QObject {
    Q_OBJECT
private slots:
    // A sheet of every state at 16, 22 and 32 px, plain and with each badge, for looking at
    // (<build>/tests/ui-shots/icon-sheet.png); the checks are in the tests below.
    void iconSheetForTheEye() {
        IconFlags o, v, w, all;
        o.orphans = true;
        o.orphanCount = 2;
        v.versionMismatch = true;
        w.mcpAttention = true;
        all = o;
        all.versionMismatch = all.mcpAttention = true;
        const QList<IconFlags> flags{{}, o, v, w, all};
        QImage sheet(8 * 40, 5 * 3 * 40, QImage::Format_ARGB32);
        sheet.fill(QColor(0xf0, 0xf0, 0xf0));
        QPainter p(&sheet);
        for (int f = 0; f < flags.size(); ++f)
            for (int z = 0; z < 3; ++z)
                for (int i = 0; i < kStates.size(); ++i) {
                    const int size = QList<int>{16, 22, 32}[z];
                    const QPixmap px =
                        stateIconPixmap(kStates[i], flags[f], size, 1, lightPalette());
                    p.drawPixmap(i * 40 + 4, (f * 3 + z) * 40 + 4, px);
                }
        p.end();
        const QString dir = QCoreApplication::applicationDirPath() + QStringLiteral("/ui-shots");
        QDir().mkpath(dir);
        QVERIFY(sheet.save(dir + QStringLiteral("/icon-sheet.png")));
    }

    void iconsDifferPerStateAtEverySize() {
        for (int size : {16, 22, 32, 64})
            for (qreal dpr : {1.0, 2.0}) {
                QList<QImage> images;
                for (State s : kStates) {
                    const QImage img = render(s, {}, size, dpr, lightPalette());
                    QCOMPARE(img.size(), QSize(size, size) * dpr);
                    images << img;
                }
                for (int i = 0; i < images.size(); ++i)
                    for (int j = i + 1; j < images.size(); ++j)
                        QVERIFY2(differingPixels(images[i], images[j]) > size * dpr / 2,
                                 qPrintable(QStringLiteral("%1 vs %2 at %3px x%4")
                                                .arg(policy::toString(kStates[i]),
                                                     policy::toString(kStates[j]))
                                                .arg(size)
                                                .arg(dpr)));
            }
    }

    void stateColoursAreWhatTheIssueSays() {
        const QPalette pal = lightPalette();
        auto centreRing = [&](State s) { // a pixel on the disc, away from the glyph
            const QImage img = render(s, {}, 64, 1, pal);
            return QColor(img.pixel(32, 8));
        };
        QVERIFY(centreRing(State::Healthy).green() > centreRing(State::Healthy).red() + 60);
        QVERIFY(centreRing(State::Failed).red() > centreRing(State::Failed).green() + 100);
        QVERIFY(centreRing(State::Starting).blue() > centreRing(State::Starting).red() + 100);
        const QColor amber = centreRing(State::NotResponding);
        QVERIFY(amber.red() > 200 && amber.green() > 100 && amber.blue() < 80);
        const QColor grey = centreRing(State::Stopped);
        QVERIFY(qAbs(grey.red() - grey.blue()) < 10 && qAbs(grey.red() - grey.green()) < 10);
        // Issue 16: waiting and Tether acting look different, not one amber for both.
        const QColor recovering = centreRing(State::Recovering);
        QVERIFY2(qAbs(recovering.green() - amber.green()) > 60, qPrintable(recovering.name()));
    }

    // Issue 16: white on the old amber was 2.4:1. Every glyph now stands out from its disc
    // (WCAG's 3:1 for graphics, with room), in both palettes.
    void glyphsContrastWithTheirDisc() {
        for (const QPalette &pal : {lightPalette(), darkPalette()})
            for (State s : kStates) {
                const QColor disc = stateColor(s, pal);
                const double ratio = contrastRatio(glyphColor(disc), disc);
                QVERIFY2(ratio >= 4.0, qPrintable(QStringLiteral("%1: %2 on %3 is %4:1")
                                                      .arg(policy::toString(s))
                                                      .arg(glyphColor(disc).name(), disc.name())
                                                      .arg(ratio, 0, 'f', 2)));
            }
        QCOMPARE(contrastRatio(Qt::white, Qt::black), 21.0);
    }

    // Issue 16: an MCP server over its limit marks the icon itself (a warning triangle), not
    // only a third-level submenu; each badge has a shape and place of its own.
    void mcpAttentionBadgeMarksTheIcon() {
        IconFlags warn;
        warn.mcpAttention = true;
        QCOMPARE(iconKey(State::Healthy, warn), QStringLiteral("healthy+mcp"));
        for (int size : {16, 22, 32}) {
            const QImage plain = render(State::Healthy, {}, size, 1, lightPalette());
            const QImage marked = render(State::Healthy, warn, size, 1, lightPalette());
            QVERIFY(differingPixels(plain, marked) > size / 2);
            int yellow = 0; // the warning sign's yellow, seen nowhere else in the icon
            for (int y = 0; y < marked.height(); ++y)
                for (int x = 0; x < marked.width(); ++x) {
                    const QColor c = QColor::fromRgba(marked.pixel(x, y));
                    yellow += c.alpha() > 200 && c.red() > 220 && c.green() > 170 && c.blue() < 90;
                }
            QVERIFY2(yellow >= size / 4, qPrintable(QString::number(yellow)));
        }
    }

    void badgesChangeTheIcon() {
        for (int size : {16, 32}) {
            const QImage plain = render(State::Healthy, {}, size, 1, lightPalette());
            IconFlags o, v;
            o.orphans = true;
            o.orphanCount = 3;
            v.versionMismatch = true;
            const QImage orphans = render(State::Healthy, o, size, 1, lightPalette());
            const QImage mismatch = render(State::Healthy, v, size, 1, lightPalette());
            QVERIFY(differingPixels(plain, orphans) > 3);
            QVERIFY(differingPixels(plain, mismatch) > 3);
            QVERIFY(differingPixels(orphans, mismatch) > 3);
        }
    }

    void paletteAwareAndMask() {
        QVERIFY(differingPixels(render(State::Stopped, {}, 22, 1, lightPalette()),
                                render(State::Stopped, {}, 22, 1, darkPalette())) > 20);
        for (State s : kStates) { // template images: black with alpha only
            IconFlags all;
            all.orphans = all.versionMismatch = all.mcpAttention = true;
            const QImage m = render(s, all, 22, 2, lightPalette(), true);
            int opaque = 0;
            for (int y = 0; y < m.height(); ++y)
                for (int x = 0; x < m.width(); ++x) {
                    const QColor c = QColor::fromRgba(m.pixel(x, y));
                    if (c.alpha() > 0) {
                        ++opaque;
                        QVERIFY(c.red() == 0 && c.green() == 0 && c.blue() == 0);
                    }
                }
            QVERIFY(opaque > 100);
        }
        const QIcon icon = stateIcon(State::Healthy, {}, lightPalette());
        QVERIFY(icon.availableSizes().contains(QSize(16, 16)));
        QVERIFY(icon.availableSizes().contains(QSize(64, 64)));
    }

    void menuPerState_data() {
        QTest::addColumn<State>("state");
        QTest::addColumn<bool>("start");
        QTest::addColumn<bool>("stop");
        QTest::addColumn<bool>("restart");
        QTest::addColumn<bool>("open");
        QTest::newRow("stopped") << State::Stopped << true << false << false << false;
        QTest::newRow("starting") << State::Starting << false << true << true << false;
        QTest::newRow("healthy") << State::Healthy << false << true << true << true;
        QTest::newRow("not-responding") << State::NotResponding << false << true << true << true;
        QTest::newRow("recovering") << State::Recovering << false << true << false << false;
        QTest::newRow("restarting") << State::Restarting << false << true << false << false;
        // A stop under way: Start is offered (it wins once the stop is done), Stop is not.
        QTest::newRow("stopping") << State::Stopping << true << false << false << false;
        QTest::newRow("failed") << State::Failed << true << false << true << false;
    }
    void menuPerState() {
        QFETCH(State, state);
        const TrayMenuModel m = trayMenuModel(statusIn(state), t0());
        QTEST(m.startEnabled, "start");
        QTEST(m.stopEnabled, "stop");
        QTEST(m.restartEnabled, "restart");
        QTEST(m.openEnabled, "open");
        QVERIFY(m.orphanLabel.isEmpty());
        QCOMPARE(m.orphanCount, 0);
        QVERIFY(!m.mcpEmptyText.isEmpty());
        QVERIFY(m.mcpRows.isEmpty());
    }

    void statusLineAndTooltip() {
        const TrayMenuModel m = trayMenuModel(statusIn(State::Healthy), t0());
        QCOMPARE(m.statusLine, QStringLiteral("Healthy"));
        // The version once: "demo 1.18.33-demo" said the profile twice.
        QCOMPARE(m.detailLine, QStringLiteral("1.18.33 · port 4096 · up 3 h 05 min"));
        QVERIFY(m.tooltip.contains(QStringLiteral("Healthy")));
        QVERIFY(m.tooltip.contains(QStringLiteral("4096")));
        QVERIFY(m.tooltip.contains(QStringLiteral("1.18.33")));
        QVERIFY(m.tooltip.contains(QStringLiteral("up 3 h 05 min")));
        ServiceStatus failed = statusIn(State::Failed);
        failed.lastError = QStringLiteral("port 4096 is held by python3 (pid 77)");
        QVERIFY(trayMenuModel(failed, t0()).tooltip.contains(failed.lastError));
        QVERIFY(!trayMenuModel(failed, t0()).detailLine.contains(QStringLiteral("up ")));
    }

    // Issue 16: not responding says what happens next, counting down to the replacement.
    void notRespondingSaysWhenItIsReplaced() {
        ServiceStatus st = statusIn(State::NotResponding);
        st.lastError = QStringLiteral("no answer within 1000 ms");
        st.replaceAt = t0().addMSecs(17200);
        TrayMenuModel m = trayMenuModel(st, t0());
        QCOMPARE(m.statusLine,
                 QStringLiteral("Not responding · replaced in 18 s unless it answers"));
        QVERIFY(m.tooltip.contains(m.statusLine));
        st.replaceAt = t0();
        QCOMPARE(trayMenuModel(st, t0()).statusLine,
                 QStringLiteral("Not responding · replaced unless the next check answers"));
        ServiceStatus again = statusIn(State::Restarting);
        again.restartAt = t0().addMSecs(3500);
        QCOMPARE(trayMenuModel(again, t0()).statusLine,
                 QStringLiteral("Restarting · again in 4 s"));
    }

    // Issue 16: the menu's status lines are normal text (not a disabled grey item) and keep one
    // width whatever the state says, so the menu does not jump between ~160 and ~410 px.
    void menuStatusKeepsItsWidthAndContrast() {
        MenuStatusWidget w;
        QSet<int> widths;
        for (State s : kStates) {
            ServiceStatus st = statusIn(s);
            st.lastError = QStringLiteral("no answer within 1000 ms");
            st.replaceAt = t0().addSecs(18);
            w.setModel(trayMenuModel(st, t0()), stateColor(s, lightPalette()));
            w.adjustSize();
            widths.insert(w.sizeHint().width());
            widths.insert(w.width());
            QVERIFY(w.statusLabel()->isEnabled());
        }
        QCOMPARE(widths.size(), 1);
        const int width = *widths.begin();
        const int em = w.fontMetrics().averageCharWidth();
        QVERIFY2(width >= 30 * em && width <= 60 * em, qPrintable(QString::number(width)));
        const QPalette pal = w.statusLabel()->palette();
        const double ratio = contrastRatio(pal.color(QPalette::Active, QPalette::WindowText),
                                           pal.color(QPalette::Active, QPalette::Window));
        QVERIFY2(ratio >= 4.5, qPrintable(QString::number(ratio)));
    }

    // Issue 15: the menu and tooltip say what the service works on; the icon shows "working"
    // in the same green (no alarm), and a stop asks first, naming the tool call.
    void aBusyServiceSaysWhatItDoes() {
        ServiceStatus busy = statusIn(State::Healthy);
        busy.activity.followed = true;
        busy.activity.busySessions = 1;
        busy.activity.runningTools.append(
            {QStringLiteral("ses_1"), QStringLiteral("everything_trigger-long-running-operation"),
             45000});
        busy.activity.summary = QStringLiteral(
            "busy: 1 session, tool everything_trigger-long-running-operation for 45 s");
        const TrayMenuModel m = trayMenuModel(busy, t0());
        // Its own menu line: one tool call is named whole (two menu lines); the tooltip too.
        QVERIFY2(!m.statusLine.contains(QStringLiteral("busy")), qPrintable(m.statusLine));
        QCOMPARE(m.activityLine, busy.activity.summary);
        QVERIFY(m.tooltip.contains(busy.activity.summary));
        // Three long calls: at most two menu lines, the start and the last age kept.
        ServiceStatus busier = busy;
        busier.activity.summary = QStringLiteral(
            "busy: 3 sessions, tool everything_trigger-long-running-operation for 45 s, tool "
            "filesystem_search_files for 12 s, tool bash for 3 s");
        const TrayMenuModel three = trayMenuModel(busier, t0());
        QVERIFY2(three.activityLine.size() <= 2 * kMenuStatusChars, qPrintable(three.activityLine));
        QVERIFY2(
            three.activityLine.startsWith(QStringLiteral("busy: 3 sessions, tool everything_")),
            qPrintable(three.activityLine));
        QVERIFY(three.activityLine.contains(QChar(0x2026)));
        QVERIFY2(three.activityLine.endsWith(QStringLiteral("bash for 3 s")),
                 qPrintable(three.activityLine));
        QVERIFY(three.tooltip.contains(busier.activity.summary));
        const QString ask = consentQuestion(busy, QStringLiteral("Stop"));
        QVERIFY2(ask.contains(QStringLiteral("everything_trigger-long-running-operation")),
                 qPrintable(ask));
        QVERIFY(ask.contains(QStringLiteral("ses_1")));
        QVERIFY(ask.startsWith(QStringLiteral("Stop now?")));
        QVERIFY(ask.contains(QStringLiteral("running a tool call,")));
        // Idle: no question, the stop goes ahead as before.
        QVERIFY(consentQuestion(statusIn(State::Healthy), QStringLiteral("Stop")).isEmpty());
        ServiceStatus idle = statusIn(State::Healthy);
        idle.activity.followed = true;
        idle.activity.summary = QStringLiteral("idle");
        QVERIFY(!trayMenuModel(idle, t0()).statusLine.contains(QStringLiteral("idle")));
        QVERIFY(trayMenuModel(idle, t0()).activityLine.isEmpty());
    }

    void workingIsDistinctFromIdleInTheSameGreen() {
        IconFlags working;
        working.working = true;
        for (int size : {16, 22, 32}) {
            const QImage idle = render(State::Healthy, {}, size, 1, lightPalette());
            const QImage busy = render(State::Healthy, working, size, 1, lightPalette());
            QVERIFY(differingPixels(idle, busy) > 3);
            QCOMPARE(busy.pixelColor(size / 2, size / 5).rgb(),
                     idle.pixelColor(size / 2, size / 5).rgb()); // same disc colour
            QCOMPARE(busy.pixelColor(size / 2, size / 5).rgb(),
                     stateColor(State::Healthy, lightPalette()).rgb()); // the healthy green
        }
    }

    void anInterruptionStaysInTheTooltip() {
        ServiceStatus st = statusIn(State::Healthy);
        st.lastInterrupted.summary =
            QStringLiteral("interrupted: tool bash (session ses_1); 1 busy session");
        QVERIFY(trayMenuModel(st, t0()).tooltip.contains(st.lastInterrupted.summary));
    }

    static McpChildStatus mcpRow(const QString &name, const QString &status, qint64 pid) {
        McpChildStatus r;
        r.name = name;
        r.status = status;
        r.pid = pid;
        return r;
    }

    // A record Tether could not save (a full disk) is in the tooltip and the status window's
    // next steps whatever the state: the next start relies on it.
    void anUnsavedRecordIsSaid() {
        ServiceStatus st = statusIn(State::Healthy);
        st.stateFileErrors << QStringLiteral(
            "cannot write /d/service.json: No space left on device");
        QVERIFY2(trayMenuModel(st, t0()).tooltip.contains(
                     QStringLiteral("Not saved: cannot write /d/service.json")),
                 qPrintable(trayMenuModel(st, t0()).tooltip));
        QVERIFY(ui::nextStepText(st, t0()).contains(QStringLiteral("No space left on device")));
        QVERIFY(trayMenuModel(st, t0()) != trayMenuModel(statusIn(State::Healthy), t0()));
    }

    void aFlaggedMcpServerIsMarkedAndOffersARestart() {
        ServiceStatus st = statusIn(State::Healthy);
        st.mcp = {mcpRow(QStringLiteral("leaky"), QStringLiteral("connected"), 12),
                  mcpRow(QStringLiteral("calm"), QStringLiteral("connected"), 13)};
        st.mcp[0].flagged = true;
        st.mcp[0].flagReason = QStringLiteral("memory 1500 MiB is over 1024 MiB (+30 MiB/min)");
        const TrayMenuModel m = trayMenuModel(st, t0());
        QVERIFY(m.mcpRows[0].flagged);
        QVERIFY(m.mcpRows[0].label.startsWith(QStringLiteral("⚠ ")));
        QCOMPARE(m.mcpRows[0].flagReason, st.mcp[0].flagReason);
        // One action, named for what it does to this server; shown in the menu itself.
        QCOMPARE(m.mcpRows[0].actionLabel, QStringLiteral("Restart leaky"));
        QCOMPARE(m.mcpRows[0].attentionLabel,
                 QStringLiteral("⚠ Restart leaky (memory over its limit)"));
        QCOMPARE(m.mcpRows[1].actionLabel, QStringLiteral("Reconnect"));
        QVERIFY(m.mcpRows[1].attentionLabel.isEmpty());
        QVERIFY(!m.mcpRows[1].flagged);
        QCOMPARE(m.mcpFlaggedCount, 1);
        QVERIFY(m.mcpMenuTitle.contains(QStringLiteral("1 need attention")));
        QVERIFY(m.tooltip.contains(QStringLiteral("too much memory or CPU")));
        st.mcp[0].flagged = false;
        QCOMPARE(trayMenuModel(st, t0()).mcpMenuTitle, QStringLiteral("MCP servers"));
    }

    void mcpRowsAndOrphanEntry() {
        ServiceStatus st = statusIn(State::Healthy);
        st.mcp = {mcpRow(QStringLiteral("filesystem"), QStringLiteral("connected"), 11),
                  mcpRow(QStringLiteral("github"), QStringLiteral("needs_auth"), 0)};
        st.orphans = {{101,
                       {QStringLiteral("/usr/bin/node"), QStringLiteral("server.js")},
                       QStringLiteral("ledger"),
                       5000,
                       900},
                      {102, {QStringLiteral("npx")}, QStringLiteral("possible"), 8000, 1200},
                      {103, {QStringLiteral("uvx")}, QStringLiteral("job"), 1000, 500}};
        TrayMenuModel m = trayMenuModel(st, t0());
        QCOMPARE(m.mcpRows.size(), 2);
        QCOMPARE(m.mcpRows[0].label, QStringLiteral("filesystem — connected"));
        QCOMPARE(m.mcpRows[1].label, QStringLiteral("github — needs auth"));
        QVERIFY(m.mcpRows[0].reconnectEnabled);
        QVERIFY(m.mcpEmptyText.isEmpty());
        QCOMPARE(m.orphanCount, 3);
        QCOMPARE(m.orphanLabel, QStringLiteral("Clean up 3 orphaned processes..."));
        st.orphans.removeLast();
        st.orphans.removeLast();
        QCOMPARE(trayMenuModel(st, t0()).orphanLabel,
                 QStringLiteral("Clean up 1 orphaned process..."));
        st.state = State::Recovering; // the service cannot take a reconnect now
        QVERIFY(!trayMenuModel(st, t0()).mcpRows[0].reconnectEnabled);
    }

    void versionMismatchOffersRestartToUpdate() {
        ServiceStatus st = statusIn(State::Healthy);
        st.versionMismatch = true;
        st.installedVersion = QStringLiteral("1.19.0");
        const TrayMenuModel m = trayMenuModel(st, t0());
        QCOMPARE(m.restartLabel, QStringLiteral("Restart to update to 1.19.0"));
        QVERIFY(m.tooltip.contains(QStringLiteral("1.19.0")));
    }

    void limiterAllowsOnePerKindPerMinute() {
        NoticeLimiter limiter(60000);
        QVERIFY(limiter.allow(policy::NoticeKind::Crashed, 1000));
        QVERIFY(!limiter.allow(policy::NoticeKind::Crashed, 1001));
        QVERIFY(limiter.allow(policy::NoticeKind::Restarted, 1002)); // kinds are independent
        QVERIFY(!limiter.allow(policy::NoticeKind::Crashed, 60999));
        QVERIFY(limiter.allow(policy::NoticeKind::Crashed, 61000));
        QVERIFY(!limiter.allow(policy::NoticeKind::Crashed, 61500)); // counted from the last shown
        QVERIFY(!limiter.allow(policy::NoticeKind::Restarted, 60000));
        QVERIFY(limiter.allow(policy::NoticeKind::Restarted, 61002));
    }

    void oneClickOpensOneThing_data() {
        QTest::addColumn<TrayPlatform>("platform");
        QTest::addColumn<QSystemTrayIcon::ActivationReason>("reason");
        QTest::addColumn<TrayClick>("expected");
        using R = QSystemTrayIcon;
        // macOS pops the menu itself on every click: the status window would be a second thing.
        QTest::newRow("mac click") << TrayPlatform::MacOS << R::Trigger << TrayClick::Nothing;
        QTest::newRow("mac double") << TrayPlatform::MacOS << R::DoubleClick << TrayClick::Nothing;
        QTest::newRow("mac context") << TrayPlatform::MacOS << R::Context << TrayClick::Nothing;
        QTest::newRow("mac middle") << TrayPlatform::MacOS << R::MiddleClick << TrayClick::Nothing;
        // Windows and Linux: a left click is the window, the right button the menu.
        QTest::newRow("click") << TrayPlatform::Other << R::Trigger << TrayClick::OpenStatusWindow;
        QTest::newRow("double") << TrayPlatform::Other << R::DoubleClick
                                << TrayClick::OpenStatusWindow;
        QTest::newRow("context") << TrayPlatform::Other << R::Context << TrayClick::Nothing;
        QTest::newRow("middle") << TrayPlatform::Other << R::MiddleClick << TrayClick::Nothing;
    }
    void oneClickOpensOneThing() {
        QFETCH(TrayPlatform, platform);
        QFETCH(QSystemTrayIcon::ActivationReason, reason);
        QFETCH(TrayClick, expected);
        QCOMPARE(trayClickAction(platform, reason), expected);
    }
    void thisBuildKnowsItsPlatform() {
#ifdef Q_OS_MACOS
        QCOMPARE(currentTrayPlatform(), TrayPlatform::MacOS);
#else
        QCOMPARE(currentTrayPlatform(), TrayPlatform::Other);
#endif
    }

    void historyKeepsTheLastHourInARing() {
        HealthHistory h(5);
        QCOMPARE(h.capacity(), std::size_t(5));
        QVERIFY(h.lastHour(0).empty());
        for (int i = 0; i < 8; ++i)
            h.add({qint64(i) * 1000, i, true, State::Healthy});
        QCOMPARE(h.size(), std::size_t(5));
        std::vector<HealthSample> all = h.lastHour(8000);
        QCOMPARE(all.size(), std::size_t(5));
        QCOMPARE(all.front().atMs, 3000); // oldest kept first
        QCOMPARE(all.back().latencyMs, 7);
        // An hour later only the newest remain.
        std::vector<HealthSample> late = h.lastHour(HealthHistory::kSpanMs + 6000);
        QCOMPARE(late.size(), std::size_t(2));
        QCOMPARE(late.front().atMs, 6000);
        // A clock stepping back never reorders.
        h.add({100, -1, true, State::NotResponding});
        QCOMPARE(h.lastHour(8000).back().atMs, 7000);
    }
};

QTEST_MAIN(TstTrayLogic)
#include "tst_tray_logic.moc"
