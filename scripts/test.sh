#!/usr/bin/env bash
# Sets facet up (scripts/setup.sh) and runs the whole test suite through CTest, in four passes:
#   1. the suite on the normal build (build/), then the Python module's pytest suite;
#   2. a short libFuzzer run of each loader (build-fuzz/, clang; skipped with a message where
#      clang or libFuzzer is missing, or with FACET_SKIP_FUZZ=1);
#   3. the suite again under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/, clang
#      where it builds ASan programs, without CUDA; FACET_SKIP_SANITIZERS=1 skips it), with the
#      viewer's monkey test;
#   4. the tests that run threads under ThreadSanitizer (build-tsan/, without CUDA; also skipped
#      by FACET_SKIP_SANITIZERS=1), then the Python module's threading tests with that tree's
#      TSan-built module (the interpreter with the compiler's TSan runtime preloaded).
# Under CI (CI=true) nothing may be skipped: a missing clang or libFuzzer, a Python module not
# built (in build/ or build-tsan/) or without a TSan runtime to preload, and the two skip
# switches are errors; so are tests missing the shared corpus, the CPU-run CUDA kernels or Dask
# (FACET_REQUIRE_CORPUS, _KERNELS, _DASK), and so is any test skipped for a reason not on
# scripts/check_skips.py's allow-list (read from each pass's JUnit report). The sanitizer
# trees build at -O1 -g1, the TSan tree only what its tests run.
# The shared OBJ corpus is read from ../shared/models (FACET_MODELS_DIR overrides it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ci=false
if [ "${CI:-}" = true ]; then ci=true; fi
for switch in FACET_SKIP_FUZZ FACET_SKIP_SANITIZERS; do
  if $ci && [ "${!switch:-0}" != 0 ]; then
    echo "== facet: $switch=${!switch} is not allowed under CI=true: every pass must run" >&2
    exit 1
  fi
done
"$root/scripts/setup.sh"
build_dir="${FACET_BUILD_DIR:-$root/build}"
jobs="$(nproc)"
models=(${FACET_MODELS_DIR:+"-DFACET_MODELS_DIR=$FACET_MODELS_DIR"})

# Configures (quietly, showing the log on failure) one extra build tree.
configure_tree() {
  local dir="$1"; shift
  mkdir -p "$dir"
  cmake -S "$root" -B "$dir" -G Ninja "${models[@]}" "$@" > "$dir/configure.log" 2>&1 || { cat "$dir/configure.log"; exit 1; }
}

# Configures and builds one extra build tree (all of it).
build_tree() {
  configure_tree "$@"
  cmake --build "$1" -j "$jobs"
}

# The sanitizer trees are built at -O1 with line tables only (-g1): a sanitizer's report names
# function, file and line all the same, and the trees compile in less than half the time of
# -O2 -g (36 s against 82 s for the largest test file under ASan).
sanitizer_build=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG"
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG")

# A value from a build tree's CMake cache (empty where it has none).
cache_entry() {
  sed -n "s/^$2:[A-Z]*=//p" "$1/CMakeCache.txt"
}

# Runs pytest on the given tests with a build tree's module (DIR/python), with the interpreter
# CMake built it for (with the library `pytest_preload` names preloaded, if set); pytest's exit 5
# (no test collected) is a failure too.
run_pytest() {
  local dir="$1" python="$2" report="$1/$3" status=0; shift 3
  env ${pytest_preload:+LD_PRELOAD="$pytest_preload"} PYTHONPATH="$dir/python" FACET_BUILD_DIR="$dir" \
    "$python" -m pytest -q -p no:cacheprovider \
    --junitxml="$report" "$@" || status=$?
  if [ "$status" = 5 ]; then echo "== facet: Python tests FAILED: pytest collected no test" >&2; exit 1; fi
  if [ "$status" != 0 ]; then exit "$status"; fi
  check_skips "$report"
}

# Says a pass is skipped and why; under CI=true, where nothing may be skipped, fails instead.
skip_or_fail() {
  if $ci; then echo "== facet: $1 FAILED under CI=true: $2" >&2; exit 1; fi
  echo "== facet: $1 SKIPPED: $2"
}

# Why a build tree has no Python module, from its configure log.
module_missing() {
  echo "the module was not built: $(grep -h 'facet: Python module' "$1/configure.log" || echo 'see CMake output')"
}

# setup.sh installs Mesa's OpenGL, Xvfb and xdotool, so here an unusable OpenGL or display is
# a failure with its reason, not a skip (a developer running ctest alone still gets skips).
export FACET_REQUIRE_GL=1 FACET_REQUIRE_DISPLAY=1
# Under CI the shared corpus (../shared/models), the CUDA toolkit's CCCL headers (the CPU-run
# kernels) and Dask (setup.sh's python3-distributed) are there too: a test missing one fails.
if $ci; then export FACET_REQUIRE_CORPUS=1 FACET_REQUIRE_KERNELS=1 FACET_REQUIRE_DASK=1; fi

# Builds the one-line program SOURCE with clang++ and FLAGS...; prints why not where it cannot.
clang_probe() {
  local source="$1"; shift
  command -v clang++ > /dev/null || { echo "clang++ is not installed"; return 1; }
  echo "$source" | clang++ -x c++ "$@" - -o "${TMPDIR:-/tmp}/facet-clang-probe" 2>&1
}
libfuzzer_probe() {
  clang_probe 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' -fsanitize=fuzzer
}
clang_asan_probe() { clang_probe 'int main() { return 0; }' -fsanitize=address,undefined; }

# Every pass writes a JUnit report, and scripts/check_skips.py lists its skips with their
# reasons: under CI=true a skip not on its allow-list (no GPU, no AVX-512, ...) fails the run, as
# an exit code cannot tell a test that ran from one that skipped.
skips_mode=()
if $ci; then skips_mode=(--strict); fi
check_skips() {
  python3 "$root/scripts/check_skips.py" "${skips_mode[@]}" "$@"
}
run_ctest() {
  local dir="$1" report="$2"; shift 2
  ctest --test-dir "$dir" --output-on-failure -j "$jobs" --output-junit "$dir/$report" "$@"
  check_skips "$dir/$report"
}

echo "== facet: test suite (${build_dir})"
run_ctest "$build_dir" junit.xml

# The Python module's tests, with the interpreter CMake built it for (Debian's, which sees the
# python3-* packages). pytest's exit 5 (no test collected) is a failure too.
python_exe="$(cache_entry "$build_dir" FACET_PYTHON_EXECUTABLE)"
if [ -z "$python_exe" ]; then
  skip_or_fail "Python tests" "$(module_missing "$build_dir")"
else
  echo "== facet: Python tests (python/tests, $python_exe)"
  run_pytest "$build_dir" "$python_exe" junit-python.xml "$root/python/tests"
fi

fuzz_dir="$root/build-fuzz"
if [ "${FACET_SKIP_FUZZ:-0}" = 1 ]; then
  echo "== facet: fuzzing skipped (FACET_SKIP_FUZZ=1)"
elif ! libfuzzer_error="$(libfuzzer_probe)"; then
  if $ci; then
    echo "== facet: fuzzing FAILED under CI=true: clang++ with libFuzzer does not work: $libfuzzer_error" >&2
    exit 1
  fi
  echo "== facet: fuzzing SKIPPED: clang++ with libFuzzer not found (install clang and libclang-rt-dev)"
else
  echo "== facet: short fuzzing run (${fuzz_dir}; docs/robustness.md has the long one)"
  build_tree "$fuzz_dir" "${sanitizer_build[@]}" -DFACET_FUZZ=ON -DFACET_CUDA=OFF -DFACET_PYTHON=OFF \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
  run_ctest "$fuzz_dir" junit.xml
fi

asan_dir="$root/build-asan"
if [ "${FACET_SKIP_SANITIZERS:-0}" = 1 ]; then
  echo "== facet: sanitizer pass skipped (FACET_SKIP_SANITIZERS=1)"
else
  echo "== facet: test suite under AddressSanitizer + UndefinedBehaviorSanitizer (${asan_dir})"
  # With clang where it builds ASan programs: it compiles this tree in about 40% less time than
  # gcc, and its UBSan also checks float-to-int conversions (core/to_int.h).
  asan_compilers=()
  if asan_probe_error="$(clang_asan_probe)"; then
    asan_compilers=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
  else
    echo "== facet: the ASan tree with gcc: clang++ cannot build an ASan program: $asan_probe_error"
  fi
  build_tree "$asan_dir" "${sanitizer_build[@]}" "${asan_compilers[@]}" -DFACET_CUDA=OFF \
    -DFACET_SANITIZE=address,undefined \
    -DFACET_PYTHON=OFF # the module is tested on the normal build; an ASan one needs its runtime preloaded
  # Leaks inside Mesa, X and GLFW are suppressed by tests/lsan_suppressions.txt (third-party
  # libraries only); undefined behaviour prints its stack and fails the test.
  # The sanitizers exit with a code of their own (86), which no facet program uses, so a test
  # expecting a program's failure (exit 1 or 2) cannot pass on a sanitizer's report instead.
  sanitizer_exit=exitcode=86
  export LSAN_OPTIONS="suppressions=$root/tests/lsan_suppressions.txt:print_suppressions=0:$sanitizer_exit"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:$sanitizer_exit"
  # Dynamic TLS is not tracked: Mesa's drivers load with TLS of their own, and LeakSanitizer,
  # walking a thread's dynamic TLS at its check, now and again meets an entry with a bogus
  # range and crashes in its tracer ("Tracer caught signal 11", about 1 run in 20 of
  # GlReference.DefaultScene beside another test). Without it that memory is no longer a
  # root of the leak search, which can only add reports, never hide one.
  export ASAN_OPTIONS="intercept_tls_get_addr=0:$sanitizer_exit"
  # facet-viewer under Xvfb unloads Mesa's drivers at exit (dlclose), after which LeakSanitizer
  # could not name what they hold; the tests run facet's programs with tests/tools/keep_loaded.c
  # preloaded, so the drivers stay loaded, their memory is suppressed by name, and the viewer is
  # checked for leaks like everything else.
  run_ctest "$asan_dir" junit.xml
fi

# ThreadSanitizer: the tests whose code runs on several threads: the thread pool and the
# viewer's loader on their own (Concurrency), the CPU renderer at 1 to N threads (CpuPipeline,
# Renderer, facet-render's thread counts, multisampling, the lit model and the views), the CUDA
# kernels run on the CPU with concurrent blocks and atomics (KernelPipeline), the viewer with its
# background loader (Viewer), the OBJ reader's lexing threads and read-ahead (ObjReading), and
# the Python module's threads with the GIL released (python/tests/test_threads.py). Races
# inside Mesa, which is not built with TSan, are suppressed by tests/tsan_suppressions.txt
# (third-party libraries only).
tsan_dir="$root/build-tsan"
if [ "${FACET_SKIP_SANITIZERS:-0}" = 1 ]; then
  echo "== facet: ThreadSanitizer pass skipped (FACET_SKIP_SANITIZERS=1)"
else
  echo "== facet: threaded tests under ThreadSanitizer (${tsan_dir})"
  # Only what the tests below run: the test files of the suites named below (FACET_TEST_FILES),
  # the programs they run (facet_test_programs), and the module.
  tsan_suites='Concurrency|CpuPipeline|Renderer|KernelPipeline|Viewer|Multisample|LitMultisample|LitShading|Views|ObjReading'
  configure_tree "$tsan_dir" "${sanitizer_build[@]}" -DFACET_CUDA=OFF -DFACET_SANITIZE=thread \
    "-DFACET_TEST_FILES=(concurrency|cpu_pipeline|renderer|kernel_pipeline|viewer|multisample|lit_multisample|lit_shading|view|obj_reading)_test"
  tsan_targets=(facet_test_programs)
  if [ -n "$(cache_entry "$tsan_dir" FACET_PYTHON_EXECUTABLE)" ]; then tsan_targets+=(facet_python); fi
  cmake --build "$tsan_dir" -j "$jobs" --target "${tsan_targets[@]}"
  export TSAN_OPTIONS="suppressions=$root/tests/tsan_suppressions.txt:halt_on_error=1:second_deadlock_stack=1:exitcode=86"
  # Multisample, LitMultisample, LitShading and Views draw forward-drawn tiles and alpha to
  # coverage on two threads; their 2 GiB target case is left to the ASan pass (TSan's shadow
  # would take four times that again).
  run_ctest "$tsan_dir" junit.xml \
    -R "^($tsan_suites)\\.|^Apps\\.RenderThreadCountsDrawTheSamePicture\$" \
    -E '^Viewer\.Monkey|^Multisample\.LargestTargetAtEightSamples$'
  # The Python module with its GIL released: python/tests/test_threads.py (Python threads
  # rendering, on their own and on shared Renderers, and projecting at once; the GIL-release
  # test) with the TSan-built module. The interpreter is not built with TSan, so the runtime of
  # the compiler that built the tree is preloaded; its interceptors see CPython's locks (the
  # GIL is a pthread mutex and condition) and NumPy's allocations, so neither needs a
  # suppression. --capture=sys leaves file descriptor 2 alone: a report TSan prints before
  # exiting with 86 reaches the log instead of pytest's capture file.
  tsan_python="$(cache_entry "$tsan_dir" FACET_PYTHON_EXECUTABLE)"
  # The runtime is the one the module was linked against (gcc's libtsan.so.N, found by ldd),
  # which is the compiler's own, not another version's.
  tsan_runtime="$(ldd "$tsan_dir"/python/facet/_facet*.so 2> /dev/null |
    sed -n 's/^[[:space:]]*libtsan[^ ]* => \([^ ]*\) .*/\1/p')" || true
  if [ -z "$tsan_python" ]; then
    skip_or_fail "Python threading tests under TSan" "$(module_missing "$tsan_dir")"
  elif [ ! -f "$tsan_runtime" ]; then
    skip_or_fail "Python threading tests under TSan" \
      "the module links no libtsan to preload (gcc links it; clang links its runtime into executables only)"
  else
    echo "== facet: Python threading tests under ThreadSanitizer ($tsan_python, $tsan_runtime preloaded)"
    pytest_preload="$tsan_runtime" run_pytest "$tsan_dir" "$tsan_python" junit-python.xml --capture=sys \
      "$root/python/tests/test_threads.py"
  fi
fi
