#include "demo/standin_v2/jsonc.h"

namespace tether::standin_v2 {

namespace {

// The index of the quote that ends the string starting at `start` (a quote), or -1.
qsizetype stringEnd(const QByteArray &in, qsizetype start) {
    for (qsizetype i = start + 1; i < in.size(); ++i) {
        if (in[i] == '\\')
            ++i;
        else if (in[i] == '"')
            return i;
    }
    return -1;
}

// Comments become spaces (strings are copied as they are, escapes included).
std::optional<QByteArray> withoutComments(const QByteArray &in) {
    QByteArray out;
    out.reserve(in.size());
    for (qsizetype i = 0; i < in.size(); ++i) {
        const char c = in[i];
        if (c == '"') {
            const qsizetype end = stringEnd(in, i);
            if (end < 0) return std::nullopt; // unterminated string
            out += in.mid(i, end - i + 1);
            i = end;
        } else if (c == '/' && i + 1 < in.size() && in[i + 1] == '/') {
            while (i < in.size() && in[i] != '\n')
                ++i;
            out += '\n';
        } else if (c == '/' && i + 1 < in.size() && in[i + 1] == '*') {
            const qsizetype end = in.indexOf("*/", i + 2);
            if (end < 0) return std::nullopt; // unterminated comment
            out += ' ';
            i = end + 1;
        } else {
            out += c;
        }
    }
    return out;
}

// A comma followed (past white space) by '}' or ']' is dropped.
QByteArray withoutTrailingCommas(const QByteArray &in) {
    QByteArray out;
    out.reserve(in.size());
    for (qsizetype i = 0; i < in.size(); ++i) {
        const char c = in[i];
        if (c == '"') { // complete: the first pass saw to that
            const qsizetype end = stringEnd(in, i);
            out += in.mid(i, end - i + 1);
            i = end;
            continue;
        }
        if (c == ',') {
            qsizetype j = i + 1;
            while (j < in.size() &&
                   (in[j] == ' ' || in[j] == '\t' || in[j] == '\r' || in[j] == '\n'))
                ++j;
            if (j < in.size() && (in[j] == '}' || in[j] == ']')) continue;
        }
        out += c;
    }
    return out;
}

} // namespace

std::optional<QJsonDocument> parseJsonc(const QByteArray &text) {
    const std::optional<QByteArray> plain = withoutComments(text);
    if (!plain) return std::nullopt;
    QJsonParseError e{};
    const QJsonDocument doc = QJsonDocument::fromJson(withoutTrailingCommas(*plain), &e);
    if (e.error != QJsonParseError::NoError) return std::nullopt;
    return doc;
}

} // namespace tether::standin_v2
