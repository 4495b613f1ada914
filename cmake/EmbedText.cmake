# EmbedText.cmake - a text file as a C++ string, for files a binary carries
# (tools/triton_runner.py, which `tessel run --triton` writes out and runs).
#
#   cmake -DINPUT=file.py -DOUTPUT=file.inc -DNAME=Identifier -P cmake/EmbedText.cmake
#
# OUTPUT defines `static const char NAME[]` as a concatenation of raw string
# literals of at most 8000 bytes each (MSVC's limit for one literal is 16 KiB;
# GCC and Clang have none, but small pieces keep the file readable). A file
# holding the delimiter `)tessel_embed"` is refused rather than miscompiled.
foreach(var INPUT OUTPUT NAME)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "EmbedText.cmake: -D${var}=... is required")
  endif()
endforeach()
file(READ ${INPUT} text)
string(FIND "${text}" ")tessel_embed\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "EmbedText.cmake: ${INPUT} contains the raw-string delimiter )tessel_embed\"")
endif()
string(LENGTH "${text}" size)
set(out "// Generated from ${INPUT} by cmake/EmbedText.cmake: do not edit.\n")
string(APPEND out "static const char ${NAME}[] =\n")
set(pos 0)
while(pos LESS size)
  string(SUBSTRING "${text}" ${pos} 8000 piece)
  string(APPEND out "    R\"tessel_embed(${piece})tessel_embed\"\n")
  math(EXPR pos "${pos} + 8000")
endwhile()
if(size EQUAL 0)
  string(APPEND out "    \"\"\n")
endif()
string(APPEND out "    ;\n")
# Rewritten only when it changes, so an unchanged runner does not recompile its user.
set(old "")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL out)
  file(WRITE ${OUTPUT} "${out}")
endif()
