#include "service/version.h"
namespace tether {
const char *tetherVersion() {
    return TETHER_VERSION;
}
} // namespace tether
