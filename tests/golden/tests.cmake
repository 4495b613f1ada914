# Golden tests: for every samples/**/*.py, `tessel check` output in JSON and in
# text is compared with tests/golden/<path under samples/ without .py>.{json,txt}.
# TESSEL_UPDATE_GOLDEN=1 ctest -R golden rewrites the expected files instead.
# tessel runs from the repository root with a relative path, so the paths in
# the output (and hence the expected files) do not depend on the checkout.
file(GLOB_RECURSE golden_samples CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/samples
  ${PROJECT_SOURCE_DIR}/samples/*.py)
list(SORT golden_samples)
foreach(sample ${golden_samples})
  string(REGEX REPLACE "\\.py$" "" stem ${sample})
  foreach(format json text)
    set(ext ${format})
    if(format STREQUAL "text")
      set(ext txt)
    endif()
    add_test(NAME golden.${format}.${stem}
      COMMAND ${CMAKE_COMMAND} -DTESSEL=$<TARGET_FILE:tessel> -DROOT=${PROJECT_SOURCE_DIR}
        -DSAMPLE=samples/${sample} -DFORMAT=${format}
        -DEXPECTED=${CMAKE_CURRENT_LIST_DIR}/${stem}.${ext}
        -DACTUAL=${CMAKE_CURRENT_BINARY_DIR}/golden-actual/${stem}.${ext}
        -P ${CMAKE_CURRENT_LIST_DIR}/RunGolden.cmake)
  endforeach()
endforeach()

# The README's main command: every top-level sample checks clean (exit 0).
file(GLOB clean_samples CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/samples/*.py)
if(clean_samples)
  list(SORT clean_samples)
  add_test(NAME samples.check_clean COMMAND tessel check --color=never ${clean_samples}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endif()
