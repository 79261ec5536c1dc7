// Bounded recovery, as pure functions over plain data. Times are milliseconds on a monotonic
// clock that the caller injects; nothing here reads a clock, a file or a socket.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tether::policy {

using Ms = std::int64_t;

struct Timings {
    Ms probeIntervalMs = 5000;
    Ms probeTimeoutMs = 2000;
    Ms startupDeadlineMs = 30000;
    Ms windowMs = 30000;
    Ms graceMs = 5000;
    Ms backoffInitialMs = 1000;
    Ms backoffMaxMs = 30000;
    int burst = 5;
    Ms burstWindowMs = 600000;
    Ms stableResetMs = 600000;
};

// Start-up probing: 25 ms, doubling, capped at 500 ms (attempt 0 is the first probe).
Ms startupProbeDelay(int attempt);

// ---- The recovery window (rules 1 and 8) ----------------------------------------------------
// The window runs from the anchor: the last answered probe, or the first probe after a gap in
// Tether's own time (sleep, stall, clock jump). Only a probe sent at or after the anchor and
// missed is evidence; the age of the last answer alone never is.
struct RecoveryWindow {
    Ms anchor = 0;
    bool freshMiss = false;     // a probe sent at/after the anchor went unanswered
    Ms answered = 0;            // the last answer, open or gap: where life signs' credit starts
    std::optional<Ms> lifeSign; // the last credited life sign since the window opened or a gap
};

RecoveryWindow windowOpenedAt(Ms now); // a service just started or was adopted
RecoveryWindow onProbeAnswered(RecoveryWindow w, Ms now);
RecoveryWindow onProbeMissed(RecoveryWindow w, Ms probeSentAt);
RecoveryWindow onTimeGap(RecoveryWindow w, Ms now); // restart the window from now
// A life sign on the service's event stream (a heartbeat, any event) at `now`: its event loop
// runs, so the window restarts from it as from an answer, but only for signs within one window
// of the last answer. A process whose loop runs while its health route stays silent (wedged
// handler, wrong listener) is still replaced, after at most two windows instead of one; a frozen
// one sends nothing and is replaced after one, as before.
RecoveryWindow onLifeSign(RecoveryWindow w, Ms now, const Timings &t);

struct WindowDecision {
    bool recover = false; // window spent with fresh evidence: verify, then terminate
    Ms remainingMs = 0;   // when not recovering: how long the window still runs (>= 0)
};
WindowDecision decideWindow(const RecoveryWindow &w, Ms now, const Timings &t);

// ---- The probe cadence ------------------------------------------------------------------------
// When the next health probe is due after an answered one sent at `sentAt`. With no life sign on
// the event stream: probeIntervalMs after it, as always. While the stream shows life, probing
// relaxes (idle, most of Tether's cost is its probes): the probe waits until the stream has been
// quiet for streamQuietMs, and never longer than relaxedProbeIntervalMs after the last one.
// The recovery window's promise holds: every probe is due at most max(interval, quiet) after the
// last sign of life (answer or event), so a frozen service's first miss comes within
// quiet + timeout <= windowMs of its last sign, and it is replaced when the window since that
// sign is spent, as with probes every interval. A probe that misses ends the relaxation (only
// an answer schedules a relaxed probe).
Ms streamQuietMs(const Timings &t);
Ms relaxedProbeIntervalMs(const Timings &t);
Ms nextProbeAt(const RecoveryWindow &w, Ms sentAt, const Timings &t);

// A timer that fired far later than it was due means Tether did not experience that time
// (system sleep, SIGSTOP, starvation): such a gap must never count against the service.
bool isTimeGap(Ms dueAt, Ms firedAt, const Timings &t); // also: far earlier (clock set back)

// ---- Identity and port checks before any signal (rules 2, 3 and 7) --------------------------
// What a verification found of the pid (its start time against the one recorded).
enum class Liveness { Alive, Gone, Different, Unknown };
// Who holds the port, as seen from a service that wants to listen on `family` (loopback):
// Invisible is an owner the tables do not name (another user's).
enum class PortHolder { Free, Service, Other, Invisible, Unknown };

enum class KillVerdict {
    Proceed,   // positively the service: graceful stop, grace, kill, group kill
    DropStale, // gone, a different process, or alive without the port: never signal; drop it
    Refuse,    // unknown, or not provably the service: never signal; look again later
};
// startedByUs: Tether launched this process itself (it is its child), which identifies it
// even when it has stopped listening.
KillVerdict decideKill(Liveness identity, PortHolder port, bool startedByUs);

// ---- Restarts: back-off and giving up (rule 4) ----------------------------------------------
struct RestartBudget {
    std::vector<Ms> failures; // crashes and failed starts, oldest first
    int consecutive = 0;      // failures since the service was last stable
};

struct RestartDecision {
    bool giveUp = false;
    Ms delayMs = 0;
};

RestartBudget recordFailure(RestartBudget b, Ms now, const Timings &t);
RestartDecision decideRestart(const RestartBudget &b, Ms now, const Timings &t);
// Healthy without interruption since healthySince: after stableResetMs the budget is cleared.
RestartBudget onHealthy(RestartBudget b, Ms healthySince, Ms now, const Timings &t);

// ---- Versions (rule 5) ----------------------------------------------------------------------
enum class VersionAction { None, ShowMismatch, Replace };
// Replace only when opted in and the installed version is newer than the running one.
VersionAction decideVersion(const std::string &reported, const std::string &installed,
                            bool autoReplace);
// -1, 0, 1 as a is older, the same, newer than b (dotted numbers, then a pre-release before
// its release); nullopt when either cannot be read or two pre-releases differ.
std::optional<int> compareVersions(const std::string &a, const std::string &b);
bool sameVersion(const std::string &a, const std::string &b); // ignores a leading 'v', spaces

} // namespace tether::policy
