#include "shell/console.h"

#include <QByteArray>
#include <cstdio>

#if defined(Q_OS_WIN)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#endif

namespace tether::console {

namespace {

FILE *fileOf(Stream stream) {
    return stream == Stream::Out ? stdout : stderr;
}

#if defined(Q_OS_WIN)
DWORD handleIdOf(Stream stream) {
    return stream == Stream::Out ? STD_OUTPUT_HANDLE : STD_ERROR_HANDLE;
}

// A file or a pipe the parent set up: it must keep receiving our output.
bool redirected(DWORD id) {
    const HANDLE h = GetStdHandle(id);
    if (h == nullptr || h == INVALID_HANDLE_VALUE) return false;
    const DWORD type = GetFileType(h);
    return type == FILE_TYPE_DISK || type == FILE_TYPE_PIPE;
}

// Points the Win32 handle and the C runtime's FILE at the attached console.
bool reopenOnConsole(Stream stream) {
    const HANDLE console =
        CreateFileW(L"CONOUT$", GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                    nullptr, OPEN_EXISTING, 0, nullptr);
    if (console == INVALID_HANDLE_VALUE) return false;
    SetStdHandle(handleIdOf(stream), console);
    // The C runtime's stream too, for anything that writes with printf (Qt's own messages).
    FILE *reopened = nullptr;
    return freopen_s(&reopened, "CONOUT$", "w", fileOf(stream)) == 0;
}
#endif

} // namespace

bool attachParentConsole() {
#if defined(Q_OS_WIN)
    const bool outRedirected = redirected(STD_OUTPUT_HANDLE);
    const bool errRedirected = redirected(STD_ERROR_HANDLE);
    if (outRedirected && errRedirected) return true;
    if (!AttachConsole(ATTACH_PARENT_PROCESS)) {
        // Already on a console (tether-cli.exe, a console subsystem program): nothing to do.
        if (GetLastError() == ERROR_ACCESS_DENIED) return true;
        // The parent has no console (started from Explorer): only the redirected streams,
        // if any, reach anyone.
        return outRedirected || errRedirected;
    }
    bool ok = true;
    if (!outRedirected) ok = reopenOnConsole(Stream::Out) && ok;
    if (!errRedirected) ok = reopenOnConsole(Stream::Err) && ok;
    return ok;
#else
    return true;
#endif
}

void writeLine(Stream stream, const QString &text) {
    const QString line = text + QLatin1Char('\n');
    FILE *file = fileOf(stream);
#if defined(Q_OS_WIN)
    const HANDLE h = GetStdHandle(handleIdOf(stream));
    DWORD mode = 0;
    if (h != nullptr && h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode)) {
        std::fflush(file); // whatever the C runtime still holds goes first
        const auto *utf16 = reinterpret_cast<const wchar_t *>(line.utf16());
        DWORD left = DWORD(line.size());
        while (left > 0) {
            DWORD written = 0;
            if (!WriteConsoleW(h, utf16, left, &written, nullptr) || written == 0) break;
            utf16 += written;
            left -= written;
        }
        return;
    }
#endif
    const QByteArray bytes = line.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), file);
    std::fflush(file);
}

} // namespace tether::console
