#pragma once
namespace tether {
const char *tetherVersion();
}
