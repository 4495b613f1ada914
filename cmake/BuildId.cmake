# cmake -DSOURCE_DIR=... -DOUTPUT=.../BuildId.h [-DEXTRA=...] -P cmake/BuildId.cmake
#
# The build identity of tessel's compiler: run at every build (the tessel_build_id target), it
# writes OUTPUT only when the identity changed, so an unchanged tree rebuilds nothing. The JIT's
# cache key includes it (compiler/backend/BuildId.h): a cubin cached by one build of the compiler is
# never taken by another. The identity is
#   <git commit, 12 digits>[-dirty]+<16 hex digits of SHA-256>
# where the hash covers the path and content of every file under SOURCE_DIR/compiler (so every
# edit of the compiler, committed or not, changes it, and a tree without git still gets one:
# `nogit+...`), the top-level CMakeLists.txt and EXTRA (the LLVM version and build type, which
# change the code too). The commit and the dirty mark (tracked files under compiler/ that differ
# from HEAD) are for people reading `tessel --version`.
if(NOT SOURCE_DIR OR NOT OUTPUT)
  message(FATAL_ERROR "BuildId.cmake: SOURCE_DIR and OUTPUT are required")
endif()

set(commit "nogit")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
                  OUTPUT_VARIABLE head RESULT_VARIABLE head_rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(head_rc EQUAL 0 AND head)
    set(commit "${head}")
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} status --porcelain --untracked-files=no -- compiler
                    OUTPUT_VARIABLE changes RESULT_VARIABLE status_rc ERROR_QUIET)
    if(NOT status_rc EQUAL 0 OR changes)
      string(APPEND commit "-dirty")
    endif()
  endif()
endif()

file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/compiler/*)
list(APPEND files CMakeLists.txt)
list(SORT files)
set(digest "${EXTRA}\n")
foreach(f ${files})
  if(EXISTS ${SOURCE_DIR}/${f})
    file(SHA256 ${SOURCE_DIR}/${f} h)
    string(APPEND digest "${f} ${h}\n")
  endif()
endforeach()
string(SHA256 digest "${digest}")
string(SUBSTRING "${digest}" 0 16 digest)

set(id "${commit}+${digest}")
set(text "// Generated at build time by cmake/BuildId.cmake.\n#pragma once\n#define TESSEL_BUILD_ID \"${id}\"\n")
set(old "")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()
