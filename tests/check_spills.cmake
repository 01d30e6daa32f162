# The build refuses a kernel that spills registers to local memory: every kernel file is compiled
# with FACET_CUDA_OPTIONS (top-level CMakeLists.txt), whose ptxas spill warning is fatal, for
# every architecture built; so a build that succeeded has no spill. This shows the guard at work
# on tests/data/spill_guard.cu, squeezed to 24 registers: its large variant must fail to build,
# naming the spill, and its small variant (same options) must build.
# Input: NVCC, OPTIONS (;-list, FACET_CUDA_OPTIONS), ARCH, SOURCE, WORK_DIR.
file(MAKE_DIRECTORY "${WORK_DIR}")
function(compile variant result output)
  execute_process(
    COMMAND "${NVCC}" -std=c++17 -O3 -arch=sm_${ARCH} ${OPTIONS} -maxrregcount=24 ${variant}
            -c "${SOURCE}" -o "${WORK_DIR}/spill_guard.o"
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(${result} "${status}" PARENT_SCOPE)
  set(${output} "${out}" PARENT_SCOPE)
endfunction()

compile("-DFACET_SPILL_GUARD_FITS" status out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "a kernel that fits in 24 registers failed to build with ${OPTIONS} for sm_${ARCH}:\n${out}")
endif()
compile("" status out)
if(status EQUAL 0)
  message(FATAL_ERROR "a kernel that spills built with ${OPTIONS} for sm_${ARCH}: the build does not refuse spills\n${out}")
endif()
if(NOT out MATCHES "Registers are spilled to local memory")
  message(FATAL_ERROR "the spilling kernel failed to build for another reason than its spill:\n${out}")
endif()
message("sm_${ARCH}: the build's options refuse a kernel that spills, and build one that fits")
