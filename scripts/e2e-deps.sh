#!/usr/bin/env bash
# Install the pinned npm packages the end-to-end tests and benchmarks drive (real opencode and
# real MCP servers) into a cache folder outside the source tree, only when missing.
# Sourced or run: sets and prints TETHER_E2E_CACHE. Exits non-zero (with the reason) on failure;
# the e2e tests then fail with a clear message, they never skip.
# Override the folder with TETHER_E2E_CACHE.
OPENCODE_PKG=opencode-ai@1.18.33          # ships the Linux x64 binary as opencode-linux-x64
EVERYTHING_PKG=@modelcontextprotocol/server-everything@2026.8.31
FILESYSTEM_PKG=@modelcontextprotocol/server-filesystem@2026.8.31

e2e_default_cache() {
    if [ -w /var/cache ]; then echo /var/cache/tether-e2e
    else echo "${XDG_CACHE_HOME:-$HOME/.cache}/tether-e2e"; fi
}

e2e_installed() { # cache
    local c=$1
    [ -x "$c/node_modules/opencode-linux-x64/bin/opencode" ] &&
    [ -f "$c/node_modules/@modelcontextprotocol/server-everything/dist/index.js" ] &&
    [ -f "$c/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js" ] &&
    grep -q '"version": "1.18.33"' "$c/node_modules/opencode-ai/package.json" 2>/dev/null
}

e2e_install() {
    export TETHER_E2E_CACHE="${TETHER_E2E_CACHE:-$(e2e_default_cache)}"
    if e2e_installed "$TETHER_E2E_CACHE"; then return 0; fi
    command -v npm >/dev/null || { echo "tether e2e: npm is missing (apt-get install npm)" >&2; return 1; }
    mkdir -p "$TETHER_E2E_CACHE" || return 1
    [ -f "$TETHER_E2E_CACHE/package.json" ] || echo '{"private":true}' >"$TETHER_E2E_CACHE/package.json"
    echo "tether e2e: installing $OPENCODE_PKG $EVERYTHING_PKG $FILESYSTEM_PKG into $TETHER_E2E_CACHE"
    # opencode-ai's postinstall only links the platform binary; ignore-scripts keeps the
    # install offline-quiet and the binary is taken straight from opencode-linux-x64.
    (cd "$TETHER_E2E_CACHE" && npm install --no-audit --no-fund --ignore-scripts --save-exact \
        "$OPENCODE_PKG" "$EVERYTHING_PKG" "$FILESYSTEM_PKG" >install.log 2>&1) || {
        echo "tether e2e: npm install failed, see $TETHER_E2E_CACHE/install.log" >&2
        tail -5 "$TETHER_E2E_CACHE/install.log" >&2; return 1; }
    e2e_installed "$TETHER_E2E_CACHE" || {
        echo "tether e2e: packages installed but the opencode binary or MCP servers are missing in $TETHER_E2E_CACHE" >&2
        return 1; }
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -u
    e2e_install || exit 1
    echo "TETHER_E2E_CACHE=$TETHER_E2E_CACHE"
fi
