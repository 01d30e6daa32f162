# Fails on any #include "..." in engine/ or shaders_cuda/ that breaks the layers of
# docs/architecture.md: each folder includes only itself and the folders below it. A folder's
# files are those directly in it (engine/cpu: the orchestrator, cpu_renderer.*, alone), and a
# file in a folder without a rule fails too, so a new folder is given its place here.
# Input: SOURCE (the checkout).
cmake_policy(VERSION 3.24)
# folder|what it may include, comma-separated (paths from engine/, or shaders_cuda/...: a folder
# or one file)
set(rules
  "core|core"
  "host|host,core/error.h"
  "asset|asset,core"
  # The CPU backend's stage folders: simd/ (the lane types) below the stages, each stage above
  # the ones it takes from; only the orchestrator (engine/cpu itself) includes them all.
  "cpu/simd|cpu/simd,core,host"
  "cpu/vertex|cpu/vertex,cpu/simd,core,host"
  "cpu/triangle|cpu/triangle,cpu/simd,core,host"
  "cpu/visibility|cpu/visibility,cpu/triangle,cpu/simd,core,host"
  "cpu/shading|cpu/shading,cpu/visibility,cpu/simd,core,host"
  "cpu|cpu,core,asset,host"
  "shaders_cuda|shaders_cuda,core"
  "cuda|cuda,shaders_cuda,core,asset,host"
  "gl|gl,core,asset"
  "display|display,gl/gl_objects.h,renderer.h,core,cuda/cuda_check.h"
  "bench|bench,cpu,cuda,shaders_cuda,core,asset,host"
  # The front door (engine/renderer.*): every backend, never the display or the bench code.
  ".|renderer.h,core,asset,host,cpu,cuda,gl")

file(GLOB_RECURSE files RELATIVE "${SOURCE}" "${SOURCE}/engine/*" "${SOURCE}/shaders_cuda/*")
set(failures "")
set(checked 0)
foreach(file IN LISTS files)
  if(NOT file MATCHES "\\.(h|cpp|cu|cuh)$")
    continue()
  endif()
  get_filename_component(folder "${file}" DIRECTORY)
  if(folder STREQUAL "shaders_cuda")
    set(folder "shaders_cuda")
  elseif(folder STREQUAL "engine")
    set(folder ".")
  else()
    string(REGEX REPLACE "^engine/" "" folder "${folder}")
  endif()
  set(allowed "")
  set(found OFF)
  foreach(rule IN LISTS rules)
    string(REPLACE "|" ";" parts "${rule}")
    list(GET parts 0 name)
    if(name STREQUAL folder)
      list(GET parts 1 places)
      string(REPLACE "," ";" allowed "${places}")
      set(found ON)
    endif()
  endforeach()
  if(NOT found)
    list(APPEND failures "${file}: its folder has no rule in tests/check_layers.cmake")
    continue()
  endif()
  file(STRINGS "${SOURCE}/${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"[^\"]+\"")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" included "${line}")
    math(EXPR checked "${checked} + 1")
    set(ok OFF)
    foreach(place IN LISTS allowed)
      string(LENGTH "${place}/" length)
      string(SUBSTRING "${included}" 0 ${length} head)
      if(included STREQUAL place OR head STREQUAL "${place}/")
        set(ok ON)
      endif()
    endforeach()
    if(NOT ok)
      list(APPEND failures "${file} includes ${included} (${folder} may include ${places})")
    endif()
  endforeach()
endforeach()
list(JOIN failures "\n" report)
if(report)
  message(FATAL_ERROR "includes that break the layers (docs/architecture.md):\n${report}")
elseif(checked EQUAL 0)
  message(FATAL_ERROR "no includes found under ${SOURCE}/engine: the check read nothing")
else()
  message("${checked} includes keep the layers")
endif()
