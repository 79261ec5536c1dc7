#!/usr/bin/env bash
# Soak: one `tether --headless` (demo profile, short timings) for MINUTES (default 20) while the
# demo service goes busy on every start, freezes (SIGSTOP), crashes (SIGKILL), is restarted on
# request, reports a wrong version, and leaves stubborn MCP children (ignore EOF/TERM/HUP; one
# leaves its group). Then it checks:
#   - no orphan: every demo-service / demo-mcp process this run created is gone (zombies count)
#   - Tether signalled nothing but services it started ("terminating pid N" in tether.log) and
#     their verified MCP children ("sweep ... pid N" lines, and every member of a group it
#     signalled: "group G killed: p1 p2"), all of them processes of this run
#   - Tether's RSS and open fds flat: growth under 5 % from the end of warm-up to the end
#   - every transition logged: each injected fault shows up as a state change in tether.log
#   scripts/soak.sh [MINUTES]     (fractions allowed: 0.5)
# Env: TETHER_BIN (default: build one in build/soak), SOAK_PERIOD_S (seconds between faults, 12).
# The driver only signals the demo service it identified (pid from `tether status --json`,
# argv naming demo-service and this run's port, environment naming this run's data dir).
set -uo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-20}
period=${SOAK_PERIOD_S:-12}
if [ -z "${TETHER_BIN:-}" ]; then
    cmake -S . -B build/soak -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTETHER_BUILD_TESTS=OFF \
        -DTETHER_BUILD_BENCH=OFF >/dev/null && cmake --build build/soak --target tether >/dev/null ||
        { echo "soak: build failed"; echo "SOAK FAILED"; exit 1; }
    TETHER_BIN=$PWD/build/soak/app/tether
fi
work=$(mktemp -d /tmp/tether-soak.XXXXXX)
export TETHER_DATA_DIR=$work/data
port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
cat >"$work/tether.ini" <<INI
[service]
profile=demo
port=$port
arguments=--mcp, 3, --stubborn, --mcp-setsid, 2, --busy-after, 1000, --busy-for, 2500, --version, 0.0.1-soak
[probe]
intervalMs=200
timeoutMs=400
startupDeadlineMs=15000
[recovery]
windowMs=4000
graceMs=500
backoffInitialMs=100
backoffMaxMs=1000
burst=1000
[orphans]
graceMs=300
INI

ours() { # pids of demo-service / demo-mcp processes started for this run (by environment)
    local f d
    for f in $(grep -lsaE 'demo-(service|mcp)' /proc/[0-9]*/cmdline); do
        d=${f%/cmdline}
        tr '\0' '\n' 2>/dev/null <"$d/environ" | grep -qx "TETHER_DATA_DIR=$TETHER_DATA_DIR" || continue
        echo "${d#/proc/}"
    done
}
gone() { # pid: absent or a zombie
    local st; st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 0
    [ -z "$st" ] || [ "$st" = Z ]
}
state() { "$TETHER_BIN" status --json 2>/dev/null | python3 -c 'import sys,json;d=json.load(sys.stdin);print(d.get("state",""),int(d.get("pid",0)))' 2>/dev/null; }
rss() { awk '/^VmRSS/{print $2}' "/proc/$1/status"; }
fds() { ls "/proc/$1/fd" | wc -l; }
wait_healthy() { local t=$((SECONDS + 60)); while [ $SECONDS -lt $t ]; do
    set -- $(state); [ "${1:-}" = healthy ] && return 0; sleep 0.3; done; return 1; }

"$TETHER_BIN" --headless --settings "$work/tether.ini" >"$work/stdout.log" 2>&1 &
tpid=$!
fail=0
note() { echo "soak: $*"; }
bad() { echo "soak: FAIL: $*"; fail=1; }
wait_healthy || bad "never healthy at start"
seen=" "; services=" "; faults=0
remember() { local p; for p in $(ours); do case $seen in *" $p "*) ;; *) seen="$seen$p "
    tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline" | grep -q demo-service && services="$services$p ";; esac; done; }
end=$((SECONDS + $(python3 -c "print(int(float('$minutes')*60))")))
warm=$((SECONDS + $(python3 -c "print(max(20, int(float('$minutes')*60)//4))")))
# RSS and fds are sampled at one point of every cycle (the service healthy, just before the next
# fault), so a probe socket or a child's pipes in flight do not count as growth; the first three
# samples after warm-up are compared with the last three (the least of each).
rss_s=() fd_s=()
cycle=0
while [ $SECONDS -lt $end ]; do
    remember
    kill -0 $tpid 2>/dev/null || { bad "tether exited"; break; }
    set -- $(state); st=${1:-} spid=${2:-0}
    if [ "$st" = healthy ] && [ "$spid" -gt 1 ] &&
       tr '\0' ' ' 2>/dev/null <"/proc/$spid/cmdline" | grep -q "demo-service --port $port" &&
       tr '\0' '\n' 2>/dev/null <"/proc/$spid/environ" | grep -qx "TETHER_DATA_DIR=$TETHER_DATA_DIR"; then
        if [ $SECONDS -ge $warm ]; then
            rss_s+=("$(rss $tpid)"); fd_s+=("$(fds $tpid)")
            [ ${#rss_s[@]} -eq 1 ] && note "after warm-up: rss ${rss_s[0]} KiB, fds ${fd_s[0]}"
        fi
        case $((cycle % 3)) in
        0) note "fault $cycle: freeze (SIGSTOP) service $spid"; kill -STOP "$spid" ;;
        1) note "fault $cycle: crash (SIGKILL) service $spid"; kill -KILL "$spid" ;;
        2) note "fault $cycle: explicit restart of $spid"; "$TETHER_BIN" restart >/dev/null ;;
        esac
        faults=$((faults + 1)); cycle=$((cycle + 1))
        sleep 2; remember
        wait_healthy || bad "not healthy again after fault $cycle"
        remember
    fi
    t=$((SECONDS + period)); while [ $SECONDS -lt $t ] && [ $SECONDS -lt $end ]; do remember; sleep 1; done
done
remember
"$TETHER_BIN" stop >/dev/null 2>&1
"$TETHER_BIN" quit >/dev/null 2>&1
for _ in $(seq 300); do kill -0 $tpid 2>/dev/null || break; sleep 0.1; done
kill -0 $tpid 2>/dev/null && { bad "tether did not quit"; kill $tpid; }
wait $tpid 2>/dev/null

log=$TETHER_DATA_DIR/logs/tether.log
nsvc=$(wc -w <<<"$services"); nall=$(wc -w <<<"$seen")
note "faults injected: $faults; processes of this run: $nall ($nsvc services)"
# No orphan: everything this run created is gone now (allow the reaper a moment).
left=""
for p in $seen; do for _ in $(seq 50); do gone "$p" && break; sleep 0.1; done; gone "$p" || left="$left $p"; done
[ -z "$left" ] && note "orphans left: 0" || bad "left running:$left ($(for p in $left; do tr '\0' ' ' </proc/$p/cmdline; echo; done))"
# Signalled only what it started: every pid Tether says it terminated or swept is one of ours.
# A group signal is logged with every live member it reached ("group G killed: p1 p2").
signalled=$( (grep -oE '(terminating|sweep[a-z]*|kill[a-z]*|TERM|KILL)[^0-9]{0,30}pid [0-9]+' "$log"
              grep -oE 'pid [0-9]+: (killed|terminated|swept)' "$log" | cut -d: -f1
              grep -oE 'group [0-9]+ (signalled|killed): [0-9 ]+' "$log" | sed 's/.*: //' | tr ' ' '\n') |
             grep -oE '[0-9]+$' | sort -un)
foreign=""; for p in $signalled; do case $seen in *" $p "*) ;; *) foreign="$foreign $p";; esac; done
[ -z "$foreign" ] && note "signalled pids: $(wc -w <<<"$signalled"), all services or children of this run" ||
    bad "signalled pids not of this run:$foreign"
# Flat RSS and fds after warm-up.
least() { printf '%s\n' "$@" | sort -n | head -1; }
n=${#rss_s[@]}
if [ "$n" -ge 2 ]; then
    k=$(( n < 6 ? n / 2 : 3 ))
    rss0=$(least "${rss_s[@]:0:k}"); rss1=$(least "${rss_s[@]:n-k}")
    fd0=$(least "${fd_s[@]:0:k}"); fd1=$(least "${fd_s[@]:n-k}")
else
    bad "run too short: $n samples after warm-up"; rss0=1 rss1=1 fd0=1 fd1=1 k=0
fi
note "tether rss: $rss0 KiB after warm-up -> $rss1 KiB at end; fds: $fd0 -> $fd1 ($n samples, least of $k at each end)"
[ $((rss1 * 100)) -le $((rss0 * 105)) ] || bad "rss grew $(( (rss1 - rss0) * 100 / rss0 )) %"
[ $((fd1 * 100)) -le $((fd0 * 105)) ] || bad "fds grew from $fd0 to $fd1"
# Every transition logged: at least one state change per fault, plus the start.
transitions=$(grep -ciE 'state|->' "$log")
note "transition lines in tether.log: $transitions"
[ "$transitions" -ge $((faults + 1)) ] || bad "only $transitions transitions logged for $faults faults"
if [ $fail -eq 0 ]; then echo "SOAK PASSED"; rm -rf "$work"; else echo "SOAK FAILED (kept $work)"; fi
exit $fail
