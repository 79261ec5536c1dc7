// One MCP refresh at a time, and only its own answer may end it. A refresh begun for a service
// that has since died is abandoned; its late answer must not end the refresh begun for the
// next service (issue 25 e: a stale config answer cleared the flag of the newer refresh, and
// two refreshes then ran at once). Plain C++, no Qt.
#pragma once

#include <cstdint>
#include <optional>

namespace tether::mcp {

class RefreshGate {
public:
    // A token for a new refresh, or nothing while one runs.
    std::optional<std::uint64_t> begin() {
        if (current_) return std::nullopt;
        current_ = ++last_;
        return current_;
    }
    // The refresh `token` is over; false (and nothing changes) for an abandoned one's.
    bool end(std::uint64_t token) {
        if (current_ != token) return false;
        current_.reset();
        return true;
    }
    // Whether `token` is still the refresh that runs (its answers may be used).
    bool current(std::uint64_t token) const { return current_ == token; }
    // The service it was for is gone: a new refresh may begin; the old one's answers are stale.
    void abandon() { current_.reset(); }
    bool busy() const { return current_.has_value(); }

private:
    std::uint64_t last_ = 0;
    std::optional<std::uint64_t> current_;
};

} // namespace tether::mcp
