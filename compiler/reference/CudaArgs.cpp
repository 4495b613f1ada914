//===- CudaArgs.cpp - how Clang 19 compiles a CUDA file against CUDA 13 ---===//
/// \file
/// Clang 19 knows CUDA up to 12.5. Against CUDA 13.0's headers three things
/// need saying:
///  - `-Wno-unknown-cuda-version`: the driver reads CUDA_VERSION from cuda.h
///    and warns that 13.0 is newer than it supports; the device code it needs
///    (the runtime wrapper, libdevice's `__nv_*` names, the NVVM intrinsics)
///    is unchanged, so the warning is noise on every file.
///  - `texture_fetch_functions.h`: the wrapper includes it unconditionally;
///    CUDA 13 removed it with the texture references it declared, so an empty
///    header stands in (a fatal "file not found" otherwise).
///  - `-nocudalib`: the driver would link libdevice into the module itself;
///    tessel's back end links it as it does for its own kernels (only the
///    functions called, then internalized), so the module keeps `__nv_*` as
///    declarations.
/// `-fcuda-short-ptr`: shared, constant and local pointers are 32 bits, as
/// tessel's back end sets LLVM's `nvptx-short-ptr` for every compile of the
/// process (Triton's choice); Clang checks that its data layout is the
/// target machine's, and refuses the module otherwise.
/// `--cuda-device-only` makes one cc1 job (the device half; the host half
/// would need a host compiler's headers for nothing), `-Xclang
/// -disable-llvm-passes` leaves the optimization to the back end (O3, as
/// clang -O3 would run it) so that it runs once, and `-O3` still sets what
/// the front end decides by level (no optnone, lifetime markers, inlining
/// hints).
//===----------------------------------------------------------------------===//

#include "compiler/reference/CudaArgs.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

namespace tessel::reference {

const std::vector<std::pair<std::string, std::string>> &cudaShimHeaders() {
  static const std::vector<std::pair<std::string, std::string>> Headers = {
      {"texture_fetch_functions.h", "// CUDA 13 removed this header; Clang 19's CUDA wrapper still includes it.\n"},
  };
  return Headers;
}

static bool hasWrapper(const std::string &Dir) {
  return !Dir.empty() && llvm::sys::fs::exists(Dir + "/include/__clang_cuda_runtime_wrapper.h");
}

std::string clangResourceDir() {
  if (const char *E = std::getenv("TESSEL_CLANG_RESOURCE_DIR"); E && hasWrapper(E))
    return E;
  if (hasWrapper(TESSEL_CLANG_RESOURCE_DIR))
    return TESSEL_CLANG_RESOURCE_DIR;
  // A machine without Clang's packages: the copy scripts/gpu_bundle.sh puts beside the binary.
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  llvm::SmallString<256> Beside(llvm::sys::path::parent_path(Exe));
  llvm::sys::path::append(Beside, "lib", "clang", llvm::sys::path::filename(TESSEL_CLANG_RESOURCE_DIR));
  if (!Exe.empty() && hasWrapper(std::string(Beside)))
    return std::string(Beside);
  return "";
}

std::vector<std::string> cudaDriverArgs(const std::string &File, const backend::GpuArch &Arch,
                                        const std::string &CudaRoot, const std::string &ResourceDir) {
  // argv[0] only names the driver: nothing is executed, and the resource folder is given.
  return {"clang",
          "-x",
          "cuda",
          "--cuda-device-only",
          "--cuda-gpu-arch=" + Arch.name(),
          "--cuda-path=" + CudaRoot,
          "-resource-dir",
          ResourceDir,
          "-nocudalib",
          "-fcuda-short-ptr",
          "-O3",
          "-Xclang",
          "-disable-llvm-passes",
          "-std=c++17",
          "-ferror-limit=20",
          "-Wno-unknown-cuda-version",
          "-idirafter",
          ShimFolder,
          "-S",
          "-emit-llvm",
          "-o",
          "-",
          File};
}

} // namespace tessel::reference
