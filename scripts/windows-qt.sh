# Sourced by the Windows build scripts: provides Qt 6.4.2 for MinGW-w64 and the tools around it.
#   ensure_windows_qt   sets TETHER_WIN_QT to an unpacked Qt for Windows (returns 1 on failure)
# Where it comes from, first that exists:
#   $TETHER_WIN_QT                                    an unpacked Qt the caller already has
#   build/qt-mingw-w64                                 unpacked or built by an earlier run
#   ../shared/toolchains/qt-6.4.2-mingw-w64.tar.xz     the prebuilt tarball (checked by sha256)
#   TETHER_BUILD_QT_MINGW=<script>, ../shared/tools/build-qt-mingw or this project's copy,
#   scripts/build-qt-mingw.sh: build it from Debian's qt6-base source (about an hour on 2 cores)
# Host tools (moc, rcc, uic) are Debian's qt6-base-dev-tools, in BUILD_PACKAGES.
WINDOWS_PACKAGES=(g++-mingw-w64-x86-64-posix qt6-base-dev-tools xz-utils)

ensure_windows_qt() {
    local here; here=$(pwd)
    local dest="$here/build/qt-mingw-w64"
    if [ -n "${TETHER_WIN_QT:-}" ] && [ -f "$TETHER_WIN_QT/lib/cmake/Qt6/qt.toolchain.cmake" ]; then
        return 0
    fi
    if [ -f "$dest/lib/cmake/Qt6/qt.toolchain.cmake" ]; then TETHER_WIN_QT=$dest; return 0; fi
    local tarball=${TETHER_WIN_QT_TARBALL:-$here/../shared/toolchains/qt-6.4.2-mingw-w64.tar.xz}
    if [ -f "$tarball" ]; then
        if [ -f "$tarball.sha256" ] &&
           ! (cd "$(dirname "$tarball")" && sha256sum -c --quiet "$(basename "$tarball").sha256"); then
            echo "tether: $tarball does not match its sha256"; return 1
        fi
        mkdir -p "$dest.tmp" && tar -C "$dest.tmp" -xJf "$tarball" || { echo "tether: cannot unpack $tarball"; return 1; }
        local top; top=$(find "$dest.tmp" -mindepth 1 -maxdepth 1 -type d | head -1)
        rm -rf "$dest" && mv "$top" "$dest" && rm -rf "$dest.tmp"
        TETHER_WIN_QT=$dest; return 0
    fi
    local builder=${TETHER_BUILD_QT_MINGW:-$here/../shared/tools/build-qt-mingw}
    [ -x "$builder" ] || builder=$here/scripts/build-qt-mingw.sh
    if [ -x "$builder" ]; then
        echo "tether: no prebuilt Qt for Windows; building it with $builder (about an hour on 2 cores)"
        "$builder" "$dest" || { echo "tether: $builder failed"; return 1; }
        TETHER_WIN_QT=$dest; return 0
    fi
    echo "tether: no Qt for Windows: set TETHER_WIN_QT, put qt-6.4.2-mingw-w64.tar.xz in ../shared/toolchains, or TETHER_BUILD_QT_MINGW=<build-qt-mingw>"
    return 1
}

# cmake arguments for a Windows configure against TETHER_WIN_QT.
windows_cmake_args() {
    echo "-DCMAKE_TOOLCHAIN_FILE=$TETHER_WIN_QT/lib/cmake/Qt6/qt.toolchain.cmake" "-DQT_HOST_PATH=/usr"
}
