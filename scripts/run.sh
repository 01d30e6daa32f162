#!/usr/bin/env bash
# Sets facet up (scripts/setup.sh) and opens the bundled default scene in facet-viewer. Without a
# display (neither DISPLAY nor WAYLAND_DISPLAY set), renders it to build/default_scene.png with
# facet-render instead. Extra arguments go to whichever program runs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
build_dir="${FACET_BUILD_DIR:-$root/build}"
scene="$root/assets/default_scene/scene.obj"
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$build_dir/apps/facet-viewer" "$scene" --light "$@"
fi
echo "run.sh: no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so no viewer window;" \
  "rendering to $build_dir/default_scene.png instead"
"$build_dir/apps/facet-render" "$scene" --light --size 1280x720 -o "$build_dir/default_scene.png" "$@"
