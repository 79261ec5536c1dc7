#include "sim_world.h"

#include "policy/orphans.h"
#include "supervision/orphan_cleanup.h"
#include "supervision/sweep.h"

#include <chrono>

#include <algorithm>
#include <cstdio>

namespace tether::sim {

using os::RunState;
using os::Signal;
using policy::Family;
using policy::Phase;
using policy::State;

namespace {

constexpr Pid kBase = 100;   // pids 100 .. 100 + kCount - 1 (plus init, 1)
constexpr int kCount = 128;  // small: pids are reused often
constexpr int kPortA = 4096; // the two ports settings switch between
constexpr int kPortB = 4097;
constexpr std::size_t kSignalKeep = 64;
// opencode 2.x, its own times (packages/client/src/effect/service.ts, service-timing.ts at
// 018554f7, docs/opencode2-protocol.md) scaled by 1/10 to the model's timings (a 1 s window
// here for 30 s there): ensure() polls every 25 ms..1 s (here 50), a request times out after
// 2 s (here 100, the probe timeout), 5 consecutive timeouts evict, contenders are spawned 5 s
// apart doubling to 30 s (500 .. 3000), ensure() gives up after 120 s (12000), terminate() polls
// 50 ms x 100 before KILL (50 x 10), and a service re-reads service.json every 5 s (500).
constexpr int kPortV2 = 49374;
constexpr Ms kEnsurePoll = 50;
constexpr Ms kEnsureTimeout = 100;
constexpr int kEnsureEvictAfter = 5;
constexpr Ms kEnsureSpawnDelay = 500;
constexpr Ms kEnsureMaxSpawnDelay = 3000;
constexpr Ms kEnsureBudget = 12000;
constexpr Ms kTermPoll = 50;
constexpr int kTermPolls = 10;
constexpr Ms kRecheckMs = 500;
// [replace-loop]: Tether's automatic replacements after another client's, between two asks of
// the person (one is the opted-in update; a second means the two take turns).
constexpr int kMaxReplacementsAfterOther = 1;

const std::vector<std::vector<std::string>> &mcpCommands() {
    static const std::vector<std::vector<std::string>> commands = {
        {"/m/mcp-a", "x"}, {"/m/mcp-b", "y"}, {"/m/mcp-c"}, {"/m/mcp-d", "z"}};
    return commands;
}

const char *sigName(Signal s) {
    switch (s) {
    case Signal::Terminate:
        return "TERM";
    case Signal::Kill:
        return "KILL";
    case Signal::Continue:
        return "CONT";
    case Signal::Stop:
        return "STOP";
    }
    return "?";
}

std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

const char *stateName(State s) {
    return policy::toString(s);
}

} // namespace

const char *toString(Role r) {
    switch (r) {
    case Role::Free:
        return "free";
    case Role::Init:
        return "init";
    case Role::Tether:
        return "tether";
    case Role::Service:
        return "service";
    case Role::Mcp:
        return "mcp";
    case Role::Decoy:
        return "decoy";
    case Role::Foreign:
        return "foreign";
    }
    return "?";
}

std::string toString(const Action &a) {
    static const char *const names[] = {
        // as the enumerators: a printed sequence pastes back
        "Advance",     "Start",        "Stop",     "Restart",   "QuitKeep", "QuitStop",
        "TetherCrash", "TetherLaunch", "Settings", "Stall",     "Sleep",    "Jump",
        "GapEvent",    "StaleAnswer",  "Crash",    "Freeze",    "Cont",     "Busy",
        "Exit0",       "NextSpec",     "Decoy",    "DecoyExit", "ForgeReg", "TableErrors",
        "McpSpawn",    "McpLeave",     "McpExit",  "Quiet",     "Ensure"};
    static_assert(sizeof(names) / sizeof(names[0]) == std::size_t(Act::Count));
    char buf[128];
    std::snprintf(buf, sizeof buf, "{Act::%s, %lld, %lld, %lld}", names[int(a.act)],
                  static_cast<long long>(a.a), static_cast<long long>(a.b),
                  static_cast<long long>(a.c));
    return buf;
}

// ---- Construction, time
// ---------------------------------------------------------------------------

World::World(std::uint64_t seed, WorldOptions options)
    : opt_(std::move(options))
    , rng_(mix(seed)) {
    procs_.resize(kCount);
    config_.timings = opt_.timings;
    config_.port = kPortA;
    config_.installedVersion = "1.0";
    config_.orphanGraceMs = 60;
    if (opt_.opencode2) { // the 2.x profile: the service registers itself on its own port
        config_.selfRegistering = true;
        config_.port = 0;
    }
    program_ = opt_.scriptProgram ? "/b/oc.js" : "/b/opencode";
    nextPid_ = kBase;
    signals_.reserve(kSignalKeep);
}

World::~World() = default;

std::uint64_t World::rnd() {
    rng_ = mix(rng_);
    return rng_;
}

void World::push(std::vector<Item> &q, Ms at, std::uint8_t kind, std::int64_t a, std::int64_t b,
                 std::uint64_t c) {
    q.push_back(Item{at, ++seq_, kind, a, b, c});
    std::push_heap(q.begin(), q.end(), later);
}

void World::fail(const std::string &why) {
    if (!failure_.empty()) return;
    if (!opt_.ignore.empty() &&
        std::find(opt_.ignore.begin(), opt_.ignore.end(), invariantOf(why)) != opt_.ignore.end()) {
        ++ignored_;
        return;
    }
    failure_ = why;
    failedStep_ = steps_;
    if (opt_.collectLog) log_.push_back("FAILED: " + why);
}

Proc *World::proc(Pid pid) {
    if (pid < kBase || pid >= kBase + kCount) return nullptr;
    Proc &p = procs_[std::size_t(pid - kBase)];
    return p.role == Role::Free ? nullptr : &p;
}

os::ProcessInfo World::info(const Proc &p) const {
    os::ProcessInfo i;
    i.pid = p.pid;
    i.ppid = p.ppid;
    i.pgid = p.pgid;
    i.state = p.state;
    i.startTime = p.start;
    i.executable = p.exe;
    i.argv = p.argv;
    return i;
}

bool World::pidFree(Pid pid) const {
    if (pid < kBase || pid >= kBase + kCount) return false;
    if (procs_[std::size_t(pid - kBase)].role != Role::Free) return false;
    // The kernel keeps a pid while it names a group or a session (zombies included).
    for (const Proc &p : procs_)
        if (p.role != Role::Free && (p.pgid == pid || p.sid == pid)) return false;
    return true;
}

Pid World::allocPid(Pid reuse) {
    if (reuse && pidFree(reuse)) return reuse;
    for (int i = 0; i < kCount; ++i) {
        const Pid pid = kBase + (nextPid_ - kBase + i) % kCount;
        if (pidFree(pid)) {
            nextPid_ = kBase + (pid - kBase + 1) % kCount;
            return pid;
        }
    }
    return 0;
}

Pid World::spawn(Role role, Pid ppid, bool ownGroup, const std::vector<std::string> &argv,
                 const std::string &exe, Pid reusePid) {
    const Pid pid = allocPid(reusePid);
    if (!pid) return 0;
    Proc &p = procs_[std::size_t(pid - kBase)];
    p = Proc{};
    p.pid = pid;
    p.ppid = ppid;
    const Proc *parent = proc(ppid);
    if (ownGroup || !parent) {
        p.pgid = pid;
        p.sid = pid;
    } else {
        p.pgid = parent->pgid;
        p.sid = parent->sid;
    }
    startCounter_ = std::max<std::uint64_t>(startCounter_ + 1, std::uint64_t(now_) * 1000);
    p.start = startCounter_;
    p.role = role;
    p.argv = argv;
    p.exe = exe;
    return pid;
}

void World::listen(Pid pid, int port, Family f, bool wildcard, bool invisible) {
    Proc *p = proc(pid);
    if (!p) return;
    p->listening = true;
    p->port = port;
    p->family = f;
    p->wildcard = wildcard;
    p->invisible = invisible;
}

// Whether binding (port, family, wildcard) fails because of a live listener.
bool World::bindConflict(int port, Family f, bool wildcard, Pid except) const {
    for (const Proc &q : procs_) {
        if (!q.alive() || !q.listening || q.port != port || q.pid == except) continue;
        if (q.family == f) {
            if (q.wildcard || wildcard) return true;
            return true; // same loopback address
        }
        // across families only a dual-stack :: meets 127.0.0.1 / 0.0.0.0
        if (q.family == Family::V6 && q.wildcard && f == Family::V4) return true;
        if (f == Family::V6 && wildcard && q.family == Family::V4) return true;
    }
    return false;
}

int World::currentService() const {
    if (exec_ && exec_->state().svc) {
        const os::Identity id = exec_->state().svc->id;
        for (std::size_t i = services_.size(); i-- > 0;)
            if (services_[i].id.pid == id.pid && services_[i].id.startTime == id.startTime &&
                !services_[i].dead)
                return int(i);
    }
    for (std::size_t i = services_.size(); i-- > 0;)
        if (!services_[i].dead) return int(i);
    return -1;
}

Proc *World::byLineage(int service, Role role) {
    for (Proc &p : procs_)
        if (p.alive() && p.role == role && p.lineage == service) return &p;
    return nullptr;
}

void World::die(Pid pid, const char *why) {
    Proc *pp = proc(pid);
    if (!pp || pp->state == RunState::Zombie) return;
    Proc &p = *pp;
    p.state = RunState::Zombie;
    p.listening = false;
    p.exitAt = -1;
    if (opt_.collectLog)
        log_.push_back("  world: pid " + std::to_string(pid) + " (" + toString(p.role) +
                       ") died: " + why);
    for (Proc &c : procs_) {
        if (c.role == Role::Free || c.ppid != pid) continue;
        c.ppid = 1; // reparented to init
        if (c.state == RunState::Zombie) continue;
        if (c.exitWithParent)
            push(worldQ_, now_ + 5, KExit, c.pid, 0, c.start);
        else if (c.role == Role::Mcp) // a leaked MCP server: gone only much later (a person)
            push(worldQ_, now_ + 30000 + Ms(rnd() % 30000), KExit, c.pid, 0, c.start);
    }
    // Reaping: Tether and other live parents at once; init after a while (pids get reused).
    const Proc *parent = proc(p.ppid);
    const bool parentLive = parent && parent->alive();
    push(worldQ_, now_ + (parentLive ? 1 : 150), KReap, pid, 0, p.start);
    if (p.role != Role::Service || p.lineage < 0) {
        // A decoy Tether took for its service (it answered on the port): its exit watch tells.
        const bool trackedDecoy = exec_ && exec_->state().svc &&
                                  exec_->state().svc->id.pid == pid &&
                                  exec_->state().svc->id.startTime == p.start;
        if (trackedDecoy && opt_.adoptedExitNotice)
            push(execQ_, now_ + opt_.exitNoticeLatency, KExitNotice, pid, 0, p.start);
        return;
    }
    ServiceRec &rec = services_[std::size_t(p.lineage)];
    rec.dead = true;
    const bool tracked = exec_ && exec_->state().svc && exec_->state().svc->id.pid == pid &&
                         exec_->state().svc->id.startTime == p.start;
    const bool ours =
        std::find(myChildren_.begin(), myChildren_.end(), p.start) != myChildren_.end();
    // A replacement that died by itself before Tether followed it: a crash after all.
    if (rec.byClient && !rec.stoppedByClient && !tracked) successorDied_ = true;
    if (tracked && exec_->state().phase != Phase::Released) {
        rec.trackedAtDeath = true;
        if (config_.cleanOrphans && !rec.stoppedByClient) {
            const policy::Timings &t = opt_.timings;
            const Ms bound = 3 * t.windowMs + 6 * t.probeIntervalMs + 3 * t.probeTimeoutMs +
                             t.graceMs + 3 * opt_.killWaitMs + 3 * config_.orphanGraceMs +
                             opt_.runnerDoneDelay + opt_.exitNoticeLatency + 1000 +
                             // 2.x: an owner that exited and unregistered is cleaned up once
                             // no other client replaced it (the policy's own wait, not scaled
                             // with these timings: 10 s against a window of 30 s there)
                             (opt_.opencode2 ? policy::kSuccessorWaitMs : 0);
            obligations_.push_back(Obligation{p.lineage, experienced_ + bound});
        }
    }
    if (exec_ && (ours || (tracked && opt_.adoptedExitNotice)))
        push(execQ_, now_ + opt_.exitNoticeLatency, KExitNotice, pid, 0, p.start);
}

// ---- The event loops
// --------------------------------------------------------------------------------

void World::runWorldUntil(Ms t, const os::Identity *gone, Pid groupEmpty) {
    auto done = [&] {
        if (gone) {
            const Proc *p = proc(gone->pid);
            if (!p || p->start != gone->startTime || p->state == RunState::Zombie) return true;
        }
        if (groupEmpty) {
            for (const Proc &p : procs_)
                if (p.alive() && p.pgid == groupEmpty) return false;
            return true;
        }
        return false;
    };
    if ((gone || groupEmpty) && done()) return;
    while (!worldQ_.empty() && worldQ_.front().at <= t) {
        std::pop_heap(worldQ_.begin(), worldQ_.end(), later);
        const Item it = worldQ_.back();
        worldQ_.pop_back();
        if (it.at > now_) {
            experienced_ += it.at - now_;
            now_ = it.at;
        }
        worldItem(it);
        if ((gone || groupEmpty) && done()) return;
    }
    if (t > now_) {
        experienced_ += t - now_;
        now_ = t;
    }
}

void World::worldItem(const Item &it) {
    Proc *p = proc(Pid(it.a));
    const bool same = p && p->start == it.c;
    switch (it.kind) {
    case KListen: {
        if (!same || p->state == RunState::Zombie) return;
        if (p->state == RunState::Stopped) {
            p->listenPending = true;
            return;
        }
        const int port = int(it.b >> 8);
        const Family f = (it.b & 1) ? Family::V6 : Family::V4;
        const bool wildcard = (it.b & 2) != 0;
        if (bindConflict(port, f, wildcard, p->pid)) {
            die(p->pid, "address already in use");
            return;
        }
        listen(p->pid, port, f, wildcard);
        if (opt_.opencode2 && p->role == Role::Service) registerService(*p);
        if (opt_.heartbeatMs > 0 && p->role == Role::Service)
            push(execQ_, now_ + opt_.heartbeatMs, KHeartbeat, p->pid, 0, p->start);
        return;
    }
    case KExit:
        if (!same || p->state == RunState::Zombie) return;
        if (p->state == RunState::Stopped) {
            p->termPending = true;
            return;
        }
        if (it.b == 1) unregister(*p); // its finalizer removes service.json if it still names it
        die(p->pid, it.b == 1 ? "exited on TERM" : it.b == 2 ? "registration replaced" : "exited");
        return;
    case KReap:
        if (!same || p->state != RunState::Zombie) return;
        if (p->role == Role::Service) lastFreedService_ = p->pid;
        if (p->role == Role::Mcp) lastFreedMcp_ = p->pid;
        *p = Proc{};
        return;
    case KMcpSpawn:
        if (!same || p->state == RunState::Zombie) return;
        if (p->state == RunState::Stopped) {
            push(worldQ_, now_ + 50, KMcpSpawn, it.a, it.b, it.c);
            return;
        }
        mcpSpawnFor(p->lineage, int(it.b));
        return;
    case KCall: {
        auto at = std::find_if(calls_.begin(), calls_.end(),
                               [&](const auto &c) { return c.first == it.a; });
        if (at == calls_.end()) return;
        std::function<void()> then = std::move(at->second);
        calls_.erase(at);
        if (it.c != planNo_ || !plan_.open) return; // a Tether that is gone
        // Tether's main thread, while a worker may be inside a wait (the orphan sweep's grace):
        // each thread verifies what it signals itself, so the worker's checks are kept apart.
        std::vector<std::pair<Pid, std::uint64_t>> worker = std::move(verified_);
        stepBegin();
        then();
        verified_ = std::move(worker);
        return;
    }
    case KErrorsOff:
        return;
    case KRecheck:
        if (!same || !p->alive()) return;
        if (!named(*p)) { // "managed service registration replaced; shutting down"
            push(worldQ_, now_ + p->termDelay, KExit, p->pid, 2, p->start);
            return;
        }
        push(worldQ_, now_ + kRecheckMs, KRecheck, it.a, 0, it.c);
        return;
    case KIncumbent: {
        if (!same || !p->alive()) return;
        // Service.incumbent: a registered owner that answers on the port: leave quietly.
        const Proc *o = managed_.present ? proc(managed_.process.pid) : nullptr;
        if (o && o->start == managed_.process.startTime && o->alive() && o->listening &&
            o->state == RunState::Running) {
            push(worldQ_, now_ + 1, KExit, p->pid, 0, p->start);
            return;
        }
        push(worldQ_, now_ + 20 + Ms(rnd() % 80), KListen, p->pid, std::int64_t(kPortV2) << 8,
             p->start);
        push(worldQ_, now_ + 120, KMcpSpawn, p->pid, 0, p->start);
        return;
    }
    case KEnsureTick:
        ensureTick(it.c);
        return;
    case KEnsureTerm:
        ensureTermStep(std::size_t(it.a));
        return;
    }
}

void World::stepBegin() {
    verified_.clear();
    portOwnersSeen_.clear();
    childSeen_.clear();
    ++stepNo_;
}

void World::execItem(const Item &it) {
    if (!exec_) return;
    switch (it.kind) {
    case KTimer:
        if (std::uint64_t(it.b) != timerGen_[it.a]) return;
        feed(policy::TimerFired{policy::Timer(it.a)});
        return;
    case KHeartbeat: {
        const Proc *p = proc(Pid(it.a));
        if (!p || p->start != it.c || !p->alive()) return; // the stream ended with it
        push(execQ_, now_ + opt_.heartbeatMs, KHeartbeat, it.a, 0, it.c);
        if (p->state != RunState::Running) return; // stopped: it sends nothing
        // The checker's evidence follows the rule the policy states (StreamAlive): a heartbeat
        // of the tracked, running service restarts the window as an answer does.
        // Only the tracked service's stream is followed (the shell's ActivityMonitor).
        const auto &st = exec_->state();
        if (!st.svc || st.svc->id.pid != p->pid) return;
        if (st.phase == policy::Phase::Running) {
            if (execNow() <= creditExec_ + opt_.timings.windowMs && execNow() > anchorExec_) {
                anchorExec_ = execNow();
                anchorOrder_ = ++order_;
                freshMiss_ = false;
            }
        }
        feed(policy::StreamAlive{});
        return;
    }
    case KProbe: {
        const std::uint64_t seq = std::uint64_t(it.a);
        int outcome = int(it.b & 0xff);
        const Pid responder = Pid(it.b >> 8);
        if (outcome >= 2) { // it answered: still there, and running, at the moment it answers?
            const Proc *r = proc(responder);
            if (!r || r->start != it.c || r->state != RunState::Running || !r->listening)
                outcome = 1;
        }
        // The truth, before any broken port bends it: the checker's evidence.
        const bool pending = exec_->state().probeSeq == seq && exec_->state().svc;
        if (pending) {
            if (outcome == 2) {
                lastAnswerExec_ = execNow();
                anchorExec_ = execNow();
                creditExec_ = anchorExec_;
                anchorOrder_ = ++order_;
                freshMiss_ = false;
            } else {
                std::uint64_t sentOrder = 0;
                for (const auto &s : probesSent_)
                    if (s.first == seq) sentOrder = s.second;
                if (sentOrder > anchorOrder_) freshMiss_ = true;
            }
        }
        if (opt_.broken.dropAnswers && outcome == 2) outcome = 1;
        std::string version;
        if (outcome == 2) {
            const Proc *r = proc(responder);
            if (r && r->lineage >= 0) version = services_[std::size_t(r->lineage)].version;
        }
        switch (outcome) {
        case 0:
            feed(policy::ProbeMissed{seq, true, "connection refused"});
            return;
        case 1:
            feed(policy::ProbeMissed{seq, false, "timed out"});
            return;
        case 2:
            feed(policy::ProbeAnswered{seq, true, version, {}});
            return;
        default:
            feed(policy::ProbeAnswered{seq, false, {}, "HTTP 401"});
            return;
        }
    }
    case KLaunched:
        if (it.a == 0) {
            feed(policy::LaunchFailed{"no such file (simulated)"});
            return;
        } else {
            const Proc *p = proc(Pid(it.a));
            policy::Launched l;
            l.id = {Pid(it.a), it.c};
            l.pgid = opt_.containment ? Pid(it.a) : 0;
            l.password = "pw" + std::to_string(it.b);
            (void)p;
            feed(l);
        }
        return;
    case KExitNotice:
        feed(policy::Exited{{Pid(it.a), it.c}, "exited (simulated)"});
        return;
    case KManagedPoll:
        managedPoll();
        return;
    case KStopDone: {
        if (it.c != planNo_ || !plan_.open) return;
        plan_.open = false;
        // A group the plan signalled is empty by the time it reports done: nothing of the old
        // service is left to hold the port or its files when the next one starts.
        const policy::StopPlan &plan = plan_.run.plan;
        for (Pid pid : stopSequence_->report().groupTermed) {
            const Proc *p = proc(pid);
            if (p && p->alive() && p->pgid == plan.pgid && p->pgid != selfPid_)
                fail("[group-survivor] pid " + std::to_string(pid) + " (" + toString(p->role) +
                     ") of the stopped service's group " + std::to_string(plan.pgid) +
                     " still runs when the stop plan is done");
        }
        feed(plan_.done);
        return;
    }
    }
}

void World::advance(Ms dt) {
    const Ms target = now_ + std::max<Ms>(0, dt);
    int sameInstant = 0;
    for (;;) {
        if (failed()) return;
        const bool hasW = !worldQ_.empty() && worldQ_.front().at <= target;
        Ms execAt = -1;
        if (!execQ_.empty()) execAt = std::max(execQ_.front().at, stallUntil_);
        const bool hasE = execAt >= 0 && execAt <= target;
        if (!hasW && !hasE) break;
        if (hasW && (!hasE || worldQ_.front().at <= execAt)) {
            std::pop_heap(worldQ_.begin(), worldQ_.end(), later);
            const Item it = worldQ_.back();
            worldQ_.pop_back();
            if (it.at > now_) {
                if (now_ >= stallUntil_) experienced_ += it.at - now_;
                now_ = it.at;
            }
            worldItem(it);
        } else {
            std::pop_heap(execQ_.begin(), execQ_.end(), later);
            const Item it = execQ_.back();
            execQ_.pop_back();
            if (execAt > now_) {
                if (now_ >= stallUntil_) experienced_ += execAt - now_;
                now_ = execAt;
                sameInstant = 0;
            } else if (++sameInstant > 2000) {
                fail("[livelock] 2000 events reached Tether at one instant (a timer re-armed "
                     "with no delay?); last: " +
                     std::string(it.kind == KTimer ? "timer " + std::to_string(it.a) : "other"));
                if (failed()) return;
                now_ += 10; // exploring past it (ignored): let the clock move
                sameInstant = 0;
            }
            execItem(it);
        }
        checkObligations();
    }
    if (target > now_) {
        if (now_ >= stallUntil_) experienced_ += target - now_;
        now_ = target;
    }
    checkObligations();
}

namespace {
Ms bigGap(const policy::Timings &t) { // a gap the policy must notice (isTimeGap + a timer)
    return std::max<Ms>(1000, 2 * t.probeIntervalMs) +
           std::max({t.probeIntervalMs, t.probeTimeoutMs, Ms(500)}) + 100;
}
} // namespace

void World::stall(Ms dt) {
    const bool big = dt >= bigGap(opt_.timings);
    const Ms e = experienced_;
    stallUntil_ = now_ + dt;
    // Nothing reaches Tether before stallUntil_; the world runs on.
    while (!failed()) {
        if (worldQ_.empty() || worldQ_.front().at > stallUntil_) break;
        std::pop_heap(worldQ_.begin(), worldQ_.end(), later);
        const Item it = worldQ_.back();
        worldQ_.pop_back();
        if (it.at > now_) now_ = it.at;
        worldItem(it);
    }
    now_ = stallUntil_;
    experienced_ = big ? e : e + dt;
    if (big) { // the gap ends before the late deliveries
        anchorExec_ = execNow();
        creditExec_ = anchorExec_;
        anchorOrder_ = ++order_;
        gapOrder_ = order_;
        freshMiss_ = false;
        gapE_ = experienced_;
        autoLaunchesE_.clear();  // the back-off ran over the gap: the budget's bound does not hold
        userAskedLaunch_ = true; // nor for the launch the gap delayed
    }
    stallUntil_ = 0;
}

void World::sleepFor(Ms dt) {
    const bool big = dt >= bigGap(opt_.timings);
    for (Item &it : worldQ_)
        it.at += dt; // the world slept too: what it was doing continues after the wake
    now_ += dt;
    if (!big) experienced_ += dt;
    if (big) {
        anchorExec_ = execNow();
        creditExec_ = anchorExec_;
        anchorOrder_ = ++order_;
        gapOrder_ = order_;
        freshMiss_ = false;
        gapE_ = experienced_;
        autoLaunchesE_.clear();
        userAskedLaunch_ = true;
    }
}

void World::jump(Ms dt) {
    const bool big = dt >= bigGap(opt_.timings);
    offset_ += dt;
    if (!big) experienced_ += dt; // indistinguishable from time that passed
    if (big) {
        anchorExec_ = execNow();
        creditExec_ = anchorExec_;
        anchorOrder_ = ++order_;
        gapOrder_ = order_;
        freshMiss_ = false;
        gapE_ = experienced_;
        autoLaunchesE_.clear();
        userAskedLaunch_ = true;
    }
}

// The shell's quit (Runtime::shutdown): wait until Supervisor::quitDone(), up to a bound.
bool World::quitDone() const {
    if (!exec_) return true;
    const auto &s = exec_->state();
    return s.quitting && !policy::settling(s) &&
           (s.phase == Phase::Released || s.phase == Phase::Idle);
}

void World::settle(Ms maxMs) {
    const Ms until = now_ + maxMs;
    while (!quitDone() && now_ < until && !failed())
        advance(10);
}

// ---- Feeding the executor, and the checks after every step
// ---------------------------------------

void World::feed(const policy::Event &e) {
    if (!exec_ || failed()) return;
    stepBegin();
    ++steps_;
    const policy::SupervisionState &before = exec_->state();
    if (std::holds_alternative<policy::StartRequested>(e) ||
        std::holds_alternative<policy::StopRequested>(e) ||
        std::holds_alternative<policy::RestartRequested>(e) ||
        std::holds_alternative<policy::SettingsChanged>(e) ||
        std::holds_alternative<policy::QuitRequested>(e))
        ++userActs_;
    if (std::holds_alternative<policy::StopRequested>(e)) {
        stopToken_ = startCounter_;
        stopRegistrations_ = registrations_;
        stopActs_ = userActs_;
        startedElsewhereNoticed_ = false;
    }
    const std::size_t failuresBefore = before.budget.failures.size();
    const os::Identity trackedBefore = tracked_;
    // The person's asks that give a fresh restart budget (or are the reason of a launch).
    if (std::holds_alternative<policy::StartRequested>(e)) {
        userAskedLaunch_ = true; // the next launch is the person's, wherever the start came
        if (before.phase == Phase::Idle) autoLaunchesE_.clear(); // a fresh budget
    }
    if (std::holds_alternative<policy::RestartRequested>(e) && before.phase != Phase::Released &&
        !(before.quitting && !before.leaveRunningOnQuit))
        userAskedLaunch_ = true, autoLaunchesE_.clear();
    if (std::holds_alternative<policy::SettingsChanged>(e) ||
        std::holds_alternative<policy::QuitRequested>(e))
        userAskedLaunch_ = true;
    if (std::holds_alternative<policy::TimeGap>(e)) {
        anchorExec_ = execNow();
        creditExec_ = anchorExec_;
        anchorOrder_ = ++order_;
        gapOrder_ = order_;
        freshMiss_ = false;
    }
    if (opt_.collectLog)
        log_.push_back("step " + std::to_string(steps_) + " @" + std::to_string(execNow()) + " " +
                       policy::eventName(e) + " [" + policy::toString(before.phase) + "]");
    exec_->feed(e);
    // The shell looks again at its watch after every step (Supervisor::refreshStatus): a phase that
    // is not watched forgets what the file said, so the next watched phase judges it afresh.
    if (opt_.opencode2 &&
        supervision::managedWatchEvery(exec_->state(), true, opt_.timings.probeIntervalMs) == 0)
        managedWatch_.forget();
    // [replacement-crash]: another client replaced the service Tether followed; no budget spent
    // (unless what replaced it died by itself before Tether could follow it).
    // A client that stopped it and whose own successor never registered (its contender lost the
    // port, or it gave up) replaced nothing: Tether restarting it then is no mistake.
    const bool successorRegistered = managed_.present && managed_.process != trackedBefore;
    // Tether's own terminating stop of it (a recovery, an update it was opted in to), decided at
    // the same time as the client's, is Tether's to count: the kill and replacement invariants
    // judge those decisions.
    const bool ownStop = plan_.run.plan.service == trackedBefore && plan_.run.plan.terminate;
    if (exec_ && exec_->state().budget.failures.size() > failuresBefore && trackedBefore.pid &&
        !successorDied_ && successorRegistered && !ownStop) {
        for (const ServiceRec &rec : services_)
            if (rec.id == trackedBefore && rec.replacedByClient)
                fail("[replacement-crash] pid " + std::to_string(rec.id.pid) +
                     ", replaced by another client's ensure(), spent the restart budget");
    }
    afterStep();
}

void World::onTrackedChange() {
    const auto &s = exec_->state();
    const os::Identity id = s.svc ? s.svc->id : os::Identity{};
    if (id == tracked_) return;
    tracked_ = id;
    successorDied_ = false;
    if (opt_.collectLog)
        log_.push_back("  tracking pid " + std::to_string(id.pid) + " (start " +
                       std::to_string(id.startTime) + ")");
    anchorExec_ = execNow();
    creditExec_ = anchorExec_;
    anchorOrder_ = ++order_;
    freshMiss_ = false;
    lastAnswerExec_ = -1;
    launchE_ = experienced_;
}

void World::afterStep() {
    if (!exec_) return;
    onTrackedChange();
    const auto &s = exec_->state();
    const State d = policy::displayState(s);
    if (plan_.open) {
        if (d == State::Healthy)
            fail("[healthy-while-stopping] display Healthy while a stop plan runs (phase " +
                 std::string(policy::toString(s.phase)) + ")");
        if (s.phase != Phase::Stopping && s.phase != Phase::Cleaning)
            fail("[plan-phase] a stop plan runs but the phase is " +
                 std::string(policy::toString(s.phase)));
    }
    if (s.svc && s.svc->id.startTime != 0) {
        const Proc *p = proc(s.svc->id.pid);
        if (p && p->start == s.svc->id.startTime && p->alive() &&
            (p->role == Role::Decoy || p->role == Role::Foreign) &&
            !supervision::runsProgram(info(*p), program_)) // exactly named and our program: a
                                                           // hand-started service, for all it shows
            fail("[tracked-foreign] the executor tracks pid " + std::to_string(p->pid) + ", a " +
                 toString(p->role) + " process");
    }
}

void World::checkObligations() {
    if (obligations_.empty()) return;
    for (std::size_t i = 0; i < obligations_.size();) {
        const Obligation &o = obligations_[i];
        if (experienced_ < o.deadlineE) {
            ++i;
            continue;
        }
        if (exec_ && config_.cleanOrphans) {
            for (const Proc &p : procs_) {
                if (!p.alive() || p.role != Role::Mcp || p.lineage != o.service) continue;
                if (std::find(possible_.begin(), possible_.end(), p.pid) != possible_.end())
                    continue;
                if (unledgeredBesideALiveService(p)) continue;
                fail("[orphans] MCP pid " + std::to_string(p.pid) + " of dead service pid " +
                     std::to_string(services_[std::size_t(o.service)].id.pid) +
                     " is neither removed nor listed for confirmation within the sweep bound");
                return;
            }
        }
        obligations_.erase(obligations_.begin() + std::ptrdiff_t(i));
    }
}

// An MCP process the ledger does not name, started after a service that still runs and that
// Tether knows of (the ledger names it): it may be that service's (a double-forked server shows
// no tie), so it is never offered as an orphan (DESIGN, "possible orphans").
bool World::unledgeredBesideALiveService(const Proc &p) {
    const bool ledgered = std::any_of(ledger_.begin(), ledger_.end(), [&](const auto &e) {
        return e.process == os::Identity{p.pid, p.start};
    });
    if (ledgered) return false;
    return std::any_of(ledger_.begin(), ledger_.end(), [&](const policy::LedgerEntry &e) {
        const Proc *s = proc(e.service.pid);
        return s && s->start == e.service.startTime && s->alive() && s->start <= p.start;
    });
}

// ---- Tether instances
// ---------------------------------------------------------------------------------

void World::launchTether() {
    if (exec_) return;
    const Pid self = spawn(Role::Tether, 1, true, {"/b/tether"}, "/b/tether");
    if (!self) {
        fail("[world] no pid left for Tether");
        return;
    }
    selfPid_ = self;
    ++instance_;
    procs_[std::size_t(self - kBase)].instance = instance_;
    released_ = settled_ = false;
    myChildren_.clear();
    for (auto &g : timerGen_)
        ++g;
    execQ_.clear();
    plan_.open = false;
    intent_ = 0;
    userAskedLaunch_ = true;
    autoLaunchesE_.clear();
    tracked_ = {};
    supervision::Ports ports{*this, *this, *this, *this, *this, *this, *this};
    newStopSequence();
    if (factory_.make) {
        factoryPorts_ = std::make_unique<supervision::Ports>(ports);
        exec_ = &factory_.make(
            *factoryPorts_, [this] { return execNow(); },
            [this](const policy::Event &e) { feed(e); });
    } else {
        ownExec_ =
            std::make_unique<supervision::Executor>(config_, ports, [this] { return execNow(); });
        exec_ = ownExec_.get();
    }
    shown_ = exec_->display();
    managedWatch_.forget();
    // Supervisor's first look at service.json comes before anything the person asks.
    if (opt_.opencode2) managedPoll();
}

void World::endTether(bool graceful) {
    (void)graceful;
    if (!exec_) return;
    exec_ = nullptr;
    if (factory_.end) factory_.end();
    ownExec_.reset();
    execQ_.clear();
    plan_.open = false;
    ++planNo_;
    obligations_.clear();
    myChildren_.clear();
    for (auto &g : timerGen_)
        ++g;
    die(selfPid_, "Tether quit");
    selfPid_ = 0;
    tracked_ = {};
}

void World::checkIntent() {
    if (!exec_ || failed()) return;
    const auto &s = exec_->state();
    const State d = policy::displayState(s);
    const std::string where = std::string(" (display ") + stateName(d) + ", phase " +
                              policy::toString(s.phase) + ", reason: " + s.reason + ")";
    if (intent_ == 1) {
        if (d == State::Failed && s.failure) return;
        // opencode 2.x: an exit that unregistered is another program's stop, left stopped.
        if (opt_.opencode2 && d == State::Stopped && s.stopCause == policy::StopCause::External)
            return;
        if (d != State::Healthy) {
            fail("[intent-start] after a start and a quiet spell the service is not running" +
                 where);
            return;
        }
        const Proc *p = s.svc ? proc(s.svc->id.pid) : nullptr;
        if (!p || p->start != s.svc->id.startTime || !p->alive())
            fail("[intent-start] Healthy, but the tracked process is gone" + where);
    } else if (intent_ == 2) {
        if (d == State::Failed && s.failure) return;
        // Another client's ensure() started the service after the stop: Tether follows it and
        // says so ("started again by another opencode client"), never "stopped" while it runs.
        // So is one another client started before the stop that Tether had not seen yet (the
        // person's Stop and the client's start crossed), and a launch a previous Tether left
        // starting that registers after the stop: a 2.x service is on record only from its own
        // registration, written when it binds (onListen, docs/opencode2-protocol.md).
        auto startedElsewhere = [&](const Proc &p) {
            if (services_[std::size_t(p.lineage)].byClient)
                return !(trackedAtStop_ == os::Identity{p.pid, p.start});
            return p.instance != instance_ && managed_.serial > stopRegistrations_;
        };
        for (const Proc &p : procs_) {
            if (!opt_.opencode2 || !p.alive() || p.role != Role::Service || p.lineage < 0 ||
                !named(p) || !startedElsewhere(p) || !p.listening || p.state != RunState::Running)
                continue;
            if (d == State::Stopped)
                fail("[started-elsewhere] another client's ensure() started pid " +
                     std::to_string(p.pid) + " after the stop, and Tether says Stopped" + where);
            else if (!startedElsewhereNoticed_)
                fail("[started-elsewhere] another client's ensure() started pid " +
                     std::to_string(p.pid) + " after the stop, and Tether did not say so" + where);
            return;
        }
        // Another client started it after the stop, and Tether said so and followed it: that
        // client's wish runs now, kept up as any start's ([fight-elsewhere] holds Tether to it).
        if (d != State::Stopped && opt_.opencode2 && startedElsewhereNoticed_) return;
        if (d != State::Stopped) {
            fail("[intent-stop] after a stop and a quiet spell the service is not stopped" + where);
            return;
        }
        for (const Proc &p : procs_)
            if (p.alive() && p.role == Role::Service && p.instance == instance_ &&
                std::find(myChildren_.begin(), myChildren_.end(), p.start) != myChildren_.end())
                fail("[intent-stop] Stopped, but pid " + std::to_string(p.pid) +
                     " (launched by this Tether) still runs" + where);
        // Adopted ones too: "stopped" is a lie while the service it tracked still runs.
        const Proc *p = trackedAtStop_.pid ? proc(trackedAtStop_.pid) : nullptr;
        if (p && p->alive() && p->start == trackedAtStop_.startTime && p->role == Role::Service)
            fail("[intent-stop] Stopped, but pid " + std::to_string(p->pid) +
                 " (the service tracked when the stop was asked) still runs" + where);
    }
}

// ---- ProcessTable
// --------------------------------------------------------------------------------------

os::Lookup World::inspect(Pid pid) {
    os::Lookup l;
    if (now_ < errorsUntil_) {
        l.status = os::Lookup::Status::Error;
        l.error = "EACCES (simulated)";
        return l;
    }
    if (pid == 1) {
        l.status = os::Lookup::Status::Found;
        l.info.pid = 1;
        l.info.state = RunState::Running;
        l.info.startTime = 1;
        l.info.argv = {"/sbin/init"};
        return l;
    }
    const Proc *p = proc(pid);
    if (!p) {
        l.status = os::Lookup::Status::NotFound;
        return l;
    }
    l.status = os::Lookup::Status::Found;
    l.info = info(*p);
    if (opt_.broken.staleInspect) { // the broken port: the first process seen at a pid, forever
        auto it = std::find_if(inspectCache_.begin(), inspectCache_.end(),
                               [&](const auto &c) { return c.first == pid; });
        if (it == inspectCache_.end())
            inspectCache_.push_back({pid, p->start});
        else if (it->second != p->start) {
            l.info.startTime = it->second;
            l.info.state = RunState::Running;
        }
    }
    if (l.info.state != RunState::Zombie) verified_.push_back({pid, l.info.startTime});
    return l;
}

policy::PortFacts World::portFacts(int port) {
    policy::PortFacts f;
    if (now_ < errorsUntil_) return f;
    f.readable = true;
    for (const Proc &p : procs_) {
        if (!p.alive() || !p.listening || p.port != port) continue;
        policy::Listener l;
        l.pid = p.invisible ? 0 : p.pid;
        l.family = p.family;
        l.wildcard = p.wildcard;
        if (l.pid) {
            const std::string &name = p.exe.empty() ? p.argv.front() : p.exe;
            l.owner = "PID " + std::to_string(p.pid) + " (" +
                      name.substr(name.find_last_of('/') + 1) + ")";
            portOwnersSeen_.push_back(p.pid);
        }
        f.listeners.push_back(std::move(l));
    }
    return f;
}

std::vector<os::ProcessInfo> World::snapshot() {
    std::vector<os::ProcessInfo> out;
    if (now_ < errorsUntil_) return out;
    for (const Proc &p : procs_)
        if (p.role != Role::Free) {
            out.push_back(info(p));
            if (p.state != RunState::Zombie) verified_.push_back({p.pid, p.start});
        }
    return out;
}

std::vector<os::ProcessInfo> World::groupMembers(Pid pgid) {
    std::vector<os::ProcessInfo> out;
    if (now_ < errorsUntil_) return out;
    for (const Proc &p : procs_)
        if (p.alive() && p.pgid == pgid) {
            out.push_back(info(p));
            verified_.push_back({p.pid, p.start});
        }
    return out;
}

bool World::verifiedThisStep(Pid pid, std::uint64_t start) const {
    for (const auto &v : verified_)
        if (v.first == pid && v.second == start) return true;
    return false;
}

bool World::signal(const os::Identity &id, Signal sig, std::string *error) {
    Proc *p = proc(id.pid);
    // As os::maySignalPid: never pid <= 1 nor Tether itself (its group: signalGroup).
    const bool protectedPid = id.pid <= 1 || id.pid == selfPid_ || (p && p->role == Role::Tether);
    bool ok = p && !protectedPid;
    if (ok && !opt_.broken.staleInspect) // the real table re-verifies right before sending
        ok = p->start == id.startTime && p->state != RunState::Zombie;
    if (!ok) {
        if (error) *error = p ? "identity did not hold (refused)" : "no such process";
        return false;
    }
    if (p->state == RunState::Zombie) return true; // a signal to a zombie does nothing
    deliver(*p, sig, false, id.pid, id.startTime);
    return true;
}

bool World::signalGroup(Pid pgid, Signal sig, std::string *error) {
    if (pgid <= 1 || pgid == selfPid_) {
        if (error) *error = "protected group (refused)";
        return false;
    }
    bool any = false;
    for (Proc &p : procs_)
        if (p.alive() && p.pgid == pgid) {
            any = true;
            deliver(p, sig, true, pgid, 0);
        }
    if (!any && error) *error = "no such process group";
    return any;
}

void World::deliver(Proc &p, Signal sig, bool group, Pid asked, std::uint64_t askedStart) {
    SignalRecord r;
    r.step = steps_;
    r.at = now_;
    r.sig = sig;
    r.group = group;
    r.asked = asked;
    r.askedStart = askedStart;
    r.pid = p.pid;
    r.start = p.start;
    r.role = p.role;
    r.lineage = p.lineage;
    r.delivered = true;
    checkSignal(r, p);
    if (signals_.size() >= kSignalKeep) signals_.erase(signals_.begin());
    signals_.push_back(r);
    if (opt_.collectLog)
        log_.push_back(std::string("  signal ") + sigName(sig) + (group ? " group " : " pid ") +
                       std::to_string(asked) + " -> pid " + std::to_string(p.pid) + " (" +
                       toString(p.role) + ")");
    effect(p, sig);
}

void World::signalFromWorld(Pid pid, Signal sig) {
    if (Proc *p = proc(pid); p && p->alive()) effect(*p, sig);
}

void World::effect(Proc &p, Signal sig) {
    switch (sig) {
    case Signal::Kill:
        die(p.pid, "SIGKILL");
        return;
    case Signal::Stop:
        p.state = RunState::Stopped;
        return;
    case Signal::Continue:
        if (p.state != RunState::Stopped) return;
        p.state = RunState::Running;
        if (p.listenPending) {
            p.listenPending = false;
            const std::int64_t b = (std::int64_t(p.port ? p.port : config_.port) << 8);
            push(worldQ_, now_, KListen, p.pid, b, p.start);
        }
        if (p.termPending && !p.ignoresTerm) {
            p.termPending = false;
            push(worldQ_, now_ + p.termDelay, KExit, p.pid, 1, p.start);
        }
        return;
    case Signal::Terminate:
        if (p.ignoresTerm) return;
        if (p.state == RunState::Stopped) {
            p.termPending = true;
            return;
        }
        push(worldQ_, now_ + p.termDelay, KExit, p.pid, 1, p.start);
        return;
    }
}

void World::checkSignal(const SignalRecord &r, const Proc &p) {
    const std::string who = std::string(sigName(r.sig)) + (r.group ? " to group " : " to pid ") +
                            std::to_string(r.asked) + " reached pid " + std::to_string(p.pid) +
                            " (" + toString(p.role) + ")";
    if (p.pid <= 1 || p.role == Role::Tether || p.role == Role::Init ||
        (r.group && p.pgid == selfPid_)) {
        fail("[signal-protected] " + who + ": pid <= 1, Tether or Tether's group");
        return;
    }
    if (p.role != Role::Service && p.role != Role::Mcp) {
        fail("[signal-foreign] " + who + ": never ours");
        return;
    }
    if (!r.group && r.askedStart != p.start) {
        fail("[signal-identity] " + who + ": asked for start time " + std::to_string(r.askedStart) +
             ", the process has " + std::to_string(p.start));
        return;
    }
    if (!verifiedThisStep(p.pid, p.start)) {
        fail("[signal-unverified] " + who + ": its identity was not verified in this step");
        return;
    }
    const policy::StopPlan *plan = plan_.open ? &plan_.run.plan : nullptr;
    // Judged when the stop was decided: a service that leaves service.json on TERM (as 2.x's
    // does) is still the one a verified stop goes on to KILL after its grace, as opencode's own
    // stop does (packages/client/src/effect/service.ts: TERM, 5 s, KILL, no second read).
    const bool decidedOnOurs = plan && plan_.serviceOursAtOpen && plan->service.pid == p.pid &&
                               plan->service.startTime == p.start;
    if (p.role == Role::Service && opt_.opencode2 && !named(p) && !decidedOnOurs &&
        std::find(myChildren_.begin(), myChildren_.end(), p.start) == myChildren_.end()) {
        fail("[signal-unregistered] " + who +
             ": neither what service.json names nor Tether's child" +
             (services_[std::size_t(p.lineage)].byClient ? " (another client's contender)" : ""));
        return;
    }
    if (p.role == Role::Service) {
        if (!plan || plan->service.pid != p.pid || plan->service.startTime != p.start ||
            !plan->terminate) {
            fail("[signal-service] " + who + ": not the service of a terminating stop plan");
            return;
        }
        const bool owner = std::find(portOwnersSeen_.begin(), portOwnersSeen_.end(), p.pid) !=
                               portOwnersSeen_.end() ||
                           std::find(childSeen_.begin(), childSeen_.end(),
                                     os::Identity{p.pid, p.start}) != childSeen_.end();
        if (!owner)
            fail("[signal-service] " + who +
                 ": neither seen owning the port nor our running child in this step");
        return;
    }
    // MCP: its service is dead, or is the one this plan stops.
    const ServiceRec &rec = services_[std::size_t(p.lineage)];
    const bool planService =
        plan && rec.id.pid == plan->service.pid && rec.id.startTime == plan->service.startTime;
    const Proc *svc = proc(rec.id.pid);
    const bool svcAlive = svc && svc->start == rec.id.startTime && svc->alive();
    if (svcAlive && !planService)
        fail("[signal-mcp] " + who +
             ": an MCP process of a live service that is not being stopped");
}

bool World::waitGone(const os::Identity &id, Ms timeoutMs) {
    runWorldUntil(now_ + std::max<Ms>(0, timeoutMs), &id, 0);
    const Proc *p = proc(id.pid);
    return !p || p->start != id.startTime || p->state == RunState::Zombie;
}

bool World::waitGroupEmpty(Pid pgid, Ms timeoutMs) {
    if (pgid <= 1) return true;
    runWorldUntil(now_ + std::max<Ms>(0, timeoutMs), nullptr, pgid);
    for (const Proc &p : procs_)
        if (p.alive() && p.pgid == pgid) return false;
    return true;
}

// ---- Scheduler, Prober, Launcher
// ---------------------------------------------------------------------

void World::start(policy::Timer timer, Ms delayMs) {
    const int i = int(timer);
    push(execQ_, now_ + std::max<Ms>(0, delayMs), KTimer, i, std::int64_t(++timerGen_[i]));
}

void World::cancel(policy::Timer timer) {
    ++timerGen_[int(timer)];
}

void World::probe(const policy::SendProbe &p, const std::string &password) {
    probesSent_.push_back({p.seq, ++order_});
    if (probesSent_.size() > 8) probesSent_.erase(probesSent_.begin());
    // Who takes a connection to 127.0.0.1 / ::1 on the port.
    const Proc *owner = nullptr;
    for (const Proc &q : procs_) {
        if (!q.alive() || !q.listening || q.port != p.port) continue;
        const bool takes = p.family == Family::V4
                               ? (q.family == Family::V4 || (q.family == Family::V6 && q.wildcard))
                               : q.family == Family::V6;
        if (takes) {
            owner = &q;
            break;
        }
    }
    int outcome = 0;
    Ms delay = 1;
    if (!owner) {
        outcome = 0;
    } else if (owner->state == RunState::Stopped) {
        outcome = 1;
        delay = p.timeoutMs;
    } else if (owner->role == Role::Service && owner->lineage >= 0) {
        const ServiceRec &rec = services_[std::size_t(owner->lineage)];
        delay = rec.latency + Ms(rnd() % 4);
        if (!quiet_ && rnd() % 50 == 0) delay = p.timeoutMs + 1; // late: the prober gives up
        if (rec.busyUntil > now_ || delay >= p.timeoutMs) {
            outcome = 1;
            delay = p.timeoutMs;
        } else {
            outcome = password == rec.password ? 2 : 3;
        }
    } else if (owner->http) {
        outcome = 3;
        delay = 2;
    } else {
        outcome = 1;
        delay = p.timeoutMs;
    }
    const std::int64_t b = std::int64_t(outcome) | (std::int64_t(owner ? owner->pid : 0) << 8);
    push(execQ_, now_ + delay, KProbe, std::int64_t(p.seq), b, owner ? owner->start : 0);
}

void World::launch(int port) {
    // [second-launch]: nothing may hold 127.0.0.1:port (the facts were read in this step).
    if (bindConflict(port, Family::V4, false, 0)) {
        for (const Proc &q : procs_)
            if (q.alive() && q.listening && q.port == port &&
                (q.family == Family::V4 || q.wildcard))
                fail("[second-launch] a service launched on port " + std::to_string(port) +
                     " while pid " + std::to_string(q.pid) + " (" + toString(q.role) +
                     ") holds it");
    }
    // opencode 2.x: a previous child that service.json does not name leaves by itself, and
    // Tether lets it (ServiceLauncher::launch forgets a running child, never kills it): once
    // replaced, its re-read of the file shuts it down; never registered, it asks
    // Service.incumbent before it binds and on EADDRINUSE, and exits quietly when the
    // registered owner answers (docs/opencode2-protocol.md section 6 and "Incumbent"). Frozen,
    // it does so when it runs again. Only a child the file names is one Tether still owes.
    for (const Proc &q : procs_)
        if (q.alive() && q.role == Role::Service &&
            std::find(myChildren_.begin(), myChildren_.end(), q.start) != myChildren_.end() &&
            (!opt_.opencode2 || named(q)))
            fail("[two-children] a launch while this Tether's previous child pid " +
                 std::to_string(q.pid) + " still runs");
    // [budget]: automatic relaunches (no ask of the person since the previous launch).
    if (!userAskedLaunch_) {
        const policy::Timings &t = opt_.timings;
        const Ms span = t.burstWindowMs - t.backoffMaxMs - 2 * t.probeIntervalMs;
        autoLaunchesE_.push_back(execNow());
        int recent = 0;
        for (Ms at : autoLaunchesE_)
            if (execNow() - at < span) ++recent;
        if (recent >= t.burst)
            fail("[budget] " + std::to_string(recent) + " automatic relaunches within " +
                 std::to_string(span) + " ms (burst " + std::to_string(t.burst) + ")");
    }
    lastLaunchAsked_ = userAskedLaunch_;
    userAskedLaunch_ = false;
    ++launches_;
    if (spec_.launchFails) {
        push(execQ_, now_ + 1, KLaunched, 0);
        return;
    }
    std::vector<std::string> argv =
        opt_.opencode2
            ? std::vector<std::string>{program_, "serve", "--service"}
            : std::vector<std::string>{program_, "serve", "--port", std::to_string(port)};
    if (opt_.scriptProgram) argv.insert(argv.begin(), "node");
    const Pid pid = spawn(Role::Service, selfPid_, opt_.containment, argv,
                          opt_.scriptProgram ? "/usr/bin/node" : program_);
    if (!pid) {
        push(execQ_, now_ + 1, KLaunched, 0);
        return;
    }
    Proc &p = *proc(pid);
    p.instance = instance_;
    p.ignoresTerm = spec_.ignoresTerm;
    p.termDelay = spec_.termDelay;
    p.port = port;
    ServiceRec rec;
    rec.id = {pid, p.start};
    rec.pgid = p.pgid;
    rec.instance = instance_;
    rec.password = "pw" + std::to_string(launches_);
    rec.version = binaryVersion.empty() ? config_.installedVersion : binaryVersion;
    rec.latency = spec_.latency;
    p.lineage = int(services_.size());
    services_.push_back(rec);
    myChildren_.push_back(p.start);
    if (spec_.listens) {
        Family f = Family::V4;
        bool wildcard = false;
        if (!config_.hostPinned) {
            f = spec_.family;
            wildcard = spec_.wildcard;
        }
        const std::int64_t b =
            (std::int64_t(port) << 8) | (f == Family::V6 ? 1 : 0) | (wildcard ? 2 : 0);
        push(worldQ_, now_ + spec_.startupDelay, KListen, pid, b, p.start);
    }
    for (int i = 0; i < spec_.mcp; ++i)
        push(worldQ_, now_ + spec_.startupDelay + 5 * (i + 1), KMcpSpawn, pid, i, p.start);
    push(execQ_, now_ + 1, KLaunched, pid, launches_, p.start);
}

void World::mcpSpawnFor(int service, int index) {
    if (service < 0) return;
    const ServiceRec &rec = services_[std::size_t(service)];
    const Proc *svc = proc(rec.id.pid);
    if (!svc || svc->start != rec.id.startTime || !svc->alive()) return;
    const auto &cmd = mcpCommands()[std::size_t(index) % mcpCommands().size()];
    const unsigned bit = 1u << (unsigned(index) % 16);
    const Pid pid =
        spawn(Role::Mcp, svc->pid, (spec_.leaveGroupMask & bit) != 0, cmd, "/usr/bin/node");
    if (!pid) return;
    Proc &m = *proc(pid);
    m.lineage = service;
    m.ignoresTerm = (spec_.stubbornMask & bit) != 0;
    m.exitWithParent = (spec_.exitWithParentMask & bit) != 0;
    m.termDelay = 3;
    if (!(spec_.unledgeredMask & bit)) {
        policy::LedgerEntry e;
        e.process = {pid, m.start};
        e.pgid = m.pgid;
        e.argv = cmd;
        e.name = cmd.front();
        e.service = rec.id;
        ledger_.push_back(std::move(e));
        if (ledger_.size() > 48) ledger_.erase(ledger_.begin());
    }
}

bool World::childRunning(const os::Identity &id) {
    const Proc *p = proc(id.pid);
    const bool yes =
        p && p->start == id.startTime && p->alive() &&
        std::find(myChildren_.begin(), myChildren_.end(), id.startTime) != myChildren_.end();
    if (yes) childSeen_.push_back(id);
    return yes;
}

void World::release() {
    // [quit-keep] the service left running is alive (or its death is still being reported).
    if (exec_ && exec_->state().svc) {
        const os::Identity id = exec_->state().svc->id;
        const Proc *p = proc(id.pid);
        const bool alive = p && p->start == id.startTime && p->alive();
        bool reporting = false;
        for (const Item &it : execQ_)
            if (it.kind == KExitNotice && Pid(it.a) == id.pid) reporting = true;
        if (!alive && !reporting && id.startTime != 0 && opt_.adoptedExitNotice)
            fail("[quit-keep] released pid " + std::to_string(id.pid) +
                 ", which is dead and was reported so");
    }
    myChildren_.clear();
}

// ---- Registration store
// ---------------------------------------------------------------------------------

supervision::OwnRegistration World::read() {
    return reg_;
}

void World::write(const policy::TrackedService &svc, const std::string &version) {
    reg_.read = supervision::OwnRegistration::Read::Ok;
    reg_.error.clear();
    reg_.id = svc.id;
    reg_.pgid = svc.pgid;
    reg_.port = svc.port;
    reg_.password = svc.password;
    reg_.program = program_;
    reg_.version = version;
}

void World::drop(bool) {
    reg_ = supervision::OwnRegistration{};
}

// ---- opencode 2.x: service.json, the shell's watch of it, another client's ensure()
// -----------------------------------------------------------------------

// A service that listens registers itself (onListen, before boot): the latest rename wins.
void World::registerService(Proc &p) {
    if (p.lineage < 0) return;
    ServiceRec &rec = services_[std::size_t(p.lineage)];
    if (managed_.present && managed_.process.pid != p.pid)
        if (Proc *before = proc(managed_.process.pid);
            before && before->start == managed_.process.startTime)
            before->replaced = true; // its next re-read of the file shuts it down
    rec.managedId = "r" + std::to_string(++registrations_);
    managed_ = Managed{true,         rec.managedId, {p.pid, p.start}, p.port,
                       rec.password, rec.version,   startCounter_,    registrations_};
    ++managedGen_;
    push(worldQ_, now_ + kRecheckMs, KRecheck, p.pid, 0, p.start);
}

void World::unregister(const Proc &p) {
    if (!opt_.opencode2 || !named(p)) return;
    managed_ = Managed{};
    ++managedGen_;
}

bool World::named(const Proc &p) const {
    return managed_.present && managed_.process == os::Identity{p.pid, p.start};
}

// The shell's reader (ServiceRegistrations::readManaged, judgeOwner): the file against the
// process table and the port's owners.
policy::ManagedFacts World::readManaged() {
    using V = policy::ManagedFacts::Verdict;
    policy::ManagedFacts m;
    if (!managed_.present) return m;
    m.id = managed_.id;
    m.port = managed_.port;
    m.password = managed_.password;
    m.version = managed_.version;
    m.process = {managed_.process.pid, 0};
    const os::Lookup l = inspect(managed_.process.pid);
    if (l.status == os::Lookup::Status::Error) {
        m.verdict = V::Unknown;
        return m;
    }
    if (l.status == os::Lookup::Status::NotFound || l.info.state == RunState::Zombie) {
        m.verdict = V::Gone;
        return m;
    }
    m.process = {l.info.pid, l.info.startTime};
    m.pgid = l.info.pgid == l.info.pid ? l.info.pgid : 0;
    m.launchedByUs =
        std::find(myChildren_.begin(), myChildren_.end(), l.info.startTime) != myChildren_.end();
    if (l.info.startTime > managed_.writtenAt) { // the pid was reused after the registration
        m.verdict = V::Gone;
        return m;
    }
    const policy::PortFacts f = portFacts(managed_.port);
    if (!f.readable) {
        m.verdict = V::Unknown;
        return m;
    }
    bool mine = false, other = false, invisible = false;
    for (const policy::Listener &li : f.listeners) {
        if (li.pid == managed_.process.pid)
            mine = true;
        else if (li.pid == 0)
            invisible = true;
        else
            other = true, m.detail = li.owner;
    }
    m.verdict = mine ? V::Adopt : other ? V::PortHeld : invisible ? V::Unknown : V::Wait;
    return m;
}

void World::dropManaged(const std::string &id) {
    if (!managed_.present || managed_.id != id) return;
    managed_ = Managed{};
    ++managedGen_;
}

int World::launchPort(int configured) {
    return opt_.opencode2 ? kPortV2 : configured; // its own config's port, else 49374
}

// Supervisor::watchManagedRegistration: while tracking, or stopped (another client may start
// it); a changed file is judged and fed.
void World::managedPoll() {
    // The shell's watch (Supervisor::watchManagedRegistration, ManagedRegistrationWatch) with
    // the file's generation as its content.
    const Ms every =
        supervision::managedWatchEvery(exec_->state(), true, opt_.timings.probeIntervalMs);
    push(execQ_, now_ + (every > 0 ? every : 50), KManagedPoll);
    if (every == 0) {
        managedWatch_.forget();
        return;
    }
    const std::string stamp = std::to_string(managedGen_);
    if (!managedWatch_.needsJudging(stamp)) return;
    if (!managed_.present) {
        managedWatch_.judged(stamp, policy::ManagedFacts::Verdict::Invalid);
        return;
    }
    const policy::ManagedFacts facts = readManaged();
    managedWatch_.judged(stamp, facts.verdict);
    feed(policy::ManagedRegistrationChanged{facts});
}

void World::ensureStart(const Action &a) {
    const std::string other = config_.installedVersion == "1.0" ? "1.1" : "1.0";
    const std::uint64_t epoch = ensure_.epoch + 1;
    ensure_ = EnsureClient{};
    ensure_.epoch = epoch;
    ensure_.active = true;
    ensure_.until = now_ + kEnsureBudget;
    ensure_.version = a.b % 2 ? other : config_.installedVersion;
    ensure_.want = a.a % 2 ? ensure_.version : std::string();
    ensure_.reconnects = a.c % 2 != 0;
    ensure_.spawnDelay = kEnsureSpawnDelay;
    push(worldQ_, now_, KEnsureTick, 0, 0, epoch);
}

// One turn of Service.ensure()'s loop (effect/service.ts @ 018554f7), against the world.
void World::ensureTick(std::uint64_t epoch) {
    EnsureClient &e = ensure_;
    if (epoch != e.epoch || !e.active) return;
    if (now_ >= e.until) { // "Timed out waiting for the background service to start"
        e.active = false;
        return;
    }
    // registered(): read the file, GET /api/info at its url with its password.
    bool timedOut = false, ready = false;
    std::string version;
    if (managed_.present) {
        const Proc *o = nullptr;
        for (const Proc &q : procs_)
            if (q.alive() && q.listening && q.port == managed_.port &&
                (q.family == Family::V4 || q.wildcard))
                o = &q;
        if (!o) {
            // refused: no service, not a timeout
        } else if (o->state != RunState::Running) {
            timedOut = true;
        } else if (o->role == Role::Service && o->lineage >= 0) {
            const ServiceRec &rec = services_[std::size_t(o->lineage)];
            if (rec.busyUntil > now_)
                timedOut = true;
            else if (o->pid == managed_.process.pid && rec.version == managed_.version)
                ready = true, version = rec.version;
        } else if (!o->http) {
            timedOut = true; // it takes the connection and never answers
        }
    }
    if (timedOut) {
        e.timeouts = e.timeoutsId == managed_.id ? e.timeouts + 1 : 1;
        e.timeoutsId = managed_.id;
        if (e.timeouts >= kEnsureEvictAfter) { // sustained unresponsiveness: evict
            ensureTerminate(false);
            e.timeouts = 0;
            e.timeoutsId.clear();
            e.lastSpawn = now_ - e.spawnDelay;
        }
    } else {
        e.timeouts = 0;
        e.timeoutsId.clear();
    }
    const Ms next = now_ + kEnsurePoll + (timedOut ? kEnsureTimeout : 0);
    if (ready) {
        e.spawnDelay = kEnsureSpawnDelay;
        if (e.want.empty() || e.want == version) { // compatible and ready: ensure() returns
            if (e.reconnects)
                push(worldQ_, next, KEnsureTick, 0, 0, epoch); // and is called again
            else
                e.active = false;
            return;
        }
        ensureTerminate(true); // version mismatch: stop({pty: "handoff"}), then spawn
        e.lastSpawn.reset();
        push(worldQ_, next, KEnsureTick, 0, 0, epoch);
        return;
    }
    if (!e.lastSpawn && managed_.present) e.lastSpawn = now_;
    std::vector<os::Identity> running;
    bool finished = false;
    for (const os::Identity &c : e.contenders) {
        const Proc *q = proc(c.pid);
        if (q && q->start == c.startTime && q->alive())
            running.push_back(c);
        else
            finished = true;
    }
    if (finished) e.spawnDelay = std::min(e.spawnDelay * 2, kEnsureMaxSpawnDelay);
    e.contenders = std::move(running);
    if (e.timeouts == 0 && e.contenders.size() < 2 &&
        (!e.lastSpawn || now_ - *e.lastSpawn >= e.spawnDelay)) {
        const Pid pid = spawnContender();
        if (pid) e.contenders.push_back({pid, proc(pid)->start});
        e.lastSpawn = now_;
    }
    push(worldQ_, next, KEnsureTick, 0, 0, epoch);
}

// `opencode serve --service`, detached: it checks for an incumbent, binds the fixed port,
// registers, and spawns its MCP servers.
Pid World::spawnContender() {
    std::vector<std::string> argv{program_, "serve", "--service"};
    if (opt_.scriptProgram) argv.insert(argv.begin(), "node");
    const Pid pid =
        spawn(Role::Service, 1, true, argv, opt_.scriptProgram ? "/usr/bin/node" : program_);
    if (!pid) return 0;
    Proc &p = *proc(pid);
    p.port = kPortV2;
    p.termDelay = 1 + Ms(rnd() % 20);
    ServiceRec rec;
    rec.id = {pid, p.start};
    rec.pgid = p.pgid;
    rec.adoptedOnly = true;
    rec.byClient = true;
    rec.password = "pwc" + std::to_string(++contenders_);
    rec.version = ensure_.version;
    p.lineage = int(services_.size());
    services_.push_back(rec);
    push(worldQ_, now_ + 5, KIncumbent, pid, 0, p.start);
    return pid;
}

// terminate(info): only while the file still names it; TERM, poll, KILL, poll, remove the file.
void World::ensureTerminate(bool forVersion) {
    if (!managed_.present) return;
    const Proc *p = proc(managed_.process.pid);
    for (ServiceRec &rec : services_)
        if (rec.id == managed_.process)
            rec.stoppedByClient = true, rec.replacedByClient |= forVersion;
    if (forVersion) noteReplacement(false);
    if (std::all_of(terminations_.begin(), terminations_.end(),
                    [](const Termination &t) { return t.polls < 0; }))
        terminations_.clear();
    terminations_.push_back(Termination{managed_.id, managed_.process, 0, false, forVersion});
    if (p && p->alive()) signalFromWorld(p->pid, Signal::Terminate); // process.kill(pid)
    push(worldQ_, now_ + kTermPoll, KEnsureTerm, std::int64_t(terminations_.size() - 1));
}

void World::ensureTermStep(std::size_t i) {
    if (i >= terminations_.size() || terminations_[i].polls < 0) return;
    Termination &t = terminations_[i];
    const Proc *p = proc(t.process.pid);
    const bool running = p && p->start == t.process.startTime; // kill(pid, 0): zombies too
    const bool stillNamed = managed_.present && managed_.id == t.id;
    if (running) {
        if (++t.polls < kTermPolls) {
            push(worldQ_, now_ + kTermPoll, KEnsureTerm, std::int64_t(i));
            return;
        }
        if (t.killed || !stillNamed) { // "Server process N is still running", or not its own
            t.polls = -1;
            return;
        }
        t.killed = true;
        t.polls = 0;
        signalFromWorld(t.process.pid, Signal::Kill);
        push(worldQ_, now_ + kTermPoll, KEnsureTerm, std::int64_t(i));
        return;
    }
    if (stillNamed) {
        managed_ = Managed{};
        ++managedGen_;
    }
    t.polls = -1;
}

void World::noteReplacement(bool byTether) {
    if (replaceActs_ != userActs_) {
        replaceActs_ = userActs_;
        otherReplaced_ = false;
        replacementsAfterOther_ = 0;
    }
    if (!byTether) {
        otherReplaced_ = true;
        return;
    }
    if (otherReplaced_ && ++replacementsAfterOther_ > kMaxReplacementsAfterOther)
        fail("[replace-loop] Tether replaced the service " +
             std::to_string(replacementsAfterOther_) +
             " times after another client's replacement, without an ask of the person");
}

// ---- Stop plans
// ------------------------------------------------------------------------------------------

void World::run(const policy::RunStopPlan &r) {
    if (plan_.open) fail("[plan-overlap] a stop plan was issued while another one runs");
    const policy::StopPlan &plan = r.plan;
    // Why a kill: fresh evidence only (rules 1 and 8).
    if (plan.terminate && plan.service == tracked_ &&
        (r.cause == policy::StopCause::Recovery || r.cause == policy::StopCause::StartupTimeout)) {
        const policy::Timings &t = opt_.timings;
        const Ms now = execNow();
        if (r.cause == policy::StopCause::Recovery) {
            if (lastAnswerExec_ >= 0 && now - lastAnswerExec_ < t.windowMs)
                fail("[kill-young-answer] recovery kill " + std::to_string(now - lastAnswerExec_) +
                     " ms after the last answer (window " + std::to_string(t.windowMs) + ")");
            else if (now - anchorExec_ < t.windowMs)
                fail("[kill-window-not-spent] recovery kill " + std::to_string(now - anchorExec_) +
                     " ms after the window's start (last answer, start or gap)");
        }
        if (!freshMiss_)
            fail(std::string("[kill-no-fresh-miss] ") + policy::toString(r.cause) +
                 " kill without a probe sent and missed after the last answer and gap");
        if (r.cause == policy::StopCause::StartupTimeout && opt_.checkStartupGaps &&
            experienced_ - launchE_ < t.startupDeadlineMs)
            fail("[startup-deadline-gap] start-up timeout kill after " +
                 std::to_string(experienced_ - launchE_) +
                 " ms of time Tether experienced since the launch (deadline " +
                 std::to_string(t.startupDeadlineMs) + "): the gap counted");
    }
    if (plan.terminate && r.cause == policy::StopCause::VersionUpdate) {
        for (const ServiceRec &rec : services_)
            if (rec.id == plan.service && !(rec.version < config_.installedVersion))
                fail("[replace-older-only] an update replaces version " + rec.version +
                     " with the installed " + config_.installedVersion);
        noteReplacement(true);
    }
    // [fight-elsewhere]: after a Stop, a service another client started is not stopped without
    // an ask of the person (a recovery of a hung one is evidence-checked above; an update is
    // [replace-older-only]'s and [replace-loop]'s).
    if (opt_.opencode2 && plan.terminate && intent_ == 2 && userActs_ == stopActs_ &&
        r.cause != policy::StopCause::Recovery && r.cause != policy::StopCause::StartupTimeout &&
        r.cause != policy::StopCause::StartFailed && r.cause != policy::StopCause::VersionUpdate)
        for (const ServiceRec &rec : services_)
            if (rec.id == plan.service && rec.byClient && rec.id.startTime > stopToken_)
                fail(std::string("[fight-elsewhere] a ") + policy::toString(r.cause) +
                     " stop of pid " + std::to_string(rec.id.pid) +
                     ", which another client started after the Stop, without an ask of the person");
    // Tether's own launch stopped because another owner registered first: the next launch
    // still answers the ask that launch was for (the owner may be gone by then).
    if (r.cause == policy::StopCause::Replaced &&
        std::find(myChildren_.begin(), myChildren_.end(), plan.service.startTime) !=
            myChildren_.end() &&
        lastLaunchAsked_)
        userAskedLaunch_ = true;
    plan_.run = r;
    plan_.open = true;
    {
        const Proc *target = proc(plan.service.pid);
        plan_.serviceOursAtOpen =
            target && target->start == plan.service.startTime &&
            (named(*target) ||
             std::find(myChildren_.begin(), myChildren_.end(), target->start) != myChildren_.end());
    }
    plan_.done = {};
    ++planNo_;
    stopSequence_->run(r);
}

// Tether's worker thread on the simulated clock: the work runs at once; `then` runs at once too,
// or, with a split runner, as a world event of its own, so that the world moves between the two
// halves of a stop (a TERM, the grace's wait, the KILL) as it does beside a real thread.
class World::SimWorker : public supervision::Worker {
public:
    explicit SimWorker(World &w)
        : w_(w) {}
    void run(std::function<void()> work, std::function<void()> then) override {
        work();
        if (!w_.opt_.splitRunner) {
            then();
            return;
        }
        const std::int64_t id = ++w_.nextCall_;
        w_.calls_.emplace_back(id, std::move(then));
        w_.push(w_.worldQ_, w_.now_, KCall, id, 0, w_.planNo_);
    }

private:
    World &w_;
};

void World::newStopSequence() {
    calls_.clear();
    if (!worker_) worker_ = std::make_unique<SimWorker>(*this);
    supervision::StopSequencePorts ports;
    ports.table = this;
    ports.worker = worker_.get();
    ports.killWaitMs = opt_.killWaitMs;
    ports.sweepOrphans = [this](const os::Identity &service, std::function<void()> done) {
        sweepOrphans(service, std::move(done));
    };
    ports.log = [this](const std::string &line) { log(line); };
    ports.done = [this](const policy::StopPlanDone &d) {
        plan_.done = d;
        push(execQ_, now_ + opt_.runnerDoneDelay, KStopDone, 0, 0, planNo_);
    };
    stopSequence_ = std::make_unique<supervision::StopSequence>(std::move(ports));
}

namespace {

// The model's MCP ledger as the orchestration's ledger port.
class LedgerList : public supervision::LedgerStore {
public:
    explicit LedgerList(std::vector<policy::LedgerEntry> &entries)
        : entries_(entries) {}
    const std::vector<policy::LedgerEntry> &entries() const override { return entries_; }
    void dropExited(const std::vector<os::ProcessInfo> &snapshot) override {
        erase([&](const policy::LedgerEntry &e) {
            return std::none_of(snapshot.begin(), snapshot.end(), [&](const os::ProcessInfo &p) {
                return p.pid == e.process.pid && p.startTime == e.process.startTime &&
                       p.state != os::RunState::Zombie;
            });
        });
    }
    void remove(const std::vector<os::Identity> &processes) override {
        erase([&](const policy::LedgerEntry &e) {
            return std::find(processes.begin(), processes.end(), e.process) != processes.end();
        });
    }

private:
    template <typename F> void erase(F gone) {
        entries_.erase(std::remove_if(entries_.begin(), entries_.end(), gone), entries_.end());
    }
    std::vector<policy::LedgerEntry> &entries_;
};

} // namespace

// The MCP sweep of a dead service, as McpMonitor runs it: Tether's own crash sweep over the
// world's ledger; what it could not end or may not end unasked is listed for a person.
void World::sweepOrphans(const os::Identity &service, std::function<void()> done) {
    if (opt_.broken.skipOrphans) { // the broken port: the sweep is forgotten
        done();
        return;
    }
    LedgerList ledger(ledger_);
    supervision::SweepConfig cfg;
    cfg.grace = std::chrono::milliseconds(config_.orphanGraceMs);
    cfg.killWait = std::chrono::milliseconds(opt_.killWaitMs);
    const supervision::CrashSweep crash = supervision::sweepAfterCrash(
        policy::OrphanMode::Clean, ledger, mcpCommands(), {service}, cfg, *this);
    const auto listed = [&](Pid pid) {
        if (std::find(possible_.begin(), possible_.end(), pid) == possible_.end())
            possible_.push_back(pid);
    };
    for (const policy::Skipped &s : crash.result.plan.skipped)
        if (s.target.kind == policy::OrphanKind::Possible) listed(s.target.id.pid);
    for (const supervision::SweepResult &res : crash.result.report.results)
        if (res.outcome == os::TerminateOutcome::Refused ||
            res.outcome == os::TerminateOutcome::Unknown) // stays on the tray's orphan list
            listed(res.target.id.pid);
    if (possible_.size() > 32) possible_.erase(possible_.begin());
    done();
}

// ---- Observer
// --------------------------------------------------------------------------------------------

void World::log(const std::string &line) {
    if (opt_.collectLog) log_.push_back("    | " + line);
}

void World::notify(policy::NoticeKind kind, const std::string &message) {
    if (kind == policy::NoticeKind::StartedElsewhere) startedElsewhereNoticed_ = true;
    if (kind == policy::NoticeKind::Crashed && !successorDied_ && managed_.present &&
        managed_.process != tracked_)
        for (const ServiceRec &rec : services_)
            if (rec.id == tracked_ && rec.replacedByClient)
                fail("[replacement-crash] pid " + std::to_string(rec.id.pid) +
                     ", replaced by another client's ensure(), was told as a crash: " + message);
    if (opt_.collectLog)
        log_.push_back(std::string("    notice ") + policy::toString(kind) + ": " + message);
    if (notices_.size() < 64)
        notices_.push_back(std::string(policy::toString(kind)) + ": " + message);
}

void World::stateChanged(State from, State to, const std::string &reason) {
    shown_ = to;
    if (opt_.collectLog)
        log_.push_back(std::string("    state ") + stateName(from) + " -> " + stateName(to) + " (" +
                       reason + ")");
}

// ---- Driver actions
// -------------------------------------------------------------------------------------

Ms quietMs(const policy::Timings &t) {
    // Enough for every legitimate way to the intended end: a recovery, a stop with its grace, a
    // burst of failing starts ending in Failed.
    return std::max<Ms>(t.burst, 1) *
               (t.startupDeadlineMs + t.graceMs + 600 + t.backoffMaxMs + 2 * t.probeIntervalMs) +
           3 * t.windowMs + 2000;
}

void World::quit(bool keep) {
    if (!exec_) return;
    const int intentBefore = intent_;
    const os::Identity trackedAtQuit = tracked_;
    const std::uint64_t quitAt = startCounter_; // every process started before the quit
    settled_ = false;
    feed(policy::QuitRequested{!keep});
    settle(5000);
    if (failed() || !exec_) return;
    const auto &s = exec_->state();
    const State d = policy::displayState(s);
    const std::string where = std::string(" (display ") + stateName(d) + ", phase " +
                              policy::toString(s.phase) + ", reason: " + s.reason + ")";
    if (!quitDone()) {
        fail("[quit-settle] the quit did not settle within 5000 ms" + where);
        return;
    }
    const bool failedWithReason = d == State::Failed && s.failure;
    const bool stoppedElsewhere = opt_.opencode2 && s.stopCause == policy::StopCause::External;
    if (keep && intentBefore == 1 && !failedWithReason && !stoppedElsewhere) {
        if (s.phase != Phase::Released) {
            fail("[quit-keep] a quit that leaves the service running settled with none left" +
                 where);
            return;
        }
    }
    if (!keep && !failedWithReason) {
        if (s.phase != Phase::Idle)
            fail("[quit-stop] a quit that stops the service settled in phase " +
                 std::string(policy::toString(s.phase)) + where);
        // A 2.x service that another owner replaced in service.json shuts itself down at its
        // next re-read of the file: Tether does not signal it, and stops the one named.
        const Proc *p = proc(trackedAtQuit.pid);
        if (trackedAtQuit.startTime && p && p->start == trackedAtQuit.startTime && p->alive() &&
            !(opt_.opencode2 && p->replaced && !named(*p)))
            fail("[quit-stop] pid " + std::to_string(p->pid) + " still runs after the quit" +
                 where);
        // When it is, the owner the file named at the quit is the service the person meant.
        // (Only while it still runs: after a death, a service another client started is
        // theirs, as after a crash.)
        const bool replaced = trackedAtQuit.startTime && p && p->start == trackedAtQuit.startTime &&
                              p->alive() && p->replaced && !named(*p);
        if (opt_.opencode2 && replaced && managed_.present) {
            const Proc *n = proc(managed_.process.pid);
            if (n && n->start == managed_.process.startTime && n->alive() && n->start <= quitAt)
                fail("[quit-stop] pid " + std::to_string(n->pid) +
                     ", which service.json names, still runs after the quit" + where);
        }
    }
    endTether(true);
}

void World::applyDecoy(const Action &a) {
    const unsigned bits = unsigned(a.a);
    int live = 0;
    for (const Proc &p : procs_)
        live += p.alive() && (p.role == Role::Decoy || p.role == Role::Foreign);
    if (live >= 8) return; // a handful at a time
    Pid reuse = 0;
    switch (bits & 3) {
    case 1:
        reuse = lastFreedService_;
        break;
    case 2:
        reuse = lastFreedMcp_;
        break;
    case 3:
        reuse = reg_.read == supervision::OwnRegistration::Read::Ok ? reg_.id.pid : 0;
        break;
    default:
        break;
    }
    const int listenKind = int((bits >> 2) & 7) % 6;
    const int port = (bits & 32) ? (config_.port == kPortA ? kPortB : kPortA) : config_.port;
    const bool leader = (bits & 64) != 0;
    const bool sameProgram = (bits & 128) != 0 && listenKind == 0;
    const std::vector<std::string> argv = sameProgram
                                              ? std::vector<std::string>{program_, "--other"}
                                              : std::vector<std::string>{"/u/decoy", "-n"};
    const Pid pid = spawn(listenKind ? Role::Foreign : Role::Decoy, 1, true, argv,
                          sameProgram ? program_ : "/u/decoy", reuse);
    if (!pid) return;
    Proc &p = *proc(pid);
    p.termDelay = 1;
    switch (listenKind) {
    case 1:
        listen(pid, port, Family::V4, false);
        p.http = true;
        break;
    case 2:
        listen(pid, port, Family::V6, false);
        p.http = true;
        break;
    case 3:
        listen(pid, port, Family::V4, false, true);
        break;
    case 4:
        listen(pid, port, Family::V6, true);
        p.http = true;
        break;
    case 5:
        listen(pid, port, Family::V4, false);
        break;
    default:
        break;
    }
    if (a.b > 0) push(worldQ_, now_ + a.b, KExit, pid, 0, p.start);
    if (leader) { // a child in its group, then the leader goes: a group id no longer led
        const Pid child = spawn(Role::Decoy, pid, false, {"/u/decoy-child"}, "/u/decoy-child");
        if (child) {
            proc(child)->termDelay = 1;
            push(worldQ_, now_ + std::max<std::int64_t>(1, a.c), KExit, pid, 0, p.start);
        }
    }
}

void World::applyForge(std::int64_t kind) {
    using R = supervision::OwnRegistration;
    const int s = currentService();
    switch (kind % 7) {
    case 0:
        reg_ = R{};
        return;
    case 1:
        reg_ = R{};
        reg_.read = R::Read::Invalid;
        reg_.error = "truncated JSON (simulated)";
        return;
    case 2:
    case 6: { // names a live decoy (2) or a foreign port holder (6) exactly, as Tether writes it
        for (const Proc &p : procs_) {
            if (!p.alive() || (p.role != (kind % 7 == 2 ? Role::Decoy : Role::Foreign))) continue;
            reg_ = R{};
            reg_.read = R::Read::Ok;
            reg_.id = {p.pid, p.start};
            reg_.pgid = p.pgid;
            reg_.port = p.listening ? p.port : config_.port;
            reg_.password = "forged";
            reg_.program = program_;
            reg_.version = "1.0";
            return;
        }
        return;
    }
    case 3: // a dead service of long ago
        for (const ServiceRec &r : services_)
            if (r.dead) {
                reg_ = R{};
                reg_.read = R::Read::Ok;
                reg_.id = r.id;
                reg_.pgid = r.pgid;
                reg_.port = config_.port;
                reg_.password = r.password;
                reg_.program = program_;
                return;
            }
        return;
    case 4: // the live service's pid with another start time
        if (s >= 0 && reg_.read == R::Read::Ok) reg_.id = {services_[std::size_t(s)].id.pid, 7};
        return;
    case 5: // the port field of the file changed
        if (reg_.read == R::Read::Ok) reg_.port = reg_.port == kPortA ? kPortB : kPortA;
        return;
    }
}

void World::apply(const Action &a) {
    if (failed()) return;
    auto tether = [this] {
        if (!exec_) launchTether();
    };
    const int s = currentService();
    Proc *svc = s >= 0 ? proc(services_[std::size_t(s)].id.pid) : nullptr;
    if (svc && svc->start != services_[std::size_t(s)].id.startTime) svc = nullptr;
    switch (a.act) {
    case Act::Advance:
        advance(a.a);
        return;
    case Act::Start:
        tether();
        intent_ = 1;
        feed(policy::StartRequested{});
        return;
    case Act::Stop:
        tether();
        intent_ = 2;
        trackedAtStop_ = tracked_;
        feed(policy::StopRequested{});
        return;
    case Act::Restart:
        tether();
        intent_ = 1;
        feed(policy::RestartRequested{});
        return;
    case Act::QuitKeep:
        quit(true);
        return;
    case Act::QuitStop:
        quit(false);
        return;
    case Act::TetherCrash:
        endTether(false);
        return;
    case Act::TetherLaunch:
        tether();
        return;
    case Act::Settings: {
        const unsigned bits = unsigned(a.a);
        if ((bits & 1) && !opt_.opencode2) config_.port = config_.port == kPortA ? kPortB : kPortA;
        if (bits & 2) config_.autoReplaceOnVersionChange = !config_.autoReplaceOnVersionChange;
        if (bits & 4) config_.installedVersion = config_.installedVersion == "1.0" ? "1.1" : "1.0";
        if (bits & 8) config_.cleanOrphans = !config_.cleanOrphans;
        if (bits & 16) config_.hostPinned = !config_.hostPinned;
        if (bits & 32) opt_.containment = !opt_.containment;
        if (!config_.cleanOrphans) obligations_.clear();
        // A new launch family (hostPinned: the --hostname argument) is a change of the service.
        if (exec_) feed(policy::SettingsChanged{config_, (bits & 16) != 0});
        return;
    }
    case Act::Stall:
        stall(a.a);
        return;
    case Act::Sleep:
        sleepFor(a.a);
        return;
    case Act::Jump:
        jump(a.a);
        return;
    case Act::GapEvent:
        if (exec_) feed(policy::TimeGap{"the OS reported a wake-up"});
        return;
    case Act::StaleAnswer:
        if (exec_ && exec_->state().lastSeq > std::uint64_t(1 + a.a % 2)) {
            const std::uint64_t seq = exec_->state().lastSeq - std::uint64_t(1 + a.a % 2);
            if (seq != exec_->state().probeSeq) feed(policy::ProbeAnswered{seq, true, "1.0", {}});
        }
        return;
    case Act::Crash:
        if (svc) die(svc->pid, "SIGKILL from outside (crash)");
        return;
    case Act::Freeze:
        if (svc) signalFromWorld(svc->pid, Signal::Stop);
        return;
    case Act::Cont:
        if (svc) signalFromWorld(svc->pid, Signal::Continue);
        return;
    case Act::Busy:
        if (s >= 0) services_[std::size_t(s)].busyUntil = now_ + a.a;
        return;
    case Act::Exit0:
        if (svc) unregister(*svc);
        if (svc) die(svc->pid, "exited with status 0");
        return;
    case Act::Ensure:
        if (opt_.opencode2) ensureStart(a);
        return;
    case Act::NextSpec: {
        const std::uint64_t b = std::uint64_t(a.a);
        spec_ = ServiceSpec{};
        spec_.listens = !(b & 1);
        spec_.family = (b & 2) ? Family::V6 : Family::V4;
        spec_.wildcard = (b & 4) != 0;
        spec_.ignoresTerm = (b & 8) != 0;
        spec_.launchFails = (b & 16) != 0;
        spec_.mcp = int((b >> 8) & 7) % 5;
        spec_.leaveGroupMask = unsigned((b >> 12) & 15);
        spec_.stubbornMask = unsigned((b >> 16) & 15);
        spec_.unledgeredMask = unsigned((b >> 20) & 15);
        spec_.exitWithParentMask = unsigned((b >> 24) & 15);
        spec_.latency = Ms((b >> 28) & 15) + 1;
        spec_.startupDelay = std::max<std::int64_t>(1, a.b);
        spec_.termDelay = std::max<std::int64_t>(1, a.c);
        return;
    }
    case Act::Decoy:
        applyDecoy(a);
        return;
    case Act::DecoyExit: {
        int n = int(a.a);
        for (const Proc &p : procs_)
            if (p.alive() && (p.role == Role::Decoy || p.role == Role::Foreign) && n-- <= 0) {
                die(p.pid, "decoy exits");
                return;
            }
        return;
    }
    case Act::ForgeReg:
        applyForge(a.a);
        return;
    case Act::TableErrors:
        errorsUntil_ = now_ + a.a;
        return;
    case Act::McpSpawn:
        if (svc && svc->alive()) mcpSpawnFor(s, int(a.a));
        return;
    case Act::McpLeave:
    case Act::McpExit: {
        if (s < 0) return;
        int n = int(a.a);
        for (Proc &p : procs_) {
            if (!p.alive() || p.role != Role::Mcp || p.lineage != s || n-- > 0) continue;
            if (a.act == Act::McpExit) {
                die(p.pid, "MCP server exits");
            } else if (p.pgid != p.pid) {
                p.pgid = p.pid; // setsid: a session and a group of its own
                p.sid = p.pid;
            }
            return;
        }
        return;
    }
    case Act::Quiet:
        quiet_ = true;
        advance(quietMs(opt_.timings));
        quiet_ = false;
        checkIntent();
        return;
    case Act::Count:
        return;
    }
}

// ---- Random sequences, replay, shrinking
// ----------------------------------------------------------

WorldOptions modelOptions(std::uint64_t seed, bool opencode2) {
    WorldOptions o;
    policy::Timings &t = o.timings;
    t.probeIntervalMs = 150;
    t.probeTimeoutMs = 100;
    t.startupDeadlineMs = 1200;
    t.windowMs = 1000;
    t.graceMs = 200;
    t.backoffInitialMs = 50;
    t.backoffMaxMs = 800;
    t.burst = 5;
    t.burstWindowMs = 10000;
    t.stableResetMs = 10000;
    const std::uint64_t h = mix(seed ^ 0x5EED);
    o.scriptProgram = h % 3 == 0;
    o.adoptedExitNotice = (h >> 8) % 4 != 0;
    o.splitRunner = (h >> 16) % 2 == 0;
    o.runnerDoneDelay = Ms((h >> 24) % 5) * 20;
    // Half the worlds have an event stream (opencode 1.x): a heartbeat a third of a window.
    o.heartbeatMs = (h >> 32) % 2 == 0 ? 330 : 0;
    o.killWaitMs = 200;
    // The opencode 2.x profile with other clients' ensure() (a third of the worlds when asked:
    // opt in until its open findings are triaged, see tst_supervision_model).
    o.opencode2 = opencode2 && (h >> 40) % 3 == 0;
    return o;
}

WorldOptions scenarioOptions() {
    WorldOptions o = modelOptions(1);
    o.scriptProgram = false;
    o.adoptedExitNotice = true;
    o.splitRunner = true;
    o.runnerDoneDelay = 40;
    o.collectLog = true;
    return o;
}

std::vector<Action> randomActions(std::uint64_t seed, std::size_t count) {
    std::uint64_t r = mix(seed * 7919 + 17);
    auto next = [&r] {
        r = mix(r);
        return r;
    };
    auto below = [&](std::uint64_t n) { return std::int64_t(next() % n); };
    // Weights per action kind (per mille, roughly).
    static const std::pair<Act, int> weights[] = {
        {Act::Advance, 330}, {Act::Start, 45},      {Act::Stop, 30},       {Act::Restart, 22},
        {Act::QuitKeep, 8},  {Act::QuitStop, 6},    {Act::TetherCrash, 2}, {Act::TetherLaunch, 4},
        {Act::Settings, 14}, {Act::Stall, 10},      {Act::Sleep, 6},       {Act::Jump, 5},
        {Act::GapEvent, 6},  {Act::StaleAnswer, 6}, {Act::Crash, 14},      {Act::Freeze, 10},
        {Act::Cont, 8},      {Act::Busy, 18},       {Act::Exit0, 5},       {Act::NextSpec, 25},
        {Act::Decoy, 22},    {Act::DecoyExit, 10},  {Act::ForgeReg, 10},   {Act::TableErrors, 5},
        {Act::McpSpawn, 14}, {Act::McpLeave, 8},    {Act::McpExit, 10},    {Act::Quiet, 3},
        {Act::Ensure, 12}};
    int total = 0;
    for (const auto &w : weights)
        total += w.second;
    std::vector<Action> out;
    out.reserve(count);
    if (count && next() % 5) out.push_back({Act::Start});
    while (out.size() < count) {
        int pick = int(next() % std::uint64_t(total));
        Act act = Act::Advance;
        for (const auto &w : weights)
            if ((pick -= w.second) < 0) {
                act = w.first;
                break;
            }
        Action a{act};
        switch (act) {
        case Act::Advance: {
            const auto k = next() % 10;
            a.a = k < 6 ? 1 + below(50) : k < 9 ? 50 + below(350) : 400 + below(2600);
            break;
        }
        case Act::Settings: {
            static const int choices[] = {1, 1, 2, 4, 4, 6, 8, 16, 32, 1 | 4};
            a.a = choices[next() % 10];
            break;
        }
        case Act::Stall:
        case Act::Sleep:
        case Act::Jump: {
            const auto k = next() % 10;
            a.a = k < 4 ? 1 + below(100) : k < 9 ? 1700 + below(3000) : 3600000 + below(1000);
            break;
        }
        case Act::StaleAnswer:
            a.a = below(2);
            break;
        case Act::Busy:
            a.a = next() % 3 ? 50 + below(700) : 700 + below(2000);
            break;
        case Act::NextSpec: {
            std::uint64_t b = 0;
            if (next() % 20 == 0) b |= 1;  // never listens
            if (next() % 3 == 0) b |= 2;   // v6 (when the host is not pinned)
            if (next() % 4 == 0) b |= 4;   // wildcard
            if (next() % 6 == 0) b |= 8;   // ignores TERM
            if (next() % 20 == 0) b |= 16; // the launch fails
            b |= (next() % 5) << 8;        // MCP children
            for (int shift : {12, 16, 20, 24})
                for (int bit = 0; bit < 4; ++bit)
                    if (next() % (shift == 24 ? 3 : 5) == 0) b |= std::uint64_t(1) << (shift + bit);
            b |= (next() % 8) << 28; // latency
            a.a = std::int64_t(b);
            a.b = next() % 8 ? 1 + below(300) : 300 + below(1500);
            a.c = next() % 4 ? 1 + below(150) : 150 + below(300);
            break;
        }
        case Act::Decoy:
            a.a = below(256);
            a.b = next() % 2 ? 0 : 100 + below(3000);
            a.c = 1 + below(300);
            break;
        case Act::DecoyExit:
            a.a = below(3);
            break;
        case Act::ForgeReg:
            a.a = below(7);
            break;
        case Act::TableErrors:
            a.a = 1 + below(300);
            break;
        case Act::McpSpawn:
            a.a = below(4);
            break;
        case Act::McpLeave:
        case Act::McpExit:
            a.a = below(3);
            break;
        case Act::Ensure:
            a.a = below(2);
            a.b = below(2);
            a.c = next() % 4 == 0;
            break;
        default:
            break;
        }
        out.push_back(a);
    }
    return out;
}

RunResult replay(std::uint64_t seed, const std::vector<Action> &actions, const WorldOptions &o) {
    World w(seed, o);
    w.launchTether();
    RunResult r;
    for (std::size_t i = 0; i < actions.size(); ++i) {
        w.apply(actions[i]);
        if (w.failed()) {
            r.failed = true;
            r.failure = w.failure();
            r.failedAt = w.failedAtStep();
            r.actionIndex = i;
            break;
        }
    }
    r.steps = w.steps();
    if (o.collectLog) r.log = w.log();
    return r;
}

std::string invariantOf(const std::string &failure) {
    const auto open = failure.find('[');
    const auto close = failure.find(']');
    if (open == std::string::npos || close == std::string::npos || close < open) return failure;
    return failure.substr(open, close - open + 1);
}

std::vector<Action> shrink(std::uint64_t seed, std::vector<Action> actions, const WorldOptions &o,
                           int maxReplays) {
    const RunResult first = replay(seed, actions, o);
    if (!first.failed) return actions;
    const std::string want = invariantOf(first.failure);
    actions.resize(first.actionIndex + 1);
    int budget = maxReplays;
    auto stillFails = [&](const std::vector<Action> &candidate) {
        --budget;
        const RunResult r = replay(seed, candidate, o);
        return r.failed && invariantOf(r.failure) == want;
    };
    std::size_t n = 2;
    while (actions.size() >= 2 && budget > 0) {
        const std::size_t chunk = (actions.size() + n - 1) / n;
        bool reduced = false;
        for (std::size_t start = 0; start < actions.size() && budget > 0; start += chunk) {
            std::vector<Action> candidate(actions.begin(), actions.begin() + std::ptrdiff_t(start));
            candidate.insert(candidate.end(),
                             actions.begin() +
                                 std::ptrdiff_t(std::min(actions.size(), start + chunk)),
                             actions.end());
            if (!candidate.empty() && stillFails(candidate)) {
                actions = std::move(candidate);
                n = std::max<std::size_t>(n - 1, 2);
                reduced = true;
                break;
            }
        }
        if (!reduced) {
            if (n >= actions.size()) break;
            n = std::min(actions.size(), n * 2);
        }
    }
    return actions;
}

} // namespace tether::sim
