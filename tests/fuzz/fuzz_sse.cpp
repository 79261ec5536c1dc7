// The event stream as the service sends it, byte for byte: the HTTP answer's framing
// (HttpStreamReader: head, chunks, Content-Length, up to the close), the server-sent events in
// its body (SseParser) and each event's JSON (parseActivityEvent). The first byte picks where the
// rest is split: read whole or in pieces, the same events come out, and none passes its cap.
#include "service/activity_event.h"
#include "service/http_stream_reader.h"
#include "service/sse_parser.h"

#include <cstdlib>

namespace {

constexpr qint64 kCap = 4096; // small caps, so the fuzzer reaches them

struct Outcome {
    QList<QByteArray> events;
    tether::HttpStreamReader::State http = tether::HttpStreamReader::State::Head;
    bool parsed = true;
};

Outcome read(const QByteArray &bytes, qsizetype step) {
    Outcome out;
    tether::HttpStreamReader http;
    tether::SseParser sse(tether::SseParser::Limits{kCap, kCap});
    for (qsizetype at = 0; at < bytes.size() && out.parsed; at += step) {
        QByteArray body;
        out.http = http.feed(bytes.mid(at, step), &body);
        out.parsed = sse.feed(body, &out.events); // what came before a fault still counts
        if (out.http == tether::HttpStreamReader::State::Failed) break;
    }
    if (out.http == tether::HttpStreamReader::State::Body) out.http = http.closed();
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const qsizetype step = 1 + data[0] % 97;
    const QByteArray bytes(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    const Outcome whole = read(bytes, bytes.size() + 1);
    const Outcome pieces = read(bytes, step);
    if (whole.events != pieces.events || whole.http != pieces.http || whole.parsed != pieces.parsed)
        std::abort();
    for (const QByteArray &event : whole.events) {
        if (event.size() > kCap) std::abort();
        (void)tether::parseActivityEvent(event, 1764410000000);
    }
    return 0;
}
