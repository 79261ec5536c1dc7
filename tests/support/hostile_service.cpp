// tether-hostile: a small HTTP service that speaks enough of opencode 1.x for Tether's opencode1
// profile ([service] program = this), and misbehaves on request. Plain C++ and POSIX sockets, one
// thread per connection, so nothing in it bounds what it sends.
//
//   tether-hostile [serve] [--hostname H] --port P [options]
//     --health ok|endless       /global/health: a normal answer, or 200 with a chunked body
//                               that never ends (64 KiB chunks as fast as they are taken)
//     --health-endless-after N  the first N health answers are normal (it becomes healthy)
//     --events normal|flood|no-newline|big-line
//                               /global/event: server.connected then a heartbeat a second;
//                               heartbeats as fast as they are taken; bytes without a newline,
//                               endlessly; one 50 MB line, then the end of the stream
//     --log-flood MB            writes MB megabytes a second of lines to stdout (the log)
//     --stats FILE              keeps "health N\nevents N\n" (requests so far) in FILE
// Other routes opencode 1.x has: /session ([]), /session/status ({}), /mcp ({}),
// /config ({"mcp":{}}); anything else 404.
#include <arpa/inet.h>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace {

struct Options {
    std::string host = "127.0.0.1";
    int port = 0;
    std::string health = "ok";
    long healthEndlessAfter = 0;
    std::string events = "normal";
    long logFloodMb = 0;
    std::string stats;
} opt;

std::atomic<long> healthRequests{0}, eventRequests{0};
std::mutex statsMutex;

void writeStats() {
    if (opt.stats.empty()) return;
    std::lock_guard<std::mutex> lock(statsMutex);
    const std::string tmp = opt.stats + ".tmp";
    if (FILE *f = std::fopen(tmp.c_str(), "w")) {
        std::fprintf(f, "health %ld\nevents %ld\n", healthRequests.load(), eventRequests.load());
        std::fclose(f);
        std::rename(tmp.c_str(), opt.stats.c_str());
    }
}

bool sendAll(int fd, const std::string &s) {
    size_t off = 0;
    while (off < s.size()) {
        const ssize_t n = ::send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
        if (n <= 0) return false;
        off += size_t(n);
    }
    return true;
}

bool chunk(int fd, const std::string &data) {
    char head[32];
    std::snprintf(head, sizeof head, "%zx\r\n", data.size());
    return sendAll(fd, head + data + "\r\n");
}

bool answer(int fd, int code, const std::string &body) {
    const char *reason = code == 200 ? "OK" : "Not Found";
    return sendAll(fd, "HTTP/1.1 " + std::to_string(code) + " " + reason +
                           "\r\nContent-Type: application/json\r\nContent-Length: " +
                           std::to_string(body.size()) + "\r\n\r\n" + body);
}

bool streamHead(int fd, const char *type) {
    return sendAll(fd, std::string("HTTP/1.1 200 OK\r\nContent-Type: ") + type +
                           "\r\nCache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n");
}

std::string event(const char *type) {
    return std::string("data: {\"payload\":{\"type\":\"") + type + "\",\"properties\":{}}}\n\n";
}

void endless(int fd) { // until the client goes
    const std::string block(64 * 1024, ' ');
    while (chunk(fd, block)) {
    }
}

void serveEvents(int fd) {
    ++eventRequests;
    writeStats();
    if (!streamHead(fd, "text/event-stream") || !chunk(fd, event("server.connected"))) return;
    if (opt.events == "flood") {
        std::string many;
        for (int i = 0; i < 1000; ++i)
            many += event("server.heartbeat");
        while (chunk(fd, many)) {
        }
    } else if (opt.events == "no-newline") {
        const std::string block(64 * 1024, 'x');
        while (chunk(fd, block)) {
        }
    } else if (opt.events == "big-line") {
        chunk(fd, "data: ");
        const std::string block(1024 * 1024, 'x');
        for (int i = 0; i < 50 && chunk(fd, block); ++i) {
        }
        chunk(fd, "\n\n");
        sendAll(fd, "0\r\n\r\n"); // the end of the stream
    } else {
        for (;;) {
            std::this_thread::sleep_for(std::chrono::seconds(1));
            if (!chunk(fd, event("server.heartbeat"))) return;
        }
    }
}

void connection(int fd) {
    std::string buffer;
    char in[4096];
    for (;;) {
        size_t end;
        while ((end = buffer.find("\r\n\r\n")) == std::string::npos) {
            const ssize_t n = ::recv(fd, in, sizeof in, 0);
            if (n <= 0) {
                ::close(fd);
                return;
            }
            buffer.append(in, size_t(n));
            if (buffer.size() > 65536) {
                ::close(fd);
                return;
            }
        }
        const std::string head = buffer.substr(0, end);
        buffer.erase(0, end + 4); // GET only: no body to skip
        const size_t sp = head.find(' ');
        std::string path = head.substr(sp + 1, head.find(' ', sp + 1) - sp - 1);
        path = path.substr(0, path.find('?'));
        bool more = true;
        if (path == "/global/health") {
            const long n = ++healthRequests;
            writeStats();
            if (opt.health == "endless" && n > opt.healthEndlessAfter) {
                if (streamHead(fd, "application/json")) endless(fd);
                more = false;
            } else {
                more = answer(fd, 200, "{\"healthy\":true,\"version\":\"9.9.9-hostile\"}");
            }
        } else if (path == "/global/event") {
            serveEvents(fd);
            more = false;
        } else if (path == "/session") {
            more = answer(fd, 200, "[]");
        } else if (path == "/session/status" || path == "/mcp") {
            more = answer(fd, 200, "{}");
        } else if (path == "/config") {
            more = answer(fd, 200, "{\"mcp\":{}}");
        } else {
            more = answer(fd, 404, "{}");
        }
        if (!more) break;
    }
    ::close(fd);
}

void logFlood() {
    const std::string line(99, 'l');
    const long linesPerTick = opt.logFloodMb * 1000000 / 100 / 100; // 100 ticks a second
    for (;;) {
        for (long i = 0; i < linesPerTick; ++i)
            std::printf("%s\n", line.c_str());
        std::fflush(stdout);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

} // namespace

int main(int argc, char **argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : "";
        if (a == "--port")
            opt.port = std::atoi(next), ++i;
        else if (a == "--hostname")
            opt.host = next, ++i;
        else if (a == "--health")
            opt.health = next, ++i;
        else if (a == "--health-endless-after")
            opt.healthEndlessAfter = std::atol(next), ++i;
        else if (a == "--events")
            opt.events = next, ++i;
        else if (a == "--log-flood")
            opt.logFloodMb = std::atol(next), ++i;
        else if (a == "--stats")
            opt.stats = next, ++i;
    }
    if (opt.port <= 0) {
        std::fprintf(stderr, "tether-hostile: --port P is required\n");
        return 2;
    }
    std::signal(SIGPIPE, SIG_IGN);
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    ::setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(std::uint16_t(opt.port));
    ::inet_pton(AF_INET, opt.host.c_str(), &addr.sin_addr);
    if (::bind(s, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 || ::listen(s, 64) != 0) {
        std::fprintf(stderr, "tether-hostile: cannot listen on %s:%d: %s\n", opt.host.c_str(),
                     opt.port, std::strerror(errno));
        return 1;
    }
    std::printf("tether-hostile listening on %s:%d\n", opt.host.c_str(), opt.port);
    std::fflush(stdout);
    writeStats();
    if (opt.logFloodMb > 0) std::thread(logFlood).detach();
    for (;;) {
        const int c = ::accept(s, nullptr, nullptr);
        if (c >= 0) std::thread(connection, c).detach();
    }
}
