# A test for something this build lacks: skipped saying why (the test's SKIP_REGULAR_EXPRESSION
# matches "SKIPPED"), or failed where the environment requires it (VARIABLE=1, as
# scripts/test.sh sets under CI=true), as FACET_SKIP_UNLESS_REQUIRED does inside the tests.
# Input: VARIABLE, WHY.
if("$ENV{${VARIABLE}}" STREQUAL "1")
  message(FATAL_ERROR "${WHY} (and ${VARIABLE}=1 requires it)")
endif()
message("SKIPPED: ${WHY}")
