# Which GPUs the CUDA kernels are compiled for, from FACET_CUDA_ARCHS. Each architecture costs
# a full compile of every kernel file (the raster kernels, shaders_cuda/raster.cu and
# raster_multisampled.cu, take about 7 minutes of CPU per architecture on a 2-core Zen 1), so
# the default builds only what the machine needs:
#
#   auto    native where nvidia-smi sees a GPU, else check (the default)
#   native  this machine's GPUs (CMake's "native")
#   check   PTX for compute_75, the oldest the toolkit supports, so code that needs a newer
#           GPU fails to compile, and sm_90 machine code made from that same PTX (its spill
#           check is the build's): one front-end pass per file instead of two (cicc took 120 s
#           of raster.cu's 530 s of CPU). Any GPU from 7.5 on runs it, JIT-compiling the PTX at
#           first launch (about a minute per file). CMake's list cannot say "machine code from
#           another architecture's PTX", so this choice sets CMAKE_CUDA_ARCHITECTURES to OFF
#           and hands nvcc the --generate-code itself (`gencode_out`).
#   all     machine code for 75, 80, 86, 89, 90, and 100 and 120 where the toolkit has them,
#           with PTX for the newest (a package for other machines)
#   machine native where nvidia-smi sees a GPU, else none: no CUDA backend (the Python
#           package's default, so `pip install .` builds no kernels a machine cannot run)
#   a list  passed on as it is ("86;90", "89-real")
#
# CMAKE_CUDA_ARCHITECTURES, when given, wins over all of these.
function(facet_cuda_architectures choice nvcc out gencode_out)
  set(${gencode_out} "" PARENT_SCOPE)
  if(choice STREQUAL "auto" OR choice STREQUAL "machine")
    find_program(FACET_NVIDIA_SMI nvidia-smi NO_CACHE)
    set(gpus "")
    if(FACET_NVIDIA_SMI)
      execute_process(COMMAND "${FACET_NVIDIA_SMI}" -L OUTPUT_VARIABLE gpus RESULT_VARIABLE status
                      ERROR_QUIET)
      if(NOT status EQUAL 0)
        set(gpus "")
      endif()
    endif()
    if(gpus MATCHES "GPU [0-9]")
      set(choice native)
    elseif(choice STREQUAL "machine")
      message(STATUS "facet: FACET_CUDA_ARCHS=machine: nvidia-smi sees no GPU, so no CUDA architecture")
      set(${out} "" PARENT_SCOPE)
      return()
    else()
      set(choice check)
    endif()
  endif()
  if(choice STREQUAL "native")
    set(archs native)
  elseif(choice STREQUAL "check")
    set(archs OFF)
    set(${gencode_out} "--generate-code=arch=compute_75,code=[compute_75,sm_90]" PARENT_SCOPE)
    message(STATUS "facet: FACET_CUDA_ARCHS=check: compute_75 PTX, and sm_90 machine code from it")
    set(${out} "${archs}" PARENT_SCOPE)
    return()
  elseif(choice STREQUAL "all")
    execute_process(COMMAND "${nvcc}" --list-gpu-code OUTPUT_VARIABLE codes ERROR_QUIET)
    set(archs "")
    foreach(arch 75 80 86 89 90 100 120)
      if(codes MATCHES "sm_${arch}\n")
        list(APPEND archs ${arch}-real)
      endif()
    endforeach()
    if(NOT archs)
      message(FATAL_ERROR "FACET_CUDA_ARCHS=all: ${nvcc} --list-gpu-code names none of sm_75 to sm_120")
    endif()
    list(POP_BACK archs newest)
    string(REPLACE "-real" "" newest "${newest}")
    list(APPEND archs ${newest}) # machine code and PTX
  elseif(choice MATCHES "^[0-9a-z;-]+$")
    set(archs "${choice}")
  else()
    message(FATAL_ERROR "FACET_CUDA_ARCHS=\"${choice}\": expected auto, machine, native, check, all or a "
                        "list of architectures such as \"86;90\"")
  endif()
  message(STATUS "facet: FACET_CUDA_ARCHS=${choice}: CUDA architectures ${archs}")
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()
