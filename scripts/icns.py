#!/usr/bin/env python3
"""Write a macOS .icns from square PNGs: the container is 'icns' + total length, then one
(type, length, PNG bytes) entry per size. Modern macOS reads PNG data for every type below.
Usage: icns.py out.icns a.png b.png ..."""
import struct
import sys

# Pixel size -> OSType holding PNG data (ic11..ic14 are the @2x variants of 16..512).
TYPES = {16: [b"icp4"], 32: [b"icp5", b"ic11"], 64: [b"icp6", b"ic12"], 128: [b"ic07"],
         256: [b"ic08", b"ic13"], 512: [b"ic09", b"ic14"], 1024: [b"ic10"]}


def png_size(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    if width != height:
        raise ValueError("not square")
    return width


def main(out, pngs):
    entries = b""
    for path in pngs:
        data = open(path, "rb").read()
        size = png_size(data)
        if size not in TYPES:
            raise SystemExit(f"{path}: {size}px has no icns type")
        for ostype in TYPES[size]:
            entries += ostype + struct.pack(">I", 8 + len(data)) + data
    with open(out, "wb") as f:
        f.write(b"icns" + struct.pack(">I", 8 + len(entries)) + entries)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2:])
