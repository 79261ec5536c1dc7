#!/usr/bin/env bash
# Build and run every benchmark, printing every figure: the OS snapshot (bench_os), the model's
# steps per second (bench_supervision_model), supervision
# latencies against the demo service and real opencode, child and adopted (bench_supervision),
# the field's worst scale (bench_fleet: 300 MCP processes after a crash, 50 MCP servers per
# refresh, the launch scan among 2,000 processes), the status window and menu with 50 rows
# (bench_ui), and the idle footprint (RSS, CPU, wake-ups; tray and headless) + launch latency
# beside a bare QSystemTrayIcon floor (bench_footprint, under a private Xvfb with trayer as the
# tray host): each idle figure printed beside its floor with its ratio and issue 28's target
# (CPU and wake-ups <= 1.5x the bare probing, RSS <= 1.15x the bare tray). Installs what is
# missing first.
# BENCH_IDLE_S shortens the 600 s (10 min) idle measurement; BUILD_DIR picks the build directory.
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
cmake --build "$dir" --target tether bench_os bench_supervision bench_supervision_model bench_footprint bench_tray_floor bench_tray_floor_net bench_fleet bench_ui -j "$(nproc)" \
    >"$dir.build.log" 2>&1 || { grep -E 'error' "$dir.build.log" | head -40; exit 1; }
export TETHER_BIN="$PWD/$dir/app/tether" BENCH_TRAY_FLOOR="$PWD/$dir/tests/bench/bench_tray_floor"
export BENCH_TRAY_FLOOR_NET="$PWD/$dir/tests/bench/bench_tray_floor_net"
export TETHER_STUBBORN_MCP="$PWD/tests/e2e/stubborn-mcp.sh"

echo "=== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%F)"
echo "=== load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "=== bench_os"
"$dir/tests/bench/bench_os"
echo "=== bench_supervision_model (the model-based test's driver, beside policy::step alone)"
"$dir/tests/bench/bench_supervision_model" 1000000
echo "=== bench_supervision (demo, opencode)"
"$dir/tests/bench/bench_supervision" demo opencode
echo "=== bench_fleet (300 MCP processes, 50 MCP servers, 2,000 processes)"
"$dir/tests/bench/bench_fleet" refresh crash scan

echo "=== Xvfb + trayer"
source scripts/xvfb.sh
start_xvfb 1024x768x24 || { echo "bench: Xvfb did not start"; exit 1; }
xvfb_pid=$XVFB_PID
export DISPLAY=$XVFB_DISPLAY
trayer --edge top --align right --widthtype pixel --width 128 --height 32 --SetDockType true >/dev/null 2>&1 &
trayer_pid=$!
trap 'kill $trayer_pid $xvfb_pid 2>/dev/null' EXIT
sleep 2
echo "=== bench_ui (Xvfb)"
QT_QPA_PLATFORM=xcb "$dir/tests/bench/bench_ui"
echo "=== bench_footprint (Xvfb + trayer)"
"$dir/tests/bench/bench_footprint" demo working opencode
echo "=== load after: $(cut -d' ' -f1-3 /proc/loadavg)"
