#!/usr/bin/env bash
# The DEB, end to end on this machine: build it (scripts/package.sh), install it with apt, run
# the installed /usr/bin/tether (--version, then a headless start against the bundled demo
# service until `tether status --json` says healthy, then `tether quit`), purge it, and check
# that none of the package's files is left. Needs root (apt). Exit 0 only when all of it held.
# Usage: bash tests/install/deb_install.sh [build-dir] [--existing] (see scripts/package.sh)
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${1:-build/package}
existing=${2:-}
work=$(mktemp -d /tmp/tether-deb-test.XXXXXX)
tether_pid='' service_pid=''
step() { echo "--- deb install: $*"; }
fail() { echo "FAIL deb install: $*"; exit 1; }

cleanup() {
    # Only processes this script started and identified: the headless Tether it launched and
    # the demo service that Tether reported (checked against its command line first).
    if [ -n "$tether_pid" ] && kill -0 "$tether_pid" 2>/dev/null; then kill "$tether_pid"; fi
    if [ -n "$service_pid" ] && tr '\0' ' ' <"/proc/$service_pid/cmdline" 2>/dev/null |
        grep -q 'demo-service'; then
        kill "$service_pid" 2>/dev/null
    fi
    if dpkg-query -W -f='${Status}' tether 2>/dev/null | grep -q 'install ok installed'; then
        apt-get remove --purge -y -qq tether >/dev/null 2>&1
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# A package named tether from elsewhere would be replaced and purged by this test: refuse.
if dpkg-query -W -f='${Status}' tether 2>/dev/null | grep -q 'installed'; then
    fail "a package named tether is already installed; remove it first (this test purges it)"
fi

step "build"
bash scripts/package.sh "$dir" $existing >"$work/package.log" 2>&1 ||
    { cat "$work/package.log"; fail "package.sh"; }
deb=$(ls -1 "$PWD/$dir"/tether_*.deb | head -1)
[ -f "$deb" ] || fail "no .deb in $dir"
dpkg-deb --field "$deb" Package Version Depends

step "install $deb"
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$deb" >"$work/apt.log" 2>&1 ||
    { cat "$work/apt.log"; fail "apt-get install"; }
dpkg -L tether >"$work/files.txt" || fail "dpkg -L"
for f in /usr/bin/tether /usr/share/applications/dev.tether.Tether.desktop \
         /usr/share/metainfo/dev.tether.Tether.metainfo.xml \
         /usr/share/icons/hicolor/48x48/apps/dev.tether.Tether.png \
         /usr/share/icons/hicolor/256x256/apps/dev.tether.Tether.png \
         /usr/share/icons/hicolor/scalable/apps/dev.tether.Tether.svg; do
    grep -qx "$f" "$work/files.txt" && [ -f "$f" ] || fail "$f not installed"
done

step "/usr/bin/tether --version"
version=$(/usr/bin/tether --version 2>&1) || fail "--version exited non-zero: $version"
echo "$version"
expected=$(dpkg-query -W -f='${Version}' tether)
grep -q "${expected%%-*}" <<<"$version" || fail "--version says '$version', package is $expected"

step "headless start against the demo service"
port=''
for _ in $(seq 50); do # a free loopback port: not listed by ss as listening
    p=$((20000 + RANDOM % 40000))
    ss -Htln "sport = :$p" | grep -q . || { port=$p; break; }
done
[ -n "$port" ] || fail "no free port"
cat >"$work/tether.ini" <<INI
[service]
profile=demo
port=$port
[app]
stopServiceOnQuit=true
INI
export TETHER_DATA_DIR="$work/data"
/usr/bin/tether --headless --settings "$work/tether.ini" >"$work/tether.log" 2>&1 &
tether_pid=$!
status=''
for _ in $(seq 600); do # up to 60 s
    status=$(/usr/bin/tether status --json 2>/dev/null) && grep -q '"state": *"healthy"' <<<"$status" && break
    kill -0 "$tether_pid" 2>/dev/null || { cat "$work/tether.log"; fail "tether exited early"; }
    sleep 0.1
done
echo "$status"
grep -q '"state": *"healthy"' <<<"$status" || { cat "$work/tether.log"; fail "never healthy"; }
# QJsonDocument sorts keys: the service's top-level "pid" is the last one (after mcp, orphans).
service_pid=$(grep -o '"pid": *[0-9]*' <<<"$status" | tail -1 | grep -o '[0-9]*$')
[ -n "$service_pid" ] || fail "status names no service pid"
port_open=$(exec 3<>"/dev/tcp/127.0.0.1/$port" && echo yes); [ "$port_open" = yes ] || fail "port $port not open"

step "tether quit"
/usr/bin/tether quit || fail "tether quit"
for _ in $(seq 300); do kill -0 "$tether_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$tether_pid" 2>/dev/null && fail "tether still running 30 s after quit"
wait "$tether_pid"; code=$?; tether_pid=''
[ "$code" -eq 0 ] || { cat "$work/tether.log"; fail "tether exit code $code"; }
# stopServiceOnQuit: the demo service is gone (a zombie counts as gone: PID 1 here reaps none).
gone=no
for _ in $(seq 100); do
    state=$(awk '{print $3}' "/proc/$service_pid/stat" 2>/dev/null || true)
    if [ -z "$state" ] || [ "$state" = Z ]; then gone=yes; break; fi
    sleep 0.1
done
[ "$gone" = yes ] || fail "demo service $service_pid still running after quit"
service_pid=''

step "remove --purge"
DEBIAN_FRONTEND=noninteractive apt-get remove --purge -y -qq tether >"$work/apt.log" 2>&1 ||
    { cat "$work/apt.log"; fail "apt-get remove"; }
dpkg-query -W -f='${Status}' tether 2>/dev/null | grep -q 'installed' && fail "still installed"
left=0
while read -r f; do
    # Directories like /usr/share/icons are shared with other packages; files are ours alone.
    if [ -e "$f" ] && [ ! -d "$f" ]; then echo "left behind: $f"; left=$((left + 1)); fi
done <"$work/files.txt"
[ "$left" -eq 0 ] || fail "$left file(s) left after purge"
echo "deb install: $(grep -vc '^$' "$work/files.txt") paths installed, all files removed"
echo "PASS deb install"
