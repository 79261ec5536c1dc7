#!/usr/bin/env bash
# Install what is missing, build, and run Tether: the tray when a display is available,
# otherwise headless, supervising the bundled demo service.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
ensure_packages "${BUILD_PACKAGES[@]}" "${RUN_PACKAGES[@]}"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTETHER_BUILD_TESTS=OFF >/dev/null
cmake --build build --target tether
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
    exec ./build/app/tether "$@"
else
    echo "tether: no display, running headless (the bundled demo service unless opencode is" \
         "installed); Ctrl+C stops Tether and the demo service it started"
    exec ./build/app/tether --headless "$@"
fi
