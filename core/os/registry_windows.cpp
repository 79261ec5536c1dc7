// HKCU values through the documented W registry API (RegOpenKeyExW, RegQueryValueExW,
// RegCreateKeyExW, RegSetValueExW, RegDeleteValueW). Builds with mingw-w64 and MSVC.
#include "os/registry.h"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

namespace tether::os::registry {

namespace {

std::string failure(const char *call, LONG code) {
    return std::string(call) + " failed (Win32 error " + std::to_string(code) + ")";
}

bool missing(LONG code) {
    return code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND;
}

} // namespace

BinaryRead readUserValue(const std::wstring &subkey, const std::wstring &name) {
    BinaryRead out;
    HKEY key = nullptr;
    LONG rc = RegOpenKeyExW(HKEY_CURRENT_USER, subkey.c_str(), 0, KEY_QUERY_VALUE, &key);
    if (rc != ERROR_SUCCESS) {
        out.result = missing(rc) ? BinaryRead::Result::Missing : BinaryRead::Result::Error;
        if (!missing(rc)) out.error = failure("RegOpenKeyExW", rc);
        return out;
    }
    // The size first, then the data; a value rewritten in between answers ERROR_MORE_DATA.
    for (int attempt = 0; attempt < 3; ++attempt) {
        DWORD size = 0;
        rc = RegQueryValueExW(key, name.c_str(), nullptr, nullptr, nullptr, &size);
        if (rc != ERROR_SUCCESS) break;
        out.bytes.resize(size);
        rc = RegQueryValueExW(key, name.c_str(), nullptr, nullptr,
                              size ? out.bytes.data() : nullptr, &size);
        if (rc == ERROR_MORE_DATA) continue;
        if (rc == ERROR_SUCCESS) out.bytes.resize(size);
        break;
    }
    RegCloseKey(key);
    if (rc == ERROR_SUCCESS) {
        out.result = BinaryRead::Result::Ok;
    } else {
        out.bytes.clear();
        out.result = missing(rc) ? BinaryRead::Result::Missing : BinaryRead::Result::Error;
        if (!missing(rc)) out.error = failure("RegQueryValueExW", rc);
    }
    return out;
}

bool writeUserBinary(const std::wstring &subkey, const std::wstring &name,
                     const std::vector<unsigned char> &bytes, std::string *error) {
    HKEY key = nullptr;
    LONG rc = RegCreateKeyExW(HKEY_CURRENT_USER, subkey.c_str(), 0, nullptr, 0, KEY_SET_VALUE,
                              nullptr, &key, nullptr);
    if (rc != ERROR_SUCCESS) {
        if (error) *error = failure("RegCreateKeyExW", rc);
        return false;
    }
    rc = RegSetValueExW(key, name.c_str(), 0, REG_BINARY, bytes.empty() ? nullptr : bytes.data(),
                        DWORD(bytes.size()));
    RegCloseKey(key);
    if (rc != ERROR_SUCCESS && error) *error = failure("RegSetValueExW", rc);
    return rc == ERROR_SUCCESS;
}

bool deleteUserValue(const std::wstring &subkey, const std::wstring &name, std::string *error) {
    HKEY key = nullptr;
    LONG rc = RegOpenKeyExW(HKEY_CURRENT_USER, subkey.c_str(), 0, KEY_SET_VALUE, &key);
    if (missing(rc)) return true;
    if (rc != ERROR_SUCCESS) {
        if (error) *error = failure("RegOpenKeyExW", rc);
        return false;
    }
    rc = RegDeleteValueW(key, name.c_str());
    RegCloseKey(key);
    if (rc == ERROR_SUCCESS || missing(rc)) return true;
    if (error) *error = failure("RegDeleteValueW", rc);
    return false;
}

} // namespace tether::os::registry
