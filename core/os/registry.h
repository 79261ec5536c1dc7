// The per-user registry (HKEY_CURRENT_USER), plain C++ for the few values Tether keeps beside
// its Run entry. Windows only (registry_windows.cpp); Tether never writes machine-wide keys.
// Names are UTF-16 (std::wstring) as the W API takes them: no code-page conversion here.
#pragma once

#include <string>
#include <vector>

namespace tether::os::registry {

struct BinaryRead {
    enum class Result { Ok, Missing, Error }; // Missing: no such key or no such value
    Result result = Result::Error;
    std::vector<unsigned char> bytes; // the data when Ok (any value type, as stored)
    std::string error;                // when Error: the call and its Win32 code
};

// HKCU\<subkey>, value <name>.
BinaryRead readUserValue(const std::wstring &subkey, const std::wstring &name);
// Creates the key when needed and writes a REG_BINARY value.
bool writeUserBinary(const std::wstring &subkey, const std::wstring &name,
                     const std::vector<unsigned char> &bytes, std::string *error);
// A missing key or value is success: afterwards the value is not there.
bool deleteUserValue(const std::wstring &subkey, const std::wstring &name, std::string *error);

} // namespace tether::os::registry
