// The framing of a server-sent event stream (text/event-stream), read as bytes arrive: lines
// end with \n (a \r before it is dropped), `data:` lines build an event, a blank line ends it;
// `event:`, `id:`, `retry:` and comments carry nothing Tether uses. Pure and bounded: a line or
// an event over its cap ends the parse (the caller drops the stream), and bytes without a
// newline are never kept beyond the line cap. The event stream's client and its fuzz target
// share it.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace tether {

class SseParser {
public:
    struct Limits {
        qint64 maxLineBytes = 4 * 1024 * 1024;
        qint64 maxEventBytes = 4 * 1024 * 1024;
    };
    explicit SseParser(Limits limits);
    SseParser();

    // Appends the data of every event completed by `bytes` to *events, and counts the comment
    // lines (":"; opencode 2.x's heartbeat) in *comments when given. False once a line or an
    // event passed its cap (error() says which): nothing more is parsed until reset().
    bool feed(const QByteArray &bytes, QList<QByteArray> *events, int *comments = nullptr);
    QString error() const { return error_; }
    void reset(); // a new connection: nothing of the last one is kept

private:
    Limits limits_;
    QByteArray line_;  // bytes after the last complete line
    QByteArray event_; // data lines of the event being read
    bool inEvent_ = false;
    QString error_;
};

} // namespace tether
