# RunGolden.cmake - one golden test: run `tessel check` on one sample (or the
# tessel command line given as ARGS) and
# compare its stdout with the expected file, or rewrite that file when
# TESSEL_UPDATE_GOLDEN=1. Called by tests.cmake with -DTESSEL -DROOT -DSAMPLE
# -DFORMAT -DEXPECTED -DACTUAL (and -DPROVE=1 for `tessel check --prove`).
# With -DARGS=a;b;c, the command is `tessel a b c` instead (the tile IR goldens).
set(required TESSEL ROOT EXPECTED ACTUAL)
if(NOT DEFINED ARGS)
  list(APPEND required SAMPLE FORMAT)
  set(ARGS check --format=${FORMAT} --color=never ${SAMPLE})
  if(PROVE)
    set(ARGS check --format=${FORMAT} --color=never --prove ${SAMPLE})
  endif()
  set(SAMPLE_OR_ARGS ${SAMPLE})
else()
  string(REPLACE ";" " " SAMPLE_OR_ARGS "${ARGS}")
endif()
foreach(var ${required})
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "RunGolden.cmake: -D${var}=... is required")
  endif()
endforeach()
set(SAMPLE ${SAMPLE_OR_ARGS})

execute_process(COMMAND ${TESSEL} ${ARGS}
  WORKING_DIRECTORY ${ROOT} OUTPUT_VARIABLE actual ERROR_VARIABLE stderr RESULT_VARIABLE rc)
# 0 (clean) and 1 (errors found) are both normal outcomes; anything else
# (2: unreadable input, a signal) is a failure whatever the golden says.
if(NOT rc STREQUAL "0" AND NOT rc STREQUAL "1")
  message(FATAL_ERROR "tessel check ${SAMPLE} failed with status ${rc}:\n${stderr}")
endif()

if("$ENV{TESSEL_UPDATE_GOLDEN}" STREQUAL "1")
  file(WRITE ${EXPECTED} "${actual}")
  message(STATUS "updated ${EXPECTED}")
  return()
endif()

if(NOT EXISTS ${EXPECTED})
  message(FATAL_ERROR "missing golden file ${EXPECTED} for ${SAMPLE}; review the output below, then create it with\n"
    "  TESSEL_UPDATE_GOLDEN=1 ctest --test-dir build -R golden\n--- actual output ---\n${actual}")
endif()

file(READ ${EXPECTED} expected)
if(NOT actual STREQUAL expected)
  file(WRITE ${ACTUAL} "${actual}")
  execute_process(COMMAND diff -u ${EXPECTED} ${ACTUAL} OUTPUT_VARIABLE delta)
  message(FATAL_ERROR "${SAMPLE}: output differs from ${EXPECTED}\n${delta}\n"
    "If the new output is right: TESSEL_UPDATE_GOLDEN=1 ctest --test-dir build -R golden")
endif()
