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

# qt6-tools-dev (Qt6LinguistTools for CMake) and qt6-l10n-tools (lupdate, lrelease): the build
# makes the translation catalogues (translations/CMakeLists.txt).
BUILD_PACKAGES=(cmake ninja-build g++ pkg-config qt6-base-dev qt6-base-dev-tools libgl-dev libxkbcommon-dev
                qt6-tools-dev qt6-l10n-tools)
# The xcb and offscreen platform plugins come with libqt6gui6; qt6-translations-l10n has Qt's own
# words (standard buttons, a text field's menu) in the languages Tether speaks.
RUN_PACKAGES=(qt6-translations-l10n)

# Node.js and npm for the e2e tests and benchmarks: a machine may already have them from
# outside Debian (NodeSource's nodejs bundles npm and conflicts with Debian's npm package).
ensure_node() {
    command -v node >/dev/null && command -v npm >/dev/null && return 0
    ensure_packages nodejs npm
}
