#!/usr/bin/env bash
# The Windows build of everything (tether.exe and every test suite the build registers for
# Windows) against the real Qt 6.4.2 for MinGW-w64, each suite run under wine, then the plain
# C++ OS-layer tests (tests/windows/test_os_windows.exe) of the same build. The suites run are
# the ones ctest lists for this build, so what runs is what the build decided, never a glob over
# whatever happens to lie in the build directory. One line per suite, its log on failure, and a
# closing "N passed, N failed" (one per suite). Exits non-zero on any failure.
#
# Environment: TETHER_WINDOWS_BUILD (default build/windows), TETHER_WIN_QT (see windows-qt.sh),
# TETHER_JOBS (default nproc), TETHER_WINE_TIMEOUT seconds per suite (default 600),
# TETHER_WINDOWS_TESTS a regex of suite names to run (default all), TETHER_WINDOWS_BUILD_ONLY=1
# to stop after the build.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
source scripts/deps.sh
source scripts/windows-qt.sh
started=$SECONDS
dir=${TETHER_WINDOWS_BUILD:-build/windows}
jobs=${TETHER_JOBS:-$(nproc)}
budget=${TETHER_WINE_TIMEOUT:-600}

# Every phase line carries the minutes:seconds since the start, so a slow run says where.
phase() { printf '=== [%02d:%02d] %s\n' $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)) "$*"; }

give_up() {
    echo "windows-tests: $*"
    echo "0 passed, 1 failed"
    exit 1
}

ensure_packages "${BUILD_PACKAGES[@]}" "${WINDOWS_PACKAGES[@]}" wine wine64 xvfb python3 ||
    give_up "could not install the packages"
ensure_windows_qt || give_up "no Qt for Windows"

phase "configure and build $dir (Qt: $TETHER_WIN_QT)"
mkdir -p "$(dirname "$dir")"
build_started=$SECONDS
# TETHER_UNITY_BUILD=ON (scripts/test.sh): unity builds of the libraries, for the compile time.
# shellcheck disable=SC2046 # windows_cmake_args prints separate arguments
if ! cmake -S . -B "$dir" -G Ninja $(windows_cmake_args) -DCMAKE_BUILD_TYPE=Release \
        -DTETHER_BUILD_BENCH=OFF -DTETHER_WERROR=ON -DCMAKE_UNITY_BUILD="${TETHER_UNITY_BUILD:-OFF}" \
        >"$dir.configure.log" 2>&1; then
    cat "$dir.configure.log"
    give_up "configure failed"
fi
if ! cmake --build "$dir" -j "$jobs" >"$dir.build.log" 2>&1; then
    grep -E -A5 'error|FAILED' "$dir.build.log" | head -80
    give_up "build failed ($dir.build.log)"
fi
phase "built in $((SECONDS - build_started)) s"
# TETHER_WINDOWS_BUILD_ONLY=1: only the build (scripts/test.sh builds it beside another run).
[ "${TETHER_WINDOWS_BUILD_ONLY:-0}" = 1 ] && exit 0

# What the build registered, one line per test: name, program, working directory and the
# test's ENVIRONMENT entries, tab-separated (ctest's JSON has them all, with full paths).
mapfile -t tests < <(ctest --test-dir "$dir" --show-only=json-v1 | python3 -c '
import json, re, sys
only = re.compile(sys.argv[1])
for t in json.load(sys.stdin)["tests"]:
    if not only.search(t["name"]):
        continue
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    fields = [t["name"], t["command"][0], props.get("WORKING_DIRECTORY", ".")]
    print("\t".join(fields + props.get("ENVIRONMENT", [])))
' "${TETHER_WINDOWS_TESTS:-.}")
[ ${#tests[@]} -gt 0 ] || give_up "the build registered no tests"

# Our own wine prefix; no Mono / Gecko: their installers open a dialog nobody answers.
export WINEPREFIX=${WINEPREFIX:-$PWD/build/wineprefix} WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
if [ ! -d "$WINEPREFIX" ]; then
    timeout -k 10 300 wineboot --init >"$dir.wineboot.log" 2>&1 || give_up "wineboot failed"
fi
# Headless: wine's null display driver (the WM_CLOSE test owns a window); Qt itself draws
# offscreen. The driver applies to a new wineserver session: wait for this prefix's to end.
timeout -k 10 120 wine reg add 'HKCU\Software\Wine\Drivers' /v Graphics /d null /f \
    >"$dir.winereg.log" 2>&1 || give_up "cannot set wine's null display driver"
timeout 120 wineserver -w || wineserver -k
phase "wine prefix ready ($WINEPREFIX)"

win() { winepath -w "$1" 2>/dev/null; }
# The Qt DLLs and the MinGW runtime are found through WINEPATH (the Qt bin/ carries the same
# runtime DLLs as the compiler's), the platform, style and TLS plugins through QT_PLUGIN_PATH.
rt=$(dirname "$(x86_64-w64-mingw32-g++-posix -print-libgcc-file-name)")
WINEPATH="$(win "$TETHER_WIN_QT/bin");$(win "$rt");$(win /usr/x86_64-w64-mingw32/lib)"
QT_PLUGIN_PATH=$(win "$TETHER_WIN_QT/plugins")
export WINEPATH QT_PLUGIN_PATH QT_QPA_PLATFORM=offscreen

pass=0 fail=0
logs=$(cd "$dir" && pwd)/wine-logs # absolute: each suite runs in its own directory
mkdir -p "$logs"
for t in "${tests[@]}"; do
    IFS=$'\t' read -r -a f <<<"$t"
    name=${f[0]} program=${f[1]} wd=${f[2]}
    # The test's environment as ctest would set it; paths (TETHER_BIN, TETHER_TESTPROC) are
    # handed over in Windows form, and each must have been built.
    envs=()
    unbuilt=
    for e in "${f[@]:3}"; do
        value=${e#*=}
        if [[ $value == /* ]]; then
            [ -f "$value" ] || unbuilt+=" $value"
            value=$(win "$value")
        fi
        envs+=("${e%%=*}=$value")
    done
    log="$logs/$name.log"
    t0=$SECONDS
    if [ ! -f "$program" ] || [ -n "$unbuilt" ]; then
        echo "$name: failed (0 s): not built:${unbuilt:- $program}"
        fail=$((fail + 1))
        continue
    fi
    mkdir -p "$wd"
    # Into a file, not a pipe: wine's helper processes inherit the output and could hold a
    # pipe open long after the test ended.
    # A QtTest suite's own stdout, redirected to a file, comes out empty under wine 8: it
    # writes its report into a file of ours instead (-o), after whatever reached stdout/stderr.
    args=()
    [[ $(basename "$program") == tst_* ]] && args=(-o "$(win "$log.txt"),txt")
    rm -f "$log.txt"
    (cd "$wd" && env "${envs[@]}" timeout -k 10 "$budget" wine "$program" "${args[@]}" \
        >"$log.raw" 2>&1)
    rc=$?
    cat "$log.raw" "$log.txt" 2>/dev/null | tr -d '\r' >"$log" && rm -f "$log.raw" "$log.txt"
    # test_os_windows ends with its own "N passed, N failed": a zero exit needs "0 failed" too.
    # A QtTest suite passes only with its own report saying so (an empty run is no pass).
    ok=1
    grep -qE '^[0-9]+ passed, [1-9][0-9]* failed' "$log" && ok=0
    [[ ${#args[@]} -gt 0 ]] && ! grep -qE '^Totals: [0-9]+ passed, 0 failed' "$log" && ok=0
    if [ $rc -eq 0 ] && [ $ok -eq 1 ]; then
        echo "$name: passed ($((SECONDS - t0)) s)"
        pass=$((pass + 1))
    else
        [ $rc -eq 124 ] && why="timed out after $budget s" || why="exit $rc"
        echo "$name: failed ($((SECONDS - t0)) s, $why)"
        sed 's/^/    /' "$log"
        fail=$((fail + 1))
    fi
done
# Whatever a suite left running in this prefix ends with its server.
phase "waiting for this prefix's wine processes to end"
if ! timeout 60 wineserver -w; then
    echo "windows-tests: processes the suites started still ran after 60 s: ended with this prefix's server"
    # Which, so that a linger can be traced (the wineserver itself aside).
    for p in /proc/[0-9]*; do
        grep -qz "^WINEPREFIX=$WINEPREFIX\$" "$p/environ" 2>/dev/null || continue
        args=$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)
        [[ -z $args || $args == *wineserver* ]] || echo "    ${p#/proc/}: $args"
    done
    wineserver -k
fi
phase "windows tests done: $((SECONDS - started)) s in all"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
