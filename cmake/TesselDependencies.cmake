# Finds every system dependency and stops with a message that names the Debian
# package to install when one is missing (scripts/setup.sh installs them all).
function(tessel_require found what package)
  if(NOT ${found})
    message(FATAL_ERROR "tessel: missing dependency ${what}; install it with `apt-get install ${package}` (or run scripts/setup.sh)")
  endif()
endfunction()

find_package(PkgConfig)
tessel_require(PkgConfig_FOUND "pkg-config" "pkg-config")
pkg_check_modules(TREE_SITTER IMPORTED_TARGET tree-sitter)
tessel_require(TREE_SITTER_FOUND "tree-sitter runtime" "libtree-sitter-dev")

find_package(nlohmann_json 3.10 QUIET)
tessel_require(nlohmann_json_FOUND "nlohmann/json" "nlohmann-json3-dev")

find_package(Boost 1.81 QUIET)
tessel_require(Boost_FOUND "Boost (Asio)" "libboost1.81-dev")

find_package(Z3 QUIET CONFIG)
if(NOT Z3_FOUND)
  find_path(Z3_INCLUDE_DIR z3.h)
  find_library(Z3_LIBRARY z3)
  if(Z3_INCLUDE_DIR AND Z3_LIBRARY)
    set(Z3_FOUND TRUE)
  endif()
endif()
tessel_require(Z3_FOUND "Z3" "libz3-dev")

# LLVM's static libraries name zstd's imported target (Findzstd.cmake in
# LLVM's own cmake folder, which LLVMConfig does not put on the module path).
list(APPEND CMAKE_MODULE_PATH /usr/lib/llvm-19/lib/cmake/llvm)
find_package(zstd QUIET)
tessel_require(zstd_FOUND "zstd (LLVM's static libraries link it)" "libzstd-dev")

# LLVM's version file accepts only an exact major.minor match, so ask for the
# package unversioned and check the major version ourselves (Debian 12: 19.1.7).
find_package(LLVM QUIET CONFIG PATHS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
if(LLVM_FOUND AND NOT LLVM_VERSION_MAJOR EQUAL 19)
  set(LLVM_FOUND FALSE)
endif()
tessel_require(LLVM_FOUND "LLVM 19" "llvm-19-dev")

# tessel_llvm: LLVM 19's static libraries for the JIT (compiler/codegen builds
# LLVM IR, compiler/backend runs the NVPTX target, links libdevice, reads
# cubins as ELF). Static, so the `tessel` binary needs no libLLVM.so at run
# time; the imported targets of LLVMExports.cmake carry their own
# dependencies, so naming the top components is enough.
if(NOT TARGET tessel_llvm)
  llvm_map_components_to_libnames(TESSEL_LLVM_LIBS
    Core IRReader BitReader BitWriter Linker IPO Passes Object Support TargetParser
    NVPTXCodeGen NVPTXDesc NVPTXInfo)
  add_library(tessel_llvm INTERFACE)
  target_include_directories(tessel_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
  separate_arguments(TESSEL_LLVM_DEFS NATIVE_COMMAND ${LLVM_DEFINITIONS})
  target_compile_definitions(tessel_llvm INTERFACE ${TESSEL_LLVM_DEFS})
  target_link_libraries(tessel_llvm INTERFACE ${TESSEL_LLVM_LIBS})
endif()

# toml++ reads tessel.toml and pyproject.toml's [tool.tessel] (compiler/project);
# used header-only, so the binary gains no shared library.
find_path(TOMLPP_INCLUDE_DIR toml++/toml.h)
tessel_require(TOMLPP_INCLUDE_DIR "toml++" "libtomlplusplus-dev")

find_package(Threads REQUIRED)

# The `tessel` binary allocates through mimalloc: tree-sitter's subtrees, the
# AST arenas' blocks and sema's values are many small short-lived
# allocations, and glibc's malloc/free were a fifth of `tessel check`'s CPU.
find_package(mimalloc 2.0 QUIET CONFIG)
tessel_require(mimalloc_FOUND "mimalloc" "libmimalloc-dev")

if(TESSEL_BUILD_TESTS)
  find_package(GTest QUIET)
  tessel_require(GTest_FOUND "GoogleTest" "libgtest-dev libgmock-dev")
endif()
if(TESSEL_BUILD_BENCH)
  find_package(benchmark QUIET)
  tessel_require(benchmark_FOUND "Google Benchmark" "libbenchmark-dev")
endif()

# tessel_clang: Clang 19's static libraries (libclang-19-dev), which compile a CUDA C++ reference
# kernel in process (compiler/reference). Debian's ClangTargets.cmake names the shared libLLVM as
# each library's dependency; the binary links LLVM statically, and a second copy of LLVM in the
# process registers every command-line option twice (a fatal error at start-up), so the archives
# are linked by path, beside the static LLVM components Clang's front end and code generator use.
# The resource folder (Clang's CUDA wrapper headers, libclang-common-19-dev) is read at run time.
set(TESSEL_CLANG_LIBDIR /usr/lib/llvm-19/lib)
set(TESSEL_CLANG_COMPONENTS CodeGen Frontend Driver Parse Serialization Sema Analysis ASTMatchers Edit AST Lex
                            APINotes Support Basic)
set(TESSEL_CLANG_ARCHIVES)
foreach(c ${TESSEL_CLANG_COMPONENTS})
  if(NOT EXISTS ${TESSEL_CLANG_LIBDIR}/libclang${c}.a)
    tessel_require(FALSE "Clang 19's static libraries (libclang${c}.a)" "libclang-19-dev libclang-cpp19-dev")
  endif()
  list(APPEND TESSEL_CLANG_ARCHIVES ${TESSEL_CLANG_LIBDIR}/libclang${c}.a)
endforeach()
set(TESSEL_CLANG_RESOURCE_DIR ${TESSEL_CLANG_LIBDIR}/clang/${LLVM_VERSION_MAJOR})
if(NOT EXISTS ${TESSEL_CLANG_RESOURCE_DIR}/include/__clang_cuda_runtime_wrapper.h)
  tessel_require(FALSE "Clang 19's CUDA wrapper headers" "libclang-common-19-dev")
endif()
# Clang's code generator registers LLVM's static extensions (llvm/Support/Extension.def), which Debian
# builds with Polly: its archives must be there to link, though tessel never runs Polly.
if(NOT EXISTS ${TESSEL_CLANG_LIBDIR}/libPolly.a)
  tessel_require(FALSE "Polly's static libraries (Clang's code generator links them)" "libpolly-19-dev")
endif()
if(NOT EXISTS /usr/lib/llvm-19/include/clang/Frontend/CompilerInstance.h)
  tessel_require(FALSE "Clang 19's headers" "libclang-19-dev libclang-cpp19-dev")
endif()
if(NOT TARGET tessel_clang)
  llvm_map_components_to_libnames(TESSEL_CLANG_LLVM_LIBS
    Core Support Option MC MCParser BitReader BitWriter BitstreamReader FrontendOpenMP FrontendHLSL
    FrontendOffloading FrontendDriver ProfileData Coverage TargetParser Passes IPO Instrumentation Coroutines
    ObjCARCOpts Vectorize Linker IRReader IRPrinter Analysis TransformUtils Demangle WindowsDriver Remarks
    HipStdPar CodeGen Target Extensions LTO NVPTXCodeGen NVPTXDesc NVPTXInfo)
  add_library(tessel_clang INTERFACE)
  target_link_libraries(tessel_clang INTERFACE "$<LINK_GROUP:RESCAN,${TESSEL_CLANG_ARCHIVES}>"
                        ${TESSEL_CLANG_LLVM_LIBS} tessel_llvm)
  target_compile_definitions(tessel_clang INTERFACE TESSEL_CLANG_RESOURCE_DIR="${TESSEL_CLANG_RESOURCE_DIR}")
endif()
