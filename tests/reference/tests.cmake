# CUDA C++ reference kernels from the command line (no GPU): `tessel compile --reference` of every
# sample reference to PTX, its signature checked with FileCheck; a malformed .cu (Clang's diagnostics
# at its lines), a parameter the launch cannot fill (one line naming it), a malformed directive.
find_program(TESSEL_FILECHECK NAMES FileCheck-19 FileCheck HINTS /usr/lib/llvm-19/bin)
if(TESSEL_FILECHECK)
  add_test(NAME reference.cli COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/reference_cli.sh $<TARGET_FILE:tessel>
    ${TESSEL_FILECHECK} WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endif()
