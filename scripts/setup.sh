#!/usr/bin/env bash
# Installs what facet needs from Debian's packages (only what is missing), then configures and
# builds it in build/. Safe to run again: the second time it only rebuilds what changed.
# Environment: FACET_CUDA=AUTO|ON|OFF (default AUTO), FACET_BUILD_DIR (default build),
# FACET_MODELS_DIR (the shared OBJ corpus the tests read; default ../shared/models).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${FACET_BUILD_DIR:-$root/build}"

packages=(
  cmake ninja-build g++ pkg-config
  libglm-dev libstb-dev libtinyobjloader-dev libtinygltf-dev nlohmann-json3-dev libfast-float-dev zlib1g-dev
  libglfw3-dev libgl-dev libegl-dev libimgui-dev python3-glad
  libgtest-dev libgmock-dev libbenchmark-dev
  xvfb xauth xdotool fonts-dejavu-core
  python3-dev pybind11-dev python3-numpy python3-pytest python3-dask python3-distributed python3-tqdm python3-venv
)

# For the test command's fuzzing pass (clang with libFuzzer), and for facet-bench's NumPy
# baseline and its plots; where a release names them differently they are skipped, and so is
# what needs them (the bench then reports the NumPy rows absent and plots nothing). Under CI
# (CI=true) the fuzzing pass is required, so clang is too: failing to install it is an error.
fuzzing=(clang libclang-rt-dev)
optional=(python3-numpy python3-matplotlib)
if [ "${CI:-}" = true ]; then packages+=("${fuzzing[@]}"); else optional=("${fuzzing[@]}" "${optional[@]}"); fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=() missing_optional=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
for p in "${optional[@]}"; do installed "$p" || missing_optional+=("$p"); done
if ((${#missing[@]} + ${#missing_optional[@]})); then
  echo "facet: installing missing packages: ${missing[*]} ${missing_optional[*]}"
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
  # Wait for another apt (e.g. unattended upgrades) rather than failing on its lock.
  apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q)
  "${apt[@]}" update
  if ((${#missing[@]})); then "${apt[@]}" install -y --no-install-recommends "${missing[@]}"; fi
  if ((${#missing_optional[@]})); then
    "${apt[@]}" install -y --no-install-recommends "${missing_optional[@]}" ||
      echo "facet: ${missing_optional[*]} not installed; what needs them (fuzzing, the bench's NumPy rows and plots) is skipped"
  fi
fi

mkdir -p "$build_dir"
log="$build_dir/configure.log"
cmake -S "$root" -B "$build_dir" -G Ninja -DFACET_CUDA="${FACET_CUDA:-AUTO}" \
  ${FACET_MODELS_DIR:+"-DFACET_MODELS_DIR=$FACET_MODELS_DIR"} > "$log" 2>&1 || { cat "$log"; exit 1; }
grep -E '^-- facet:' "$log" || true
cmake --build "$build_dir" -j "$(nproc)"
