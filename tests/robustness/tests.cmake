# Robustness: damaged samples through parse + check in process (no crash, no
# input over 2 s), and bad files through the real binary (exit 2, one clear line).
add_executable(robustness ${CMAKE_CURRENT_LIST_DIR}/Robustness.cpp)
target_link_libraries(robustness PRIVATE tessel_diagnostics Threads::Threads)
target_compile_options(robustness PRIVATE ${TESSEL_WARNINGS})
add_test(NAME robustness.mutated_samples COMMAND robustness ${PROJECT_SOURCE_DIR}/samples --limit-ms=2000
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
# The longest test after the editor's tools: started early (COST) so that it does not end the run alone.
set_tests_properties(robustness.mutated_samples PROPERTIES TIMEOUT 600 COST 50000)
add_test(NAME robustness.cli_bad_inputs COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/cli_bad_inputs.sh $<TARGET_FILE:tessel>)
add_test(NAME robustness.index_cli COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/index_cli.sh $<TARGET_FILE:tessel>)
