# Fuzz targets (tests/fuzz/README.md): one libFuzzer entry point per input
# surface, each replaying its regression files (tests/fuzz/regressions/NAME/,
# one minimized input per fixed finding) on every build.
#
# With TESSEL_FUZZ=ON (clang; the top-level CMakeLists instruments every
# library with ASan + UBSan) each target is a fuzzer, fuzz_NAME; otherwise it
# is linked with ReplayMain.cpp as fuzz_replay_NAME, so the normal GCC build
# and CI replay the same files. scripts/fuzz.sh builds, runs and minimizes.
set(fuzz_dir ${CMAKE_CURRENT_LIST_DIR})
# name, source, library
set(fuzz_targets
    lsp LspFuzzer.cpp tessel_lsp
    frontend FrontEndFuzzer.cpp tessel_diagnostics
    edits EditsFuzzer.cpp tessel_lsp
    launch LaunchFuzzer.cpp tessel_tools
    codegen CodegenFuzzer.cpp tessel_backend
    host HostFuzzer.cpp tessel_host
    index IndexFuzzer.cpp tessel_project
    runner RunnerFuzzer.cpp tessel_runners
    reference ReferenceFuzzer.cpp tessel_reference)
set(fuzz_all_targets)
set(fuzz_names)
while(fuzz_targets)
  list(POP_FRONT fuzz_targets name src lib)
  list(APPEND fuzz_names ${name})
  if(TESSEL_FUZZ)
    set(exe fuzz_${name})
    add_executable(${exe} ${fuzz_dir}/${src})
    target_link_options(${exe} PRIVATE -fsanitize=fuzzer)
  else()
    set(exe fuzz_replay_${name})
    add_executable(${exe} ${fuzz_dir}/${src} ${fuzz_dir}/ReplayMain.cpp)
  endif()
  target_link_libraries(${exe} PRIVATE ${lib})
  target_include_directories(${exe} PRIVATE ${PROJECT_SOURCE_DIR}/tests)
  target_compile_definitions(${exe} PRIVATE TESSEL_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  target_compile_options(${exe} PRIVATE ${TESSEL_WARNINGS})
  list(APPEND fuzz_all_targets ${exe})
  file(MAKE_DIRECTORY ${fuzz_dir}/regressions/${name})
  # libFuzzer runs each file once when given files; ReplayMain does the same.
  # (-runs=0: with no file yet, libFuzzer must not start fuzzing.)
  file(GLOB regressions CONFIGURE_DEPENDS ${fuzz_dir}/regressions/${name}/*)
  if(TESSEL_FUZZ)
    add_test(NAME fuzz.regressions.${name} COMMAND ${exe} -runs=0 ${regressions})
  else()
    add_test(NAME fuzz.regressions.${name} COMMAND ${exe} ${regressions})
  endif()
  set_tests_properties(fuzz.regressions.${name} PROPERTIES TIMEOUT 300 LABELS fuzz)
endwhile()
add_custom_target(fuzz_targets DEPENDS ${fuzz_all_targets})
# What scripts/test.sh's fuzz step found, shown where CI's log ends.
if(NOT TESSEL_FUZZ)
  add_test(NAME fuzz.ci-report COMMAND ${fuzz_dir}/ci-report.sh ${fuzz_names})
  set_tests_properties(fuzz.ci-report PROPERTIES SKIP_RETURN_CODE 77 LABELS fuzz)
endif()
