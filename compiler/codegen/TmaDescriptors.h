//===- TmaDescriptors.h - host descriptors passed as tensor maps -*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Which host TensorDescriptor parameters a kernel receives as CUtensorMaps
/// and copies with the tensor memory accelerator, as Triton 3.6 does on
/// sm_90 (its TMALowering and `tensordesc_meta`): on Arch 90 and above,
/// every descriptor whose loads and stores the IR marks (ir::LoadOp::
/// descriptorBase) with a block of rank 2, 1-, 2- or 4-byte elements and
/// rows of at least 32 bytes (an NVMMA swizzle of 32, 64 or 128 bytes, the
/// layout wgmma reads too). Another descriptor keeps the pointer form
/// (its parameters expanded as where Triton lowers descriptors without
/// TMA), so a kernel tessel cannot copy by TMA still runs.
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
} // namespace tessel::ir

namespace tessel::codegen {

struct TmaPlan {
  TmaDescriptorMeta Meta;
  NvmmaLayout Layout; ///< the block's buffer
};

/// The descriptors of F copied by TMA on Arch, by base parameter index.
std::map<unsigned, TmaPlan> planTmaDescriptors(const ir::Function &F, int Arch);

} // namespace tessel::codegen

#endif // TESSEL_COMPILER_CODEGEN_TMADESCRIPTORS_H
