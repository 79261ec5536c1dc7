#!/usr/bin/env bash
# Build the Windows installer from a MinGW-w64 cross build: tether.exe against Qt 6.4.2 for
# MinGW-w64 (scripts/windows-qt.sh), its Qt runtime from installer/windows/deploy.cmake, and
# an NSIS installer made by CPack with installer/windows/NSIS.template.in.
# Prints the path of build/windows-package/tether-<version>-win64.exe.
# Usage: bash scripts/package-windows.sh [build-dir]   (default build/windows-package-build)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
source scripts/windows-qt.sh
# nsis: makensis, which CPack's NSIS generator runs; file: CPack's strip step.
ensure_packages "${BUILD_PACKAGES[@]}" "${WINDOWS_PACKAGES[@]}" nsis file ||
    { echo "tether: could not install the build packages"; exit 1; }
ensure_windows_qt || exit 1

dir=${1:-build/windows-package-build}
out=$PWD/build/windows-package
mkdir -p "$(dirname "$dir")"
# shellcheck disable=SC2046 # windows_cmake_args prints separate arguments
# A build folder configured before (the test command's Windows build) is reused as it is:
# packaging needs only tether and tether-cli, which it already has.
if [ -f "$dir/CMakeCache.txt" ]; then
    cmake -S . -B "$dir" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
else
    cmake -S . -B "$dir" -G Ninja $(windows_cmake_args) -DCMAKE_BUILD_TYPE=Release \
          -DTETHER_BUILD_TESTS=OFF -DTETHER_BUILD_BENCH=OFF -DTETHER_WERROR=ON \
          >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
fi
# tether.exe, and tether-cli.exe where app/ defines it (deploy.cmake installs it beside).
# TETHER_JOBS: parallel compile jobs; 2 by default, as the build machines here are shared.
targets=(tether)
# grep reads all of it (no -q): an early exit would fail the pipe under pipefail.
cmake --build "$dir" --target help | grep '^tether-cli:' >/dev/null && targets+=(tether-cli)
cmake --build "$dir" --target "${targets[@]}" -j "${TETHER_JOBS:-2}" >"$dir.build.log" 2>&1 ||
    { grep -E 'error|Error' "$dir.build.log" | head -40; exit 1; }
rm -f "$out"/tether-*-win64.exe
(cd "$dir" && cpack -G NSIS -B "$out" >cpack.log 2>&1) || { cat "$dir/cpack.log"; exit 1; }
ls -1 "$out"/tether-*-win64.exe
