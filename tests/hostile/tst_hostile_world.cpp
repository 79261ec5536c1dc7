// The hostile world, against the real binary (`tether --headless`, tests/support/tether_rig.h):
// a service that floods its event stream, answers its health check without end or sends a
// stream without newlines (tether-hostile, tests/support/hostile_service.cpp), one that floods
// its log, a data directory on a disk full to the last byte (a tmpfs of its own), links and FIFOs
// in the place of every file Tether keeps, a control client that never reads its answers, and
// two Tethers released at the same instant a hundred times.
//
// After each case: the service is supervised, the state files are intact (or their loss is in
// the status), Tether's resident memory stayed under the bound, and `status` answered within a
// second throughout. Each case prints its figures ("hostile: ..."): the peak RSS beside the
// bound, and the worst status latency seen.
//
// The bound: Tether's resident memory, from its start to the end of a case, may be at most
// 64 MiB over what it uses idle and healthy beside the demo service, measured once before the
// cases (128 MiB under the sanitizers, whose shadow memory and redzones double every
// allocation; their quarantine is set to 16 MiB for Tether here). A Tether that passes 1 GiB,
// start-up included, is killed at once: the machine is shared.
#include "small_fs.h"
#include "tether_rig.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocalSocket>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <csignal>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tether;

namespace {

constexpr qint64 kBoundKiB = (test::sanitizerSlowdown() > 1 ? 128 : 64) * 1024;
constexpr qint64 kRunawayKiB = 1024 * 1024;
constexpr qint64 kStatusMs = 1000;

QByteArray readFile(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeFile(const QString &path, const QByteArray &bytes) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

// Tether's CPU time so far (user + system), in clock ticks.
qint64 cpuTicks(qint64 pid) {
    const QByteArray stat = readFile(QStringLiteral("/proc/%1/stat").arg(pid));
    const QList<QByteArray> f = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    return f.size() > 12 ? f.at(11).toLongLong() + f.at(12).toLongLong() : -1;
}

// What a case measured while the world was hostile.
struct Figures {
    qint64 baselineKiB = 0;
    qint64 peakKiB = 0;
    qint64 worstStatusMs = 0;
    int samples = 0;
    int unanswered = 0;
    bool runaway = false;
};

} // namespace

class TestHostileWorld : public QObject {
    Q_OBJECT
    std::unique_ptr<QTemporaryDir> root_;
    std::unique_ptr<test::TetherRig> rig_;
    test::TetherRig::Instance *tether_ = nullptr;
    int port_ = 0;
    // Tether's memory healthy beside the demo, measured once: every case's bound is over this,
    // not over a figure taken once the hostile service is already flooding it.
    qint64 idleKiB_ = 0;
    // The runaway guard from the moment Tether starts, start-up included (a flood from the
    // service's first second once grew Tether to 20 GB before any case measured).
    QTimer guard_;
    bool runaway_ = false;

    test::TetherRig::Values hostileSettings(const QStringList &arguments) const {
        test::TetherRig::Values v = test::TetherRig::demoSettings(port_);
        v.insert(QStringLiteral("service/profile"), QStringLiteral("opencode1"));
        v.insert(QStringLiteral("service/program"), test::hostileBin());
        v.insert(QStringLiteral("service/arguments"), arguments);
        return v;
    }

    qint64 servicePid() const { return rig_->status().value(QLatin1String("pid")).toInteger(); }

    // Samples Tether's memory and a status answer every 100 ms for ms milliseconds (or until
    // `until` says so): the figures of a hostile spell.
    Figures watch(int ms, const std::function<bool()> &until = {}) {
        Figures f;
        f.baselineKiB = idleKiB_;
        f.peakKiB = peakKiB_;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < ms && !(until && until())) {
            f.peakKiB = std::max(f.peakKiB, test::rssKiB(tether_->pid()));
            if (runaway_ || f.peakKiB > kRunawayKiB) {
                f.runaway = true;
                tether_->process->kill(); // our own child: the machine is shared
                break;
            }
            qint64 latency = -1;
            const QJsonObject s = rig_->status(&latency, 5000);
            ++f.samples;
            if (s.isEmpty()) ++f.unanswered;
            f.worstStatusMs = std::max(f.worstStatusMs, latency < 0 ? 5000 : latency);
            QTest::qWait(100);
        }
        return f;
    }

    static QString report(const char *name, const Figures &f) {
        return QStringLiteral("hostile: %1: peak RSS %2 MiB (idle %3 MiB, bound +%4 MiB); worst "
                              "status %5 ms over %6 answers (%7 unanswered)")
            .arg(QLatin1String(name))
            .arg(double(f.peakKiB) / 1024, 0, 'f', 1)
            .arg(double(f.baselineKiB) / 1024, 0, 'f', 1)
            .arg(kBoundKiB / 1024)
            .arg(f.worstStatusMs)
            .arg(f.samples)
            .arg(f.unanswered);
    }

    // The checks after every case: memory, status latency, supervision, the state files.
    void expectBounded(const char *name, const Figures &f) {
        qInfo("%s", qPrintable(report(name, f)));
        QVERIFY2(!f.runaway && !runaway_,
                 qPrintable(QStringLiteral("%1: Tether passed 1 GiB; stopped\n%2")
                                .arg(report(name, f), rig_->dump(tether_))));
        QVERIFY2(f.peakKiB - f.baselineKiB <= kBoundKiB, qPrintable(report(name, f)));
        QVERIFY2(f.unanswered == 0 && f.worstStatusMs < kStatusMs * test::sanitizerSlowdown(),
                 qPrintable(report(name, f) + QLatin1Char('\n') + rig_->dump(tether_)));
    }
    void expectSupervised(qint64 pid = 0) {
        const QJsonObject s = rig_->status();
        const qint64 now = s.value(QLatin1String("pid")).toInteger();
        QVERIFY2(now > 0 && os::identityOf(now), qPrintable(rig_->dump(tether_)));
        if (pid) QCOMPARE(now, pid);
        // The registration names it, or its loss is said.
        const QJsonObject reg =
            QJsonDocument::fromJson(readFile(rig_->dataPath(QStringLiteral("service.json"))))
                .object();
        const bool said = !s.value(QLatin1String("stateFileErrors")).toArray().isEmpty();
        QVERIFY2(reg.value(QLatin1String("pid")).toInteger() == now || said,
                 qPrintable(QStringLiteral("service.json names %1, the status %2\n%3")
                                .arg(reg.value(QLatin1String("pid")).toInteger())
                                .arg(now)
                                .arg(rig_->dump(tether_))));
    }

    // Writes the state files must take while a data directory refuses them: an MCP server's exit
    // (the ledger), then the service's crash (a new registration). Tether must be healthy again
    // under a new pid, with the loss in its status; the case's figures are checked on the way.
    void writesAfterAnMcpExitAndACrash(const char *name, qint64 mcpPid, qint64 service) {
        const os::Identity mcp = *os::identityOf(mcpPid);
        QVERIFY(os::signalIdentity(mcp, os::Signal::Kill)); // the ledger drops it: a write
        QVERIFY(QTest::qWaitFor([&] { return test::absentOrZombie(mcpPid); }, 5000));
        const os::Identity svc = *os::identityOf(service);
        const Figures f = watch(4000, [&] {
            if (os::alive(svc) == os::Liveness::Alive)
                os::signalIdentity(svc, os::Signal::Kill); // a crash: a new registration
            return false;
        });
        expectBounded(name, f);
        if (QTest::currentTestFailed()) return;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         const QJsonObject s = rig_->status();
                         return s.value(QLatin1String("state")).toString() ==
                                    QLatin1String("healthy") &&
                                s.value(QLatin1String("pid")).toInteger() != service &&
                                !s.value(QLatin1String("stateFileErrors")).toArray().isEmpty();
                     },
                     15000),
                 qPrintable(rig_->dump(tether_)));
    }

    void startHealthy(const QString &ini) {
        tether_ = rig_->start(ini);
        QCOMPARE(rig_->waitForState({QStringLiteral("healthy")}), QStringLiteral("healthy"));
    }

    QString stats(const QString &name) const { return rig_->root() + QLatin1Char('/') + name; }
    static long statCount(const QString &path, const char *key) {
        for (const QByteArray &line : readFile(path).split('\n'))
            if (line.startsWith(key)) return line.mid(int(qstrlen(key)) + 1).toLong();
        return -1;
    }

    static void sanitizerQuarantine(test::TetherRig &rig) {
        if (test::sanitizerSlowdown() > 1)
            rig.extraEnv().insert(QStringLiteral("ASAN_OPTIONS"),
                                  qEnvironmentVariable("ASAN_OPTIONS") +
                                      QStringLiteral(":quarantine_size_mb=16"));
    }

    // Tether's resident memory, every 100 ms from its start: the peak, and a kill past 1 GiB.
    qint64 peakKiB_ = 0;
    void guardTick() {
        if (!tether_ || tether_->pid() <= 0) return;
        const qint64 rss = test::rssKiB(tether_->pid());
        peakKiB_ = std::max(peakKiB_, rss);
        if (rss > kRunawayKiB && !runaway_) {
            runaway_ = true;
            tether_->process->kill(); // our own child: the machine is shared
        }
    }

private slots:
    void initTestCase() {
        guard_.setInterval(100);
        connect(&guard_, &QTimer::timeout, this, &TestHostileWorld::guardTick);
        // The reference: the demo service, healthy, nothing hostile.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        test::TetherRig rig(dir.path());
        sanitizerQuarantine(rig);
        test::TetherRig::Instance *t =
            rig.start(rig.writeIni(test::TetherRig::demoSettings(test::freeLoopbackPort())));
        QCOMPARE(rig.waitForState({QStringLiteral("healthy")}), QStringLiteral("healthy"));
        for (int i = 0; i < 10; ++i) { // the most it holds over a second of probing
            idleKiB_ = std::max(idleKiB_, test::rssKiB(t->pid()));
            QTest::qWait(100);
        }
        QVERIFY(idleKiB_ > 0);
        QVERIFY(rig.quit(t, 15000));
        qInfo("hostile: Tether idle and healthy beside the demo: %.1f MiB (each case's bound: "
              "+%lld MiB over it)",
              double(idleKiB_) / 1024, kBoundKiB / 1024);
    }
    void init() {
        runaway_ = false;
        peakKiB_ = 0;
        guard_.start();
        root_ = std::make_unique<QTemporaryDir>();
        QVERIFY(root_->isValid());
        rig_ = std::make_unique<test::TetherRig>(root_->path());
        sanitizerQuarantine(*rig_);
        port_ = test::freeLoopbackPort();
        tether_ = nullptr;
    }
    void cleanup() {
        guard_.stop();
        if (QTest::currentTestFailed() && tether_) qWarning("%s", qPrintable(rig_->dump(tether_)));
        rig_.reset();
    }

    // 4. A heartbeat flood grew Tether to 4.5 GB in 5 s and stalled it 15 s.
    void eventStreamFlood() {
        startHealthy(
            rig_->writeIni(hostileSettings({QStringLiteral("--events"), QStringLiteral("flood")})));
        const qint64 pid = servicePid();
        QVERIFY(rig_->waitForLine(tether_, QStringLiteral("following the service's event stream"),
                                  10000));
        const Figures f = watch(5000);
        expectBounded("event stream flood", f);
        QCOMPARE(rig_->status().value(QLatin1String("state")).toString(),
                 QStringLiteral("healthy"));
        expectSupervised(pid);
    }

    // 4. An endless chunked health answer grew Tether to 1.9 GB past the probe deadline. The
    // service answers three probes, then never ends an answer: it is replaced, and Tether stays
    // small and answers meanwhile.
    void endlessHealthAnswers() {
        startHealthy(rig_->writeIni(
            hostileSettings({QStringLiteral("--health"), QStringLiteral("endless"),
                             QStringLiteral("--health-endless-after"), QStringLiteral("3")})));
        const qint64 first = servicePid();
        const Figures f = watch(8000, [&] {
            const qint64 now = servicePid();
            return now > 0 && now != first;
        });
        expectBounded("endless health answers", f);
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         const qint64 p = servicePid();
                         return p > 0 && p != first;
                     },
                     15000),
                 "the service that never ends its answers was not replaced");
        expectSupervised();
    }

    // 4. A stream without newlines starved the probes that shared its network thread, and a
    // service that answered curl in milliseconds was killed, again after every replacement.
    void streamWithoutNewlinesStarvesNoProbe() {
        startHealthy(rig_->writeIni(
            hostileSettings({QStringLiteral("--events"), QStringLiteral("no-newline")})));
        const qint64 pid = servicePid();
        const Figures f = watch(9000); // three recovery windows
        expectBounded("stream without newlines", f);
        QCOMPARE(rig_->status().value(QLatin1String("state")).toString(),
                 QStringLiteral("healthy"));
        expectSupervised(pid); // never replaced
    }

    // 8. A service writing 40 MB/s: rotated files of ~190 MB, a 77 s stall unthrottled.
    void logFlood() {
        startHealthy(
            rig_->writeIni(hostileSettings({QStringLiteral("--log-flood"), QStringLiteral("40")})));
        const qint64 pid = servicePid();
        const Figures f = watch(6000);
        expectBounded("log flood (40 MB/s)", f);
        const QString log = rig_->dataPath(QStringLiteral("logs/service.log"));
        qint64 rotated = 0;
        for (int i = 1; i <= 4; ++i) {
            const qint64 size = QFileInfo(log + QStringLiteral(".%1").arg(i)).size();
            rotated = std::max(rotated, size);
            QVERIFY2(size <= 1024 * 1024 + 200,
                     qPrintable(QStringLiteral("service.log.%1 is %2 bytes").arg(i).arg(size)));
        }
        QVERIFY2(rotated > 0, "nothing was rotated");
        QVERIFY(!QFileInfo::exists(log + QStringLiteral(".5")));
        qInfo("hostile: log flood: service.log at the end %lld KiB, rotated at most %lld KiB",
              QFileInfo(log).size() / 1024, rotated / 1024);
        expectSupervised(pid);
    }

    // 1. A full disk: an MCP exit and a service crash replaced service.json, the ledger and
    // mcp-commands.json with empty files, and nothing was said.
    void fullDataDirectory() {
        test::SmallFilesystem fs(root_->filePath(QStringLiteral("data")), 4 * 1024 * 1024);
        QVERIFY2(fs.mounted(), qPrintable(fs.error()));
        test::TetherRig::Values v = test::TetherRig::demoSettings(port_);
        v.insert(QStringLiteral("service/arguments"),
                 QStringList{QStringLiteral("--mcp"), QStringLiteral("2")});
        startHealthy(rig_->writeIni(v));
        const QString ledger = rig_->dataPath(QStringLiteral("mcp-ledger.json"));
        QVERIFY(QTest::qWaitFor(
            [&] {
                const QJsonArray rows = rig_->status().value(QLatin1String("mcp")).toArray();
                return rows.size() == 2 &&
                       rows.at(0).toObject().value(QLatin1String("pid")).toInteger() > 0 &&
                       rows.at(1).toObject().value(QLatin1String("pid")).toInteger() > 0 &&
                       readFile(ledger).count("\"pid\"") >= 2;
            },
            15000));
        const QJsonArray rows = rig_->status().value(QLatin1String("mcp")).toArray();
        const qint64 mcpPid = rows.at(0).toObject().value(QLatin1String("pid")).toInteger();
        const qint64 service = servicePid();
        const QStringList files{QStringLiteral("service.json"), QStringLiteral("mcp-ledger.json"),
                                QStringLiteral("mcp-commands.json")};
        QMap<QString, QByteArray> good;
        for (const QString &name : files) {
            good.insert(name, readFile(rig_->dataPath(name)));
            QVERIFY2(!good.value(name).isEmpty(), qPrintable(name));
        }
        QString error;
        QVERIFY2(fs.fill(&error), qPrintable(error));

        writesAfterAnMcpExitAndACrash("full data directory", mcpPid, service);
        if (QTest::currentTestFailed()) return;
        const QJsonObject s = rig_->status();
        QCOMPARE(s.value(QLatin1String("state")).toString(), QStringLiteral("healthy"));
        QVERIFY(s.value(QLatin1String("pid")).toInteger() != service);
        // The ledger and the MCP commands as they were. The dead service's registration is
        // dropped (as after any crash), which frees the room its successor's needs: written, or
        // its loss said; never an empty or broken file.
        for (const QString &name : files.mid(1))
            QVERIFY2(readFile(rig_->dataPath(name)) == good.value(name),
                     qPrintable(name + QStringLiteral(" changed on the full disk:\n") +
                                QString::fromUtf8(readFile(rig_->dataPath(name)))));
        const QString said = QString::fromUtf8(
            QJsonDocument(s.value(QLatin1String("stateFileErrors")).toArray()).toJson());
        const QByteArray registration = readFile(rig_->dataPath(files.at(0)));
        const qint64 named =
            QJsonDocument::fromJson(registration).object().value(QLatin1String("pid")).toInteger();
        QVERIFY2(named == s.value(QLatin1String("pid")).toInteger() ||
                     (said.contains(QStringLiteral("service.json: No space left on device")) &&
                      (registration.isEmpty() ? !QFileInfo::exists(rig_->dataPath(files.at(0)))
                                              : registration == good.value(files.at(0)))),
                 registration.constData());
        QVERIFY2(said.contains(QStringLiteral("mcp-ledger.json: No space left on device")),
                 qPrintable(said));
        QVERIFY2(rig_->waitForLine(tether_, QStringLiteral("state not saved"), 1000),
                 qPrintable(rig_->dump(tether_)));
        const test::CliRun text = rig_->cli({QStringLiteral("status")});
        QVERIFY2(text.out.contains("Not saved"), text.out.constData());

        fs.release(); // space again: the records are brought up to date, and the status clears
        QVERIFY2(
            QTest::qWaitFor(
                [&] {
                    const QJsonObject now = rig_->status();
                    const QJsonObject reg =
                        QJsonDocument::fromJson(readFile(rig_->dataPath(files.at(0)))).object();
                    return now.value(QLatin1String("stateFileErrors")).toArray().isEmpty() &&
                           reg.value(QLatin1String("pid")).toInteger() ==
                               now.value(QLatin1String("pid")).toInteger();
                },
                15000),
            qPrintable(rig_->dump(tether_)));
        expectSupervised();
    }

    // 1. A read-only data directory only logged "cannot write the registration" while status
    // said healthy. Now every record that cannot be written is in the status and the log, the
    // good copies stay, and the service is still supervised (its output discarded: no log file).
    void readOnlyDataDirectory() {
        test::SmallFilesystem fs(root_->filePath(QStringLiteral("data")), 4 * 1024 * 1024);
        QVERIFY2(fs.mounted(), qPrintable(fs.error()));
        test::TetherRig::Values v = test::TetherRig::demoSettings(port_);
        v.insert(QStringLiteral("service/arguments"),
                 QStringList{QStringLiteral("--mcp"), QStringLiteral("2")});
        startHealthy(rig_->writeIni(v));
        const QString ledger = rig_->dataPath(QStringLiteral("mcp-ledger.json"));
        QVERIFY(QTest::qWaitFor([&] { return readFile(ledger).count("\"pid\"") >= 2; }, 15000));
        const QByteArray goodLedger = readFile(ledger);
        const QJsonArray rows = rig_->status().value(QLatin1String("mcp")).toArray();
        QCOMPARE(rows.size(), 2);
        const qint64 mcpPid = rows.at(0).toObject().value(QLatin1String("pid")).toInteger();
        const qint64 service = servicePid();
        QString error;
        QVERIFY2(fs.readOnlyView(&error), qPrintable(error));

        writesAfterAnMcpExitAndACrash("read-only data directory", mcpPid, service);
        if (QTest::currentTestFailed()) return;
        const QString said = QString::fromUtf8(
            QJsonDocument(rig_->status().value(QLatin1String("stateFileErrors")).toArray())
                .toJson());
        QVERIFY2(said.contains(QStringLiteral("Read-only file system")), qPrintable(said));
        QCOMPARE(readFile(ledger), goodLedger);
        QVERIFY2(rig_->waitForLine(tether_, QStringLiteral("state not saved"), 1000),
                 qPrintable(rig_->dump(tether_)));
    }

    // 2. Links: a dangling mcp-ledger.json link made Tether write outside its directory, a
    // logs/tether.log link made it append to (and chmod) another file, a logs/service.log link
    // made rotation truncate its target. The settings file is a person's: a link there is
    // followed, and its target left as it is.
    void linksInEveryFilesPlace() {
        const QString outside = rig_->root() + QStringLiteral("/outside");
        QDir().mkpath(outside);
        QDir().mkpath(rig_->dataPath(QStringLiteral("logs")));
        QFile::setPermissions(rig_->dataDir(),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QFile::setPermissions(rig_->dataPath(QStringLiteral("logs")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QStringList names{QStringLiteral("service.json"), QStringLiteral("mcp-ledger.json"),
                                QStringLiteral("mcp-commands.json"),
                                QStringLiteral("logs/tether.log"),
                                QStringLiteral("logs/service.log")};
        QMap<QString, QByteArray> victims;
        for (const QString &name : names) {
            const QString target = outside + QLatin1Char('/') + QFileInfo(name).fileName();
            const QByteArray content =
                "victim of " + name.toUtf8() + '\n' + QByteArray(2 * 1024 * 1024, 'v');
            if (name != QLatin1String("mcp-ledger.json")) { // that one dangles
                writeFile(target, content);
                QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner |
                                                  QFile::ReadGroup | QFile::ReadOther);
                victims.insert(target, content);
            }
            QVERIFY(QFile::link(target, rig_->dataPath(name)));
        }
        test::TetherRig::Values v = test::TetherRig::demoSettings(port_);
        v.insert(QStringLiteral("service/arguments"),
                 QStringList{QStringLiteral("--mcp"), QStringLiteral("1")});
        const QString realIni = rig_->writeIni(v, QStringLiteral("outside/real.ini"));
        const QByteArray iniBefore = readFile(realIni);
        const QString ini = rig_->root() + QStringLiteral("/tether.ini");
        QVERIFY(QFile::link(realIni, ini));

        startHealthy(ini);
        QVERIFY(QTest::qWaitFor(
            [&] { return rig_->status().value(QLatin1String("mcp")).toArray().size() == 1; },
            15000));
        const Figures f = watch(3000);
        expectBounded("links in every file's place", f);
        for (auto it = victims.begin(); it != victims.end(); ++it) {
            QVERIFY2(readFile(it.key()) == it.value(),
                     qPrintable(it.key() + QStringLiteral(" changed")));
            QVERIFY2(QFileInfo(it.key()).permissions().testFlag(QFile::ReadOther),
                     qPrintable(it.key() + QStringLiteral(" was chmodded")));
        }
        QVERIFY2(!QFileInfo::exists(outside + QStringLiteral("/mcp-ledger.json")),
                 "written through the dangling link");
        QCOMPARE(readFile(realIni), iniBefore);
        const QString said = QString::fromUtf8(
            QJsonDocument(rig_->status().value(QLatin1String("stateFileErrors")).toArray())
                .toJson());
        QVERIFY2(said.contains(QStringLiteral("mcp-ledger.json is a symbolic link")),
                 qPrintable(said));
        QVERIFY2(rig_->waitForLine(tether_, QStringLiteral("tether.log is a symbolic link"), 1000),
                 qPrintable(rig_->dump(tether_)));
        QVERIFY2(rig_->waitForLine(tether_, QStringLiteral("service.log is a symbolic link"), 1000),
                 qPrintable(rig_->dump(tether_)));
        // The registration was a link: set aside (the link itself, renamed), written anew.
        QVERIFY(QFileInfo(rig_->dataPath(QStringLiteral("service.json.bad"))).isSymLink());
        expectSupervised();
        const test::CliRun second =
            rig_->cli({QStringLiteral("--headless"), QStringLiteral("--settings"), ini});
        QCOMPARE(second.exitCode, 1);
        QVERIFY2(second.err.contains("already running"), second.err.constData());
    }

    // Tether's own log directory as a link: refused at start, with why.
    void logsDirectoryAsALinkIsRefused() {
        QDir().mkpath(rig_->dataDir());
        QFile::setPermissions(rig_->dataDir(),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QDir().mkpath(rig_->root() + QStringLiteral("/elsewhere"));
        QVERIFY(QFile::link(rig_->root() + QStringLiteral("/elsewhere"),
                            rig_->dataPath(QStringLiteral("logs"))));
        const test::CliRun run =
            rig_->cli({QStringLiteral("--headless"), QStringLiteral("--settings"),
                       rig_->writeIni(test::TetherRig::demoSettings(port_))},
                      15000);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("logs is a symbolic link"), run.err.constData());
        QVERIFY(QDir(rig_->root() + QStringLiteral("/elsewhere")).isEmpty());
    }

    // 3. A FIFO in place of any of its files blocked Tether in open() for good: nothing was
    // supervised, `status` exited 5, a second Tether said "already running".
    void fifosInEveryFilesPlace() {
        QDir().mkpath(rig_->dataPath(QStringLiteral("logs")));
        QFile::setPermissions(rig_->dataDir(),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        QFile::setPermissions(rig_->dataPath(QStringLiteral("logs")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        for (const char *name : {"service.json", "mcp-ledger.json", "mcp-commands.json",
                                 "logs/tether.log", "logs/service.log"})
            QVERIFY(::mkfifo(QFile::encodeName(rig_->dataPath(QLatin1String(name))).constData(),
                             0600) == 0);
        test::TetherRig::Values v = test::TetherRig::demoSettings(port_);
        v.insert(QStringLiteral("service/arguments"),
                 QStringList{QStringLiteral("--mcp"), QStringLiteral("1")});
        tether_ = rig_->start(rig_->writeIni(v));
        QCOMPARE(rig_->waitForState({QStringLiteral("healthy")}, 15000), QStringLiteral("healthy"));
        QVERIFY(QTest::qWaitFor(
            [&] { return rig_->status().value(QLatin1String("mcp")).toArray().size() == 1; },
            15000));
        const Figures f = watch(3000);
        expectBounded("FIFOs in every file's place", f);
        const QString said = QString::fromUtf8(
            QJsonDocument(rig_->status().value(QLatin1String("stateFileErrors")).toArray())
                .toJson());
        QVERIFY2(said.contains(QStringLiteral("mcp-ledger.json is not a regular file")),
                 qPrintable(said));
        QVERIFY2(
            rig_->waitForLine(tether_, QStringLiteral("tether.log is not a regular file"), 1000),
            qPrintable(rig_->dump(tether_)));
        expectSupervised();
        const test::CliRun second =
            rig_->cli({QStringLiteral("--headless"), QStringLiteral("--settings"),
                       rig_->root() + QStringLiteral("/tether.ini")},
                      15000);
        QCOMPARE(second.exitCode, 1);
        QVERIFY2(second.err.contains("already running"), second.err.constData());
        QVERIFY(rig_->quit(tether_));

        // The settings file as a FIFO, read by a verb that works without a Tether: no hang.
        const QString fifoIni = rig_->root() + QStringLiteral("/fifo.ini");
        QVERIFY(::mkfifo(QFile::encodeName(fifoIni).constData(), 0600) == 0);
        const test::CliRun report = rig_->cli({QStringLiteral("diagnostics"), QStringLiteral("-"),
                                               QStringLiteral("--settings"), fifoIni},
                                              20000);
        QCOMPARE(report.exitCode, 0);
        QVERIFY2(report.out.contains("fifo.ini is not a regular file"),
                 report.out.left(4000).constData());
    }

    // 5. A client that sends requests and never reads the answers grew Tether ~40 MB/s and made
    // `status` take seconds; diagnostics requests kept it at 90 % CPU for a minute after it left.
    void aClientThatNeverReads() {
        startHealthy(rig_->writeIni(test::TetherRig::demoSettings(port_)));
        const qint64 pid = servicePid();
        for (const char *verb : {"status", "diagnostics"}) {
            const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            QVERIFY(fd >= 0);
            sockaddr_un addr{};
            addr.sun_family = AF_UNIX;
            const QByteArray path =
                QFile::encodeName(rig_->dataPath(QStringLiteral("control.sock")));
            qstrncpy(addr.sun_path, path.constData(), sizeof addr.sun_path);
            QVERIFY(::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0);
            const QByteArray request = "{\"verb\":\"" + QByteArray(verb) + "\"}\n";
            QByteArray many;
            for (int i = 0; i < 1000; ++i)
                many += request;
            bool dropped = false;
            qint64 sent = 0;
            const auto flood = [&] {
                for (int i = 0; i < 64 && !dropped; ++i) { // as fast as the socket takes them
                    const ssize_t n =
                        ::send(fd, many.constData(), size_t(many.size()), MSG_NOSIGNAL);
                    if (n > 0) sent += n;
                    if (n < 0 && errno != EAGAIN) dropped = true;
                    if (n < 0) break;
                }
                return dropped;
            };
            const Figures f = watch(4000, [&] { // status from another client, all along
                flood();
                return false;
            });
            (void)QTest::qWaitFor(flood, 20000); // its answers pile up at their own pace
            ::close(fd);
            qInfo("hostile: never-reading client (%s): %lld bytes of requests sent, %s", verb, sent,
                  dropped ? "then dropped by Tether" : "never dropped");
            expectBounded(verb == QByteArray("status") ? "never-reading client (status)"
                                                       : "never-reading client (diagnostics)",
                          f);
            QVERIFY2(dropped, "a client that never reads was never dropped");
            // Gone: Tether settles at once, not a minute of answers nobody reads.
            QTest::qWait(300);
            const qint64 before = cpuTicks(tether_->pid());
            QTest::qWait(2000);
            const qint64 used = cpuTicks(tether_->pid()) - before;
            const long hz = ::sysconf(_SC_CLK_TCK);
            qInfo("hostile: after the %s client left: %lld ms of CPU in 2 s", verb,
                  used * 1000 / hz);
            QVERIFY2(
                used * 1000 / hz < 400,
                qPrintable(QStringLiteral("%1 ms of CPU in the 2 s after").arg(used * 1000 / hz)));
        }
        QVERIFY(rig_->waitForLine(tether_, QStringLiteral("does not read its answers"), 1000));
        expectSupervised(pid);
    }

    // 6. Two Tethers started at the same instant both ran in 2 of 30 tries, and the loser's
    // failure deleted service.json. A hundred releases of two at once: always one winner, one
    // service, its registration intact.
    void twoTethersReleasedTogether() {
        test::TetherRig::Values v = test::TetherRig::demoSettings(port_);
        const QString ini = rig_->writeIni(v);
        startHealthy(
            ini); // the service, left running by each Tether that quits, adopted by the next
        const qint64 service = servicePid();
        QVERIFY(rig_->quit(tether_));
        tether_ = nullptr;
        const QByteArray registration = readFile(rig_->dataPath(QStringLiteral("service.json")));
        QVERIFY(!registration.isEmpty());

        QStringList envStrings = rig_->env().toStringList();
        std::vector<QByteArray> envBytes;
        for (const QString &e : envStrings)
            envBytes.push_back(e.toLocal8Bit());
        std::vector<char *> envp;
        for (QByteArray &e : envBytes)
            envp.push_back(e.data());
        envp.push_back(nullptr);
        const QByteArray bin = QFile::encodeName(test::tetherBin());
        const QByteArray iniPath = QFile::encodeName(ini);
        const char *argv[] = {bin.constData(), "--headless", "--settings", iniPath.constData(),
                              nullptr};

        qint64 worstStatusMs = 0;
        QElapsedTimer all;
        all.start();
        for (int round = 0; round < 100; ++round) {
            int gate[2];
            QVERIFY(::pipe2(gate, O_CLOEXEC) == 0);
            pid_t pids[2];
            QString outs[2];
            for (int i = 0; i < 2; ++i) {
                outs[i] = rig_->root() + QStringLiteral("/race-%1.out").arg(i);
                const QByteArray out = QFile::encodeName(outs[i]);
                const int outFd =
                    ::open(out.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
                pids[i] = ::fork();
                if (pids[i] == 0) { // only async-signal-safe calls until execve
                    char c;
                    ::close(gate[1]);
                    ::dup2(outFd, 1);
                    ::dup2(outFd, 2);
                    while (::read(gate[0], &c, 1) < 0 && errno == EINTR) {
                    }
                    ::execve(argv[0], const_cast<char *const *>(argv), envp.data());
                    ::_exit(127);
                }
                ::close(outFd);
            }
            ::close(gate[0]);
            ::close(gate[1]); // both released at once
            // The loser leaves within the lock's retries; the winner runs on.
            int loser = -1, status = 0;
            QVERIFY(QTest::qWaitFor(
                [&] {
                    for (int i = 0; i < 2 && loser < 0; ++i)
                        if (::waitpid(pids[i], &status, WNOHANG) == pids[i]) loser = i;
                    return loser >= 0;
                },
                15000));
            const int winner = 1 - loser;
            const QString err = QString::fromUtf8(readFile(outs[loser]));
            QVERIFY2(
                WIFEXITED(status) && WEXITSTATUS(status) == 1 &&
                    err.contains(QStringLiteral("already running")),
                qPrintable(QStringLiteral("round %1: the loser said: %2").arg(round).arg(err)));
            qint64 latency = -1;
            QVERIFY2(QTest::qWaitFor(
                         [&] {
                             const QJsonObject s = rig_->status(&latency, 5000);
                             return s.value(QLatin1String("state")).toString() ==
                                    QLatin1String("healthy");
                         },
                         15000),
                     qPrintable(QStringLiteral("round %1: the winner is not healthy").arg(round)));
            worstStatusMs = std::max(worstStatusMs, latency);
            QCOMPARE(servicePid(), service);
            QCOMPARE(test::demoServicesOnPort(port_), QList<qint64>{service});
            // The winner quits (SIGTERM: our own child), leaving the service for the next round.
            ::kill(pids[winner], SIGTERM);
            QVERIFY(QTest::qWaitFor(
                [&] { return ::waitpid(pids[winner], &status, WNOHANG) == pids[winner]; }, 15000));
            QCOMPARE(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0);
            const QJsonObject reg =
                QJsonDocument::fromJson(readFile(rig_->dataPath(QStringLiteral("service.json"))))
                    .object();
            QVERIFY2(reg.value(QLatin1String("pid")).toInteger() == service,
                     qPrintable(QStringLiteral("round %1: service.json: %2")
                                    .arg(round)
                                    .arg(QString::fromUtf8(readFile(
                                        rig_->dataPath(QStringLiteral("service.json")))))));
        }
        qInfo("hostile: two Tethers released together: 100 rounds in %lld ms, one winner each; "
              "worst status %lld ms",
              all.elapsed(), worstStatusMs);
        QVERIFY(worstStatusMs < kStatusMs * test::sanitizerSlowdown());
    }
};

QTEST_GUILESS_MAIN(TestHostileWorld)
#include "tst_hostile_world.moc"
