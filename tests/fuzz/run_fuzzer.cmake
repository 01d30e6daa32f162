# One short libFuzzer run, as CTest runs it: seeds from the project's own files (and the shared
# corpus where present, read in place), new inputs kept in WORK_DIR/corpus between runs.
# Input: FUZZER, KIND (obj|mtl|image|ply|stl|glb), SECONDS, SOURCE_DIR, MODELS_DIR, WORK_DIR.
file(MAKE_DIRECTORY "${WORK_DIR}/corpus" "${WORK_DIR}/artifacts")
set(seed_dirs "${SOURCE_DIR}/tests/fuzz/seeds/${KIND}")
if(KIND STREQUAL "image")
  list(APPEND seed_dirs "${SOURCE_DIR}/tests/golden")
  set(patterns *.png *.jpg *.jpeg *.gif *.tga *.bmp)
else()
  set(patterns *.${KIND})
endif()
# libFuzzer reads a seed folder whole: pass the corpus folders that hold files of this kind.
if(EXISTS "${MODELS_DIR}")
  set(globs "")
  foreach(p IN LISTS patterns)
    list(APPEND globs "${MODELS_DIR}/${p}")
  endforeach()
  file(GLOB_RECURSE seed_files ${globs})
  foreach(f IN LISTS seed_files)
    get_filename_component(d "${f}" DIRECTORY)
    list(APPEND seed_dirs "${d}")
  endforeach()
  list(REMOVE_DUPLICATES seed_dirs)
endif()
set(memory_mb 2048)
if(KIND STREQUAL "image")
  set(memory_mb 4096) # a legal 16384x16384 header decodes into 1 GiB, copied once
endif()
execute_process(
  COMMAND "${FUZZER}" -max_total_time=${SECONDS} -max_len=65536 -timeout=10 -rss_limit_mb=${memory_mb}
          -print_final_stats=1 -artifact_prefix=${WORK_DIR}/artifacts/ "${WORK_DIR}/corpus" ${seed_dirs}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" execs "${out}")
string(REGEX MATCH "stat::average_exec_per_sec: *[0-9]+" rate "${out}")
message("fuzz_${KIND}: ${SECONDS} s, ${execs}, ${rate}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "fuzz_${KIND} found a problem (reproducer in ${WORK_DIR}/artifacts):\n${out}")
endif()
