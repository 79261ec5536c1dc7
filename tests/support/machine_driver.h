// The supervision's transition function, fed by hand: plain data in, plain data out, time moves
// only when a test says so and timers fire in their order. For tests of the rules themselves
// (tst_opencode2_rules) and the phase x event table (tst_machine_table). Header only, no Qt.
#pragma once

#include "policy/supervision.h"

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

namespace tether::test {

struct MachineDriver {
    policy::SupervisionState s;
    policy::Ms now = 0;
    std::vector<policy::Command> out; // everything issued since the last take()
    std::string version = "1.0";      // what a healthy answer reports

    explicit MachineDriver(policy::SupervisionConfig c) { s.config = std::move(c); }

    void feed(const policy::Event &e) {
        policy::Step next = policy::step(std::move(s), e, now);
        s = std::move(next.state);
        out.insert(out.end(), next.commands.begin(), next.commands.end());
    }
    // Moves the clock to t, firing every timer due on the way.
    void advanceTo(policy::Ms t) {
        for (;;) {
            int next = -1;
            for (int i = 0; i < policy::kTimerCount; ++i)
                if (s.due[i] && *s.due[i] <= t && (next < 0 || *s.due[i] < *s.due[next])) next = i;
            if (next < 0) break;
            now = std::max(now, *s.due[next]);
            feed(policy::TimerFired{policy::Timer(next)});
        }
        now = t;
    }
    // The commands of type T issued since the last take of them, removed from `out`.
    template <typename T> std::vector<T> take() {
        std::vector<T> found;
        std::vector<policy::Command> rest;
        for (policy::Command &c : out) {
            if (auto *p = std::get_if<T>(&c))
                found.push_back(*p);
            else
                rest.push_back(std::move(c));
        }
        out = std::move(rest);
        return found;
    }
    // Answers the probe in flight, if any (true when there was one).
    bool answer(bool healthy, policy::Boot boot = policy::Boot::Ready,
                const std::string &error = {}) {
        take<policy::SendProbe>();
        if (s.probeSeq == 0) return false;
        feed(policy::ProbeAnswered{s.probeSeq, healthy, healthy ? version : "", error, boot});
        return true;
    }
    // Every probe due until t is answered the same way.
    void answerUntil(policy::Ms t, bool healthy, policy::Boot boot = policy::Boot::Ready) {
        while (now < t) {
            advanceTo(std::min(t, now + 25));
            answer(healthy, boot, healthy ? "" : "HTTP 503");
        }
    }
    policy::State display() const { return policy::displayState(s); }
    bool noticed(policy::NoticeKind k) {
        for (const policy::Notify &n : take<policy::Notify>())
            if (n.kind == k) return true;
        return false;
    }
};

} // namespace tether::test
