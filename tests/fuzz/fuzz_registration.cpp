// Tether's own registration file (<data dir>/service.json): any bytes -> Ok or Invalid, and an
// Ok registration survives a serialize/parse round trip unchanged.
#include "service/registration.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const tether::RegistrationRead r = tether::parseRegistration(bytes);
    if (r.status == tether::RegistrationRead::Status::Ok) {
        // The parser promises: never a pid that could mean "every process" or init.
        if (r.registration.pid <= 1 || r.registration.port < 1 || r.registration.port > 65535)
            std::abort();
        const tether::RegistrationRead again =
            tether::parseRegistration(tether::serializeRegistration(r.registration));
        if (again.status != tether::RegistrationRead::Status::Ok ||
            again.registration.pid != r.registration.pid ||
            again.registration.startTime != r.registration.startTime ||
            again.registration.port != r.registration.port ||
            again.registration.password != r.registration.password)
            std::abort();
    } else if (r.status == tether::RegistrationRead::Status::Invalid && r.error.isEmpty()) {
        std::abort(); // an invalid file must say why
    }
    return 0;
}
