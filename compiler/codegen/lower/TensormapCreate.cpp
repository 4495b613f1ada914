//===- TensormapCreate.cpp - tensor maps a kernel builds --------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// A tl.make_tensor_descriptor whose blocks the plan copies by TMA
/// (TmaDescriptors.h) builds its tensor map where it stands, as Triton 3.6
/// does on Hopper (TMALowering's MakeTensorDescOp, TMAToLLVM.cpp's
/// TensormapCreateOp and TensormapFenceproxyAcquireOp):
///
///   warp 0 zeroes a 128-byte template in shared memory; thread 0 writes
///   its fields with `tensormap.replace` (the base, rank, box, the
///   tensor's shape and byte strides innermost first, element strides of
///   1, element type, swizzle and fill); warp 0 copies it to the
///   program's 128-byte slot of global scratch with
///   `tensormap.cp_fenceproxy` (a release to the tensor-map proxy), then
///   acquires it there (`fence.proxy.tensormap::generic.acquire`, with
///   Triton's commit / wait after it, a ptxas workaround), and a barrier
///   lets every warp copy through it.
///
/// The op's value stays the base pointer: accesses the plan does not copy
/// by TMA use their pointer form.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/lower/LoweringContext.h"
#include "compiler/codegen/lower/Lowerings.h"
#include "compiler/ir/Ops.h"

#include <llvm/IR/IntrinsicsNVPTX.h>

namespace tessel::codegen {

namespace {

/// The program's slot Slot of global scratch: programs in x-major order,
/// each with Bytes (KernelABI::GlobalScratchBytes).
llvm::Value *scratchSlot(LoweringContext &C, uint64_t Bytes, unsigned Slot) {
  llvm::IRBuilderBase &B = C.B;
  auto Wide = [&](llvm::Value *V) { return B.CreateZExt(V, B.getInt64Ty()); };
  llvm::Value *X = Wide(C.programId(0)), *Y = Wide(C.programId(1)), *Z = Wide(C.programId(2));
  llvm::Value *NX = Wide(C.numPrograms(0)), *NY = Wide(C.numPrograms(1));
  llvm::Value *Program = B.CreateAdd(X, B.CreateMul(NX, B.CreateAdd(Y, B.CreateMul(NY, Z))));
  llvm::Value *Offset = B.CreateAdd(B.CreateMul(Program, B.getInt64(Bytes)), B.getInt64(uint64_t(Slot) * TensorMapBytes));
  llvm::Argument *Scratch = C.Kernel.getArg(C.Kernel.arg_size() - 2); // KernelABI: global_scratch
  return B.CreateGEP(B.getInt8Ty(), Scratch, Offset);
}

/// `tensormap.replace.tile.<Field>` of the map at Smem by thread 0: Ord
/// (the dimension, innermost first) when not negative, then Value.
void replaceField(LoweringContext &C, llvm::Value *Tid0, llvm::Value *Smem, const std::string &Field, int Ord,
                  llvm::Value *Value) {
  bool Wide = Value->getType()->getPrimitiveSizeInBits() == 64 || Value->getType()->isPointerTy();
  std::string Asm = "@$0 tensormap.replace.tile." + Field + ".shared::cta.b1024." + (Wide ? "b64" : "b32") + " [$1], " +
                    (Ord >= 0 ? std::to_string(Ord) + ", " : "") + "$2;";
  C.inlineAsm(C.B.getVoidTy(), Asm, std::string("b,r,") + (Wide ? "l" : "r") + ",~{memory}", {Tid0, Smem, Value});
}

/// The same for a field whose value PTX takes as an immediate.
void replaceField(LoweringContext &C, llvm::Value *Tid0, llvm::Value *Smem, const std::string &Field, int64_t Value) {
  C.inlineAsm(C.B.getVoidTy(),
              "@$0 tensormap.replace.tile." + Field + ".shared::cta.b1024.b32 [$1], " + std::to_string(Value) + ";",
              "b,r,~{memory}", {Tid0, Smem});
}

void buildTensorMap(LoweringContext &C, const ir::MakeTensorDescOp &M, const CreatedTma &T) {
  llvm::IRBuilderBase &B = C.B;
  const TmaDescriptorMeta &Meta = T.Plan.Meta;
  llvm::Value *Global = scratchSlot(C, globalScratchBytes(*C.DescriptorPlan), T.Slot);
  const NvmmaLayout &N = T.Plan.Layout;
  unsigned Buf = C.openShared(SharedBufferKind::TensorMap,
                              "tensor map of a tensor descriptor of " +
                                  LoweringContext::tileString({N.Rows, N.Cols}, M.base()->type().Elem.pointee()) +
                                  " blocks",
                              TensorMapBytes, 1, TensorMapBytes);
  llvm::Value *Smem = C.sharedBase(Buf);
  llvm::Value *Tid = C.threadId();
  llvm::Value *Warp0 = B.CreateICmpULT(Tid, C.i32(32));
  llvm::Value *Tid0 = B.CreateICmpEQ(Tid, C.i32(0));
  C.barrier(); // the buffer's earlier users are done with it
  C.inlineAsm(B.getVoidTy(), "@$0 st.shared.b32 [$1], 0;", "b,r,~{memory}",
              {Warp0, B.CreateGEP(B.getInt8Ty(), Smem, B.CreateMul(Tid, C.i32(4)))});
  C.inlineAsm(B.getVoidTy(), "bar.warp.sync -1;", "~{memory}", {});
  replaceField(C, Tid0, Smem, "global_address", -1, C.get(M.base()).Regs[0]);
  replaceField(C, Tid0, Smem, "rank", int64_t(Meta.Rank) - 1);
  // Innermost dimension first: the box's columns, then its rows.
  replaceField(C, Tid0, Smem, "box_dim", 0, C.i32(Meta.Box[1]));
  replaceField(C, Tid0, Smem, "box_dim", 1, C.i32(Meta.Box[0]));
  for (unsigned D = 0; D < Meta.Rank; ++D) {
    llvm::Value *Dim = C.get(M.dim(Meta.Rank - 1 - D)).Regs[0];
    replaceField(C, Tid0, Smem, "global_dim", int(D), B.CreateTrunc(Dim, B.getInt32Ty()));
  }
  for (unsigned D = 0; D + 1 < Meta.Rank; ++D) {
    llvm::Value *Stride = B.CreateMul(C.get(M.stride(Meta.Rank - 2 - D)).Regs[0], B.getInt64(Meta.ElemBytes));
    if (C.Opts.PtxIsa <= 85) // ptxas before PTX 8.6 reads these in units of 16 bytes
      Stride = B.CreateAShr(Stride, B.getInt64(4));
    replaceField(C, Tid0, Smem, "global_stride", int(D), Stride);
  }
  for (unsigned D = 0; D < Meta.Rank; ++D)
    replaceField(C, Tid0, Smem, "element_stride", int(D), C.i32(1));
  replaceField(C, Tid0, Smem, "elemtype", Meta.ElemType);
  replaceField(C, Tid0, Smem, "interleave_layout", 0);
  replaceField(C, Tid0, Smem, "swizzle_mode", Meta.Swizzle);
  replaceField(C, Tid0, Smem, "fill_mode", M.padNan() ? 1 : 0);
  C.inlineAsm(B.getVoidTy(),
              "@$0 tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [$1], [$2], "
              "128;",
              "b,l,r,~{memory}", {Warp0, Global, Smem});
  llvm::Value *Map = B.CreateAddrSpaceCast(Global, llvm::PointerType::get(C.Ctx, 0));
  C.inlineAsm(B.getVoidTy(),
              "@$0 fence.proxy.tensormap::generic.acquire.gpu [$1], 128;\n\t@$0 cp.async.bulk.commit_group;\n\t"
              "@$0 cp.async.bulk.wait_group.read 0;",
              "b,l,~{memory}", {Warp0, Map});
  C.barrier(); // every warp copies through the map once warp 0 has acquired it
  C.closeShared(Buf);
  C.TmaDescriptors[M.result()] = {N, {Meta.Box[0], Meta.Box[1]}, Map};
}

} // namespace

bool lowerTensormapCreate(LoweringContext &C, const ir::Op &O) {
  const auto *M = ir::dyn_cast<ir::MakeTensorDescOp>(&O);
  if (!M)
    return false;
  C.set(M->result(), C.getAs(M->base(), C.wanted(M->result())));
  if (C.DescriptorPlan)
    if (auto It = C.DescriptorPlan->Created.find(M); It != C.DescriptorPlan->Created.end())
      buildTensorMap(C, *M, It->second);
  return true;
}

} // namespace tessel::codegen
