# LSP transcript tests: every tests/lsp/*.test is replayed through
# `tessel lsp` by run-transcript.sh and checked with LLVM's FileCheck
# (Debian package llvm-19-tools). Included by tests/CMakeLists.txt.
find_program(TESSEL_FILECHECK FileCheck PATHS /usr/lib/llvm-19/bin NO_DEFAULT_PATH)
if(NOT TESSEL_FILECHECK)
  find_program(TESSEL_FILECHECK NAMES FileCheck-19 FileCheck)
endif()
if(NOT TESSEL_FILECHECK)
  message(FATAL_ERROR "tessel: missing dependency FileCheck (LSP transcript tests); install it with `apt-get install llvm-19-tools`")
endif()

file(GLOB lsp_transcripts CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.test)
foreach(t ${lsp_transcripts})
  get_filename_component(name ${t} NAME_WE)
  add_test(NAME lsp.${name}
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/run-transcript.sh $<TARGET_FILE:tessel> ${TESSEL_FILECHECK} ${t})
  set_tests_properties(lsp.${name} PROPERTIES TIMEOUT 60 LABELS lsp)
endforeach()

# docs/lsp-extensions.md documents every custom method and command.
add_test(NAME lsp.extensions-doc COMMAND ${CMAKE_CURRENT_LIST_DIR}/check-extensions-doc.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(lsp.extensions-doc PROPERTIES LABELS lsp)

# Reliability: five minutes of typing, requests, saves, reopens and workspace changes over the samples
# with the JIT tier and the prover on (bench/lsp/soak.py; the full hour over real libraries is run by
# hand, bench/RESULTS.md): no crash, memory flat after the warm-up, answers within their goals. Mostly
# waiting between keys, so it runs beside the other tests; started first (COST) to end with them.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
add_test(NAME lsp.soak-short COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/bench/lsp/soak.py
         $<TARGET_FILE:tessel> --minutes 5 --short)
set_tests_properties(lsp.soak-short PROPERTIES TIMEOUT 600 COST 100000 LABELS "lsp;soak")
