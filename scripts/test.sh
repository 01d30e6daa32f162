#!/usr/bin/env bash
# Sets facet up (scripts/setup.sh) and runs the whole test suite through CTest.
# The shared OBJ corpus is read from ../shared/models (FACET_MODELS_DIR overrides it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/setup.sh"
build_dir="${FACET_BUILD_DIR:-$root/build}"
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
