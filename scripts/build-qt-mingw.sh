#!/usr/bin/env bash
# A copy of ../shared/tools/build-qt-mingw (the script that made ../shared/toolchains'
# tarball), so a checkout without ../shared can still make its Qt for Windows. Keep the two equal.
# build-qt-mingw PREFIX: cross-build Qt 6.4.2 (qtbase: Core, Gui, Widgets, Network, Test) for
# 64-bit Windows with Debian 12's MinGW-w64 (posix threads), from Debian's own qt6-base source
# package, and install it into PREFIX. Host tools (moc, rcc, uic) come from Debian's
# qt6-base-dev-tools of the same version. About 1,300 build steps: roughly an hour on 2 cores.
# ../shared/toolchains/qt-6.4.2-mingw-w64.tar.xz is this script's output, made once, so a build of
# Tether for Windows does not have to wait for it; unpack it anywhere (it is relocatable).
set -euo pipefail
prefix=${1:?usage: build-qt-mingw PREFIX}
work=${WORK_DIR:-$(mktemp -d)}
export DEBIAN_FRONTEND=noninteractive
need=(g++-mingw-w64-x86-64-posix qt6-base-dev qt6-base-dev-tools cmake ninja-build dpkg-dev xz-utils)
missing=(); for p in "${need[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] || { apt-get update -qq; apt-get install -y -qq --no-install-recommends "${missing[@]}"; }

# Debian's source package, fetched with a private deb-src list (the machine's own lists stay as they are)
apt_dir=$work/apt; mkdir -p "$apt_dir/lists/partial"
uri=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources | head -1)
printf 'Types: deb-src\nURIs: %s\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$uri" > "$apt_dir/src.sources"
aptopts=(-o Dir::Etc::sourcelist=/dev/null -o Dir::Etc::sourceparts="$apt_dir" -o Dir::State::Lists="$apt_dir/lists")
apt-get "${aptopts[@]}" update -qq
(cd "$work" && apt-get "${aptopts[@]}" source --download-only qt6-base=6.4.2+dfsg-10)
tar -C "$work" -xJf "$work"/qt6-base_6.4.2+dfsg.orig.tar.xz
# Debian's source leaves out the Wintab tablet header (src/3rdparty/wintab): build the Windows
# platform plugin without Wintab tablet support (pen input through Windows Ink still works).
win="$work/qtbase-everywhere-src-6.4.2/src/plugins/platforms/windows"
sed -i 's/QT_CONFIG(tabletevent)/0/' "$win/qwindowscontext.cpp"
# Qt 6.4.2 builds the Windows plugin's software-GL check even with OpenGL off
sed -i 's/^#if QT_CONFIG(dynamicgl)$/#if QT_CONFIG(dynamicgl) \&\& QT_CONFIG(opengl)/' "$win/qwindowswindow.cpp"
python3 - "$win" <<'PY'
import sys
d = sys.argv[1]
p = d + "/qwindowspointerhandler.cpp"; s = open(p).read()
open(p, "w").write(s.replace('#if QT_CONFIG(tabletevent)\n#  include "qwindowstabletsupport.h"', '#if 0\n#  include "qwindowstabletsupport.h"', 1))
p = d + "/CMakeLists.txt"; s = open(p).read()
open(p, "w").write(s.replace("CONDITION QT_FEATURE_tabletevent\n    SOURCES\n        qwindowstabletsupport.cpp", "CONDITION FALSE\n    SOURCES\n        qwindowstabletsupport.cpp", 1))
PY
sed -i 's/CONDITION QT_FEATURE_tabletevent/CONDITION FALSE/' "$win/../direct2d/CMakeLists.txt"

cat > "$work/toolchain.cmake" <<'TC'
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
TC
cmake -G Ninja -S "$work/qtbase-everywhere-src-6.4.2" -B "$work/build" \
  -DCMAKE_TOOLCHAIN_FILE="$work/toolchain.cmake" -DQT_HOST_PATH=/usr \
  -DQT_HOST_PATH_CMAKE_DIR=/usr/lib/x86_64-linux-gnu/cmake -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_C_FLAGS="-ffile-prefix-map=$work=/build" -DCMAKE_CXX_FLAGS="-ffile-prefix-map=$work=/build" \
  -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DQT_BUILD_EXAMPLES=OFF -DQT_BUILD_TESTS=OFF \
  -DFEATURE_sql=OFF -DFEATURE_printsupport=OFF -DFEATURE_opengl=OFF -DFEATURE_dbus=OFF \
  -DFEATURE_system_zlib=OFF -DFEATURE_system_pcre2=OFF -DFEATURE_system_harfbuzz=OFF \
  -DFEATURE_system_freetype=OFF -DFEATURE_system_png=OFF -DFEATURE_system_jpeg=OFF \
  -DFEATURE_system_doubleconversion=OFF -DFEATURE_icu=OFF -DFEATURE_openssl=OFF
cmake --build "$work/build" --parallel "$(nproc)"
cmake --install "$work/build"
# The MinGW runtime DLLs a Qt program needs beside it on Windows
for dll in libstdc++-6.dll libgcc_s_seh-1.dll libwinpthread-1.dll; do
  f=$(x86_64-w64-mingw32-g++-posix -print-file-name="$dll"); [ -f "$f" ] && cp "$f" "$prefix/bin/"
done
# Relocatable: Qt's toolchain file chain-loads a MinGW toolchain file kept inside the prefix, and the
# qmake/pkg-config leftovers name no folder of the machine that built it.
cp "$work/toolchain.cmake" "$prefix/lib/cmake/mingw-w64-toolchain.cmake"
sed -i 's|^set(__qt_initially_configured_toolchain_file ".*")|set(__qt_initially_configured_toolchain_file "${CMAKE_CURRENT_LIST_DIR}/../mingw-w64-toolchain.cmake")|' \
  "$prefix/lib/cmake/Qt6/qt.toolchain.cmake"
grep -rlI "$work" "$prefix" | xargs -r sed -i "s|$work|/build|g"
echo "Qt 6.4.2 for MinGW-w64 installed in $prefix"
