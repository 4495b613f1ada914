//===- SinkUnpacks.h - unpacking next to its use ---------------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// A function pass of tessel's LLVM pipeline, its last: a cast, a shift or
/// mask by a constant, or an element extraction whose users all sit later in
/// its own block moves down to just before the first of them, chains whole.
///
/// Why: codegen unpacks a vector load where it lowers the load (a
/// `ld.global.v4.b32` of 8 halves: eight truncs or shifts and bitcasts, then
/// the conversions of `.to(tl.float32)`), and the NVPTX back end schedules
/// its DAG in source order. Every half of every load then lives in its own
/// register from the load to its arithmetic: tutorial 05's layer norm
/// (x, w and b, 16 halves each a thread at 4096 columns over 8 warps) took
/// 40 registers where Triton's takes 32. With the unpacking next to its
/// use, the packed 32-bit words live instead, as in Triton's PTX, and ptxas
/// allocates 32.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_BACKEND_SINKUNPACKS_H
#define TESSEL_COMPILER_BACKEND_SINKUNPACKS_H

#include "llvm/IR/PassManager.h"

namespace tessel::backend {

class SinkUnpacksPass : public llvm::PassInfoMixin<SinkUnpacksPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &AM);
};

} // namespace tessel::backend

#endif
