# The tree-sitter-python grammar is fetched from npm at configure time, never
# committed. 0.23.6 is the last release with ABI 14, the ABI that Debian 12's
# libtree-sitter 0.20.7 loads. Set TESSEL_GRAMMAR_TARBALL to build offline
# from an already downloaded `npm pack` tarball.
set(TESSEL_GRAMMAR_VERSION 0.23.6)
set(grammar_dir ${PROJECT_BINARY_DIR}/_deps/tree-sitter-python-${TESSEL_GRAMMAR_VERSION})
set(TESSEL_GRAMMAR_TARBALL "" CACHE FILEPATH "Local tree-sitter-python-${TESSEL_GRAMMAR_VERSION}.tgz")

if(NOT EXISTS ${grammar_dir}/package/src/parser.c)
  file(MAKE_DIRECTORY ${grammar_dir})
  set(tarball ${TESSEL_GRAMMAR_TARBALL})
  if(NOT tarball)
    find_program(NPM npm)
    if(NOT NPM)
      message(FATAL_ERROR "tessel: missing dependency npm (needed to fetch tree-sitter-python ${TESSEL_GRAMMAR_VERSION}); install it with `apt-get install npm`")
    endif()
    execute_process(COMMAND ${NPM} pack tree-sitter-python@${TESSEL_GRAMMAR_VERSION} --silent
      WORKING_DIRECTORY ${grammar_dir} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "tessel: could not fetch tree-sitter-python ${TESSEL_GRAMMAR_VERSION} from npm: ${err}")
    endif()
    set(tarball ${grammar_dir}/tree-sitter-python-${TESSEL_GRAMMAR_VERSION}.tgz)
  endif()
  file(ARCHIVE_EXTRACT INPUT ${tarball} DESTINATION ${grammar_dir} PATTERNS package/src package/LICENSE)
endif()
file(STRINGS ${grammar_dir}/package/src/parser.c abi_line REGEX "^#define LANGUAGE_VERSION ")
if(NOT abi_line MATCHES "LANGUAGE_VERSION 14$")
  message(FATAL_ERROR "tessel: tree-sitter-python ${TESSEL_GRAMMAR_VERSION} is not ABI 14 (${abi_line})")
endif()

add_library(tree_sitter_python STATIC
  ${grammar_dir}/package/src/parser.c
  ${grammar_dir}/package/src/scanner.c)
target_include_directories(tree_sitter_python PRIVATE ${grammar_dir}/package/src)
set_target_properties(tree_sitter_python PROPERTIES C_STANDARD 11 POSITION_INDEPENDENT_CODE ON)
target_compile_options(tree_sitter_python PRIVATE -w)
