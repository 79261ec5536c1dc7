#!/usr/bin/env bash
# Compiles Tether's Qt layers (core/ and app/) the way a Windows build would see them, as far as
# this Linux machine allows: MinGW-w64 with Windows' macros (so Q_OS_WIN code is what gets
# compiled) against Debian's Qt 6.4 headers, syntax only. Qt for Windows cannot be installed
# here, so nothing is linked or run; the OS layer (core/os) is built and run under wine
# separately. Prints each file that fails and a closing "N passed, N failed" line (one per file).
set -u
cd "$(dirname "$0")/.."
cxx=x86_64-w64-mingw32-g++-posix
qt=/usr/include/x86_64-linux-gnu/qt6
command -v "$cxx" >/dev/null || { echo "windows-syntax: $cxx is missing (g++-mingw-w64-x86-64-posix)"; exit 1; }
[ -d "$qt/QtWidgets" ] || { echo "windows-syntax: no Qt 6 headers in $qt (qt6-base-dev)"; exit 1; }

# Every Qt-layer source a Windows build compiles: core/os is the wine build's, logind and the
# Objective-C++ wake source are never built for Windows (app/CMakeLists.txt).
mapfile -t files < <({ git ls-files 'core/*.cpp' 'app/*.cpp' 2>/dev/null ||
                       find core app -name '*.cpp'; } | sort -u |
    grep -vE '^core/os/|/wake_logind\.cpp$')
flags=(-std=c++17 -fsyntax-only -Wall -Wextra -Werror -Wno-attributes
       -D_WIN32_WINNT=0x0A00 -DWINVER=0x0A00 -DUNICODE -D_UNICODE
       -DQT_CORE_LIB -DQT_GUI_LIB -DQT_WIDGETS_LIB -DQT_NETWORK_LIB -DTETHER_VERSION='"0"'
       -Icore -Iapp -I"$qt" -I"$qt/QtCore" -I"$qt/QtNetwork" -I"$qt/QtGui" -I"$qt/QtWidgets")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%s\n' "${flags[@]}" >"$out/flags"
# One compiler per core; a file's log is kept only when it fails (its first line names it).
printf '%s\0' "${files[@]}" | OUT=$out CXX=$cxx xargs -0 -P "$(nproc)" -n 1 bash -c '
    mapfile -t flags <"$OUT/flags"
    log=$(mktemp "$OUT/fail.XXXXXX")
    { echo "$1"; "$CXX" "${flags[@]}" "$1" 2>&1; } >"$log" && rm -f "$log"
    exit 0' check
failed=0
for log in "$out"/fail.*; do
    [ -e "$log" ] || continue
    failed=$((failed + 1))
    echo "FAIL $(head -1 "$log")"
    grep -E 'error|warning' "$log" | head -5
done
echo "$(( ${#files[@]} - failed )) passed, $failed failed"
[ "$failed" -eq 0 ]
