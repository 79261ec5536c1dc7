#!/usr/bin/env bash
# The Windows installer, end to end under wine: build it (scripts/package-windows.sh) unless
# given, install it silently (/S) into a fresh private WINEPREFIX, check its files, Start-menu
# shortcut and HKCU uninstall entry; start the installed Tether with a tray (on an Xvfb of its
# own) and check that it loads its Qt plugins from the install; run it --headless against the
# bundled demo service until `status --json` says healthy and `tether quit` it; turn start at
# login on and install again over a running Tether (the installer must quit it first, and keep
# the Run value); uninstall silently with Tether running (the uninstaller must quit it) and check
# that no installed file, shortcut, Run / StartupApproved value or uninstall entry is left; last,
# a Run value "Tether" that starts another program must survive an uninstall.
# Exit 0 only when all of it held; prints PASS or FAIL.
# The prefix has no Z: drive: the installed Tether sees only C:, so a Qt DLL or plugin the
# installer forgot cannot be found in the build tree instead.
# Usage: bash tests/install/windows_install.sh [tether-<version>-win64.exe]
set -uo pipefail
cd "$(dirname "$0")/../.."
installer=${1:-}
work=$(mktemp -d /tmp/tether-win-install.XXXXXX)
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
# Nothing from the build environment may help the installed Tether find Qt.
unset WINEPATH QT_PLUGIN_PATH QT_QPA_PLATFORM_PLUGIN_PATH QT_QPA_PLATFORM
tether_pid='' xvfb_pid=''
step() { echo "--- windows install: $*"; }
fail() { echo "FAIL windows install: $*"; exit 1; }
now_ms() { date +%s%3N; }

cleanup() {
    # Every Windows process here was started by this test in its own prefix: wineserver -k
    # ends that prefix's processes only (WINEPREFIX is exported above).
    if [ -d "$WINEPREFIX" ]; then timeout -k 5 30 wineserver -k >/dev/null 2>&1; fi
    if [ -n "$tether_pid" ]; then wait "$tether_pid" 2>/dev/null; fi
    # The X server this test started, by the pid it was given.
    if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null; wait "$xvfb_pid" 2>/dev/null; fi
    if [ -n "${TETHER_KEEP_WORK:-}" ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

for tool in wine wineboot wineserver timeout ss Xvfb; do
    command -v "$tool" >/dev/null || fail "$tool is missing (Debian: wine, coreutils, iproute2, xvfb)"
done

# Every wine call: bounded, output to a file, run from C: (Z: is gone).
# Usage: win <seconds> <log> <program> [args...]; returns the program's exit code.
win() {
    local seconds=$1 log=$2; shift 2
    (cd "$WINEPREFIX/drive_c" && timeout -k 10 "$seconds" wine "$@" >"$log" 2>&1)
}

if [ -z "$installer" ]; then
    step "build"
    bash scripts/package-windows.sh >"$work/package.log" 2>&1 ||
        { cat "$work/package.log"; fail "package-windows.sh"; }
    installer=$(tail -1 "$work/package.log")
fi
[ -f "$installer" ] || fail "no installer at '$installer'"
size=$(stat -c %s "$installer")
echo "installer: $installer ($size bytes, $((size / 1024)) KiB)"

step "X server for the tray start"
# The tray start needs a display: an Xvfb of our own, on a number the server finds free.
source scripts/xvfb.sh
start_xvfb 1024x768x24 || fail "Xvfb did not start"
xvfb_pid=$XVFB_PID
export DISPLAY=$XVFB_DISPLAY

step "fresh wine prefix"
timeout -k 10 300 wineboot --init >"$work/wineboot.log" 2>&1 || { cat "$work/wineboot.log"; fail "wineboot"; }
timeout -k 10 120 wineserver -w || fail "wineboot did not settle"
rm -f "$WINEPREFIX/dosdevices/z:"
mkdir -p "$WINEPREFIX/drive_c/setup" "$WINEPREFIX/drive_c/tether-test"
cp "$installer" "$WINEPREFIX/drive_c/setup/"
setup="C:\\setup\\$(basename "$installer")"
user_dir="$WINEPREFIX/drive_c/users/$(whoami)"
[ -d "$user_dir" ] || fail "no wine profile at $user_dir"
inst="$user_dir/AppData/Local/Programs/Tether"
inst_win="C:\\users\\$(whoami)\\AppData\\Local\\Programs\\Tether"
exe_win="$inst_win\\bin\\tether.exe"
shortcut="$user_dir/AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Tether.lnk"
uninstall_key='HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\Tether'
run_key='HKCU\Software\Microsoft\Windows\CurrentVersion\Run'
approved_key='HKCU\Software\Microsoft\Windows\CurrentVersion\Explorer\StartupApproved\Run'

# Usage: reg_has <key> [<value>]: 0 when it exists.
reg_has() {
    if [ $# -eq 2 ]; then win 30 "$work/reg.log" reg query "$1" /v "$2"; else win 30 "$work/reg.log" reg query "$1"; fi
}

step "silent install"
t0=$(now_ms)
win 120 "$work/install.log" "$setup" /S || { code=$?; cat "$work/install.log"; fail "installer exited $code"; }
install_ms=$(($(now_ms) - t0))
echo "install: ${install_ms} ms"
for f in bin/tether.exe bin/Qt6Core.dll bin/Qt6Gui.dll bin/Qt6Widgets.dll bin/Qt6Network.dll \
         bin/platforms/qwindows.dll bin/styles/qwindowsvistastyle.dll bin/tls/qschannelbackend.dll \
         bin/libstdc++-6.dll bin/libgcc_s_seh-1.dll bin/libwinpthread-1.dll Uninstall.exe; do
    [ -f "$inst/$f" ] || fail "$inst/$f not installed"
done
[ -f "$shortcut" ] || fail "no Start-menu shortcut at $shortcut"
(cd "$inst" && find . -type f | sort) >"$work/files.txt"
echo "installed $(wc -l <"$work/files.txt") files, $(du -sk "$inst" | cut -f1) KiB"
reg_has "$uninstall_key" UninstallString || { cat "$work/reg.log"; fail "no HKCU uninstall entry"; }
grep -qi 'Uninstall.exe' "$work/reg.log" || { cat "$work/reg.log"; fail "uninstall entry names no Uninstall.exe"; }

# The version it registered is the installer's. (tether.exe --version is no check here: a
# GUI-subsystem program's QCommandLineParser shows the version in a message box, not on stdout.)
version=$(basename "$installer" | sed -E 's/^tether-(.*)-win64\.exe$/\1/')
reg_has "$uninstall_key" DisplayVersion && grep -q "$version" "$work/reg.log" ||
    { cat "$work/reg.log"; fail "uninstall entry's DisplayVersion is not $version"; }

port=''
for _ in $(seq 50); do # a free loopback port: not listed by ss as listening
    p=$((20000 + RANDOM % 40000))
    ss -Htln "sport = :$p" | grep -q . || { port=$p; break; }
done
[ -n "$port" ] || fail "no free port"
# The service runs from a copy of the installed bin\ (the custom profile), as opencode runs
# from its own folder: then only Tether itself holds files of the install, and quitting Tether
# is what the installer and the uninstaller must do. Tether's default stopServiceOnQuit=false
# leaves the service running; the installer and the uninstaller must leave it running too.
cp -r "$inst/bin" "$WINEPREFIX/drive_c/tether-test/service"
cat >"$WINEPREFIX/drive_c/tether-test/tether.ini" <<INI
[service]
profile=custom
program=C:/tether-test/service/tether.exe
arguments=demo-service, --port, {port}
port=$port
INI
export TETHER_DATA_DIR='C:\tether-test\data'

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }

# Starts the installed Tether headless and waits (bounded) until it reports the demo service
# healthy on $port. Usage: start_healthy <log-name>
start_healthy() {
    (cd "$WINEPREFIX/drive_c" && exec timeout -k 10 600 wine "$exe_win" --headless \
        --settings 'C:\tether-test\tether.ini' >"$work/$1.log" 2>&1) &
    tether_pid=$!
    local t0; t0=$(now_ms)
    for _ in $(seq 120); do # up to 120 status calls, each bounded
        if win 20 "$work/status.json" "$exe_win" status --json &&
            grep -q '"state": *"healthy"' "$work/status.json"; then
            echo "healthy after $(($(now_ms) - t0)) ms: $(tr -d '\r' <"$work/status.json" | head -c 300)"
            port_open || fail "healthy, but nothing listens on port $port"
            return 0
        fi
        kill -0 "$tether_pid" 2>/dev/null || { cat "$work/$1.log"; fail "tether exited early"; }
        sleep 0.5
    done
    cat "$work/status.json" "$work/$1.log"
    fail "never healthy"
}

# Waits (bounded) until the Tether started last has exited, and checks that the service it
# supervised still answers (left running, as configured). Usage: await_quit <what quit it>
await_quit() {
    local t0; t0=$(now_ms)
    for _ in $(seq 600); do kill -0 "$tether_pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$tether_pid" 2>/dev/null && fail "tether still running 60 s after $1"
    wait "$tether_pid"; local code=$?; tether_pid=''
    [ "$code" -eq 0 ] || fail "tether exit code $code after $1"
    echo "tether gone $(($(now_ms) - t0)) ms after $1"
    port_open || fail "the service on port $port did not survive $1"
}

step "tray start loads the deployed Qt plugins"
# WINEDEBUG=+loaddll names every DLL as it is loaded: the platform and style plugins must come
# from the install (and cannot come from anywhere else: no Z: drive).
(cd "$WINEPREFIX/drive_c" && WINEDEBUG=+loaddll exec timeout -k 10 600 wine "$exe_win" \
    --settings 'C:\tether-test\tether.ini' >"$work/tray.log" 2>&1) &
tether_pid=$!
# +loaddll prints paths with their backslashes doubled: Programs\\Tether\\bin\\...
loaded=no
for _ in $(seq 600); do
    if grep -qF 'Programs\\Tether\\bin\\platforms\\qwindows.dll' "$work/tray.log" &&
        grep -qF 'Programs\\Tether\\bin\\styles\\qwindowsvistastyle.dll' "$work/tray.log"; then
        loaded=yes; break
    fi
    kill -0 "$tether_pid" 2>/dev/null || break
    sleep 0.1
done
if [ "$loaded" != yes ]; then
    grep -F 'Programs\\Tether' "$work/tray.log" | tail -20
    fail "the tray start did not load qwindows.dll and qwindowsvistastyle.dll from the install"
fi
echo "loaded from the install: $(grep -oF -e 'platforms\\qwindows.dll' -e 'styles\\qwindowsvistastyle.dll' \
    -e 'tls\\qschannelbackend.dll' "$work/tray.log" | sort -u | tr '\n' ' ')"
# The plugins load with the QApplication, before the control channel listens: until it does,
# `tether quit` says "not running" (exit 4).
quit_code=''
for _ in $(seq 60); do
    win 30 "$work/quit.log" "$exe_win" quit; quit_code=$?
    [ "$quit_code" -eq 4 ] || break
    sleep 0.5
done
[ "$quit_code" -eq 0 ] || { cat "$work/quit.log"; fail "tether quit (tray) exited $quit_code"; }
for _ in $(seq 600); do kill -0 "$tether_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$tether_pid" 2>/dev/null && fail "the tray Tether still running 60 s after tether quit"
wait "$tether_pid"; tether_pid=''

step "headless start against the demo service"
start_healthy tether1
step "tether quit"
win 30 "$work/quit.log" "$exe_win" quit || { cat "$work/quit.log"; fail "tether quit exited non-zero"; }
await_quit "tether quit"

step "start at login on, then install again over a running Tether"
# The values Tether writes (core/settings/autostart_entries.cpp) and Explorer's enabled flag.
win 30 "$work/reg.log" reg add "$run_key" /v Tether /t REG_SZ /d "\"$exe_win\" --autostart" /f ||
    { cat "$work/reg.log"; fail "reg add Run"; }
win 30 "$work/reg.log" reg add "$approved_key" /v Tether /t REG_BINARY /d 020000000000000000000000 /f ||
    { cat "$work/reg.log"; fail "reg add StartupApproved"; }
reg_has "$run_key" Tether && grep -qi -- '--autostart' "$work/reg.log" || { cat "$work/reg.log"; fail "Run value not readable"; }
reg_has "$approved_key" Tether || fail "StartupApproved value not readable"
start_healthy tether2
t0=$(now_ms)
win 120 "$work/reinstall.log" "$setup" /S || { code=$?; cat "$work/reinstall.log"; fail "second install exited $code"; }
echo "reinstall (quitting Tether first): $(($(now_ms) - t0)) ms"
await_quit "the installer"
[ -f "$inst/bin/tether.exe" ] || fail "tether.exe missing after the second install"
# An update keeps the user's start-at-login choice.
reg_has "$run_key" Tether && grep -qi -- '--autostart' "$work/reg.log" || fail "the update removed the Run value"
reg_has "$approved_key" Tether || fail "the update removed the StartupApproved value"

step "silent uninstall with Tether running and start at login on"
start_healthy tether3
t0=$(now_ms)
# The uninstaller copies itself to %TEMP% and runs from there so it can delete itself: the
# first process exits at once. Poll for the last things it removes instead.
win 60 "$work/uninstall.log" "$inst_win\\Uninstall.exe" /S ||
    { code=$?; cat "$work/uninstall.log"; fail "uninstaller exited $code"; }
# The last thing it does is to delete its uninstall entry.
gone=no
for _ in $(seq 120); do
    if [ ! -e "$inst" ] && ! reg_has "$uninstall_key"; then gone=yes; break; fi
    sleep 0.25
done
uninstall_ms=$(($(now_ms) - t0))
[ "$gone" = yes ] || fail "the uninstaller has not finished (folder or uninstall entry left) after 60 s"
await_quit "the uninstaller"
echo "uninstall (quitting Tether first): ${uninstall_ms} ms"

left=0
while read -r f; do
    if [ -e "$inst/$f" ]; then echo "left behind: $f"; left=$((left + 1)); fi
done <"$work/files.txt"
[ "$left" -eq 0 ] || fail "$left file(s) left after uninstall"
[ -e "$inst" ] && { find "$inst"; fail "install folder left: $inst"; }
[ -e "$shortcut" ] && fail "Start-menu shortcut left"
reg_has "$uninstall_key" && fail "uninstall entry left"
reg_has "$run_key" Tether && fail "Run value Tether left"
reg_has "$approved_key" Tether && fail "StartupApproved value Tether left"
# The negative answers above count only if reg query still answers at all.
reg_has "$run_key" || { cat "$work/reg.log"; fail "reg query does not answer"; }
step "a Run value named Tether that starts another program survives an uninstall"
t0=$(now_ms)
win 120 "$work/install3.log" "$setup" /S || { code=$?; cat "$work/install3.log"; fail "third install exited $code"; }
echo "install (warm prefix): $(($(now_ms) - t0)) ms"
foreign='"C:\Tools\other.exe" --tether'
win 30 "$work/reg.log" reg add "$run_key" /v Tether /t REG_SZ /d "$foreign" /f || { cat "$work/reg.log"; fail "reg add Run"; }
t0=$(now_ms)
win 60 "$work/uninstall2.log" "$inst_win\\Uninstall.exe" /S ||
    { code=$?; cat "$work/uninstall2.log"; fail "second uninstaller exited $code"; }
gone=no
for _ in $(seq 120); do
    if [ ! -e "$inst" ] && ! reg_has "$uninstall_key"; then gone=yes; break; fi
    sleep 0.25
done
[ "$gone" = yes ] || fail "the second uninstall has not finished after 60 s"
echo "uninstall (no Tether running): $(($(now_ms) - t0)) ms"
reg_has "$run_key" Tether || fail "the uninstaller removed a Run value that starts another program"
grep -qiF 'other.exe' "$work/reg.log" || { cat "$work/reg.log"; fail "the foreign Run value changed"; }

echo "windows install: $size-byte installer, install ${install_ms} ms, uninstall ${uninstall_ms} ms," \
     "$(wc -l <"$work/files.txt") files installed, all removed"
echo "PASS windows install"
