//===- Builder.h - creating tile IR ops with source ranges ------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The one way ops are made. Every creation function takes the SourceRange
/// of the Python expression it lowers as its first argument, so a typed AST
/// walk reads `B.add(E.range(), L, R)` and no op is ever created without a
/// location. Result types are computed here from the operands (the caller
/// has already inserted Triton's implicit splats, broadcasts and casts); the
/// Builder never rejects anything: malformed IR is the Verifier's to report.
///
/// Regions: creating a `for`, `while` or `if` makes its blocks (with their
/// arguments) and leaves the insertion point unchanged. Fill a region with
/// `setInsertionPointToEnd(Op->body())`, end it with `yield`, and go on
/// after the op with `setInsertionPointToEnd(Parent)` or an InsertionGuard.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_IR_BUILDER_H
#define TESSEL_COMPILER_IR_BUILDER_H

#include "compiler/ir/Ops.h"

#include <array>
#include <utility>
#include <vector>

namespace tessel::ir {

class Builder {
public:
  /// Inserts at the end of F's body.
  explicit Builder(Function &F) : F(F), Insert(&F.body()) {}

  Function &function() { return F; }
  Block *insertionBlock() const { return Insert; }
  void setInsertionPointToEnd(Block *B) { Insert = B; }

  /// Restores the insertion block when it goes out of scope.
  class InsertionGuard {
  public:
    explicit InsertionGuard(Builder &B) : B(B), Saved(B.Insert) {}
    ~InsertionGuard() { B.Insert = Saved; }

  private:
    Builder &B;
    Block *Saved;
  };

  /// Removes the ops of B (a combine region) whose results nothing uses and
  /// that only compute values (constants, shape and elementwise ops): what
  /// a combine_fn computed for its type alone (`(x + tl.zeros((1,),
  /// tl.int1)).dtype`), as Triton's dead-code elimination drops it.
  void eraseDeadValueOps(Block *B);

  // Constants and shapes.
  Value *constantInt(SourceRange Loc, int64_t V, const TileType &Ty);
  Value *constantFloat(SourceRange Loc, double V, const TileType &Ty);
  Value *splat(SourceRange Loc, Value *X, std::vector<int64_t> Shape);
  Value *broadcast(SourceRange Loc, Value *X, std::vector<int64_t> Shape);
  Value *expandDims(SourceRange Loc, Value *X, int Axis);
  Value *reshape(SourceRange Loc, Value *X, std::vector<int64_t> Shape);
  Value *permute(SourceRange Loc, Value *X, std::vector<int64_t> Order);
  Value *trans(SourceRange Loc, Value *X); ///< reverses the dimensions, as tl.trans does by default
  Value *join(SourceRange Loc, Value *A, Value *B);
  std::pair<Value *, Value *> split(SourceRange Loc, Value *X);
  Value *arange(SourceRange Loc, int64_t Start, int64_t End);
  Value *programId(SourceRange Loc, int Axis);
  Value *numPrograms(SourceRange Loc, int Axis);

  // Elementwise.
  Value *binary(SourceRange Loc, OpKind K, Value *L, Value *R);
  Value *add(SourceRange Loc, Value *L, Value *R) { return binary(Loc, OpKind::Add, L, R); }
  Value *sub(SourceRange Loc, Value *L, Value *R) { return binary(Loc, OpKind::Sub, L, R); }
  Value *mul(SourceRange Loc, Value *L, Value *R) { return binary(Loc, OpKind::Mul, L, R); }
  Value *minimum(SourceRange Loc, Value *L, Value *R, PropagateNan P = PropagateNan::None);
  Value *maximum(SourceRange Loc, Value *L, Value *R, PropagateNan P = PropagateNan::None);
  Value *unary(SourceRange Loc, OpKind K, Value *X);
  Value *fma(SourceRange Loc, Value *A, Value *B, Value *C);
  Value *cmp(SourceRange Loc, CmpPredicate P, Value *L, Value *R);
  Value *select(SourceRange Loc, Value *Cond, Value *A, Value *B);
  Value *cast(SourceRange Loc, Value *X, ElemType To, RoundingMode R = RoundingMode::RTNE);
  Value *bitcast(SourceRange Loc, Value *X, ElemType To);
  Value *addPtr(SourceRange Loc, Value *Ptr, Value *Offset);

  // Memory. Mask and Other may be null.
  // Desc: the host-descriptor access the load or store is (Ops.h), if any.
  Value *load(SourceRange Loc, Value *Ptr, Value *Mask = nullptr, Value *Other = nullptr,
              CacheModifier Cache = CacheModifier::None, EvictionPolicy Evict = EvictionPolicy::None,
              bool Volatile = false, const DescriptorAccess *Desc = nullptr);
  Op *store(SourceRange Loc, Value *Ptr, Value *Val, Value *Mask = nullptr, CacheModifier Cache = CacheModifier::None,
            EvictionPolicy Evict = EvictionPolicy::None, const DescriptorAccess *Desc = nullptr);
  Value *atomicRMW(SourceRange Loc, AtomicKind K, Value *Ptr, Value *Val, Value *Mask = nullptr,
                   MemSemantic Sem = MemSemantic::AcqRel, MemScope Scope = MemScope::Gpu);
  Value *atomicCas(SourceRange Loc, Value *Ptr, Value *Cmp, Value *Val, MemSemantic Sem = MemSemantic::AcqRel,
                   MemScope Scope = MemScope::Gpu);

  // Whole-tile computations.
  Value *reduce(SourceRange Loc, ReduceKind K, Value *X, int Axis, bool TieBreakLeft = true);
  /// A custom reduction: fill `combine()` (arguments: N left then N right
  /// scalars) and end it with a yield of N scalars.
  ReduceOp *customReduce(SourceRange Loc, const std::vector<Value *> &Inputs, int Axis);
  Value *scan(SourceRange Loc, ScanKind K, Value *X, int Axis, bool Reverse = false);
  ScanOp *customScan(SourceRange Loc, const std::vector<Value *> &Inputs, int Axis, bool Reverse = false);
  /// tl.gather: the source's element type in the index's shape.
  Value *gather(SourceRange Loc, Value *Src, Value *Index, int Axis);
  /// tl.histogram into i32[Bins]; Mask (i1 of X's shape) may be null.
  Value *histogram(SourceRange Loc, Value *X, int64_t Bins, Value *Mask);
  /// Acc may be null: the result is then OutElem zeros plus the product.
  Value *dot(SourceRange Loc, Value *A, Value *B, Value *Acc, InputPrecision P = InputPrecision::TF32,
             int64_t MaxNumImpreciseAcc = 0, ScalarKind OutElem = ScalarKind::FP32);
  Value *random(SourceRange Loc, OpKind K, Value *Seed, Value *Offset, int NRounds = 10);
  /// Word Word (0..3) of Philox4x32 on the counter (C[0], C[1], C[2], C[3]),
  /// 32-bit integer tiles of one shape: a randint with counters.
  Value *philox(SourceRange Loc, Value *Seed, const std::array<Value *, 4> &C, int NRounds, int Word);

  // Debugging and hints.
  Op *devicePrint(SourceRange Loc, std::string Prefix, const std::vector<Value *> &Args, bool Hex = false);
  Op *deviceAssert(SourceRange Loc, Value *Cond, std::string Message, Value *Mask = nullptr);
  Op *barrier(SourceRange Loc);
  Value *hint(SourceRange Loc, HintKind K, Value *X, std::vector<int64_t> Values);
  /// A device-side tensor descriptor (MakeTensorDescOp): i64 shape and
  /// strides, one of each per dimension.
  Value *makeTensorDesc(SourceRange Loc, Value *Base, const std::vector<Value *> &Dims,
                        const std::vector<Value *> &Strides, bool PadNan);
  /// Args and Results all of one shape: one result per type of Results
  /// (`dtype=(tl.float16, tl.float16)` gives two), from one asm statement.
  InlineAsmOp *inlineAsm(SourceRange Loc, std::string_view Asm, std::string_view Constraints,
                         const std::vector<Value *> &Args, std::vector<TileType> Results, bool Pure, int64_t Pack);

  // Structured control flow.
  /// NumStages: tl.range's num_stages (0 when the loop does not give one).
  ForOp *createFor(SourceRange Loc, Value *Lb, Value *Ub, Value *Step, const std::vector<Value *> &Inits,
                   int64_t NumStages = 0);
  WhileOp *createWhile(SourceRange Loc, const std::vector<Value *> &Inits);
  IfOp *createIf(SourceRange Loc, Value *Cond, const std::vector<TileType> &ResultTypes, bool WithElse);
  /// Appends a result to a region op: a lowering learns which names an `if`
  /// defines only after it has walked both branches into the regions.
  Value *addResult(Op *O, const TileType &Ty);
  Op *yield(SourceRange Loc, const std::vector<Value *> &Values);
  Op *condition(SourceRange Loc, Value *Cond, const std::vector<Value *> &Forwarded);
  Op *ret(SourceRange Loc);

private:
  Op *create(OpKind K, SourceRange Loc, std::vector<Value *> Operands, const std::vector<TileType> &ResultTypes);
  Block *addRegion(Op *O, const std::vector<TileType> &ArgTypes);

  Function &F;
  Block *Insert;
};

} // namespace tessel::ir

#endif // TESSEL_COMPILER_IR_BUILDER_H
