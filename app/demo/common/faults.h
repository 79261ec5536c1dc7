// The demo service's fault switches, as the real failures look from outside the process.
#pragma once

namespace tether::demo {

// An abrupt death (as SIGKILL / OOM): no cleanup, MCP children are left behind.
[[noreturn]] void crashNow();

// A long synchronous operation on the main thread: nothing is answered until it ends.
void blockMainThreadFor(int ms);

// A deadlock: the main thread never returns, the listening socket stays open. The caller
// restores default signal actions first, so SIGTERM still kills the process.
[[noreturn]] void freezeForever();

} // namespace tether::demo
