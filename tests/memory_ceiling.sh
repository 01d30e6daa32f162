#!/usr/bin/env bash
# Memory ceilings, tried under `ulimit -v` as a user with little memory would meet them: a load
# too large for the memory left is refused before parsing, in words naming the file (not
# "std::bad_alloc", not the OOM killer); a texture too large to decode says so and the checker
# stands in; a small mesh still renders under the same limit. (The viewer's side, keeping its mesh: tests/viewer_test.cpp.)
# usage: memory_ceiling.sh FACET_SCENEGEN FACET_RENDER WORK_DIR
set -euo pipefail
scenegen="$1" render="$2" work="$3"
mkdir -p "$work"
failures=0

# expect NAME EXIT REGEX LIMIT_KB COMMAND...: runs COMMAND under `ulimit -v LIMIT_KB` and checks
# its exit code and output (stdout and stderr together).
expect() {
  local name="$1" exit="$2" regex="$3" limit="$4"; shift 4
  local out code=0
  out="$( (ulimit -v "$limit" && exec "$@") 2>&1 )" || code=$?
  printf '%s (ulimit -v %s): exit %s\n%s\n' "$name" "$limit" "$code" "$out"
  if [ "$code" != "$exit" ] || ! grep -Eq -- "$regex" <<< "$out" || grep -q "bad_alloc" <<< "$out"; then
    echo "FAILED: $name: expected exit $exit and output matching '$regex' (never bad_alloc)" >&2
    failures=$((failures + 1))
  fi
}

# A 4M-triangle scene (about 200 MB of OBJ). Kept between runs: generating it takes seconds.
big="$work/big/scene.obj"
if [ ! -s "$big" ]; then "$scenegen" --triangles 4000000 --out "$work/big" > /dev/null; fi
expect "a 4M-triangle OBJ in 400 MB" 1 \
  "facet-render: .*big/scene.obj: not enough memory to load this 200 MiB file: loading it takes up to [0-9]+ MiB, and the address space limit \(ulimit -v\) leaves [0-9]+ MiB" \
  400000 "$render" "$big" --stage cpu --size 64x64 -o "$work/big.png"
[ ! -e "$work/big.png" ] || { echo "FAILED: a refused load still wrote $work/big.png" >&2; failures=$((failures + 1)); }

# A small OBJ whose texture is a 16384x16384 PNG (a few hundred kB on disk, 1 GiB decoded).
python3 - "$work" <<'PY'
import struct, sys, zlib
side = 16384
row = b"\0" + b"\x80" * (side * 3)
data = zlib.compress(row * side, 9)
chunk = lambda kind, body: struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
open(sys.argv[1] + "/huge_texture.png", "wb").write(png)
open(sys.argv[1] + "/huge_texture.mtl", "w").write("newmtl m\nmap_Kd huge_texture.png\n")
open(sys.argv[1] + "/huge_texture.obj", "w").write(
    "mtllib huge_texture.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nusemtl m\nf 1/1 2/2 3/3\n")
PY
# A texture that cannot load is a warning and the checker stands in (docs/guide.md, "Loading OBJ").
expect "a 16384x16384 texture in 1 GB" 0 \
  "warning: .*huge_texture.mtl:2: .*huge_texture.png: not enough memory to decode this 16384x16384 image" \
  1000000 "$render" "$work/huge_texture.obj" --stage cpu --size 64x64 -o "$work/huge_texture_render.png"

# The same limits leave room for what fits.
expect "a small mesh in 400 MB" 0 "wrote .*cube.png \(64x64, 12 triangles" \
  400000 "$render" "$(dirname "$0")/data/cube.obj" --stage cpu --size 64x64 -o "$work/cube.png"

if [ "$failures" != 0 ]; then exit 1; fi
echo "memory ceilings: every case as expected"
