// The in-process rig (issue 25, point 6): the real Supervisor (core/service), its executor,
// machine, status model, notices and log, over the simulated world of sim_world.h: its process
// table, timers, probes, launches, signals and registration on a virtual clock. Minutes of the
// world's time take milliseconds, and a threshold is the rig's clock, never the machine's load.
// What the Supervisor reads of the real OS beside its ports (the event stream, exit
// notifications of adopted services, the port doctor) is off here; tests/integration keeps
// those against real processes.
#pragma once

#include "service/supervisor.h"
#include "sim_world.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

namespace tether::test {

class WorldRig {
public:
    // The world's options and seed as the model's; the Supervisor gets the same timings, an
    // opencode 1.x profile for the world's program on the world's port, and the world's version.
    explicit WorldRig(sim::WorldOptions options, std::uint64_t seed = 1);
    ~WorldRig();

    sim::World world;
    // The Tether the world runs now (made when the world launches one, gone when it ends).
    Supervisor *sup() const { return sup_.get(); }
    Supervisor &launch(); // launches Tether in the world (once)

    // What the Supervisor said, in order.
    QStringList log;
    struct Notice {
        policy::NoticeKind kind;
        QString text;
    };
    std::vector<Notice> notices;
    std::vector<policy::State> states; // each state it entered

    policy::State state() const { return sup_->status().state; }
    bool logHas(const QString &text) const { return !log.filter(text).isEmpty(); }
    // Advance the world's clock in 10 ms steps until `done` or `maxMs` passed; whether done.
    bool advanceUntil(const std::function<bool()> &done, policy::Ms maxMs);
    // The world's invariants held (else: their failure and the log's tail, for QVERIFY2).
    bool clean() const { return !world.failed(); }
    QString dump() const;

private:
    Supervisor::Config configFor(supervision::Ports &ports, std::function<policy::Ms()> clock,
                                 std::function<void(const policy::Event &)> feed);
    std::unique_ptr<Supervisor> sup_;
};

} // namespace tether::test
