// Incremental HTTP/1.1 request parser for the demo service: a pure function over the bytes
// received so far, so it can be unit-tested and fuzzed without sockets.
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>

namespace tether::demo {

struct HttpLimits {
    qsizetype maxHeadBytes = 16 * 1024;   // request line + header lines + the blank line
    qsizetype maxBodyBytes = 1024 * 1024; // Content-Length above this is refused (413)
};

using HttpHeaders = QList<QPair<QByteArray, QByteArray>>; // names lower-cased, values trimmed

struct HttpRequest {
    QByteArray method;
    QByteArray target; // as sent: path plus optional "?query"
    QByteArray path;
    QByteArray query;
    QByteArray version; // "HTTP/1.1" or "HTTP/1.0"
    HttpHeaders headers;
    QByteArray body;

    // First value of a header (name in lower case), or a null QByteArray when absent.
    QByteArray header(const QByteArray &lowerName) const;
};

struct HttpParseResult {
    enum class Status { NeedMore, Complete, Error };
    Status status = Status::NeedMore;
    qsizetype consumed = 0; // Complete: how many leading bytes of the buffer this request used
    HttpRequest request;    // Complete only
    int errorStatus = 0;    // Error: the status to answer with (400, 413, 414, 431, 501, 505)
};

// Parses the first request in `buffer` (everything received so far on a connection). Call it
// again with more bytes after NeedMore. Never reads past the buffer; never throws.
HttpParseResult parseHttpRequest(const QByteArray &buffer, const HttpLimits &limits = {});

} // namespace tether::demo
