#!/usr/bin/env bash
# Build and run every benchmark, printing every figure: the OS snapshot (bench_os), the model's
# steps per second (bench_supervision_model), supervision
# latencies against the demo service and real opencode (bench_supervision), and the idle
# footprint + launch latency of the tray beside a bare QSystemTrayIcon floor (bench_footprint,
# under a private Xvfb with trayer as the tray host). Installs what is missing first.
# BENCH_IDLE_S shortens the 60 s idle measurement; BUILD_DIR picks the build directory.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/deps.sh
{ ensure_packages "${BUILD_PACKAGES[@]}" xvfb xauth trayer xdotool procps && ensure_node; } || {
    echo "tether bench: could not install the packages it needs"; exit 1; }
source scripts/e2e-deps.sh
e2e_install || { echo "tether bench: opencode / MCP servers missing (see above)"; exit 1; }
export TETHER_E2E_CACHE

dir=${BUILD_DIR:-build/bench}
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
cmake --build "$dir" --target tether bench_os bench_supervision bench_supervision_model bench_footprint bench_tray_floor -j "$(nproc)" \
    >"$dir.build.log" 2>&1 || { grep -E 'error' "$dir.build.log" | head -40; exit 1; }
export TETHER_BIN="$PWD/$dir/app/tether" BENCH_TRAY_FLOOR="$PWD/$dir/tests/bench/bench_tray_floor"
export TETHER_STUBBORN_MCP="$PWD/tests/e2e/stubborn-mcp.sh"

echo "=== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%F)"
echo "=== load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "=== bench_os"
"$dir/tests/bench/bench_os"
echo "=== bench_supervision_model (the model-based test's driver, beside policy::step alone)"
"$dir/tests/bench/bench_supervision_model" 1000000
echo "=== bench_supervision (demo, opencode)"
"$dir/tests/bench/bench_supervision" demo opencode

echo "=== bench_footprint (Xvfb + trayer)"
for n in $(seq 150 200); do [ -e /tmp/.X11-unix/X$n ] || [ -e /tmp/.X$n-lock ] || break; done
Xvfb ":$n" -screen 0 1024x768x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
export DISPLAY=":$n"
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
trayer --edge top --align right --widthtype pixel --width 128 --height 32 --SetDockType true >/dev/null 2>&1 &
trayer_pid=$!
trap 'kill $trayer_pid $xvfb_pid 2>/dev/null' EXIT
sleep 2
"$dir/tests/bench/bench_footprint" demo opencode
echo "=== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
