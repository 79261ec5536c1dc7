# Sourced by run.sh and test.sh: install the Debian packages that are missing, and only then
# refresh the package lists. Usage: ensure_packages pkg...
ensure_packages() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "tether: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

BUILD_PACKAGES=(cmake ninja-build g++ pkg-config qt6-base-dev qt6-base-dev-tools libgl-dev libxkbcommon-dev)
RUN_PACKAGES=()  # the xcb and offscreen platform plugins come with libqt6gui6

# Node.js and npm for the e2e tests and benchmarks: a machine may already have them from
# outside Debian (NodeSource's nodejs bundles npm and conflicts with Debian's npm package).
ensure_node() {
    command -v node >/dev/null && command -v npm >/dev/null && return 0
    ensure_packages nodejs npm
}
