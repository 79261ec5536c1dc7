#include "service/http_stream_reader.h"

#include <QList>

#include <algorithm>

namespace tether {

namespace {
constexpr qsizetype kMaxHead = 64 * 1024;
constexpr qsizetype kMaxChunkLine = 1024;
} // namespace

HttpStreamReader::State HttpStreamReader::fail(const QString &why) {
    state_ = State::Failed;
    error_ = why;
    pending_.clear();
    return state_;
}

bool HttpStreamReader::parseHead(const QByteArray &head) {
    const QList<QByteArray> lines = head.split('\n');
    const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
    bool ok = false;
    status_ = first.value(1).toInt(&ok);
    if (!first.value(0).startsWith("HTTP/1.") || !ok || status_ < 100 || status_ > 999) {
        fail(QStringLiteral("the event stream's answer is not HTTP/1.x"));
        return false;
    }
    framing_ = Framing::UntilClose;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0) continue;
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed().toLower();
        if (name == "transfer-encoding" && value.contains("chunked")) {
            framing_ = Framing::Chunked; // wins over a Content-Length (RFC 9112 6.3)
        } else if (name == "content-length" && framing_ != Framing::Chunked) {
            left_ = value.toLongLong(&ok);
            if (!ok || left_ < 0) {
                fail(QStringLiteral("the event stream's answer has a bad Content-Length"));
                return false;
            }
            framing_ = Framing::Length;
        }
    }
    declared_ = framing_ == Framing::Length ? left_ : -1;
    chunk_ = Chunk::Size;
    state_ = State::Body;
    if (framing_ == Framing::Length && left_ == 0) state_ = State::Done;
    return true;
}

HttpStreamReader::State HttpStreamReader::feed(const QByteArray &bytes, QByteArray *body) {
    if (state_ == State::Head) {
        pending_ += bytes;
        // The first blank line ends it, \r\n\r\n or a bare \n\n (found by fuzz_sse: the later
        // of the two was taken when the head came whole, the earlier when it came in pieces).
        qsizetype end = pending_.indexOf("\r\n\r\n");
        qsizetype skip = 4;
        const qsizetype bare = pending_.indexOf("\n\n");
        if (bare >= 0 && (end < 0 || bare < end)) {
            end = bare;
            skip = 2;
        }
        if (end < 0) {
            if (pending_.size() > kMaxHead)
                return fail(
                    QStringLiteral("the event stream's headers pass %1 bytes").arg(kMaxHead));
            return state_;
        }
        if (end > kMaxHead)
            return fail(QStringLiteral("the event stream's headers pass %1 bytes").arg(kMaxHead));
        const QByteArray rest = pending_.mid(end + skip);
        const QByteArray head = pending_.left(end);
        pending_.clear();
        if (!parseHead(head)) return state_;
        if (state_ == State::Body) readBody(rest, 0, body);
        return state_;
    }
    if (state_ == State::Body) readBody(bytes, 0, body);
    return state_;
}

qsizetype HttpStreamReader::take(const QByteArray &bytes, qsizetype at, QByteArray *body) {
    const qsizetype n = qsizetype(std::min<qint64>(left_, bytes.size() - at));
    body->append(bytes.constData() + at, n);
    left_ -= n;
    return at + n;
}

void HttpStreamReader::readBody(const QByteArray &bytes, qsizetype from, QByteArray *body) {
    qsizetype at = from;
    while (at < bytes.size() && state_ == State::Body) {
        switch (framing_) {
        case Framing::UntilClose:
            body->append(bytes.mid(at));
            return;
        case Framing::Length:
            at = take(bytes, at, body);
            if (left_ == 0) state_ = State::Done;
            break;
        case Framing::Chunked: {
            if (chunk_ == Chunk::Data) {
                at = take(bytes, at, body);
                if (left_ == 0) chunk_ = Chunk::DataEnd;
                break;
            }
            // A line: the chunk's size, the CRLF after its data, or a trailer.
            const qsizetype nl = bytes.indexOf('\n', at);
            pending_ += bytes.mid(at, nl < 0 ? -1 : nl - at);
            if (pending_.size() > kMaxChunkLine) {
                fail(QStringLiteral("an event stream chunk line passes %1 bytes")
                         .arg(kMaxChunkLine));
                return;
            }
            if (nl < 0) return; // the rest of the line comes later
            at = nl + 1;
            const QByteArray line = pending_.trimmed();
            pending_.clear();
            if (chunk_ == Chunk::DataEnd) {
                if (!line.isEmpty()) {
                    fail(QStringLiteral("an event stream chunk is longer than it said"));
                    return;
                }
                chunk_ = Chunk::Size;
            } else if (chunk_ == Chunk::Size) {
                bool ok = false;
                const QByteArray hex =
                    line.left(line.indexOf(';') < 0 ? line.size() : line.indexOf(';')).trimmed();
                left_ = hex.toLongLong(&ok, 16);
                if (!ok || left_ < 0 || hex.size() > 15) {
                    fail(QStringLiteral("an event stream chunk has a bad size"));
                    return;
                }
                chunk_ = left_ == 0 ? Chunk::Trailer : Chunk::Data;
            } else if (line.isEmpty()) { // the trailer's end: the body is complete
                state_ = State::Done;
            }
            break;
        }
        }
    }
}

HttpStreamReader::State HttpStreamReader::closed() {
    if (state_ == State::Body && framing_ == Framing::UntilClose)
        state_ = State::Done;
    else if (state_ == State::Head || state_ == State::Body)
        return fail(QStringLiteral("the event stream ended in the middle of its answer"));
    return state_;
}

} // namespace tether
