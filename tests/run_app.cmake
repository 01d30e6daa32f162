# Runs one app as a user would and checks its exact exit code and its message together:
#   cmake -DEXIT=<code> -DREGEX=<regex> [-DGPU_PROBE=<program> -DGPU_EXIT=<code> -DGPU_REGEX=<regex>]
#         -P run_app.cmake -- <command> <args...>
# With GPU_PROBE, the program is asked first whether this machine has a usable GPU (exit 0:
# yes); if it has, GPU_EXIT and GPU_REGEX are expected instead.
# The command's stdout and stderr are matched together, as written, and always printed. A sanitizer's report
# ("ERROR: AddressSanitizer", "runtime error:") fails the test whatever the exit code, so a
# test expecting a failure cannot pass on a sanitizer's failure instead.
if(NOT DEFINED EXIT OR NOT DEFINED REGEX)
  message(FATAL_ERROR "run_app.cmake: -DEXIT=<code> and -DREGEX=<regex> are required")
endif()
set(command)
set(after_dashes FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after_dashes)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(after_dashes TRUE)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "run_app.cmake: no command after --")
endif()

if(DEFINED GPU_PROBE)
  execute_process(COMMAND "${GPU_PROBE}" RESULT_VARIABLE no_gpu OUTPUT_VARIABLE probe ERROR_VARIABLE probe)
  message("run_app.cmake: ${probe}")
  if("${no_gpu}" STREQUAL "0")
    set(EXIT "${GPU_EXIT}")
    set(REGEX "${GPU_REGEX}")
  endif()
endif()

# One variable for both pipes keeps their lines in the order they were written.
execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE text ERROR_VARIABLE text)
message("${text}")
set(failures)
if(text MATCHES "ERROR: [A-Za-z]*Sanitizer|WARNING: ThreadSanitizer|runtime error:")
  list(APPEND failures "a sanitizer reported an error (above)")
endif()
if(NOT "${code}" STREQUAL "${EXIT}")
  list(APPEND failures "exit code ${code}, expected ${EXIT}")
endif()
if(NOT text MATCHES "${REGEX}")
  list(APPEND failures "the output does not match '${REGEX}'")
endif()
if(failures)
  list(JOIN failures "; " why)
  list(JOIN command " " shown)
  message(FATAL_ERROR "${shown}: ${why}")
endif()
