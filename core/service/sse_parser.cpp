#include "service/sse_parser.h"

namespace tether {

SseParser::SseParser(Limits limits)
    : limits_(limits) {
}

SseParser::SseParser()
    : SseParser(Limits{}) {
}

void SseParser::reset() {
    line_.clear();
    event_.clear();
    inEvent_ = false;
    error_.clear();
}

bool SseParser::feed(const QByteArray &bytes, QList<QByteArray> *events, int *comments) {
    if (!error_.isEmpty()) return false;
    qsizetype start = 0;
    for (;;) {
        const qsizetype nl = bytes.indexOf('\n', start);
        if (nl < 0) break;
        QByteArray line = line_ + bytes.mid(start, nl - start);
        line_.clear();
        start = nl + 1;
        if (line.endsWith('\r')) line.chop(1);
        if (line.size() > limits_.maxLineBytes) {
            error_ = QStringLiteral("an event stream line is larger than %1 bytes")
                         .arg(limits_.maxLineBytes);
            return false;
        }
        if (line.isEmpty()) { // the blank line ends an event
            if (inEvent_) events->append(event_);
            event_.clear();
            inEvent_ = false;
            continue;
        }
        if (line.startsWith(':') && comments) ++*comments;
        if (!line.startsWith("data:")) continue;
        QByteArray value = line.mid(5);
        if (value.startsWith(' ')) value.remove(0, 1);
        if (inEvent_) event_ += '\n';
        event_ += value;
        inEvent_ = true;
        if (event_.size() > limits_.maxEventBytes) {
            error_ = QStringLiteral("an event is larger than %1 bytes").arg(limits_.maxEventBytes);
            return false;
        }
    }
    // The rest has no newline yet: kept, up to one line's cap.
    if (line_.size() + (bytes.size() - start) > limits_.maxLineBytes) {
        error_ = QStringLiteral("an event stream line is larger than %1 bytes")
                     .arg(limits_.maxLineBytes);
        return false;
    }
    line_ += bytes.mid(start);
    return true;
}

} // namespace tether
