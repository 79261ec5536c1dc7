#!/usr/bin/env bash
# Render every app icon from the one source, resources/icons/tether.svg, and check them in:
#   resources/icons/hicolor/<N>x<N>/apps/dev.tether.Tether.png  (Linux, N = 16 ... 512)
#   resources/icons/tether.ico   (Windows: 16, 24, 32, 48, 64, 128, 256)
#   resources/icons/tether.icns  (macOS: PNG entries 16 ... 1024, written by icns.py)
# Needs ImageMagick (`convert`) and python3. Run it again after editing the SVG.
set -euo pipefail
cd "$(dirname "$0")/../resources/icons"
app_id=dev.tether.Tether
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

render() { # size out.png
    # High density, then downscale: crisp edges at every size. Strip timestamps so the
    # checked-in files only change when the picture does.
    convert -background none -density 1536 tether.svg -resize "$1x$1" \
        -define png:exclude-chunks=date,time +set date:create +set date:modify PNG32:"$2"
}

for n in 16 22 24 32 48 64 128 256 512 1024; do render "$n" "$tmp/$n.png"; done
for n in 16 22 24 32 48 64 128 256 512; do
    mkdir -p "hicolor/${n}x${n}/apps"
    cp "$tmp/$n.png" "hicolor/${n}x${n}/apps/$app_id.png"
done
convert "$tmp"/{16,24,32,48,64,128,256}.png tether.ico
python3 ../../scripts/icns.py tether.icns "$tmp"/{16,32,64,128,256,512,1024}.png
echo "icons written under $(pwd)"
