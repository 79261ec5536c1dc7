// Issue 28: probing relaxes while the event stream shows life, and the recovery window's promise
// does not move. The rule (recovery.h nextProbeAt) alone, then policy::step on a virtual clock:
// how many probes ten idle minutes cost, and when a frozen service is caught.
#include "machine_driver.h"

#include "policy/recovery.h"

#include <QtTest>

#include <optional>

using namespace tether::policy;
using tether::test::MachineDriver;
namespace os = tether::os;

namespace {

const os::Identity kService{100, 1};

MachineDriver healthyService() {
    SupervisionConfig c;
    c.port = 4096;
    c.installedVersion = "1.0";
    MachineDriver d(c);
    d.feed(StartRequested{});
    StartupFacts f;
    f.launchPort = c.port;
    f.configuredPort.readable = true;
    d.feed(f);
    d.feed(Launched{kService, kService.pid, "pw"});
    d.advanceTo(100);
    d.answer(true);
    return d;
}

// Drives the machine until `until`: heartbeats every heartbeatMs until `silentFrom` (0: none),
// probes answered until `frozenFrom`, then each missed at its deadline. Records when probes
// were sent, the last sign of life, and when the machine left Running (the recovery began).
struct Run {
    std::vector<Ms> probesSent;
    Ms lastLife = 0;
    std::optional<Ms> notRespondingAt;
    std::optional<Ms> recoveryAt;
};

Run drive(MachineDriver &d, Ms until, Ms heartbeatMs, Ms silentFrom, Ms frozenFrom,
          bool routeDeadOnly = false) {
    Run r;
    r.lastLife = d.now;
    const Ms timeout = d.s.config.timings.probeTimeoutMs;
    Ms nextBeat = heartbeatMs > 0 ? d.now + heartbeatMs : -1;
    Ms inFlightSince = -1; // the probe in flight was sent then; -1: none
    while (d.now < until && !r.recoveryAt) {
        d.advanceTo(d.now + 10);
        for (const SendProbe &p : d.take<SendProbe>()) {
            (void)p;
            r.probesSent.push_back(d.now);
            inFlightSince = d.now;
        }
        if (inFlightSince >= 0 && d.s.probeSeq != 0) {
            if (d.now < frozenFrom) { // answered at once
                d.feed(ProbeAnswered{d.s.probeSeq, true, "1.0", {}});
                r.lastLife = d.now;
                inFlightSince = -1;
            } else if (d.now >= inFlightSince + timeout) {
                d.feed(ProbeMissed{d.s.probeSeq, false, "timed out"});
                inFlightSince = -1;
            }
        }
        if (nextBeat >= 0 && d.now >= nextBeat) {
            nextBeat += heartbeatMs;
            const bool beats =
                silentFrom == 0 || d.now < silentFrom || (routeDeadOnly && d.now >= frozenFrom);
            if (beats) {
                d.feed(StreamAlive{});
                r.lastLife = d.now;
            }
        }
        if (!r.notRespondingAt && d.display() == State::NotResponding) r.notRespondingAt = d.now;
        if (d.s.phase != Phase::Running) r.recoveryAt = d.now;
    }
    return r;
}

} // namespace

class TestProbeCadence : public QObject {
    Q_OBJECT
private slots:
    void withoutLifeSignsProbesKeepTheirInterval() {
        Timings t; // 5 s interval, 2 s timeout, 30 s window
        RecoveryWindow w = onProbeAnswered(windowOpenedAt(0), 1000);
        QCOMPARE(nextProbeAt(w, 1000, t), Ms(6000));
    }

    void whileTheStreamShowsLifeTheProbeWaitsForItsQuiet() {
        Timings t;
        QCOMPARE(streamQuietMs(t), Ms(13000));
        QCOMPARE(relaxedProbeIntervalMs(t), Ms(25000));
        RecoveryWindow w = onProbeAnswered(windowOpenedAt(0), 1000);
        w = onLifeSign(w, 4000, t);
        QCOMPARE(nextProbeAt(w, 1000, t), Ms(4000 + 13000)); // the stream quiet for 13 s
        w = onLifeSign(w, 14000, t);
        QCOMPARE(nextProbeAt(w, 1000, t), Ms(1000 + 25000)); // at most 25 s after the last
        // A sign long before the answer proves nothing about now: the interval again.
        RecoveryWindow old = onProbeAnswered(onLifeSign(windowOpenedAt(0), 100, t), 20000);
        QCOMPARE(nextProbeAt(old, 20000, t), Ms(25000));
    }

    void aTimeGapOrANewServiceForgetsTheSigns() {
        Timings t;
        RecoveryWindow w = onLifeSign(onProbeAnswered(windowOpenedAt(0), 1000), 2000, t);
        QVERIFY(w.lifeSign);
        QVERIFY(!onTimeGap(w, 50000).lifeSign);
        QVERIFY(!windowOpenedAt(50000).lifeSign);
    }

    // The promise in numbers, for every sensible setting: a probe is due at most
    // max(interval, quiet) after the last sign of life, and its miss is known within the window.
    void theFirstMissOfAFrozenServiceComesWithinTheWindow_data() {
        QTest::addColumn<Ms>("interval");
        QTest::addColumn<Ms>("timeout");
        QTest::addColumn<Ms>("window");
        QTest::newRow("defaults") << Ms(5000) << Ms(2000) << Ms(30000);
        QTest::newRow("short window") << Ms(1000) << Ms(500) << Ms(3000);
        QTest::newRow("interval = window") << Ms(10000) << Ms(2000) << Ms(10000);
        QTest::newRow("long timeout") << Ms(5000) << Ms(25000) << Ms(30000);
        QTest::newRow("test timings") << Ms(150) << Ms(100) << Ms(1000);
    }
    void theFirstMissOfAFrozenServiceComesWithinTheWindow() {
        QFETCH(Ms, interval);
        QFETCH(Ms, timeout);
        QFETCH(Ms, window);
        Timings t;
        t.probeIntervalMs = interval;
        t.probeTimeoutMs = timeout;
        t.windowMs = window;
        for (Ms answer = 0; answer <= 2 * window; answer += window / 7 + 1)
            for (Ms sign = answer + 1; sign <= answer + window; sign += window / 11 + 1) {
                const RecoveryWindow w =
                    onLifeSign(onProbeAnswered(windowOpenedAt(0), answer), sign, t);
                const Ms due = nextProbeAt(w, answer, t);
                QVERIFY(due >= answer + interval);
                const Ms lastLife = std::max(answer, sign);
                QVERIFY2(due - lastLife <= std::max(interval, streamQuietMs(t)),
                         qPrintable(QStringLiteral("due %1 after %2").arg(due).arg(lastLife)));
                // Whenever quiet + timeout fits the window the miss is known within it; with a
                // timeout that leaves no room, the interval was already the bound.
                if (streamQuietMs(t) + timeout <= window)
                    QVERIFY(due + timeout <= lastLife + window);
            }
    }

    // Ten idle minutes with opencode's 10 s heartbeat: a probe about every 25 s, not every 5 s.
    void tenIdleMinutesCostAFifthOfTheProbes() {
        MachineDriver quiet = healthyService();
        const Run noStream = drive(quiet, 600000, 0, 0, 1 << 30);
        MachineDriver alive = healthyService();
        const Run stream = drive(alive, 600000, 10000, 0, 1 << 30);
        QVERIFY(!noStream.recoveryAt && !stream.recoveryAt);
        QVERIFY(noStream.probesSent.size() >= 119); // every 5 s
        QVERIFY2(stream.probesSent.size() <= 25,
                 qPrintable(QString::number(stream.probesSent.size())));
        for (size_t i = 1; i < stream.probesSent.size(); ++i)
            QVERIFY(stream.probesSent[i] - stream.probesSent[i - 1] <= 25010);
    }

    // SIGSTOP: no answer, no heartbeat from 61 s on. It is replaced one window after its last
    // sign of life, as when probing every 5 s, and shown not responding within half a window.
    void aFrozenServiceIsStillReplacedOneWindowAfterItsLastSign() {
        for (Ms freeze : {61000, 65000, 69999, 78000}) {
            MachineDriver d = healthyService();
            const Run r = drive(d, 300000, 10000, freeze, freeze);
            QVERIFY(r.recoveryAt);
            const Ms window = d.s.config.timings.windowMs;
            QVERIFY2(*r.recoveryAt >= r.lastLife + window &&
                         *r.recoveryAt <= r.lastLife + window + 10,
                     qPrintable(QStringLiteral("freeze %1: last life %2, recovery %3")
                                    .arg(freeze)
                                    .arg(r.lastLife)
                                    .arg(*r.recoveryAt)));
            QVERIFY(r.notRespondingAt);
            QVERIFY(*r.notRespondingAt - r.lastLife <= window / 2 + 10);
        }
    }

    // A loop that runs (heartbeats go on) behind a health route that stopped answering: the
    // first miss ends the relaxation, and it is replaced within two windows of its last answer.
    void aDeadHealthRouteBehindALiveStreamIsStillReplaced() {
        MachineDriver d = healthyService();
        const Run r = drive(d, 300000, 10000, 60000, 60000, true);
        QVERIFY(r.recoveryAt);
        QVERIFY(*r.recoveryAt <= 60000 + 2 * d.s.config.timings.windowMs);
    }
};

QTEST_APPLESS_MAIN(TestProbeCadence)
#include "tst_probe_cadence.moc"
