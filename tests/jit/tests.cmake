# The JIT's command-line front ends on the samples: `tessel check --jit` (the
# spill sample, twice: the second run from the JIT cache, then with the cache's
# entries corrupted), and `tessel compile --emit ptx|cubin|report|sass`.
add_test(NAME jit.cli COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/jit_cli.sh $<TARGET_FILE:tessel>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
