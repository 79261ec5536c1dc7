// Helpers the benchmark programs share (Linux): a free port, a spin of the event loop, a thread's
// CPU time, a bare HTTP request and the "target: met / MISSED" verdict of a printed figure.
// Header-only: each bench_*.cpp is a program of its own.
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QString>
#include <QTcpServer>
#include <QThread>

#include <functional>
#include <string>

#include <ctime>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace tether::bench {

// "target GOAL: met" or "... MISSED"; empty without a goal.
inline QString verdict(const QString &goal, bool met) {
    if (goal.isEmpty()) return {};
    return QStringLiteral("target %1: %2")
        .arg(goal, met ? QStringLiteral("met") : QStringLiteral("MISSED"));
}

inline int freePort() {
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort();
}

// Spins the event loop until condition() holds, for at most pollMs per turn with a nap of napUs
// between turns; false after timeoutMs. The nap sets how finely a figure is timed.
inline bool spinUntil(const std::function<bool()> &condition, int timeoutMs, int pollMs,
                      unsigned long napUs) {
    QElapsedTimer t;
    t.start();
    while (!condition()) {
        if (t.elapsed() > timeoutMs) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, pollMs);
        QThread::usleep(napUs);
    }
    return true;
}

// GET path on 127.0.0.1:port over a plain socket, reading the answer to its end: no Qt objects,
// so a watch thread may call it too.
// CPU time of the calling thread, in ms.
inline double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1000.0 + double(ts.tv_nsec) / 1e6;
}

inline void bareGet(int port, const char *path) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(quint16(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0) {
        const std::string req = std::string("GET ") + path +
                                " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        if (::send(fd, req.data(), req.size(), MSG_NOSIGNAL) == ssize_t(req.size())) {
            char buf[4096];
            while (::recv(fd, buf, sizeof buf, 0) > 0) {
            }
        }
    }
    ::close(fd);
}

} // namespace tether::bench
