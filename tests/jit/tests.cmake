# The JIT's command-line front ends on the samples: `tessel check --jit` (the
# spill sample, twice: the second run from the JIT cache, then with the cache's
# entries corrupted), and `tessel compile --emit ptx|cubin|report|sass`.
add_test(NAME jit.cli COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/jit_cli.sh $<TARGET_FILE:tessel>
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})

# The build identity of the JIT cache key (cmake/BuildId.cmake) on a scratch source tree.
add_test(NAME jit.build_id COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/build_id.sh ${CMAKE_COMMAND}
  ${PROJECT_SOURCE_DIR}/cmake/BuildId.cmake)
