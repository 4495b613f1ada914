# Style rules as tests: banners and no to-do markers over the whole tree
# (tidy.sh), clang-format over the folders listed in formatted-paths.txt.
add_test(NAME tidy COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/tidy.sh ${PROJECT_SOURCE_DIR})
find_program(TESSEL_CLANG_FORMAT clang-format)
if(TESSEL_CLANG_FORMAT)
  add_test(NAME format COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/format.sh ${PROJECT_SOURCE_DIR} ${TESSEL_CLANG_FORMAT})
endif()
