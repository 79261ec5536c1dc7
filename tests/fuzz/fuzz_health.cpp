// Health bodies for every profile shape; the first byte picks the profile and the HTTP status.
#include "service/health.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    using tether::policy::Dialect;
    static const Dialect profiles[] = {Dialect::Opencode1, Dialect::Opencode2, Dialect::Custom,
                                       Dialect::Demo};
    static const int statuses[] = {200, 200, 200, 204, 301, 401, 403, 404, 500, 503, 0, -1};
    const Dialect profile = profiles[data[0] % 4];
    const int status = statuses[(data[0] >> 2) % (sizeof statuses / sizeof statuses[0])];
    const QByteArray body(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    const tether::HealthVerdict v = tether::judgeHealth(profile, status, body);
    if (v.healthy && status != 200 && status != 204)
        std::abort(); // only a 2xx answer may ever count as healthy
    if (v.reportedPid != 0 && v.reportedPid <= 1)
        std::abort(); // a reported pid is only ever used as a real process id
    if (!v.healthy && v.error.isEmpty()) std::abort(); // an unhealthy verdict must say why
    return 0;
}
