// One control-socket line from a (same-user) client: a known verb with object args, or an error.
#include "control/control_protocol.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QByteArray line(reinterpret_cast<const char *>(data), qsizetype(size));
    const tether::control::ParsedRequest p = tether::control::parseRequest(line);
    if (p.ok) {
        // The verb is a row of the one table, and its name is what the line said.
        if (tether::control::findVerb(tether::control::toString(p.request.verb)) == nullptr ||
            tether::control::findVerb(tether::control::toString(p.request.verb))->verb !=
                p.request.verb)
            std::abort();
        const auto again =
            tether::control::parseRequest(tether::control::serializeRequest(p.request));
        if (!again.ok || again.request.verb != p.request.verb ||
            again.request.args != p.request.args)
            std::abort();
    } else if (p.error.isEmpty()) {
        std::abort();
    }
    return 0;
}
