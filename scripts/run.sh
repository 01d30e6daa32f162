#!/usr/bin/env bash
# Sets facet up (scripts/setup.sh) and renders the bundled default scene to build/default_scene.png.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
build_dir="${FACET_BUILD_DIR:-$root/build}"
"$build_dir/apps/facet-render" "$root/assets/default_scene/scene.obj" --light \
  --size 1280x720 -o "$build_dir/default_scene.png" "$@"
