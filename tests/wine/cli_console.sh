#!/usr/bin/env bash
# The CLI verbs of the Windows build, under wine (issue 14, defects 3.4 and 3.11):
#  - exit codes reach the shell: 4 when no Tether runs, 2 for a usage error, 0 when answered,
#    from tether-cli.exe (console program) and from tether.exe (GUI program);
#  - output to a file or pipe is UTF-8 ("Healthy · 1.18.33-demo · port …": "·" as the bytes c2 b7);
#  - on a real console (wine's cmd on a pseudo-terminal, code page 437) the "·" arrives intact
#    from both executables (WriteConsoleW; tether.exe attaches to cmd's console), while the same
#    UTF-8 bytes typed to that console come out garbled: the negative control.
# Against a headless tether.exe running the demo service on a free loopback port, in a data
# directory of its own, so no other Tether is reached. Tether is ended with its quit verb; the
# demo service it leaves running by design is ended with this prefix's `wineserver -k`, so
# give the script a WINEPREFIX of its own (as scripts/test.sh does for its wine phase).
#
# usage: tests/wine/cli_console.sh <dir with tether.exe and tether-cli.exe>
# env: WINEPREFIX (required: your own prefix; its wineserver is ended at the end), TETHER_WIN_QT (else scripts/windows-qt.sh finds or unpacks it).
# The last line is "N passed, N failed"; exit status non-zero on any failure.
set -uo pipefail

bin=${1:?usage: $0 <dir with tether.exe and tether-cli.exe>}
bin=$(cd "$bin" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
source "$top/scripts/windows-qt.sh"
pushd "$top" >/dev/null || exit 1
ensure_windows_qt || { echo "FAIL no Qt for Windows"; echo "0 passed, 1 failed"; exit 1; }
popd >/dev/null || exit 1
qt=$TETHER_WIN_QT
: "${WINEPREFIX:?set WINEPREFIX to a wine prefix of your own}"
export WINEPREFIX WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
export WINEPATH="$qt/bin" QT_PLUGIN_PATH="$qt/plugins" QT_QPA_PLATFORM=offscreen
export LANG=C.UTF-8 # wine's console writes to the terminal in the unix charset

passed=0 failed=0
check() { # name, then a command that must succeed
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); echo "PASS $name"; else failed=$((failed + 1)); echo "FAIL $name"; fi
}
finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}
for exe in tether.exe tether-cli.exe; do
    [ -f "$bin/$exe" ] || { echo "FAIL $bin/$exe is missing"; failed=$((failed + 1)); }
done
[ "$failed" -eq 0 ] || finish
[ -d "$WINEPREFIX" ] || timeout -k 10 300 wineboot --init >/dev/null 2>&1

work=$(mktemp -d "${TMPDIR:-/tmp}/tether-wine-cli.XXXXXX")
# The control pipe's name comes from the data directory: a fresh one reaches no other Tether.
datadir=tether-cli-test-$$-$RANDOM
export TETHER_DATA_DIR="C:\\$datadir"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf '[service]\nprofile=demo\nport=%s\n' "$port" >"$work/settings.ini"
cd "$bin"

# Runs one verb; its stdout in $work/out, stderr in $work/err, exit status in $rc. Into files,
# not pipes: wine's helper processes inherit the output and could hold a pipe open.
run() { # exe args...
    timeout -k 5 120 wine "$@" >"$work/out" 2>"$work/err"
    rc=$?
}
rc_is() { [ "$rc" -eq "$1" ] || { echo "  exit status $rc, wanted $1"; sed 's/^/  err: /' "$work/err"; false; }; }
out_is() { [ "$(cat "$work/out")" = "$1" ] || { echo "  stdout: $(od -c "$work/out" | head -3)"; false; }; }
err_has() { grep -q -- "$1" "$work/err" || { echo "  stderr: $(cat "$work/err")"; false; }; }

# --- no Tether running: documented exit code 4
for exe in tether-cli.exe tether.exe; do
    run "$exe" status --json
    check "$exe status --json, none running: exit 4" rc_is 4
    check "$exe status --json, none running: {\"running\":false}" out_is $'{"running":false}\r'
    run "$exe" status
    check "$exe status, none running: exit 4" rc_is 4
    check "$exe status, none running: says not running" err_has "not running"
done
run tether-cli.exe
check "tether-cli.exe without a verb: exit 2" rc_is 2
check "tether-cli.exe without a verb: points at tether.exe" err_has "start the tray with tether.exe"
run tether-cli.exe status --no-such-option
check "unknown option: exit 2" rc_is 2
run tether-cli.exe mcp-connect
check "missing NAME: exit 2" rc_is 2
run tether-cli.exe help
check "help: exit 0" rc_is 0
check "help lists the exit codes" grep -q "Exit codes: 0 done" "$work/out"

# --- a headless Tether with the demo service
timeout -k 5 900 wine tether.exe --headless --settings "Z:${work//\//\\}\\settings.ini" \
    >"$work/headless.out" 2>"$work/headless.err" &
headless=$!
healthy() {
    for _ in $(seq 1 120); do
        run tether-cli.exe status --json
        grep -q '"state":"healthy"' "$work/out" && return 0
        kill -0 "$headless" 2>/dev/null || { echo "  headless Tether exited"; cat "$work/headless.err"; return 1; }
        sleep 0.5
    done
    echo "  not healthy after 60 s: $(cat "$work/out")"
    false
}
check "headless tether.exe + demo service: healthy" healthy

for exe in tether-cli.exe tether.exe; do
    run "$exe" status
    check "$exe status: exit 0" rc_is 0
    check "$exe status > file: UTF-8 'Healthy · '" grep -q $'^Healthy \xc2\xb7 ' "$work/out"
    check "$exe status > file: valid UTF-8" iconv -f UTF-8 -t UTF-8 "$work/out" -o /dev/null
    cp "$work/out" "$work/status-$exe.txt"
done
run tether-cli.exe status --json
check "status --json: start at login off" grep -q '"startAtLogin":{"detail":"[^"]*","state":"off"}' "$work/out"

# --- start at login switched off in Task Manager (issue 14, 3.10): the running Tether reads the
# StartupApproved flag (odd first byte) beside its Run value and `tether status` says so. Only
# when this prefix has no Tether start-at-login values of its own: they are removed afterwards.
run_key='HKCU\Software\Microsoft\Windows\CurrentVersion\Run'
approved_key='HKCU\Software\Microsoft\Windows\CurrentVersion\Explorer\StartupApproved\Run'
reg_absent() { ! timeout -k 5 60 wine reg query "$1" /v Tether >/dev/null 2>&1; }
if reg_absent "$run_key" && reg_absent "$approved_key"; then
    timeout -k 5 60 wine reg add "$run_key" /v Tether /d "\"Z:${bin//\//\\}\\tether.exe\" --autostart" /f \
        >/dev/null 2>&1
    timeout -k 5 60 wine reg add "$approved_key" /v Tether /t REG_BINARY \
        /d 030000000000000000000000 /f >/dev/null 2>&1
    run tether-cli.exe status --json
    check "status --json: start at login disabledBySystem" \
        grep -q '"startAtLogin":{"detail":"Disabled in Windows Settings[^"]*","state":"disabledBySystem"}' "$work/out"
    run tether-cli.exe status
    check "status: says start at login is disabled in Windows Settings" \
        grep -q '^Start at login: Disabled in Windows Settings' "$work/out"
    timeout -k 5 60 wine reg delete "$run_key" /v Tether /f >/dev/null 2>&1
    timeout -k 5 60 wine reg delete "$approved_key" /v Tether /f >/dev/null 2>&1
    run tether-cli.exe status --json
    check "status --json: start at login off again" grep -q '"state":"off"}' "$work/out"
else
    failed=$((failed + 1))
    echo "FAIL this prefix already has Tether start-at-login values: use a prefix of its own"
fi

# --- a real console: cmd on a pseudo-terminal, in code page 437 (not UTF-8). A batch file
# expands %errorlevel% line by line, after each command.
printf '%s\r\n' '@echo off' 'chcp 437 >nul' \
    'tether-cli.exe status' 'echo cli-rc=%errorlevel%' \
    'tether-cli.exe mcp-connect' 'echo usage-rc=%errorlevel%' \
    'tether.exe status' 'echo gui-rc=%errorlevel%' \
    "tether.exe status > Z:${work//\//\\}\\gui-redirected.txt" 'echo redirect-rc=%errorlevel%' \
    "type Z:${work//\//\\}\\status-tether-cli.exe.txt" >"$work/console.bat"
winbat="Z:${work//\//\\}\\console.bat"
timeout -k 5 180 script -qec "wine cmd /c '$winbat'" "$work/console.log" >/dev/null 2>&1
console_has() { # count, bytes
    local n
    n=$(grep -c -a -- "$2" "$work/console.log")
    [ "$n" -eq "$1" ] || { echo "  $n lines with '$2' (wanted $1):"; cat -v "$work/console.log"; false; }
}
# Both verbs' lines arrive intact (the redirected one is not on the console); the last
# "Healthy" line is `type` of the UTF-8 file.
check "console: '·' intact from tether-cli.exe and tether.exe (WriteConsoleW)" \
    console_has 2 $'Healthy \xc2\xb7 '
check "console: the same UTF-8 bytes typed raw come out garbled (negative control)" \
    console_has 1 $'Healthy \xe2\x94\xac\xe2\x95\x96 '
check "console: cmd sees tether-cli's exit 0" console_has 1 'cli-rc=0'
check "console: cmd sees tether-cli's exit 2 for a usage error" console_has 1 'usage-rc=2'
check "console: tether.exe attached to cmd's console and printed there" console_has 1 'gui-rc=0'
# cmd's `>` hands tether.exe a file: it stays the output (UTF-8), the console does not get it.
check "console: tether.exe status > file inside cmd: exit 0" console_has 1 'redirect-rc=0'
check "console: tether.exe status > file inside cmd: UTF-8 in the file" \
    grep -q $'^Healthy \xc2\xb7 ' "$work/gui-redirected.txt"

# --- end what this script started: Tether through its own verb. The demo service keeps running
# after a quit by design (and `stop` of a Windows service is another branch's defect), so the
# prefix's wineserver ends it: that touches only this WINEPREFIX's processes.
run tether-cli.exe quit
check "quit: exit 0" rc_is 0
gone() {
    for _ in $(seq 1 60); do
        kill -0 "$headless" 2>/dev/null || return 0
        sleep 0.5
    done
    false
}
check "headless tether.exe exited after quit" gone
run tether-cli.exe status
check "after quit: exit 4" rc_is 4
wait "$headless" 2>/dev/null
timeout -k 5 60 wineserver -k
rm -rf "$work" "$WINEPREFIX/drive_c/$datadir"
finish
