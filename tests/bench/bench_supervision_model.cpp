// Steps per second of the model-based test's random driver (supervision::Executor + the
// simulated world + the invariant checks after every step), beside the floor: policy::step
// alone, fed the same kind of events without executor, ports or world.
// Usage: bench_supervision_model [steps] (default 1000000). Prints one line per figure.
#include "policy/supervision.h"
#include "sim_world.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace tether;

namespace {

double seconds(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// policy::step alone: a service that starts, answers, misses, is stopped and started again,
// with the commands' timers and probes answered at once (no world, no executor).
std::uint64_t floorSteps(std::uint64_t want) {
    const sim::WorldOptions o = sim::modelOptions(1);
    policy::SupervisionState s;
    s.config.timings = o.timings;
    s.config.installedVersion = "1.0";
    policy::Ms now = 1000;
    std::uint64_t steps = 0, rng = 42;
    os::Pid pid = 200;
    while (steps < want) {
        policy::Event e = policy::StartRequested{};
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        const unsigned k = unsigned(rng >> 33) % 100;
        switch (s.phase) {
        case policy::Phase::Idle:
            e = policy::StartRequested{};
            break;
        case policy::Phase::Resolving:
            e = policy::StartupFacts{};
            break;
        case policy::Phase::Launching:
            e = policy::Launched{{++pid, std::uint64_t(now)}, pid, "pw"};
            break;
        case policy::Phase::Verifying: {
            policy::Verified v;
            v.life = policy::Liveness::Alive;
            v.childRunning = true;
            e = v;
            break;
        }
        case policy::Phase::Stopping:
        case policy::Phase::Cleaning:
            e = policy::StopPlanDone{};
            break;
        case policy::Phase::BackingOff:
            e = policy::TimerFired{policy::Timer::Restart};
            break;
        default:
            if (s.probeSeq == 0)
                e = policy::TimerFired{policy::Timer::Probe};
            else if (k < 85)
                e = policy::ProbeAnswered{s.probeSeq, true, "1.0", {}};
            else if (k < 97)
                e = policy::ProbeMissed{s.probeSeq, false, "timed out"};
            else
                e = policy::StopRequested{};
        }
        now += 20;
        policy::Step next = policy::step(std::move(s), e, now);
        s = std::move(next.state);
        ++steps;
    }
    return steps;
}

} // namespace

int main(int argc, char **argv) {
    const std::uint64_t want = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
    auto t0 = std::chrono::steady_clock::now();
    std::uint64_t steps = 0, seeds = 0, failures = 0;
    for (std::uint64_t seed = 1; steps < want; ++seed, ++seeds) {
        const sim::RunResult r =
            sim::replay(seed, sim::randomActions(seed, 2000), sim::modelOptions(seed));
        steps += r.steps;
        if (r.failed) ++failures;
    }
    const double model = seconds(t0);
    t0 = std::chrono::steady_clock::now();
    const std::uint64_t floor = floorSteps(want);
    const double alone = seconds(t0);
    std::printf("model driver (executor + simulated world + invariants) %12.0f steps/s  "
                "(%llu steps, %llu seeds, %.2f s, %llu seeds failed)\n",
                double(steps) / model, static_cast<unsigned long long>(steps),
                static_cast<unsigned long long>(seeds), model,
                static_cast<unsigned long long>(failures));
    std::printf("floor: policy::step alone                              %12.0f steps/s  "
                "(%llu steps, %.2f s)\n",
                double(floor) / alone, static_cast<unsigned long long>(floor), alone);
    return 0;
}
