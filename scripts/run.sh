#!/usr/bin/env bash
# Sets facet up (scripts/setup.sh) and opens the bundled default scene in facet-viewer. Without a
# display (neither DISPLAY nor WAYLAND_DISPLAY set), renders it to build/default_scene.png with
# facet-render instead. Extra arguments go to whichever program runs. FACET_SKIP_SETUP=1: the
# build exists, just run it (no package installation, no reconfiguring or rebuilding).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${FACET_BUILD_DIR:-$root/build}"
if [ "${FACET_SKIP_SETUP:-0}" = 1 ]; then
  for app in facet-viewer facet-render; do
    if [ ! -x "$build_dir/apps/$app" ]; then
      echo "run.sh: FACET_SKIP_SETUP=1 but $build_dir/apps/$app is not built (run scripts/setup.sh)" >&2
      exit 1
    fi
  done
else
  "$root/scripts/setup.sh"
fi
scene="$root/assets/default_scene/scene.obj"
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$build_dir/apps/facet-viewer" "$scene" --light "$@"
fi
echo "run.sh: no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so no viewer window;" \
  "rendering to $build_dir/default_scene.png instead"
"$build_dir/apps/facet-render" "$scene" --light --size 1280x720 -o "$build_dir/default_scene.png" "$@"
