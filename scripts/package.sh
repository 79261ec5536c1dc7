#!/usr/bin/env bash
# Build the Linux packages: a DEB (depends on Debian's Qt 6 runtime) and a TGZ, both from a
# Release build in build/package. Prints the paths of the two files it made.
# Usage: bash scripts/package.sh [build-dir] [--existing]
#   --existing: package that build as it is configured and built (the test command packages its
#   own tested build this way instead of building Tether once more; CPack strips the binary).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
# dpkg-dev: dpkg-shlibdeps works out the DEB's library dependencies; file: CPack's strip step.
ensure_packages "${BUILD_PACKAGES[@]}" dpkg-dev file || { echo "tether: could not install the build packages"; exit 1; }

dir=${1:-build/package}
existing=${2:-}
if [ "$existing" = --existing ]; then
    [ -f "$dir/CPackConfig.cmake" ] || { echo "tether: $dir is not a configured build"; exit 1; }
else
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTETHER_BUILD_TESTS=OFF \
          -DTETHER_BUILD_BENCH=OFF -DTETHER_WERROR=ON >"$dir.configure.log" 2>&1 ||
        { cat "$dir.configure.log"; exit 1; }
fi
cmake --build "$dir" --target tether -j "$(nproc)" >"$dir.build.log" 2>&1 ||
    { grep -E 'error|Error' "$dir.build.log" | head -40; exit 1; }
rm -f "$dir"/tether_*.deb "$dir"/tether-*.tar.gz
(cd "$dir" && cpack -G "DEB;TGZ" >cpack.log 2>&1) || { cat "$dir/cpack.log"; exit 1; }
ls -1 "$PWD/$dir"/tether_*.deb "$PWD/$dir"/tether-*.tar.gz
