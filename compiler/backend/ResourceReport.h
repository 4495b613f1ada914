//===- ResourceReport.h - what a compiled kernel uses -----------*- C++ -*-===//
/// \file
/// Registers, spills, stack, shared memory and barriers of one kernel, read
/// from the assembler's verbose report (ptxas -v, or nvJitLink's info log
/// with -Xptxas=-v), which is the only place spill bytes are given:
///
///   ptxas info    : Compiling entry function 'add_kernel' for 'sm_90a'
///   ptxas info    : Function properties for add_kernel
///       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
///   ptxas info    : Used 14 registers, used 0 barriers, 1024 bytes smem
///
/// or, when there is no report, from the cubin itself (an ELF file): the
/// register count and stack frame from the EIATTR_REGCOUNT and
/// EIATTR_FRAME_SIZE attributes of `.nv.info` for the kernel's symbol
/// (before sm_90 the count is also the top byte of the `.text.K` section's
/// sh_info, whose low bits name the symbol), static shared memory as the size
/// of `.nv.shared.K`, less, for sm_90 and later, the 1 KB that section holds
/// for the block's system reservation (CUDA 13.0's ptxas: a kernel with no
/// static shared memory has a 1024-byte section, one with 256 bytes a
/// 1280-byte one, while `ptxas -v` reports 0 and 256, as Triton's
/// metadata.shared counts neither).
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_RESOURCEREPORT_H
#define TESSEL_COMPILER_BACKEND_RESOURCEREPORT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace tessel::backend {

struct ResourceUsage {
  unsigned Registers = 0;
  unsigned SpillStores = 0, SpillLoads = 0; ///< bytes
  unsigned StackFrame = 0;                  ///< bytes per thread
  unsigned StaticShared = 0;                ///< bytes of `.shared` the PTX declares (Triton's kernels: 0)
  unsigned Barriers = 0;
  bool HasSpillCounts = false; ///< read from a report (a cubin alone does not give spills)

  unsigned spillBytes() const { return SpillStores + SpillLoads; }
};

/// The report's figures for kernel Kernel; nullopt when the log has no
/// "Function properties" / "Used N registers" lines for it.
std::optional<ResourceUsage> parseAssemblerLog(llvm::StringRef Log, llvm::StringRef Kernel);

/// The figures the cubin records for Kernel (no spill counts).
llvm::Expected<ResourceUsage> readCubinResources(llvm::StringRef Cubin, llvm::StringRef Kernel);

} // namespace tessel::backend

#endif // TESSEL_COMPILER_BACKEND_RESOURCEREPORT_H
