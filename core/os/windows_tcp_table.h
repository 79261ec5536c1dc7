// Windows only: the pure half of listeningPortOwners(), split out so the table walk and the
// port decoding are testable on a hand-made buffer (wine 8 reports owning pid 0 for every row).
#pragma once

#include "os/process.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tether::os::windows {

enum class TcpFamily { V4, V6 };

struct TcpListener {
    Pid pid = 0; // 0: the OS did not say who owns it
    std::uint16_t port = 0;
    bool ipv6 = false;     // from the AF_INET6 table
    bool wildcard = false; // local address INADDR_ANY / in6addr_any
};

// Walks a GetExtendedTcpTable(TCP_TABLE_OWNER_PID_*) buffer (MIB_TCPTABLE_OWNER_PID or
// MIB_TCP6TABLE_OWNER_PID) of `size` bytes and returns the rows in LISTEN state, with the port
// in host byte order. Rows that do not fit in `size` are ignored, never read.
std::vector<TcpListener> listenersInTcpTable(const void *buffer, std::size_t size,
                                             TcpFamily family);

// The answer for one port from the decoded rows: pid 0 counts as "listening, owner unknown"
// (kept as pid 0 in `listeners`; wine reports 0 as the owner of every row).
PortOwners portOwnersFrom(const std::vector<TcpListener> &listeners, std::uint16_t port);

} // namespace tether::os::windows
