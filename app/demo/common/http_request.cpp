#include "demo/common/http_request.h"

#include <optional>

namespace tether::demo {

QByteArray HttpRequest::header(const QByteArray &lowerName) const {
    for (const auto &h : headers)
        if (h.first == lowerName) return h.second;
    return {};
}

namespace {

using Status = HttpParseResult::Status;

HttpParseResult needMore() {
    return {};
}

HttpParseResult error(int status) {
    HttpParseResult r;
    r.status = Status::Error;
    r.errorStatus = status;
    return r;
}

struct Line {
    qsizetype begin = 0;
    qsizetype end = 0;  // excludes the line terminator
    qsizetype next = 0; // first byte after the terminator
};

// A line ends at LF; a CR right before it belongs to the terminator (RFC 9112 allows bare LF).
std::optional<Line> lineAt(const QByteArray &buf, qsizetype from) {
    const qsizetype lf = buf.indexOf('\n', from);
    if (lf < 0) return std::nullopt;
    qsizetype end = lf;
    if (end > from && buf.at(end - 1) == '\r') --end;
    return Line{from, end, lf + 1};
}

// RFC 9110 token characters (methods, header names).
bool isTokenChar(char c) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
    switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~':
        return true;
    default:
        return false;
    }
}

bool isToken(const QByteArray &s) {
    if (s.isEmpty()) return false;
    for (char c : s)
        if (!isTokenChar(c)) return false;
    return true;
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// Visible ASCII and obs-text; no controls, no spaces.
bool isTargetChar(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u > 0x20 && u != 0x7f;
}

// Header values: visible characters, spaces, tabs and obs-text; no other controls (no CR, NUL).
bool isFieldValueChar(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u == '\t' || (u >= 0x20 && u != 0x7f);
}

QByteArray trimOws(const QByteArray &s) {
    qsizetype b = 0, e = s.size();
    while (b < e && (s.at(b) == ' ' || s.at(b) == '\t'))
        ++b;
    while (e > b && (s.at(e - 1) == ' ' || s.at(e - 1) == '\t'))
        --e;
    return s.mid(b, e - b);
}

// Fills method/target/path/query/version; returns 0 or the error status.
int parseRequestLine(const QByteArray &line, HttpRequest &req) {
    const QList<QByteArray> parts = line.split(' ');
    if (parts.size() != 3) return 400;
    req.method = parts[0];
    req.target = parts[1];
    req.version = parts[2];
    if (!isToken(req.method)) return 400;
    if (req.target.isEmpty() || req.target.at(0) != '/')
        return 400; // origin-form only: the demo is not a proxy
    for (char c : req.target)
        if (!isTargetChar(c)) return 400;
    if (req.version != "HTTP/1.1" && req.version != "HTTP/1.0") {
        const QByteArray &v = req.version;
        const bool wellFormed = v.size() == 8 && v.startsWith("HTTP/") && isDigit(v.at(5)) &&
                                v.at(6) == '.' && isDigit(v.at(7));
        return wellFormed ? 505 : 400;
    }
    const qsizetype q = req.target.indexOf('?');
    req.path = q < 0 ? req.target : req.target.left(q);
    req.query = q < 0 ? QByteArray() : req.target.mid(q + 1);
    return 0;
}

// Returns 0 or the error status.
int parseHeaderLine(const QByteArray &line, HttpHeaders &headers) {
    if (line.startsWith(' ') || line.startsWith('\t')) return 400; // obsolete line folding
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0) return 400;
    const QByteArray name = line.left(colon);
    if (!isToken(name)) return 400; // includes whitespace before the colon (a smuggling vector)
    const QByteArray value = trimOws(line.mid(colon + 1));
    for (char c : value)
        if (!isFieldValueChar(c)) return 400;
    headers.append({name.toLower(), value});
    return 0;
}

// Body length from Content-Length (all copies must agree) or 0; -1 with *status set on error.
qsizetype contentLength(const HttpHeaders &headers, const HttpLimits &limits, int *status) {
    std::optional<qsizetype> length;
    for (const auto &h : headers) {
        if (h.first == "transfer-encoding") {
            *status = 501; // no chunked bodies: the demo's clients never need them
            return -1;
        }
        if (h.first != "content-length") continue;
        const QByteArray &v = h.second;
        if (v.isEmpty()) {
            *status = 400;
            return -1;
        }
        for (char c : v) {
            if (!isDigit(c)) {
                *status = 400;
                return -1;
            }
        }
        // Anything with more digits than the limit has is too large; no overflow possible.
        if (v.size() > 10) {
            *status = 413;
            return -1;
        }
        const qsizetype n = v.toLongLong();
        if (length && *length != n) {
            *status = 400;
            return -1;
        }
        length = n;
    }
    const qsizetype n = length.value_or(0);
    if (n > limits.maxBodyBytes) {
        *status = 413;
        return -1;
    }
    return n;
}

} // namespace

HttpParseResult parseHttpRequest(const QByteArray &buf, const HttpLimits &limits) {
    qsizetype pos = 0;

    // Robustness (RFC 9112 2.2): ignore empty lines before the request line.
    std::optional<Line> line = lineAt(buf, pos);
    while (line && line->begin == line->end) {
        pos = line->next;
        line = lineAt(buf, pos);
    }
    if (!line) {
        if (buf.size() >= limits.maxHeadBytes) return error(414);
        return needMore();
    }
    if (line->next > limits.maxHeadBytes) return error(414);

    HttpParseResult result;
    HttpRequest &req = result.request;
    if (const int s = parseRequestLine(buf.mid(line->begin, line->end - line->begin), req))
        return error(s);
    pos = line->next;

    for (;;) {
        line = lineAt(buf, pos);
        if (!line) {
            if (buf.size() >= limits.maxHeadBytes) return error(431);
            return needMore();
        }
        if (line->next > limits.maxHeadBytes) return error(431);
        if (line->begin == line->end) break; // the blank line: end of the head
        const QByteArray text = buf.mid(line->begin, line->end - line->begin);
        if (text.contains('\r')) return error(400); // a bare CR inside a line
        if (const int s = parseHeaderLine(text, req.headers)) return error(s);
        pos = line->next;
    }
    const qsizetype headEnd = line->next;

    int status = 0;
    const qsizetype bodyLength = contentLength(req.headers, limits, &status);
    if (bodyLength < 0) return error(status);
    if (buf.size() - headEnd < bodyLength) return needMore();

    req.body = buf.mid(headEnd, bodyLength);
    result.status = Status::Complete;
    result.consumed = headEnd + bodyLength;
    return result;
}

} // namespace tether::demo
