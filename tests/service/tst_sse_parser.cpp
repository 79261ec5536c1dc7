// The event stream's framing, byte by byte: the HTTP answer (head, chunks, Content-Length, up to
// the close) and the server-sent events in its body, with their caps. What arrives split
// anywhere reads the same as what arrives whole; nothing past a cap is kept.
#include "service/http_stream_reader.h"
#include "service/sse_parser.h"

#include <QtTest>

using namespace tether;

namespace {

// Feeds `bytes` in pieces of `step` bytes; returns the body and the last state.
QByteArray readAll(HttpStreamReader &r, const QByteArray &bytes, qsizetype step,
                   HttpStreamReader::State *state) {
    QByteArray body;
    for (qsizetype at = 0; at < bytes.size(); at += step)
        *state = r.feed(bytes.mid(at, step), &body);
    return body;
}

const QByteArray kChunked = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                            "Transfer-Encoding: chunked\r\n\r\n"
                            "6\r\ndata: \r\n19\r\n{\"payload\":{\"type\":\"a\"}}\n\r\n"
                            "1;ext=1\r\n\n\r\n0\r\n\r\n";

} // namespace

class TestSseParser : public QObject {
    Q_OBJECT
private slots:
    void chunkedBodySplitAnywhere() {
        for (qsizetype step : {qsizetype(1), qsizetype(2), qsizetype(7), kChunked.size()}) {
            HttpStreamReader r;
            HttpStreamReader::State state = HttpStreamReader::State::Head;
            const QByteArray body = readAll(r, kChunked, step, &state);
            QCOMPARE(r.status(), 200);
            QCOMPARE(state, HttpStreamReader::State::Done);
            QCOMPARE(body, QByteArray("data: {\"payload\":{\"type\":\"a\"}}\n\n"));
        }
    }

    // The first blank line ends the head, whichever kind (fuzz_sse's seed
    // regression-two-head-ends: whole, the later \r\n\r\n was taken; in pieces, the \n\n).
    void theFirstBlankLineEndsTheHead() {
        const QByteArray answer = "HTTP/1.1 200 OK\r\nX: 1\r\n\nbody\r\n\r\nmore";
        for (qsizetype step : {qsizetype(1), qsizetype(5), answer.size()}) {
            HttpStreamReader r;
            HttpStreamReader::State state = HttpStreamReader::State::Head;
            QCOMPARE(readAll(r, answer, step, &state), QByteArray("body\r\n\r\nmore"));
        }
    }

    void lengthAndCloseDelimitedBodies() {
        HttpStreamReader length;
        QByteArray body;
        QCOMPARE(length.feed("HTTP/1.1 401 No\r\nContent-Length: 3\r\n\r\nabcdef", &body),
                 HttpStreamReader::State::Done);
        QCOMPARE(length.status(), 401);
        QCOMPARE(body, QByteArray("abc"));
        HttpStreamReader untilClose;
        body.clear();
        QCOMPARE(untilClose.feed("HTTP/1.0 200 OK\n\nxyz", &body), HttpStreamReader::State::Body);
        QCOMPARE(untilClose.closed(), HttpStreamReader::State::Done);
        QCOMPARE(body, QByteArray("xyz"));
    }

    void hostileAnswersFail() {
        QByteArray body;
        HttpStreamReader notHttp;
        QCOMPARE(notHttp.feed("SSH-2.0-OpenSSH\r\n\r\n", &body), HttpStreamReader::State::Failed);
        HttpStreamReader endlessHead;
        QCOMPARE(endlessHead.feed("HTTP/1.1 200 OK\r\nX: " + QByteArray(70 * 1024, 'x'), &body),
                 HttpStreamReader::State::Failed);
        HttpStreamReader endlessSize;
        QCOMPARE(endlessSize.feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" +
                                      QByteArray(2048, 'f'),
                                  &body),
                 HttpStreamReader::State::Failed);
        HttpStreamReader badSize;
        QCOMPARE(badSize.feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", &body),
                 HttpStreamReader::State::Failed);
        HttpStreamReader cut;
        cut.feed("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc", &body);
        QCOMPARE(cut.closed(), HttpStreamReader::State::Failed);
    }

    void eventsSplitAnywhere() {
        const QByteArray stream =
            "data: {\"a\":1}\r\n\r\n: comment\nevent: x\ndata: one\ndata: two\n\n";
        for (qsizetype step : {qsizetype(1), qsizetype(3), stream.size()}) {
            SseParser p;
            QList<QByteArray> events;
            for (qsizetype at = 0; at < stream.size(); at += step)
                QVERIFY(p.feed(stream.mid(at, step), &events));
            QCOMPARE(events, (QList<QByteArray>{"{\"a\":1}", "one\ntwo"}));
        }
    }

    void capsEndTheParse() {
        SseParser lines(SseParser::Limits{16, 64});
        QList<QByteArray> events;
        QVERIFY(!lines.feed(QByteArray(17, 'x'), &events)); // no newline, past the line cap
        QVERIFY(lines.error().contains(QLatin1String("larger than 16")));
        QVERIFY(!lines.feed("data: a\n\n", &events)); // nothing more until reset
        lines.reset();
        QVERIFY(lines.feed("data: a\n\n", &events));
        QCOMPARE(events.size(), 1);
        SseParser event(SseParser::Limits{16, 20});
        QVERIFY(!event.feed("data: 0123456789\ndata: 0123456789\n", &events));
        QVERIFY(event.error().contains(QLatin1String("event is larger than 20")));
    }
};

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sse_parser.moc"
