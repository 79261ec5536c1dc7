// The demo service's incremental HTTP parser: whole buffer, and the same bytes fed in two parts
// (a connection that delivers them in pieces must reach the same verdict).
#include "demo/common/http_request.h"

#include <cstdlib>

using tether::demo::HttpParseResult;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QByteArray buffer(reinterpret_cast<const char *>(data), qsizetype(size));
    tether::demo::HttpLimits small;
    small.maxHeadBytes = 512;
    small.maxBodyBytes = 256;
    for (const tether::demo::HttpLimits &limits : {tether::demo::HttpLimits{}, small}) {
        const HttpParseResult whole = tether::demo::parseHttpRequest(buffer, limits);
        if (whole.status == HttpParseResult::Status::Complete &&
            (whole.consumed <= 0 || whole.consumed > buffer.size() ||
             whole.request.body.size() > limits.maxBodyBytes))
            std::abort();
        if (whole.status == HttpParseResult::Status::Error &&
            (whole.errorStatus < 400 || whole.errorStatus > 599))
            std::abort();
        // A prefix never completes with more bytes than it has.
        const HttpParseResult half =
            tether::demo::parseHttpRequest(buffer.left(buffer.size() / 2), limits);
        if (half.status == HttpParseResult::Status::Complete && half.consumed > buffer.size() / 2)
            std::abort();
    }
    return 0;
}
