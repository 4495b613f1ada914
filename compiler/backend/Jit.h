//===- Jit.h - one kernel module to PTX, cubin and resources ----*- C++ -*-===//
/// \file
/// The back end's entry point: an LLVM module holding one kernel (from
/// compiler/codegen) goes through PtxEmit (libdevice, the kernel pipeline, NVPTX), Assemble
/// (nvJitLink or ptxas) and ResourceReport, and comes back as a
/// CompiledKernel: the PTX, the cubin, the kernel's PTX signature, its
/// resources and theoretical occupancy, and the time of each stage.
///
/// A CompiledKernel serializes to bytes (the compile cache's payload, and
/// what a JIT worker process sends back to its parent) and back; bytes that
/// do not decode are an error, never a crash.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_JIT_H
#define TESSEL_COMPILER_BACKEND_JIT_H

#include "compiler/backend/Assemble.h"
#include "compiler/backend/Occupancy.h"
#include "compiler/backend/PtxEmit.h"
#include "compiler/backend/ResourceReport.h"
#include "compiler/backend/Target.h"
#include "compiler/codegen/Codegen.h"
#include "compiler/codegen/SharedMemoryPlanner.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace tessel::backend {

/// What the launch needs besides the code (Triton's metadata): from codegen.
struct LaunchShape {
  unsigned Threads = 128;     ///< 32 x num_warps (`.reqntid`)
  unsigned DynamicShared = 0; ///< bytes (Triton uses dynamic shared memory only)
};

struct JitOptions {
  GpuArch Arch;
  bool FpFusion = true;
  /// Stop after the PTX (--emit ptx / llvm): no assembler is needed.
  bool Assemble = true;
  /// Keep the optimized LLVM IR text (--emit llvm).
  bool KeepLlvm = false;
  AssembleOptions Assembler; ///< Arch is filled from above
  /// The middle end; nullopt: PtxEmit's default (tessel's kernel pipeline,
  /// or TESSEL_LLVM_PIPELINE). A CUDA C++ reference takes O3, as clang -O3.
  std::optional<LlvmPipeline> Pipeline;
};

/// One `.param` of the PTX entry: `.u64 .ptr .global .align 1`, `.u32`, ...
struct PtxParam {
  std::string Type;
  std::string Name;
};

struct StageTime {
  std::string Stage; ///< "link", "optimize", "codegen", "assemble", ...
  double Ms = 0;
};

struct CompiledKernel {
  std::string Entry;
  GpuArch Arch;
  std::string Llvm; ///< optimized module text, when kept
  std::string Ptx;
  std::vector<PtxParam> Params;
  std::optional<unsigned> ReqNtid, MaxNReg; ///< `.reqntid` x, `.maxnreg`
  std::string Cubin;                        ///< empty when not assembled
  std::string AssemblerLog;
  std::string Assembler; ///< "nvJitLink 13.0", "ptxas 13.0"
  LaunchShape Launch;
  ResourceUsage Resources;
  Occupancy Occ;
  std::vector<StageTime> Times; ///< not serialized
  /// The kernel has a tl.dot. On FMA units (no tensor cores for it) and on
  /// tessel's mma.sync code (operands staged without pipelining, pointers
  /// not yet vectorized like Triton's) its registers and spills are not
  /// what Triton's code uses, so findings about them stay silent.
  bool FmaDot = false;
  /// Registers per thread that the largest tl.dot's accumulator takes by
  /// itself (its elements over the block's threads; two fp16 to a
  /// register): a wgmma dot keeps it in registers for the whole loop, so
  /// past 255 a spill is certain in Triton's code as in tessel's.
  unsigned DotAccumulatorRegs = 0;
  /// Every shared buffer of the kernel (codegen's SharedMemoryPlanner),
  /// placed: what takes Launch.DynamicShared. Set by jitKernel.
  std::vector<codegen::SharedBuffer> SharedBuffers;
  /// The host descriptors it takes as tensor maps (KernelABI::Tma): the
  /// launcher encodes each map. Set by jitKernel.
  std::vector<codegen::TmaDescriptorMeta> Tma;
  /// Global scratch per program (KernelABI::GlobalScratchBytes): the
  /// launcher passes a buffer of this many bytes per program. Set by
  /// jitKernel.
  unsigned GlobalScratchBytes = 0;

  bool assembled() const { return !Cubin.empty(); }
  /// Static + dynamic shared memory per block.
  unsigned sharedBytes() const { return Resources.StaticShared + Launch.DynamicShared; }
};

/// Where K's tl.dot runs, read from its PTX: "wgmma" (sm_90a warpgroup MMA),
/// "mma.sync" (tensor cores), "FMA units" (neither instruction: ieee fp32,
/// fp64, shapes below one instruction); empty when K has no tl.dot.
std::string_view dotUnits(const CompiledKernel &K);

/// Whether a spill of K is Triton's too, hence the user's config: a kernel
/// without tl.dot, or one whose dot runs on wgmma as Triton's Hopper code
/// does with an accumulator that alone exceeds the 255 registers a thread
/// has (DotAccumulatorRegs). Below that, tessel's registers for a dot are
/// near Triton's, not equal: over the 150 recorded compiles of Triton's
/// tutorials they spill in the same configs, but a matmul of Liger-Kernel
/// with two dots per iteration spills in tessel's code (up to 5968 bytes)
/// where Triton's was not shown to, and a false alarm costs more than a miss.
bool spillsAreTritons(const CompiledKernel &K);

/// Gives K what its code generator said of it beside the module: its shared
/// buffers and the descriptors it takes as tensor maps.
void adoptABI(CompiledKernel &K, const codegen::KernelABI &ABI);

/// Compiles M (one kernel entry; see PtxEmit.h for what happens to it).
llvm::Expected<CompiledKernel> compileModule(llvm::Module &M, const LaunchShape &Launch, const JitOptions &Opts);

/// The entry name and parameters of the first `.entry` in Ptx, and its
/// `.reqntid` / `.maxnreg` directives.
bool parsePtxSignature(llvm::StringRef Ptx, CompiledKernel &Out);

std::string serialize(const CompiledKernel &K);
llvm::Expected<CompiledKernel> deserialize(llvm::StringRef Bytes);

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_JIT_H
