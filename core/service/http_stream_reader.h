// The response side of one HTTP/1.1 GET whose body is taken as it arrives (the event stream):
// the status line and headers, then the body as its Content-Length, its chunks, or up to the
// connection's end says. Pure and bounded: the head at most 64 KiB, a chunk-size line at most
// 1 KiB; the body is handed out as it comes, for the caller to bound. The event stream's client
// reads with it (service/activity_monitor.h), and fuzz_sse feeds it whatever bytes it likes.
#pragma once

#include <QByteArray>
#include <QString>

namespace tether {

class HttpStreamReader {
public:
    enum class State { Head, Body, Done, Failed };

    // Appends the body bytes found in `bytes` to *body; returns the state after them.
    State feed(const QByteArray &bytes, QByteArray *body);
    // The connection ended: Done for a body delimited by the end, Failed otherwise.
    State closed();

    State state() const { return state_; }
    int status() const { return status_; } // 0 until the status line is read
    // What the head declared (Content-Length, not chunked); -1 when it did not say.
    qint64 contentLength() const { return declared_; }
    QString error() const { return error_; }

private:
    enum class Framing { Length, Chunked, UntilClose };
    enum class Chunk { Size, Data, DataEnd, Trailer };
    State fail(const QString &why);
    bool parseHead(const QByteArray &head);
    void readBody(const QByteArray &bytes, qsizetype from, QByteArray *body);
    // Up to left_ body bytes from `at` onto *body; returns where it stopped.
    qsizetype take(const QByteArray &bytes, qsizetype at, QByteArray *body);

    State state_ = State::Head;
    QByteArray pending_; // the head, or a chunk-size / trailer line, not complete yet
    int status_ = 0;
    Framing framing_ = Framing::UntilClose;
    Chunk chunk_ = Chunk::Size;
    qint64 left_ = 0; // Length: body bytes to come; Chunked: bytes left in this chunk
    qint64 declared_ = -1;
    QString error_;
};

} // namespace tether
