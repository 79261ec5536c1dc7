#include "tether_rig.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QLocalSocket>
#include <QSettings>
#include <QTest>

namespace tether::test {

namespace {

const char kTagVariable[] = "TETHER_TEST_TAG";

QByteArray readProcFile(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

qint64 statusField(qint64 pid, const char *field) {
    for (const QByteArray &line :
         readProcFile(QStringLiteral("/proc/%1/status").arg(pid)).split('\n'))
        if (line.startsWith(field))
            return line.mid(int(qstrlen(field))).trimmed().split(' ').value(0).toLongLong();
    return 0;
}

void drain(TetherRig::Instance *t) {
    t->partial += t->process->readAllStandardOutput();
    qsizetype nl;
    while ((nl = t->partial.indexOf('\n')) >= 0) {
        QString line = QString::fromUtf8(t->partial.left(nl));
        t->partial.remove(0, nl + 1);
        const qsizetype sp = line.indexOf(QLatin1Char(' ')); // "2026-12-01T08:49:00.123 ..."
        if (sp > 0 && line.at(0).isDigit()) line = line.mid(sp + 1);
        t->lines << line;
    }
}

} // namespace

QList<os::Identity> taggedProcesses(const QByteArray &variable, const QString &tag) {
    QList<os::Identity> out;
    const QByteArray needle = variable + '=' + tag.toUtf8();
    for (const os::ProcessInfo &p : os::snapshot()) {
        if (p.state == os::RunState::Zombie || p.pid == os::currentPid()) continue;
        if (readProcFile(QStringLiteral("/proc/%1/environ").arg(p.pid))
                .split('\0')
                .contains(needle))
            out << os::Identity{p.pid, p.startTime};
    }
    return out;
}

QList<qint64> demoServicesOnPort(int port) {
    QList<qint64> out;
    for (const os::ProcessInfo &p : os::snapshot()) {
        if (p.state == os::RunState::Zombie) continue;
        const auto &a = p.argv;
        for (size_t i = 0; i + 2 < a.size(); ++i)
            if (a[i] == "demo-service" && a[i + 1] == "--port" && a[i + 2] == std::to_string(port))
                out << p.pid;
    }
    return out;
}

qint64 peakRssKiB(qint64 pid) {
    return statusField(pid, "VmHWM:");
}

qint64 rssKiB(qint64 pid) {
    return statusField(pid, "VmRSS:");
}

TetherRig::TetherRig(const QString &root, const QString &dataDir)
    : root_(root)
    , dataDir_(dataDir.isEmpty() ? root + QStringLiteral("/data") : dataDir) {
}

TetherRig::~TetherRig() {
    finish();
}

QProcessEnvironment TetherRig::env() const {
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.insert(QStringLiteral("TETHER_DATA_DIR"), dataDir_);
    e.insert(QStringLiteral("XDG_STATE_HOME"), root_ + QStringLiteral("/state"));
    e.insert(QStringLiteral("XDG_CONFIG_HOME"), root_ + QStringLiteral("/config"));
    e.insert(QStringLiteral("XDG_CACHE_HOME"), root_ + QStringLiteral("/cache"));
    e.insert(QString::fromLatin1(kTagVariable), tag());
    for (const QString &k : extraEnv_.keys())
        e.insert(k, extraEnv_.value(k));
    return e;
}

TetherRig::Values TetherRig::demoSettings(int port) {
    return Values{
        {QStringLiteral("service/profile"), QStringLiteral("demo")},
        {QStringLiteral("service/port"), port},
        {QStringLiteral("probe/intervalMs"), 200},
        {QStringLiteral("probe/timeoutMs"), 500},
        {QStringLiteral("probe/startupDeadlineMs"), 10000},
        {QStringLiteral("recovery/windowMs"), 3000},
        {QStringLiteral("recovery/graceMs"), 500},
        {QStringLiteral("recovery/backoffInitialMs"), 50},
        {QStringLiteral("recovery/backoffMaxMs"), 400},
        {QStringLiteral("orphans/graceMs"), 300},
    };
}

QString TetherRig::writeIni(const Values &values, const QString &name) {
    const QString path = root_ + QLatin1Char('/') + name;
    QFile::remove(path);
    QSettings ini(path, QSettings::IniFormat);
    for (auto it = values.begin(); it != values.end(); ++it)
        ini.setValue(it.key(), it.value());
    ini.sync();
    return path;
}

TetherRig::Instance *TetherRig::start(const QString &ini) {
    auto t = std::make_unique<Instance>();
    t->process = std::make_unique<QProcess>();
    t->process->setProcessEnvironment(env());
    t->process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    Instance *raw = t.get();
    QObject::connect(t->process.get(), &QProcess::readyReadStandardOutput, t->process.get(),
                     [raw] { drain(raw); });
    t->process->start(tetherBin(),
                      {QStringLiteral("--headless"), QStringLiteral("--settings"), ini});
    if (!t->process->waitForStarted(10000))
        qWarning("tether did not start: %s", qPrintable(t->process->errorString()));
    tethers_.push_back(std::move(t));
    return raw;
}

QStringList TetherRig::lines(Instance *t) const {
    drain(t);
    return t->lines;
}

bool TetherRig::waitForLine(Instance *t, const QString &contains, int timeoutMs) {
    return QTest::qWaitFor(
        [&] {
            for (const QString &l : lines(t))
                if (l.contains(contains)) return true;
            return false;
        },
        timeoutMs);
}

CliRun TetherRig::cli(const QStringList &args, int timeoutMs) const {
    return runTether(args, env(), timeoutMs);
}

QJsonObject TetherRig::request(const QString &verb, int timeoutMs, qint64 *elapsedMs) const {
    QElapsedTimer t;
    t.start();
    if (elapsedMs) *elapsedMs = -1;
    QLocalSocket s;
    s.connectToServer(dataPath(QStringLiteral("control.sock")));
    if (!s.waitForConnected(timeoutMs)) return {};
    s.write(
        QJsonDocument(QJsonObject{{QStringLiteral("verb"), verb}}).toJson(QJsonDocument::Compact) +
        '\n');
    s.flush();
    while (!s.canReadLine() && t.elapsed() < timeoutMs && s.state() == QLocalSocket::ConnectedState)
        s.waitForReadyRead(int(std::max<qint64>(1, timeoutMs - t.elapsed())));
    if (!s.canReadLine()) return {};
    if (elapsedMs) *elapsedMs = t.elapsed();
    return QJsonDocument::fromJson(s.readLine()).object();
}

QJsonObject TetherRig::status(qint64 *elapsedMs, int timeoutMs) const {
    const QJsonObject s = request(QStringLiteral("status"), timeoutMs, elapsedMs)
                              .value(QLatin1String("status"))
                              .toObject();
    if (!s.isEmpty()) lastStatus_ = s;
    return s;
}

QString TetherRig::waitForState(const QStringList &states, int timeoutMs) const {
    QString seen;
    (void)QTest::qWaitFor(
        [&] {
            seen = status().value(QLatin1String("state")).toString();
            return states.contains(seen);
        },
        timeoutMs);
    return seen;
}

bool TetherRig::quit(Instance *t, int timeoutMs) {
    cli({QStringLiteral("quit")});
    if (awaitExit(*t->process, timeoutMs)) {
        drain(t);
        return true;
    }
    t->process->kill(); // our own child, identified by QProcess
    t->process->waitForFinished(5000);
    return false;
}

QStringList TetherRig::finish() {
    for (auto &t : tethers_)
        if (t->process->state() != QProcess::NotRunning) quit(t.get());
    tethers_.clear();
    QStringList killed;
    QElapsedTimer t;
    t.start();
    QList<os::Identity> left = taggedProcesses(kTagVariable, tag());
    for (const os::Identity &id : left) {
        QStringList argv;
        for (const std::string &a : os::inspect(id.pid).info.argv)
            argv << QString::fromStdString(a);
        killed << QStringLiteral("%1 [%2]").arg(id.pid).arg(argv.join(QLatin1Char(' ')));
    }
    while (!left.isEmpty() && t.elapsed() < 10000) {
        for (const os::Identity &id : left)
            os::signalIdentity(id, os::Signal::Kill);
        QTest::qWait(50);
        left = taggedProcesses(kTagVariable, tag());
    }
    return killed;
}

QString TetherRig::dump(Instance *t) const {
    QStringList log = t ? lines(t) : QStringList();
    if (log.size() > 60) log = log.mid(log.size() - 60);
    return QStringLiteral("status: %1\nlog (last %2 lines):\n%3")
        .arg(QString::fromUtf8(QJsonDocument(lastStatus_).toJson(QJsonDocument::Compact)))
        .arg(log.size())
        .arg(log.join(QLatin1Char('\n')));
}

} // namespace tether::test
