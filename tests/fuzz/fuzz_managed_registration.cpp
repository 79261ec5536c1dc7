// opencode 2.x's own service.json (another program's file): any bytes -> Ok or Invalid; an Ok
// registration only ever names a pid > 1 and a loopback http URL, and round-trips.
#include "service/managed_registration.h"

#include <QHostAddress>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const tether::ManagedRegistrationRead r = tether::parseManagedRegistration(bytes);
    if (r.status == tether::ManagedRegistrationRead::Status::Ok) {
        const tether::ManagedRegistration &m = r.registration;
        const QString host = m.url.host();
        const bool loopback = host == QLatin1String("localhost") || QHostAddress(host).isLoopback();
        if (m.pid <= 1 || m.url.scheme() != QLatin1String("http") || !loopback || m.port() < 1 ||
            m.password.isEmpty())
            std::abort(); // credentials would go to a non-loopback URL, or a pid could be 0/1/-1
        const auto again =
            tether::parseManagedRegistration(tether::serializeManagedRegistration(m));
        if (again.status != tether::ManagedRegistrationRead::Status::Ok ||
            again.registration.pid != m.pid || again.registration.url != m.url ||
            again.registration.password != m.password)
            std::abort();
    } else if (r.status == tether::ManagedRegistrationRead::Status::Invalid && r.error.isEmpty()) {
        std::abort();
    }
    return 0;
}
