//===- CudaPrelude.h - Clang's CUDA wrapper headers, precompiled once -*- C++ -*-===//
/// \file
/// Every CUDA compile starts with Clang's implicit `-include
/// __clang_cuda_runtime_wrapper.h`: the toolkit's cuda_runtime.h, libstdc++'s
/// <cmath>, Clang's libdevice declarations, some 180 ms of parsing before the
/// first line of the reference, and then the file's own includes (mma.h and
/// cuda_fp16.h are another 100 ms). Both are the same from one compile to the
/// next while only the code below them changes (clangd's preamble), so they
/// are parsed once into a precompiled header, kept in
/// the JIT cache folder (`$XDG_CACHE_HOME/tessel/jit/cuda-pch/`, named by a
/// hash of the driver's arguments and the Clang it was built by) and loaded by
/// every later compile, in this process or another.
///
/// Clang validates a PCH when it loads it (every header's size and time, the
/// language options); a PCH it refuses is built again. Anything that stops
/// the PCH (a read-only cache folder, a failed build) only makes the compile
/// parse the headers itself: never an error of its own.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_REFERENCE_CUDAPRELUDE_H
#define TESSEL_COMPILER_REFERENCE_CUDAPRELUDE_H

#include "llvm/ADT/IntrusiveRefCntPtr.h"

#include <string>
#include <vector>

namespace llvm::vfs {
class FileSystem;
} // namespace llvm::vfs

namespace tessel::reference {

/// The file a precompiled prelude is built from, in the compile's virtual file system.
struct Prelude {
  std::string Path, Text;
};

/// The prelude of a .cu file's Text (at Path): its preamble (the leading
/// comments, includes and macros, Clang's Lexer::ComputePreamble), as a file
/// beside it named by a hash of that text, so that its quoted includes resolve
/// as the file's do and an edit below the includes keeps the same PCH; a file
/// without a preamble gets the empty one in CudaArgs' ShimFolder, which only
/// Clang's wrapper fills.
Prelude preludeOf(const std::string &Text, const std::string &Path);

/// The PCH of the prelude for DriverArgs (cudaDriverArgs of a Prelude's Path),
/// built now when missing or when Rebuild; "" when there is none. The folder
/// keeps the 16 most recently used PCHs; a prelude whose build failed is not
/// tried again in this process for 30 seconds.
std::string preludePch(const std::vector<std::string> &DriverArgs, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> FS,
                       bool Rebuild);

} // namespace tessel::reference

#endif // TESSEL_COMPILER_REFERENCE_CUDAPRELUDE_H
