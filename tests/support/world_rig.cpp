#include "world_rig.h"

namespace tether::test {

WorldRig::WorldRig(sim::WorldOptions options, std::uint64_t seed)
    : world(seed, [&options] {
        options.collectLog = true;
        options.heartbeatMs = 0; // the Supervisor follows no stream in the rig
        options.opencode2 = false;
        return options;
    }()) {
    world.setTetherFactory(
        {[this](supervision::Ports &ports, std::function<policy::Ms()> clock,
                std::function<void(const policy::Event &)> feed) -> supervision::Executor & {
             sup_ = std::make_unique<Supervisor>(configFor(ports, clock, feed));
             QObject::connect(sup_.get(), &Supervisor::logLine, sup_.get(),
                              [this](const QString &line) { log << line; });
             QObject::connect(sup_.get(), &Supervisor::notice, sup_.get(),
                              [this](policy::NoticeKind kind, const QString &text) {
                                  notices.push_back({kind, text});
                              });
             QObject::connect(sup_.get(), &Supervisor::stateChanged, sup_.get(),
                              [this](policy::State, policy::State to, const QString &) {
                                  states.push_back(to);
                              });
             return sup_->executor();
         },
         [this] { sup_.reset(); }});
}

WorldRig::~WorldRig() {
    // The Supervisor goes before the world whose ports it holds.
    world.setTetherFactory({});
    sup_.reset();
}

Supervisor::Config WorldRig::configFor(supervision::Ports &ports, std::function<policy::Ms()> clock,
                                       std::function<void(const policy::Event &)> feed) {
    const policy::SupervisionConfig &m = world.config();
    Supervisor::Config c;
    c.settings.profile = policy::Dialect::Opencode1;
    c.settings.port = m.port;
    c.settings.timings = m.timings;
    c.settings.autoReplaceOnVersionChange = m.autoReplaceOnVersionChange;
    c.settings.orphanGraceMs = int(m.orphanGraceMs);
    c.settings.orphansWhileRunning =
        m.cleanOrphans ? policy::OrphanMode::Clean : policy::OrphanMode::Ignore;
    c.profile.dialect = policy::Dialect::Opencode1;
    c.profile.program = QString::fromStdString(world.program());
    c.profile.port = m.port;
    c.profile.arguments = {QStringLiteral("serve"), QStringLiteral("--port"),
                           QString::number(m.port), QStringLiteral("--hostname"),
                           QStringLiteral("127.0.0.1")};
    c.profile.installedVersion = QString::fromStdString(m.installedVersion);
    c.clock = [clock] { return qint64(clock()); };
    c.world = &ports;
    c.worldFeed = std::move(feed);
    return c;
}

Supervisor &WorldRig::launch() {
    world.launchTether();
    return *sup_;
}

bool WorldRig::advanceUntil(const std::function<bool()> &done, policy::Ms maxMs) {
    const policy::Ms until = world.now() + maxMs;
    while (!done() && world.now() < until && !world.failed())
        world.advance(10);
    return done();
}

QString WorldRig::dump() const {
    QString out;
    if (world.failed())
        out +=
            QStringLiteral("invariant failed: %1\n").arg(QString::fromStdString(world.failure()));
    out += QStringLiteral("state %1\nsupervisor log:\n  %2\nworld log (tail):\n")
               .arg(sup_ ? QLatin1String(policy::toString(state())) : QLatin1String("(no Tether)"),
                    log.join(QStringLiteral("\n  ")));
    const std::vector<std::string> &w = world.log();
    for (std::size_t i = w.size() > 60 ? w.size() - 60 : 0; i < w.size(); ++i)
        out += QStringLiteral("  ") + QString::fromStdString(w[i]) + QLatin1Char('\n');
    return out;
}

} // namespace tether::test
