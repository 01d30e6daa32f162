#!/usr/bin/env python3
"""Writes the image fuzzer's seeds (tests/fuzz/seeds/image): tiny files in each format stb_image
reads for facet (PNG, BMP, TGA; JPEG comes from the
shared corpus), in the variants its decoders branch on. Run again only to change them."""
import os
import struct
import zlib

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds", "image")
os.makedirs(out, exist_ok=True)


def png(name, width, height, depth, colour, rows, palette=None, interlace=0):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\0" + row for row in rows)
    body = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace))
    if palette:
        body += chunk(b"PLTE", palette) + chunk(b"tRNS", b"\x80")
    body += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    with open(os.path.join(out, name), "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + body)


png("rgba8.png", 2, 2, 8, 6, [bytes([255, 0, 0, 255, 0, 255, 0, 128])] * 2)
png("rgb8.png", 3, 1, 8, 2, [bytes(range(9))])
png("grey1.png", 8, 1, 1, 0, [b"\xA5"])
png("grey_alpha16.png", 1, 2, 16, 4, [b"\x12\x34\x56\x78"] * 2)
png("palette4.png", 4, 2, 4, 3, [b"\x01\x20"] * 2, palette=b"\x00\x00\x00\xff\x00\x00\x00\xff\x00")
png("interlaced.png", 3, 3, 8, 2, [bytes(9)] * 3, interlace=1)

# BMP: 24-bit, bottom-up, 2x2 (rows padded to 4 bytes).
pixels = b"\x00\x00\xff\x00\xff\x00\x00\x00" + b"\xff\x00\x00\xff\xff\xff\x00\x00"
header = struct.pack("<IiiHHIIiiII", 40, 2, 2, 1, 24, 0, len(pixels), 2835, 2835, 0, 0)
with open(os.path.join(out, "rgb24.bmp"), "wb") as f:
    f.write(b"BM" + struct.pack("<IHHI", 14 + len(header) + len(pixels), 0, 0, 14 + len(header)) + header + pixels)

# TGA: uncompressed 32-bit and run-length encoded 24-bit, 2x2.
with open(os.path.join(out, "rgba32.tga"), "wb") as f:
    f.write(struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, 2, 2, 32, 8) + bytes(range(16)))
with open(os.path.join(out, "rle24.tga"), "wb") as f:
    f.write(struct.pack("<BBBHHBHHHHBB", 0, 0, 10, 0, 0, 0, 0, 0, 2, 2, 24, 0) + b"\x83\x10\x20\x30")
