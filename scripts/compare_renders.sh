#!/usr/bin/env bash
# Proves a refactor byte-identical: renders the same pictures (colour PNG and raw depth) with two
# facet-render binaries and compares them byte for byte. The set: the default scene with every
# filter, with and without the headlight, at an even and an odd size, with and without culling;
# and every OBJ of the shared corpus at 640x480 in two setting combinations.
#   scripts/compare_renders.sh OLD_FACET_RENDER NEW_FACET_RENDER [EXTRA facet-render ARGS...]
# Exit status 0 when every picture matches; the mismatches are listed otherwise. Meshes the old
# binary refuses are skipped only when the new one refuses them too.
set -uo pipefail
old="$1" new="$2"; shift 2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
models="${FACET_MODELS_DIR:-$root/../shared/models}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
compared=0 differ=0

# Renders one case with both binaries and compares the outputs.
compare() {
    local name="$1"; shift
    local a="$work/old" b="$work/new"
    "$old" "$@" -o "$a.png" --depth "$a.depth" > "$a.log" 2>&1; local ra=$?
    "$new" "$@" -o "$b.png" --depth "$b.depth" > "$b.log" 2>&1; local rb=$?
    if [ $ra -ne 0 ] && [ $rb -ne 0 ]; then return; fi
    compared=$((compared + 1))
    if [ $ra -ne $rb ] || ! cmp -s "$a.png" "$b.png" || ! cmp -s "$a.depth" "$b.depth"; then
        differ=$((differ + 1))
        echo "DIFFERS: $name ($*)"
    fi
}

for size in 1280x720 333x201; do
    for filter in nearest bilinear trilinear; do
        for light in "" --light; do
            compare "default $size $filter $light" --size "$size" --filter "$filter" $light "$@"
        done
    done
    compare "default $size cull" --size "$size" --cull back --light "$@"
done
compare "default inside" --size 640x360 --eye 0,1.5,2 --yaw 40 --pitch -10 --light "$@"
if [ -d "$models" ]; then
    while IFS= read -r -d '' mesh; do
        compare "$mesh" "$mesh" --size 640x480 "$@"
        compare "$mesh light" "$mesh" --size 640x480 --light --filter bilinear --cull back "$@"
    done < <(find "$models" -iname '*.obj' -print0 | sort -z)
else
    echo "compare_renders: no corpus at $models; the default scene only"
fi
echo "compare_renders: $compared compared, $differ differ"
[ $differ -eq 0 ]
