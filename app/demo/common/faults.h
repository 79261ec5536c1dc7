// The demo service's fault switches, as the real failures look from outside the process.
#pragma once

namespace tether::demo {

class SignalPipe;

// When the switches fire, in ms since the process started (-1 = never).
struct FaultSchedule {
    int busyAfterMs = -1; // the main thread blocks for busyForMs
    int busyForMs = 0;
    int crashAfterMs = -1;
    int freezeAfterMs = -1;
    bool ignoreTerm = false; // a frozen process then ignores SIGTERM too
};

// Arms the switches on the event loop. Counted from the start of the process, so a crash or
// freeze can also be placed inside a slow start.
void scheduleFaults(const FaultSchedule &faults, SignalPipe &signalPipe);

// An abrupt death (as SIGKILL / OOM): no cleanup, MCP children are left behind.
[[noreturn]] void crashNow();

// A long synchronous operation on the main thread: nothing is answered until it ends.
void blockMainThreadFor(int ms);

// A deadlock: the main thread never returns, the listening socket stays open. The caller
// restores default signal actions first, so SIGTERM still kills the process.
[[noreturn]] void freezeForever();

} // namespace tether::demo
