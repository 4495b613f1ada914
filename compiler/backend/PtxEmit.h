//===- PtxEmit.h - LLVM IR -> PTX with the NVPTX back end -------*- C++ -*-===//
/// \file
/// The LLVM half of the JIT, in process: libdevice is linked into the
/// kernel's module (only the functions it calls: Linker::LinkOnlyNeeded),
/// every non-kernel function is internalized so that the inliner and global
/// DCE keep only what the kernel reaches, the `nvvm-reflect-ftz` module flag
/// is set to 1 as Triton sets it (so libdevice's `__nvvm_reflect("__CUDA_FTZ")`
/// folds to flush-to-zero paths), tessel's kernel pipeline runs (NVVMReflect,
/// NVVMIntrRange, the inliner, one round of scalar and loop simplification:
/// where Triton runs O3, at half the time for the same code; PtxEmit.cpp says
/// which passes and why), and the NVPTX asm printer writes the PTX text.
///
/// The PTX is then brought to what Triton 3.6's make_ptx hands ptxas: the
/// `.version` line names the toolkit's PTX ISA (LLVM 19 stops at 8.5), and a
/// kernel's pointer parameters into global memory carry
/// `.ptr .global .align N` (what newer LLVMs print for a CUDA kernel; LLVM
/// 19 prints it only outside CUDA).
///
/// Thread safety: each thread keeps its own target machines (one per arch,
/// PTX ISA and fp fusion, made on first use); modules of different
/// LLVMContexts may be compiled on different threads at once.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_PTXEMIT_H
#define TESSEL_COMPILER_BACKEND_PTXEMIT_H

#include "compiler/backend/Target.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace tessel::backend {

/// The middle end emitPtx runs between libdevice linking and the code
/// generator.
enum class LlvmPipeline {
  Kernel, ///< tessel's kernel pipeline (PtxEmit.cpp's KernelPipeline): the default
  O3,     ///< LLVM's O3 (buildPerModuleDefaultPipeline), which Triton runs and tessel ran before
  None,   ///< none: the code generator's own passes only (`--emit llvm` then shows codegen's module)
};

/// Developer option for GPU A/B comparisons of one binary:
/// `TESSEL_LLVM_PIPELINE=kernel|o3|none` in the environment, read once per
/// process; unset or empty: kernel. Any other value is an error that names
/// the variable (every compile of the process then fails with it).
llvm::Expected<LlvmPipeline> llvmPipelineFromEnv();
const char *llvmPipelineName(LlvmPipeline P);

struct PtxOptions {
  GpuArch Arch;
  /// The `.version` of the PTX text (ptxIsaForToolkit); the LLVM feature is
  /// min(PtxIsa, MaxLlvmPtxIsa).
  unsigned PtxIsa = 90;
  /// Triton's enable_fp_fusion (default on): a*b+c may become one fma.
  bool FpFusion = true;
  /// libdevice.10.bc; empty: a module that calls `__nv_*` is an error.
  std::string Libdevice;
  /// The middle end (off: only the code generator's own passes, for tests
  /// that check the module as built).
  bool Optimize = true;
  /// Which middle end; nullopt: llvmPipelineFromEnv().
  std::optional<LlvmPipeline> Pipeline;
  /// When set, receives the module's text after optimization, before the
  /// code generator runs (`--emit llvm`).
  std::string *OptimizedIr = nullptr;
};

/// Stage times in milliseconds, for `tessel compile --emit report`.
struct PtxTimes {
  double LinkMs = 0, OptimizeMs = 0, CodegenMs = 0;
};

/// Sets M's triple and data layout for the target (done by emitPtx too;
/// codegen may call it first so that its IR already carries them).
llvm::Error prepareModule(llvm::Module &M, const PtxOptions &Opts);

/// Links libdevice into M, internalizes, optimizes and prints PTX. M is
/// changed in place (after the call it is the optimized module, which
/// `--emit llvm` prints).
llvm::Expected<std::string> emitPtx(llvm::Module &M, const PtxOptions &Opts, PtxTimes *Times = nullptr);

/// Only the first steps of emitPtx: libdevice linked, internalized and optimized,
/// no PTX (`--emit llvm`).
llvm::Error optimizeModule(llvm::Module &M, const PtxOptions &Opts, PtxTimes *Times = nullptr);

/// The PTX text's post-processing described above (exposed for tests).
std::string fixupPtx(std::string Ptx, unsigned PtxIsa, const llvm::Module &M);

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_PTXEMIT_H
