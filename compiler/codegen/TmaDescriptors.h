//===- TmaDescriptors.h - descriptors copied through tensor maps -*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Which tensor descriptors a kernel copies with the tensor memory
/// accelerator, as Triton 3.6 does on sm_90 (its TMALowering and
/// `tensordesc_meta`): on Arch 90 and above, every descriptor whose loads
/// and stores the IR marks (ir::LoadOp::descriptorBase) with a block of
/// rank 2, 1-, 2- or 4-byte elements and rows of at least 32 bytes (an
/// NVMMA swizzle of 32, 64 or 128 bytes, the layout wgmma reads too).
///
/// A host TensorDescriptor parameter is then received as a CUtensorMap; a
/// tl.make_tensor_descriptor (ir::MakeTensorDescOp) builds its map in the
/// kernel, in a 128-byte slot of global scratch, where it stands
/// (lower/TensormapCreate.cpp). One made inside a loop keeps the pointer
/// form: a pipelined copy of the next iteration would read the map while
/// the program rewrites it. Another descriptor keeps the pointer form (a
/// host one with its parameters expanded as where Triton lowers
/// descriptors without TMA), so a kernel tessel cannot copy by TMA still
/// runs.
///
/// A copy's box is Triton's getTMABlockShape: the swizzle's width of
/// columns (Triton clamps the contiguous dimension to it), at most 256 rows.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_CODEGEN_TMADESCRIPTORS_H
#define TESSEL_COMPILER_CODEGEN_TMADESCRIPTORS_H

#include "compiler/codegen/Codegen.h"
#include "compiler/codegen/layout/WgmmaLayout.h"

#include <map>

namespace tessel::ir {
class Function;
class MakeTensorDescOp;
} // namespace tessel::ir

namespace tessel::codegen {

struct TmaPlan {
  TmaDescriptorMeta Meta; ///< Param: the base's index (host descriptors only)
  NvmmaLayout Layout;     ///< the block's buffer
};

/// A tl.make_tensor_descriptor copied by TMA: its map is built in global
/// scratch at byte Slot * 128 of the program's part.
struct CreatedTma {
  TmaPlan Plan;
  unsigned Slot = 0;
};

struct TmaDescriptorPlan {
  /// Host descriptors, by base parameter index.
  std::map<unsigned, TmaPlan> Params;
  /// Descriptors the kernel makes, slots in IR order.
  std::map<const ir::MakeTensorDescOp *, CreatedTma> Created;
};

/// The descriptors of F copied by TMA on Arch.
TmaDescriptorPlan planTmaDescriptors(const ir::Function &F, int Arch);

/// Bytes of a tensor map, and their alignment (Triton's TMA_SIZE_BYTES).
inline constexpr unsigned TensorMapBytes = 128;

/// Global scratch per program for the maps of Plan
/// (KernelABI::GlobalScratchBytes): one slot each.
inline unsigned globalScratchBytes(const TmaDescriptorPlan &Plan) {
  return static_cast<unsigned>(Plan.Created.size()) * TensorMapBytes;
}

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_TMADESCRIPTORS_H
