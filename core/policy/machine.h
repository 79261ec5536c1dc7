// The machine behind policy::step: one step in progress (the state being changed, the commands
// issued so far), one handler per event. Its handlers are split by concern: machine.cpp (what
// they share), machine_start.cpp, machine_probe.cpp, machine_stop.cpp, machine_requests.cpp.
// Internal to the policy library: supervision.cpp and those files include it, nothing else.
#pragma once

#include "policy/supervision.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tether::policy::machine {

std::string pidText(os::Pid pid);
bool countsAsFailure(StopCause c);
// Whether a listener takes the loopback address of `family` away from a new service.
bool conflicts(const Listener &l, Family family);
// The owner service.json names, as a tracked service.
TrackedService trackedOwner(const ManagedFacts &m);

constexpr Ms kSuccessorLookMs = 250;
// How long a registration may still name an owner that exited before that is a crash: a client
// that stopped it removes the file once its poll sees the pid gone and reaped.
constexpr Ms kUnregisterWaitMs = 1000;

class Machine {
public:
    Machine(SupervisionState s, Ms now)
        : s_(std::move(s))
        , now_(now) {}

    Step finish(bool wasSettling) {
        settlePending();
        if (wasSettling && !settling(s_)) out_.push_back(Settled{});
        return Step{std::move(s_), std::move(out_)};
    }

    // One function per event; each looks at the phase.
    void on(const StartRequested &);
    void on(const StopRequested &);
    void on(const RestartRequested &);
    void on(const QuitRequested &);
    void on(const SettingsChanged &);
    void on(const TimerFired &);
    void on(const TimeGap &);
    void on(const ProbeAnswered &);
    void on(const ProbeMissed &);
    void on(const StartupFacts &);
    void on(const Launched &);
    void on(const LaunchFailed &);
    void on(const Exited &);
    void on(const Verified &);
    void on(const StopPlanDone &);
    void on(const ManagedRegistrationChanged &);
    void on(const StreamAlive &);
    void on(const ActivityChanged &);

private:
    const Timings &timings() const { return s_.config.timings; }
    // How long a start may take: [probe] startupDeadlineMs, at least what the profile's own
    // clients wait (opencode 2.x: 120 s).
    Ms startupBudget() const {
        return std::max(timings().startupDeadlineMs, s_.config.minStartupDeadlineMs);
    }
    void emit(Command c) { out_.push_back(std::move(c)); }
    void log(std::string line) { emit(Log{std::move(line)}); }
    void notify(NoticeKind k, std::string message) { emit(Notify{k, std::move(message)}); }
    void startTimer(Timer t, Ms delay) {
        delay = std::max<Ms>(0, delay);
        s_.due[int(t)] = now_ + delay;
        emit(StartTimer{t, delay});
    }
    void cancelTimer(Timer t) {
        if (!s_.due[int(t)]) return;
        s_.due[int(t)].reset();
        emit(CancelTimer{t});
    }
    void cancelAllTimers() {
        for (int t = 0; t < kTimerCount; ++t)
            cancelTimer(Timer(t));
    }
    bool leaving() const { return s_.quitting && !s_.leaveRunningOnQuit; }
    bool mayStart() const { return s_.want == Want::Running && !leaving(); }

    // noticeText: what the notification says, when the log's message is not for a person.
    void fail(const std::string &message, std::optional<NoticeKind> kind = std::nullopt,
              const std::string &noticeText = {});
    void goIdle(const std::string &reason);
    void beginStart();
    void decideLaunch(const PortFacts &port);
    void adopt(const TrackedService &svc, const std::string &version, const std::string &reason);
    void release();
    void sendProbe();
    void scheduleProbe(Ms delay);
    void timeGap(const std::string &why);
    void checkGap(Timer t);
    void probeFailed(const std::string &why);
    bool lateAnswer(Ms sentAt);
    void notReady(const std::string &why);
    void startFailed(const std::string &why);
    void followOther(const ManagedFacts &m, const std::string &reason);
    void beginStop(StopCause cause, const std::string &reason);
    void runPlan(bool terminate, bool group);
    Terminals terminalsFor(bool terminate) const;
    void serviceEnded();
    void scheduleRestart(const std::string &reason);
    void checkVersion(const std::string &reported);
    void startupFactsManaged(const StartupFacts &f);
    void startupFactsOwn(const StartupFacts &f);
    void forget();
    void refused(const std::string &why);
    void retryUnverified(os::Pid pid);
    // Settings (machine_requests.cpp): applied now, or after the tracked service is stopped.
    void applyConfig(const SupervisionConfig &config);
    void applyPending();
    void settlePending(); // after every event: what pending settings need in this phase

    SupervisionState s_;
    Ms now_;
    std::vector<Command> out_;
};

} // namespace tether::policy::machine
