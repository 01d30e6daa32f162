#!/usr/bin/env bash
# scripts/gpu_check.sh where it cannot run: it exits 2 with one line naming the reason, and
# configures and builds nothing (no build tree appears). Once as this machine is, where it has
# no GPU; then, on any machine, with nvidia-smi and nvcc stubbed as a machine without a GPU, a
# driver that fails, no toolkit, too old a toolkit, and one that cannot compile for the GPU.
# usage: gpu_check_no_gpu.sh GPU_CHECK WORK_DIR
set -euo pipefail
script="$1" work="$2"
rm -rf "$work"
mkdir -p "$work/bin"
build="$work/build-gpu"
# Nor may it make its default tree beside the script, where none was before.
default_build="$(cd "$(dirname "$script")/.." && pwd)/build-gpu"
had_default=false
if [ -e "$default_build" ]; then had_default=true; fi
# shellcheck disable=SC2001 # a bracket class in sed says it more plainly than ${work//...}
work_re="$(sed 's/[][\.*^$+?(){}|]/\\&/g' <<< "$work")" # the path as a regular expression
failures=0

# expect CASE REGEX [VAR=VALUE...]: the script run with those variables (and its build tree in
# $build) says one line matching REGEX, exits 2, and leaves no build tree, there or by default.
expect() {
  local name="$1" regex="$2" out status=0 problems=()
  shift 2
  out="$(env FACET_GPU_BUILD_DIR="$build" "$@" "$script" 2>&1)" || status=$?
  echo "$name: exit $status: $out"
  [ "$status" = 2 ] || problems+=("exit $status, expected 2")
  [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || problems+=("$(printf '%s\n' "$out" | wc -l) lines, expected one")
  [[ "$out" =~ ^"gpu_check: cannot run here, nothing configured or built: "$regex$ ]] ||
    problems+=("the line does not match '$regex'")
  [ ! -e "$build" ] || problems+=("$build was created")
  $had_default || [ ! -e "$default_build" ] || problems+=("$default_build was created")
  if ((${#problems[@]})); then
    local joined
    joined="$(printf '%s; ' "${problems[@]}")"
    echo "FAILED: $name: ${joined%; }" >&2
    failures=$((failures + 1))
  fi
  rm -rf "$build"
}

# A stub program NAME in $work/bin printing TEXT and exiting with STATUS.
stub() {
  printf '#!/bin/sh\nprintf "%%b" "%s"\nexit %s\n' "$2" "$3" > "$work/bin/$1"
  chmod +x "$work/bin/$1"
}

if command -v nvidia-smi > /dev/null && nvidia-smi -L 2> /dev/null | grep -q '^GPU [0-9]'; then
  echo "this machine: not run, nvidia-smi lists a GPU (the stubbed cases below stand in)"
else
  expect "this machine" ".+"
fi

stub nvidia-smi 'No devices were found\n' 6
expect "no GPU listed" "nvidia-smi -L lists no GPU \(exit 6\): No devices were found" PATH="$work/bin:$PATH"

stub nvidia-smi "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n" 9
expect "driver failing" "nvidia-smi -L lists no GPU \(exit 9\): NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver\." \
  PATH="$work/bin:$PATH"

# A GPU listed (sm_120 asked for its compute capability) from here on.
printf '#!/bin/sh\ncase "$*" in -L) echo "GPU 0: NVIDIA RTX PRO 6000 (UUID: GPU-0)" ;; *) echo 12.0 ;; esac\n' > "$work/bin/nvidia-smi"
expect "no toolkit" "CUDACXX names $work_re/none/nvcc, which is not an executable file" PATH="$work/bin:$PATH" \
  CUDACXX="$work/none/nvcc"

stub nvcc 'Cuda compilation tools, release 12.2, V12.2.140\n' 0
expect "toolkit too old" "$work_re/bin/nvcc is CUDA 12\.2; facet needs 12\.4 or later" PATH="$work/bin:$PATH" \
  CUDACXX="$work/bin/nvcc"

printf '#!/bin/sh\ncase "$*" in --version) echo "Cuda compilation tools, release 12.4, V12.4.99" ;; *) printf "sm_75\\nsm_90\\n" ;; esac\n' \
  > "$work/bin/nvcc"
expect "GPU too new for the toolkit" \
  "$work_re/bin/nvcc \(CUDA 12\.4\) cannot compile for this GPU's sm_120 \(not in its --list-gpu-code\): a newer toolkit is needed" \
  PATH="$work/bin:$PATH" CUDACXX="$work/bin/nvcc"

if ((failures)); then
  echo "$failures case(s) failed" >&2
  exit 1
fi
echo "every case: exit 2, one line naming the reason, nothing built"
