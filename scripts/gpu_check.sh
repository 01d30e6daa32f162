#!/usr/bin/env bash
# The one command for a machine with an NVIDIA GPU and the CUDA toolkit (12.4 or later, or 13):
# facet has never run on a GPU (docs/gpu.md), and this runs, on this machine's GPU, everything
# that needs one. It needs what scripts/setup.sh installs (cmake, ninja, g++, the -dev packages)
# and python3, and it takes its own build tree, so it never touches build/:
#   1. configure build-gpu/ (FACET_GPU_BUILD_DIR overrides): Release, FACET_CUDA=ON, the tests
#      on, the Python module off, FACET_CUDA_ARCHS the GPUs' compute capabilities as
#      `nvidia-smi --query-gpu=compute_cap` gives them ("86;89"; `native` where the driver is
#      too old to say), nvcc from CUDACXX, else PATH, else /usr/local/cuda/bin;
#   2. build all of it;
#   3. the GPU tests (ctest -R: the Gpu, GpuDevice, GpuInterop and VertexKernels suites, the
#      renderer's GPU placements, the facet-render tests that expect the GPU where there is
#      one, the kernels' spill check) with FACET_REQUIRE_GPU=1, so a test that finds no usable
#      GPU fails instead of skipping; the skips left (an OpenGL context no CUDA device drives)
#      are listed by scripts/check_skips.py;
#   4. facet-bench --sections vertex: the vertex stage on the GPU (three kernels or one fused,
#      data resident or copied every call) against NumPy and the CPU over 10^3..10^7 vertices,
#      and the break-even count where the GPU overtakes the best CPU path;
#   5. facet-bench --sections raster --paths cpu,gpu --gpu-model NAME: whole frames on the GPU
#      against the CPU's, and the cost model's estimate of each kernel for NAME, the model's GPU
#      whose name this one's contains (else every GPU it knows). facet-bench times a GPU frame
#      whole (drawn and copied to the host), never a kernel on its own: the estimate's rows
#      stand beside the same kernels run on the CPU, and its frame total is to be read against
#      the GPU's measured frame in the raster table above it.
# A bench step fails where a GPU row is absent (its reason is in the table); the results are in
# build-gpu/bench-vertex and build-gpu/bench-raster (bench.csv, bench.json), each step's output
# also in build-gpu/gpu_check/STEP.log. Then a verdict table: each step, pass or fail, its time.
# usage: scripts/gpu_check.sh [--quick]   (--quick: facet-bench's tiny configuration, seconds)
# Exit 0: every step passed; 1: one failed (or a bad argument); 2: nothing to check here (no
# nvidia-smi, no GPU listed, no nvcc, or a toolkit too old for facet or for this GPU), said in
# one line before anything is configured or built.
# shellcheck disable=SC2317 # the steps' functions are called through run_step
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

quick=()
for arg in "$@"; do
  case "$arg" in
    --quick) quick=(--quick) ;;
    -h | --help)
      awk 'NR == 1 { next } !/^#/ { exit } !/shellcheck/ { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}"
      exit 0 ;;
    *) echo "gpu_check: unknown argument '$arg' (usage: scripts/gpu_check.sh [--quick])" >&2; exit 1 ;;
  esac
done

# ---- Can it run here? Each answer is one line, before anything is made. ----
cannot() {
  echo "gpu_check: cannot run here, nothing configured or built: $*" >&2
  exit 2
}
# The first line of a command's output, for a reason (nvidia-smi explains itself on stdout).
first_line() { printf '%s\n' "$1" | sed -n '/[^[:space:]]/{s/^[[:space:]]*//;p;q}'; }

command -v nvidia-smi > /dev/null || cannot "nvidia-smi is not installed (no NVIDIA driver)"
gpus_status=0
gpus="$(nvidia-smi -L 2>&1)" || gpus_status=$?
grep -q '^GPU [0-9]' <<< "$gpus" ||
  cannot "nvidia-smi -L lists no GPU (exit $gpus_status): $(first_line "${gpus:-(no output)}")"

if [ -n "${CUDACXX:-}" ]; then
  nvcc="$CUDACXX"
  if [ ! -f "$nvcc" ] || [ ! -x "$nvcc" ]; then cannot "CUDACXX names $nvcc, which is not an executable file"; fi
elif ! nvcc="$(command -v nvcc)"; then
  nvcc=/usr/local/cuda/bin/nvcc
  [ -x "$nvcc" ] ||
    cannot "nvcc not found (CUDACXX unset, none on PATH or in /usr/local/cuda/bin): install the CUDA toolkit"
fi
release="$("$nvcc" --version 2>&1 | sed -n 's/.*release \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | head -n 1)"
[ -n "$release" ] || cannot "$nvcc --version names no release"
read -r cuda_major cuda_minor <<< "$release"
if ((cuda_major < 12 || (cuda_major == 12 && cuda_minor < 4))); then
  cannot "$nvcc is CUDA $cuda_major.$cuda_minor; facet needs 12.4 or later"
fi

# The architectures to build: each GPU's compute capability ("8.6" -> 86), or `native` where the
# driver cannot say (compute_cap came with driver 510), for CMake to ask the GPUs itself.
caps_status=0
caps="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>&1)" || caps_status=$?
if [ "$caps_status" = 0 ] && ! grep -qv '^[0-9][0-9]*\.[0-9][0-9]*$' <<< "$caps"; then
  archs="$(tr -d . <<< "$caps" | sort -un | paste -sd';')"
  gpu_codes="$("$nvcc" --list-gpu-code 2>&1 || true)"
  for arch in ${archs//;/ }; do
    grep -qx "sm_$arch" <<< "$gpu_codes" || cannot "$nvcc (CUDA $cuda_major.$cuda_minor) cannot compile" \
      "for this GPU's sm_$arch (not in its --list-gpu-code): a newer toolkit is needed"
  done
else
  archs=native
fi

# ---- It can: configure, build, test, measure. ----
for tool in cmake ninja ctest python3; do
  if ! command -v "$tool" > /dev/null; then
    echo "gpu_check: $tool is not installed (scripts/setup.sh installs it)" >&2
    exit 1
  fi
done
build_dir="${FACET_GPU_BUILD_DIR:-$root/build-gpu}"
logs="$build_dir/gpu_check"
mkdir -p "$logs"
jobs="$(nproc)"
echo "== gpu_check: $(grep -c '^GPU [0-9]' <<< "$gpus") GPU(s), CUDA $cuda_major.$cuda_minor ($nvcc)," \
  "architectures $archs, in $build_dir"
echo "   ${gpus//$'\n'/$'\n'   }"

gpu_tests='^(Gpu|GpuDevice|GpuInterop|VertexKernels)\.|^Renderer\..*Gpu|^Env\.Render(Gpu|Raster|Vertex|Auto)|^Cuda\.'

configure() {
  cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFACET_CUDA=ON \
    "-DFACET_CUDA_ARCHS=$archs" "-DCMAKE_CUDA_COMPILER=$nvcc" -DFACET_BUILD_TESTS=ON -DFACET_PYTHON=OFF \
    ${FACET_MODELS_DIR:+"-DFACET_MODELS_DIR=$FACET_MODELS_DIR"}
}

build() { cmake --build "$build_dir" -j "$jobs"; }

gpu_tests() {
  local status=0
  FACET_REQUIRE_GPU=1 ctest --test-dir "$build_dir" -R "$gpu_tests" --no-tests=error --output-on-failure \
    -j "$jobs" --output-junit "$logs/junit.xml" || status=$?
  python3 "$root/scripts/check_skips.py" "$logs/junit.xml" || true
  return "$status"
}

# Fails naming every GPU row of DIR/bench.csv that is absent (the break-even row is absent,
# rightly, where the GPU never overtakes the CPU within the sweep).
gpu_rows_present() {
  python3 - "$1/bench.csv" << 'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
gpu = [r for r in rows if r["path"].startswith("gpu") and r["case"] != "break_even"]
absent = [r for r in gpu if r["status"] != "ok"]
for r in absent:
    print(f"gpu_check: GPU row absent: {r['section']} {r['case']} {r['label']}: {r['note']}", file=sys.stderr)
if not gpu:
    print(f"gpu_check: {sys.argv[1]} has no GPU row", file=sys.stderr)
sys.exit(1 if absent or not gpu else 0)
EOF
}

bench_vertex() {
  "$build_dir/apps/facet-bench" "${quick[@]}" --sections vertex --out "$build_dir/bench-vertex" &&
    gpu_rows_present "$build_dir/bench-vertex"
}

# The cost model's GPUs for this machine's: for each GPU nvidia-smi names, the model's name (t4,
# rtx4090, a100, ...) that its name contains once both are lower case without spaces, the
# longest such; where none matches, every GPU the model knows.
cost_models() {
  local known gpu model best chosen=""
  known="$("$build_dir/apps/facet-bench" --gpu-model list | awk 'NR > 1 { print $1 }')" || return 1
  while read -r gpu; do
    gpu="$(tr '[:upper:]' '[:lower:]' <<< "$gpu" | tr -cd '[:alnum:]')"
    best=""
    for model in $known; do
      if [[ "$gpu" == *"$model"* ]] && ((${#model} > ${#best})); then best="$model"; fi
    done
    if [ -n "$best" ] && [[ ",$chosen," != *",$best,"* ]]; then chosen="${chosen:+$chosen,}$best"; fi
  done < <(nvidia-smi --query-gpu=name --format=csv,noheader)
  if [ -n "$chosen" ]; then echo "$chosen"; else paste -sd, <<< "$known"; fi
}

bench_raster() {
  local models
  models="$(cost_models)" || return 1
  echo "cost model: --gpu-model $models"
  "$build_dir/apps/facet-bench" "${quick[@]}" --sections raster --paths cpu,gpu --gpu-model "$models" \
    --out "$build_dir/bench-raster" && gpu_rows_present "$build_dir/bench-raster"
}

# ---- Each step timed; a step whose inputs failed is not run. ----
names=() results=() times=()
run_step() {
  local name="$1" log="$logs/$2.log" start=$SECONDS status=0; shift 2
  echo
  echo "== gpu_check: $name"
  "$@" 2>&1 | tee "$log"
  status="${PIPESTATUS[0]}"
  names+=("$name") times+=("$((SECONDS - start)) s")
  if [ "$status" = 0 ]; then results+=(pass); else results+=("FAIL (exit $status, $log)"); fi
  return "$status"
}
not_run() { names+=("$1") results+=("not run: $2") times+=("-"); }

if run_step "configure (Release, CUDA, $archs)" configure configure; then
  if run_step "build" build build; then
    run_step "GPU tests, FACET_REQUIRE_GPU=1" gpu_tests gpu_tests || true
    run_step "bench: vertex kernels vs CPU" bench_vertex bench_vertex || true
    run_step "bench: raster frames vs CPU, cost model" bench_raster bench_raster || true
  else
    for step in "GPU tests, FACET_REQUIRE_GPU=1" "bench: vertex kernels vs CPU" \
      "bench: raster frames vs CPU, cost model"; do
      not_run "$step" "the build failed"
    done
  fi
else
  not_run build "configuring failed"
fi

echo
echo "== gpu_check: verdict"
failed=0
for i in "${!names[@]}"; do
  printf '  %-44s %-8s %s\n' "${names[$i]}" "${times[$i]}" "${results[$i]}"
  [ "${results[$i]}" = pass ] || failed=1
done
if [ "$failed" = 0 ]; then echo "== gpu_check: every step passed"; else echo "== gpu_check: FAILED"; fi
exit "$failed"
