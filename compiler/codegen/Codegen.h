//===- Codegen.h - tile IR to LLVM IR for NVPTX ----------------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The one entry point of the code generator: a verified ir::Function (one
/// kernel specialization, every helper inlined) becomes an LLVM module for
/// the NVPTX target, holding one kernel with Triton 3.6's ABI (facts §4):
///
///  - the entry is named like the Python function; its parameters are the
///    Function's parameters in order (constexprs and ints equal to 1 are
///    already gone), pointers as `ptr addrspace(1)`, then two trailing
///    `ptr addrspace(1)` scratch parameters (global and profile scratch,
///    always null today);
///  - `.reqntid` is 32 x NumWarps (the `nvvm.annotations` "reqntidx" and
///    "kernel" entries), `.maxnreg` when MaxNReg is set;
///  - shared memory is dynamic only: one external `[0 x i8] addrspace(3)`
///    global `global_smem`; KernelABI::SharedBytes says how much a launch
///    must pass.
///
/// Math functions are calls to libdevice's `__nv_*` declarations; the
/// backend links libdevice (internalized, unused functions dropped), runs
/// the optimisation pipeline and emits PTX. Nothing here runs a pass beyond
/// building and verifying the module.
///
/// A construct the generator cannot lower yet is a Problem at the op's
/// SourceRange (kind UnsupportedConstruct, "... is not supported by tessel's
/// code generator yet"); the module is then null. The generator never
/// crashes or silently drops an op on a verified Function.
///
/// Threading: emitLLVM builds into the caller's LLVMContext; calls with
/// distinct contexts may run concurrently on one Function.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_CODEGEN_H
#define TESSEL_COMPILER_CODEGEN_CODEGEN_H

#include "compiler/codegen/SharedMemoryPlanner.h"
#include "compiler/support/Problem.h"

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tessel {
class SourceText;
} // namespace tessel

namespace tessel::ir {
class Function;
} // namespace tessel::ir

namespace tessel::codegen {

/// Developer option for GPU A/B comparisons: `TESSEL_PIPELINE_TL_RANGE=0` in
/// the environment (read once per process) keeps the loads of a
/// `tl.range(..., num_stages=N)` loop that feed no dot as plain loads
/// instead of pipelining them through a cp.async ring (Pipeliner.h); the
/// loads of tensor-core dots are pipelined either way. Any other value, or
/// none: pipelined (Triton's behaviour).
bool rangeLoadPipeliningFromEnv();

/// Developer option: on an sm_90a target the tl.dots Triton runs on wgmma
/// (fp16 / bf16 operands, fp32 accumulators) are lowered with
/// `wgmma.mma_async` (lower/DotWgmma.cpp), as Triton does; `TESSEL_WGMMA=0`
/// in the environment (read once per process) keeps them on `mma.sync` for
/// A/B comparisons. Verified on the H200 against torch and the interpreter
/// (bench/RESULTS.md, issue 29); part of the JIT cache key.
bool wgmmaFromEnv();

/// Developer option: `TESSEL_WGMMA_PENDING=0` in the environment (read once
/// per process) makes the wgmma dot of a pipelined loop wait for its own
/// group; otherwise (unset or 1) each iteration's group stays in flight into
/// the next iteration (`wgmma.wait_group 1`, Triton's pendings = 1;
/// lower/Pipeline.cpp). Part of the JIT cache key.
unsigned wgmmaPendingsFromEnv();

/// Developer option: `TESSEL_WGMMA_CHAIN=0` in the environment (read once
/// per process) makes every dot of a pipelined loop with several wgmma dots
/// wait for its own group; otherwise the last dot's group stays in flight
/// until the next iteration's first dot waits (Triton's attention loop,
/// lower/Pipeline.cpp). Part of the JIT cache key.
bool wgmmaChainFromEnv();

/// Developer option for GPU A/B comparisons: `TESSEL_TRITON_EPILOGUE=0` in
/// the environment (read once per process) writes a dot's result from the
/// accumulator's layout in 4-byte pieces; otherwise it is stored as Triton
/// does, from the store's own coalesced layout after a conversion through
/// shared memory (16-byte chunks, XOR-swizzled rows, vector accesses:
/// LoweringContext::convertSwizzled), and conversions elsewhere in the
/// kernel take the same swizzled path. Either way a conversion's buffer is
/// Triton's size, the tile over its rounds (layout/ConversionSwizzle.h).
/// Part of the JIT cache key.
bool tritonEpilogueFromEnv();

/// Triton's compile options that change the generated code.
struct CodegenOptions {
  /// Compute capability x 10 + minor: 80 (sm_80), 90 (sm_90 / sm_90a).
  int Arch = 90;
  /// The target has the `a` suffix (sm_90a), which wgmma needs.
  bool ArchSpecific = false;
  /// Lower eligible dots with wgmma on sm_90a (wgmmaFromEnv).
  bool Wgmma = wgmmaFromEnv();
  /// wgmma groups a pipelined dot loop leaves in flight across iterations
  /// (0 or 1; wgmmaPendingsFromEnv).
  unsigned WgmmaPendings = wgmmaPendingsFromEnv();
  /// Chain the wgmma groups of a loop with several dots (wgmmaChainFromEnv).
  bool WgmmaChain = wgmmaChainFromEnv();
  /// Store dot results through a swizzled conversion (tritonEpilogueFromEnv).
  bool TritonEpilogue = tritonEpilogueFromEnv();
  int NumWarps = 4;
  /// Loops whose loads feed a tensor-core dot keep num_stages - 1 iterations
  /// of cp.async copies in flight (Pipeliner.h); 1 or less: none.
  int NumStages = 3;
  /// Pipeline a tl.range loop's loads that feed no dot (fused softmax's row)
  /// as Triton does; false only for A/B comparisons (see above).
  bool PipelineRangeLoads = rangeLoadPipeliningFromEnv();
  int NumCTAs = 1; ///< only 1 is supported
  /// `triton.Config(maxnreg=...)`: becomes `.maxnreg`.
  std::optional<int> MaxNReg;
  /// Parameters (by name) Triton's specialization marks divisible by 16
  /// (key "D": a pointer's address, an int's value). Pointers listed here
  /// are 16-byte aligned and ints multiples of 16, which allows 128-bit
  /// vector accesses; see defaultDivisibility for the usual assumption.
  std::set<std::string> DivisibleBy16;
  /// Triton's `debug`: when false, `device_assert` is dropped as Triton does.
  bool Debug = false;
  /// The PTX ISA version the PTX will declare (backend::ptxIsaOf): ptxas
  /// before 8.6 reads a tensor map's global strides written in the kernel
  /// in units of 16 bytes (Triton's workaround in TMAToLLVM.cpp).
  unsigned PtxIsa = 90;
  /// The kernel's file: when set, every instruction carries its op's line and
  /// column (line tables only, as Triton's `-lineinfo`), so PTX has `.loc`.
  const SourceText *Source = nullptr;
};

/// The entry's PTX interface, as the launcher and the ABI tests read it.
/// A host TensorDescriptor parameter passed as a CUtensorMap (Triton's
/// `nvTmaDesc` on sm_90, with its `tensordesc_meta`): the kernel copies its
/// blocks with the tensor memory accelerator (lower/Tma.cpp). Its IR
/// parameters (launch::descriptorParams: base, shape, strides, padding,
/// round_f32_to_tf32, then shape as i32 and strides as i64) become the
/// PTX parameters Triton's launcher passes: the 128-byte map, then the i32
/// shape and the i64 strides. Whoever launches the kernel encodes the map
/// from the tensor the base points into with these fields
/// (cuTensorMapEncodeTiled).
struct TmaDescriptorMeta {
  unsigned Param = 0; ///< the base's index among the IR function's parameters
  unsigned Rank = 2;  ///< of the block and the tensor
  unsigned ElemBytes = 2;
  unsigned ElemType = 0;     ///< CUtensorMapDataType (Triton's TMA_ELEMENT_TYPES)
  unsigned Swizzle = 0;      ///< CUtensorMapSwizzle: 0 none, 1 32B, 2 64B, 3 128B
  std::vector<uint32_t> Box; ///< one copy's block, outermost dimension first
};

/// IR parameters between a TMA descriptor's base and its i32 shape that
/// have no PTX parameter (its shape and strides in i64, padding, rounding).
inline unsigned tmaDroppedParams(unsigned Rank) { return 2 * Rank + 2; }

struct KernelABI {
  std::string EntryName;
  /// One per PTX parameter, in order, in PTX's spelling: ".u64 .ptr .global"
  /// for pointers, ".u32" (i32), ".u64" (i64/u64), ".f32", ".f64", ".u8"
  /// (i1), ... including the two trailing scratch pointers.
  std::vector<std::string> ParamTypes;
  unsigned ThreadsPerBlock = 128;
  /// Dynamic shared memory the launch passes (Triton's metadata "shared"):
  /// the SharedMemoryPlanner's total over SharedBuffers.
  unsigned SharedBytes = 0;
  /// Every shared buffer the kernel uses, placed (offsets and liveness).
  std::vector<SharedBuffer> SharedBuffers;
  /// The host descriptors passed as tensor maps, by base parameter order.
  std::vector<TmaDescriptorMeta> Tma;
  /// Global scratch each program uses (Triton's `global_scratch_size`): a
  /// 128-byte tensor map per tl.make_tensor_descriptor copied by TMA
  /// (lower/TensormapCreate.cpp). The launch passes, as the
  /// `global_scratch` parameter, a buffer of this many bytes per program
  /// (128-byte aligned, program (x, y, z) at x + X * (y + Y * z)); null
  /// when 0.
  unsigned GlobalScratchBytes = 0;
};

struct CodegenResult {
  /// Null when Problems is not empty.
  std::unique_ptr<llvm::Module> Module;
  KernelABI ABI;
  /// Constructs not lowered, at their source ranges.
  std::vector<Problem> Problems;
};

/// Lowers F (verified) under Opts into a module of Ctx.
CodegenResult emitLLVM(const ir::Function &F, const CodegenOptions &Opts, llvm::LLVMContext &Ctx);

/// The divisibility a Triton launch with PyTorch tensors usually has: every
/// pointer parameter (allocations are 256-byte aligned); no ints.
std::set<std::string> defaultDivisibility(const ir::Function &F);

/// The NVPTX data layout and triple the module is built for (shared with the
/// backend's TargetMachine). Shared (3), constant (4) and local (5) pointers
/// are 32 bits wide, as in Triton, which sets LLVM's `nvptx-short-ptr`
/// before it builds its data layout: a shared address then takes one
/// register instead of two (the backend sets the same option).
inline constexpr const char *NVPTXTriple = "nvptx64-nvidia-cuda";
inline constexpr const char *NVPTXDataLayout = "e-p3:32:32-p4:32:32-p5:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64";

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_CODEGEN_H
