# Fails if any kernel spills registers to local memory. Compiles each kernel file as the build
# does, with ptxas's verbose resource report, for every target architecture, and reads the
# "N bytes spill stores, M bytes spill loads" line of every function.
# Input: NVCC, SOURCES (;-list of .cu), ARCHS (;-list), INCLUDES (;-list), WORK_DIR.
file(MAKE_DIRECTORY "${WORK_DIR}")
set(include_flags "")
foreach(dir IN LISTS INCLUDES)
  list(APPEND include_flags "-I${dir}")
endforeach()
set(failures "")
set(functions 0)
foreach(arch IN LISTS ARCHS)
  foreach(src IN LISTS SOURCES)
    get_filename_component(name "${src}" NAME_WE)
    execute_process(
      COMMAND "${NVCC}" -std=c++17 -O3 -DNDEBUG -DFACET_HAVE_CUDA=1 --fmad=false -arch=sm_${arch}
              -Xptxas=-v ${include_flags} -c "${src}" -o "${WORK_DIR}/${name}_${arch}.o"
      RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "nvcc failed on ${src} for sm_${arch}:\n${out}")
    endif()
    # ptxas prints "Compiling entry function 'NAME' for 'sm_XX'" then, a few lines later,
    # "N bytes stack frame, S bytes spill stores, L bytes spill loads".
    string(REPLACE "\n" ";" lines "${out}")
    set(current "")
    foreach(line IN LISTS lines)
      if(line MATCHES "Compiling entry function '([^']+)'")
        set(current "${CMAKE_MATCH_1}")
      elseif(line MATCHES "([0-9]+) bytes spill stores, ([0-9]+) bytes spill loads")
        math(EXPR functions "${functions} + 1")
        if(NOT CMAKE_MATCH_1 EQUAL 0 OR NOT CMAKE_MATCH_2 EQUAL 0)
          list(APPEND failures "sm_${arch} ${current}: ${line}")
        endif()
      elseif(line MATCHES "Used ([0-9]+) registers" AND current)
        message("sm_${arch} ${name}: ${current}: ${line}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(functions EQUAL 0)
  message(FATAL_ERROR "ptxas reported no kernels: the check read nothing")
endif()
if(failures)
  string(REPLACE ";" "\n" failures "${failures}")
  message(FATAL_ERROR "kernels spill registers to local memory:\n${failures}")
endif()
message("no register spills in ${functions} kernel compilations")
