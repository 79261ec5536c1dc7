#include "supervision/executor.h"

#include <algorithm>
#include <cctype>
#include <type_traits>
#include <variant>
#include <vector>

namespace tether::supervision {

using namespace policy;

namespace {

// The process and its descendants, gathered only when a visible listener is another pid: the
// launched process may be a wrapper whose descendant listens (opencode.cmd -> cmd.exe -> node
// -> opencode.exe). The policy decides whether that listener is the service.
std::vector<os::ProcessInfo> treeIfNeeded(ProcessTable &table, const os::Identity &root,
                                          const PortFacts &facts) {
    const bool other =
        std::any_of(facts.listeners.begin(), facts.listeners.end(),
                    [&](const Listener &l) { return l.pid > 0 && l.pid != root.pid; });
    const bool own = std::any_of(facts.listeners.begin(), facts.listeners.end(),
                                 [&](const Listener &l) { return l.pid == root.pid; });
    if (!other || own) return {};
    const std::vector<os::ProcessInfo> snap = table.snapshot();
    const std::vector<os::Pid> below = os::descendants(root.pid, snap);
    std::vector<os::ProcessInfo> tree;
    for (const os::ProcessInfo &p : snap)
        if (p.pid == root.pid || std::find(below.begin(), below.end(), p.pid) != below.end())
            tree.push_back(p);
    return tree;
}

} // namespace

namespace {

// Windows paths: case-insensitive, either separator.
std::string windowsKey(std::string path) {
    for (char &c : path)
        c = c == '/' ? '\\' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return path;
}

bool endsWith(const std::string &s, const std::string &tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// A .cmd / .bat script runs as cmd.exe, and Windows hands it the launch's command line after
// /c: `cmd.exe /c "C:\npm\opencode.cmd 4096"` (one argument, maybe quoted, the script's path
// first). That cmd.exe is the launched process (an npm install's opencode.cmd, defect 3.7).
bool runsBatchScript(const os::ProcessInfo &p, const std::string &program) {
    const std::string script = windowsKey(program);
    if (!endsWith(script, ".cmd") && !endsWith(script, ".bat")) return false;
    const std::string exe =
        windowsKey(p.executable.empty() && !p.argv.empty() ? p.argv.front() : p.executable);
    if (os::baseName(exe) != "cmd.exe") return false;
    for (std::size_t i = 1; i < p.argv.size() && i < 5; ++i) {
        std::string a = windowsKey(p.argv[i]);
        a.erase(std::remove(a.begin(), a.end(), '"'), a.end());
        if (a == script || a.rfind(script + " ", 0) == 0) return true;
    }
    return false;
}

} // namespace

bool runsProgram(const os::ProcessInfo &p, const std::string &program) {
    if (program.empty()) return false;
    if (runsBatchScript(p, program)) return true;
    const std::string name = os::baseName(program);
    const std::string argv0 = p.argv.empty() ? std::string() : p.argv.front();
    if (argv0 == program || p.executable == program) return true;
    if (os::baseName(argv0) == name || os::baseName(p.executable) == name) return true;
    // A script with a shebang runs as its interpreter with the script's path after it
    // (`/bin/sh /path/script`, `node /path/bin/x`); options may come between.
    for (std::size_t i = 1; i < p.argv.size() && i < 4; ++i)
        if (p.argv[i] == program) return true;
    return false;
}

Liveness livenessOf(ProcessTable &table, const os::Identity &id, const std::string &program) {
    const os::Lookup l = table.inspect(id.pid);
    switch (l.status) {
    case os::Lookup::Status::NotFound:
        return Liveness::Gone;
    case os::Lookup::Status::Error:
        return Liveness::Unknown;
    case os::Lookup::Status::Found:
        break;
    }
    if (l.info.state == os::RunState::Zombie) return Liveness::Gone;
    if (l.info.startTime != id.startTime) return Liveness::Different;
    if (!program.empty() && !runsProgram(l.info, program)) return Liveness::Different;
    return Liveness::Alive;
}

Executor::Executor(SupervisionConfig config, Ports ports, std::function<Ms()> clock)
    : ports_(ports)
    , clock_(std::move(clock)) {
    state_.config = std::move(config);
}

void Executor::feed(const Event &event) {
    queue_.push_back(event);
    // When an exit was seen bounds who can still be in the dead service's group.
    if (auto *e = std::get_if<Exited>(&queue_.back()); e && e->seenBy == 0)
        e->seenBy = ports_.table.startTimeNow();
    if (stepping_) return; // a port answered synchronously: handled after this step
    stepping_ = true;
    while (!queue_.empty()) {
        const Event e = std::move(queue_.front());
        queue_.pop_front();
        const State before = displayState(state_);
        Step next = step(std::move(state_), e, clock_());
        state_ = std::move(next.state);
        // The reads of the process table (verify before a stop, start-up facts) go last: their
        // answers are queued events either way, and the new state is published before them, so
        // a person's Stop shows as Stopping however long the table takes to read.
        std::vector<const Command *> reads;
        for (const Command &c : next.commands) {
            if (std::holds_alternative<policy::Verify>(c) ||
                std::holds_alternative<GatherStartupFacts>(c))
                reads.push_back(&c);
            else
                execute(c);
        }
        const State after = displayState(state_);
        if (before != after) ports_.observer.stateChanged(before, after, state_.reason);
        ports_.observer.changed();
        for (const Command *c : reads)
            execute(*c);
    }
    stepping_ = false;
}

StartupFacts Executor::gatherStartupFacts(int configuredPort) {
    StartupFacts f;
    f.registration = ports_.registrations.read();
    RegistrationFacts &r = f.registration;
    if (r.read == RegistrationFacts::Read::Ok) {
        // A registration that does not say what it started cannot identify anything.
        r.life =
            r.program.empty() ? Liveness::Different : livenessOf(ports_.table, r.id, r.program);
        if (r.life == Liveness::Alive) {
            r.portFacts = ports_.table.portFacts(r.port);
            r.tree = treeIfNeeded(ports_.table, r.id, r.portFacts);
        }
    }
    if (state_.config.selfRegistering) f.managed = ports_.registrations.readManaged();
    const int port = ports_.registrations.launchPort(configuredPort);
    f.launchPort = port;
    const bool sameTable = r.life == Liveness::Alive && r.port == port;
    if (sameTable)
        f.configuredPort = r.portFacts;
    else if (port > 0)
        f.configuredPort = ports_.table.portFacts(port);
    return f;
}

Verified Executor::verify(const policy::Verify &v) {
    Verified out;
    out.at = ports_.table.startTimeNow();
    const TrackedService *svc = state_.svc ? &*state_.svc : nullptr;
    out.childRunning = svc && svc->ourChild && ports_.launcher.childRunning(v.id);
    // Our own child was identified at launch; a registration's program identifies the rest.
    const std::string program = svc && !svc->ourChild ? svc->program : std::string();
    out.life = livenessOf(ports_.table, v.id, program);
    // The very process that was adopted (its pid and start time) but no longer running the
    // program: retitled or exec'd. It is not "gone, pid reused" (it runs, and a stop that said
    // "stopped" would be a lie), and it cannot be verified: never signalled, said so.
    if (out.life == Liveness::Different && livenessOf(ports_.table, v.id, {}) == Liveness::Alive)
        out.life = Liveness::Unknown;
    out.portFacts = ports_.table.portFacts(v.port);
    if (out.life == Liveness::Alive) out.tree = treeIfNeeded(ports_.table, v.id, out.portFacts);
    if (state_.config.selfRegistering) out.managed = ports_.registrations.readManaged();
    return out;
}

void Executor::execute(const Command &c) {
    std::visit(
        [this](const auto &cmd) {
            using T = std::decay_t<decltype(cmd)>;
            if constexpr (std::is_same_v<T, StartTimer>) {
                ports_.scheduler.start(cmd.timer, cmd.delayMs);
            } else if constexpr (std::is_same_v<T, CancelTimer>) {
                ports_.scheduler.cancel(cmd.timer);
            } else if constexpr (std::is_same_v<T, SendProbe>) {
                ports_.prober.probe(cmd, state_.svc ? state_.svc->password : std::string());
            } else if constexpr (std::is_same_v<T, GatherStartupFacts>) {
                queue_.push_back(gatherStartupFacts(cmd.configuredPort));
            } else if constexpr (std::is_same_v<T, Launch>) {
                ports_.launcher.launch(cmd.port);
            } else if constexpr (std::is_same_v<T, policy::Verify>) {
                queue_.push_back(verify(cmd));
            } else if constexpr (std::is_same_v<T, RunStopPlan>) {
                ports_.stops.run(cmd);
            } else if constexpr (std::is_same_v<T, WriteRegistration>) {
                if (state_.svc) ports_.registrations.write(*state_.svc, state_.version);
            } else if constexpr (std::is_same_v<T, DropRegistration>) {
                if (!cmd.managedId.empty())
                    ports_.registrations.dropManaged(cmd.managedId);
                else
                    ports_.registrations.drop(cmd.setAside);
            } else if constexpr (std::is_same_v<T, Notify>) {
                ports_.observer.notify(cmd.kind, cmd.message);
            } else if constexpr (std::is_same_v<T, Log>) {
                ports_.observer.log(cmd.line);
            } else if constexpr (std::is_same_v<T, ApplySettings>) {
                ports_.observer.settingsApplied();
            } else if constexpr (std::is_same_v<T, Release>) {
                ports_.launcher.release();
                ports_.observer.released();
            } else if constexpr (std::is_same_v<T, Settled>) {
                ports_.observer.settled();
            }
        },
        c);
}

} // namespace tether::supervision
