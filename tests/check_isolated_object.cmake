# Fails unless the object file named NAME among OBJECTS (;-list, as $<TARGET_OBJECTS>) defines,
# of global code, only the functions ALLOWED (;-list of demangled names):
# engine/cpu/visibility/sample_pair_walk.cpp and engine/cpu/simd/wide_filter.cpp are compiled for
# AVX-512, so a shared inline function one of them emitted (a weak symbol) could be the copy the
# linker keeps for every caller, and run on a CPU without AVX-512. Data may be shared (a sanitizer build's
# DW.ref.__gxx_personality_v0, a weak pointer to the C++ personality routine): it holds no
# instructions.
# Input: NM, OBJECTS, NAME, ALLOWED.
cmake_policy(SET CMP0057 NEW)
set(object "")
foreach(o IN LISTS OBJECTS)
  get_filename_component(file "${o}" NAME)
  if(file STREQUAL NAME)
    set(object "${o}")
  endif()
endforeach()
if(NOT object)
  message(FATAL_ERROR "no object file ${NAME} among the target's objects")
endif()
execute_process(COMMAND "${NM}" -C --defined-only "${object}" RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "nm failed on ${object}: ${err}")
endif()
string(REPLACE "\n" ";" lines "${out}")
set(shared "")
set(locals 0)
foreach(line IN LISTS lines)
  # "ADDRESS TYPE NAME": code another object may share is T (global), W and w (weak), i
  # (indirect) and u (unique global); t is local code, the other types data.
  if(line MATCHES "^[0-9a-f]+ ([A-Za-z]) (.*)$")
    set(type "${CMAKE_MATCH_1}")
    set(symbol "${CMAKE_MATCH_2}")
    if(NOT type MATCHES "^[TWwiu]$")
      math(EXPR locals "${locals} + 1")
    elseif(NOT symbol IN_LIST ALLOWED)
      list(APPEND shared "${type} ${symbol}")
    endif()
  endif()
endforeach()
if(shared)
  list(JOIN shared "\n  " listed)
  message(FATAL_ERROR "${NAME} defines symbols other objects may share:\n  ${listed}")
endif()
message("${NAME}: ${locals} local or data symbols; of shared code only the allowed functions")
