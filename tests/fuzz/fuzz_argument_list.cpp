// An `arguments` value as a person types it (the INI file, the Settings dialog): it parses
// without a crash, and the list it gives reads back as itself once joined (joinArgumentList),
// whatever quotes, backslashes and whitespace it holds.
#include "settings/argument_list.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const tether::ArgumentList parsed = tether::parseArgumentList(text);
    const tether::ArgumentList again =
        tether::parseArgumentList(tether::joinArgumentList(parsed.arguments));
    if (again.arguments != parsed.arguments || !again.error.isEmpty()) std::abort();
    return 0;
}
