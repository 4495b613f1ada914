# libFuzzer target for the language server's transport and dispatch
# (-DTESSEL_FUZZ=ON; needs clang-14 and libclang-rt-14-dev, both Debian).
#
# The fuzzer and lsp/ are compiled by clang with coverage and AddressSanitizer
# whatever compiler builds the rest; the layers below lsp/ are linked from this
# build's own static libraries (uninstrumented: the target is the transport and
# the dispatch, and the compiler libraries need not build with clang-14).
#   cmake -S . -B build -DTESSEL_FUZZ=ON && ninja -C build lsp_fuzzer
#   build/tests/fuzz/lsp_fuzzer NEW_DIR tests/fuzz/corpus   # fuzz until stopped
# ctest runs it for 20 s over the seed corpus (tests/fuzz/corpus: transcripts
# whose first byte picks the framing: 1 delimited, 0 Content-Length).
option(TESSEL_FUZZ "Build the libFuzzer target for the language server (needs clang)" OFF)
if(TESSEL_FUZZ)
  find_program(TESSEL_FUZZ_CLANG NAMES clang++-14 clang++)
  if(NOT TESSEL_FUZZ_CLANG)
    message(FATAL_ERROR "tessel: TESSEL_FUZZ needs clang; install it with `apt-get install clang-14 libclang-rt-14-dev`")
  endif()
  file(GLOB_RECURSE fuzz_lsp_srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/lsp/*.cpp)
  set(fuzz_bin ${CMAKE_CURRENT_BINARY_DIR}/fuzz/lsp_fuzzer)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
  set(fuzz_flags -std=c++20 -O1 -g -fsanitize=fuzzer,address -I${PROJECT_SOURCE_DIR} -I${PROJECT_BINARY_DIR}/generated)
  add_custom_command(OUTPUT ${fuzz_bin}
    COMMAND ${TESSEL_FUZZ_CLANG} ${fuzz_flags} -o ${fuzz_bin}
            ${CMAKE_CURRENT_LIST_DIR}/LspFuzzer.cpp ${fuzz_lsp_srcs}
            $<TARGET_FILE:tessel_diagnostics> $<TARGET_FILE:tessel_sema> $<TARGET_FILE:tessel_frontend>
            $<TARGET_FILE:tessel_support> $<TARGET_FILE:tree_sitter_python> -ltree-sitter -lpthread
    DEPENDS ${CMAKE_CURRENT_LIST_DIR}/LspFuzzer.cpp ${fuzz_lsp_srcs}
            tessel_diagnostics tessel_sema tessel_frontend tessel_support tree_sitter_python
    COMMENT "Building lsp_fuzzer with ${TESSEL_FUZZ_CLANG}"
    VERBATIM)
  add_custom_target(lsp_fuzzer ALL DEPENDS ${fuzz_bin})
  # New inputs go to the first corpus folder (in the build tree), never to the seeds.
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fuzz/corpus)
  add_test(NAME fuzz.lsp
           COMMAND ${fuzz_bin} -max_total_time=20 -max_len=8192 -timeout=10 -rss_limit_mb=2048
                   ${CMAKE_CURRENT_BINARY_DIR}/fuzz/corpus ${CMAKE_CURRENT_LIST_DIR}/corpus)
  set_tests_properties(fuzz.lsp PROPERTIES TIMEOUT 180 LABELS "lsp;fuzz")
endif()
