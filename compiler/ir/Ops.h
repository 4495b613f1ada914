//===- Ops.h - the tile IR: values, ops, blocks, functions ------*- C++ -*-===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The tile IR ("TIR") every stage below sema works on: the interpreter, the
/// bounds analyses, the code generator, the editor's IR views.
///
/// The model:
///  - A Function is one kernel specialization, with every `@jit` helper
///    inlined (so there is no call op). Its parameters are the non-constexpr
///    kernel arguments; constexprs are already folded into the ops.
///  - Values are typed SSA values. A type is sema's TileType: an element type
///    (a scalar dtype or a pointer to one) and a static shape; a scalar is a
///    0-d tile (empty shape). Every Value is defined exactly once, either as
///    the result of an Op or as an argument of a Block.
///  - Control flow is structured, as in MLIR's scf dialect: `for`, `while`
///    and `if` own single-block regions, loop-carried values are block
///    arguments of the body, and regions hand values out through a `yield`
///    (or `condition` at the end of a while's "before" region). There are no
///    branches and no CFG, so dominance is lexical: a value is visible after
///    its definition in its own block and in every region nested below.
///  - Every Op carries the SourceRange of the Python expression or statement
///    it came from, so that any finding about an op points at a token.
///  - Ops are not polymorphic objects: one Op class holds operands, results,
///    regions and a few generic attribute slots, and the thin subclasses
///    below (ForOp, LoadOp...) only add named accessors and `classof`, for
///    isa/cast/dyn_cast in LLVM's style. A subclass never adds data, so a
///    cast is a static_cast after a kind check.
///  - Operand types are exact: the lowering from the typed AST inserts the
///    splats, broadcasts and casts that Triton's promotion and broadcasting
///    rules imply, so every elementwise op here sees operands of one type.
///
/// Ownership: a Function owns its Values (in a deque, so pointers stay
/// valid), its body Block, and through the Block its Ops and their regions.
/// Functions are built once by a Builder and then read, never mutated, by
/// any number of threads.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_COMPILER_IR_OPS_H
#define TESSEL_COMPILER_IR_OPS_H

#include "compiler/support/SourceRange.h"
#include "compiler/types/Types.h"

#include <cassert>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::ir {

class Block;
class Op;

enum class OpKind {
  // Constants, shapes and program coordinates.
  Constant,
  Splat,
  Broadcast,
  ExpandDims,
  Reshape,
  Permute,
  Join,
  Split,
  Arange,
  ProgramId,
  NumPrograms,
  // Elementwise binary (BinaryOp covers FirstBinary..LastBinary).
  Add,
  Sub,
  Mul,
  Div,      ///< float division (Triton's `/` casts ints to float first); fp32 on the GPU: `div.full.f32`
  DivRn,    ///< fp32 division rounded to nearest (`tl.math.div_rn`, Triton's `tt.precise_divf`)
  FloorDiv, ///< integer division truncating toward zero (Triton's `//`, like C)
  Mod,      ///< remainder with the sign of the dividend, ints and floats (`%`, like C / fmod)
  And,
  Or,
  Xor,
  Shl,
  Shr, ///< arithmetic for signed, logical for unsigned elements
  Minimum,
  Maximum,
  UMulHi,
  Pow, ///< libdevice's pow on floats (`__nv_powf` / `__nv_pow`)
  // Elementwise unary (UnaryOp covers FirstUnary..LastUnary).
  Neg,
  Not,
  Exp,
  Exp2,
  Log,
  Log2,
  Sqrt,
  Rsqrt,
  Sin,
  Cos,
  Erf,
  Tanh,
  Log1p,
  Expm1,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Cbrt,
  Round,
  Rint,
  Trunc,
  Abs,
  Floor,
  Ceil,
  // Other elementwise.
  Fma,
  Cmp,
  Select,
  Cast,
  Bitcast,
  AddPtr,
  InlineAsm, ///< tl.inline_asm_elementwise: PTX per element (or per pack of elements)
  // Memory.
  Load,
  Store,
  AtomicRMW,
  AtomicCas,
  MakeTensorDesc, ///< tl.make_tensor_descriptor: the base pointer, standing for the descriptor its accesses name
  // Whole-tile computations.
  Reduce,
  Scan,
  Gather,    ///< tl.gather: src elements along one axis at an index tile's positions
  Histogram, ///< tl.histogram: counts per bin of the unmasked values' low bits
  Dot,
  Rand,
  Randn,
  Randint,
  // Debugging and hints.
  DevicePrint,
  DeviceAssert,
  Barrier, ///< tl.debug_barrier: every thread of the block waits (bar.sync 0), its memory ops ordered
  Hint,
  // Structured control flow and terminators.
  For,
  While,
  If,
  Yield,
  Condition,
  Return,
};
constexpr OpKind FirstBinary = OpKind::Add, LastBinary = OpKind::Pow;
constexpr OpKind FirstUnary = OpKind::Neg, LastUnary = OpKind::Ceil;

/// The printed mnemonic: "add", "expand_dims", "atomic_rmw"...
std::string_view opName(OpKind K);

enum class CmpPredicate { EQ, NE, LT, LE, GT, GE };
/// Triton's `tl.PropagateNan`: NONE returns the non-NaN operand (minnum),
/// ALL propagates NaN (minimum).
enum class PropagateNan { None, All };
enum class RoundingMode { RTNE, RTZ };
enum class AtomicKind { Add, Max, Min, And, Or, Xor, Xchg };
enum class MemSemantic { AcqRel, Acquire, Release, Relaxed };
enum class MemScope { Gpu, Cta, Sys };
enum class CacheModifier { None, CA, CG, CV, WB, CS, WT };
enum class EvictionPolicy { None, EvictFirst, EvictLast, EvictNormal };
enum class ReduceKind { Sum, Max, Min, ArgMax, ArgMin, XorSum, Or, Custom };
enum class ScanKind { CumSum, CumProd, Custom };
enum class InputPrecision { TF32, TF32x3, IEEE, BF16x3, BF16x6 };
enum class HintKind { MultipleOf, MaxContiguous, MaxConstancy };

std::string_view cmpPredicateName(CmpPredicate P);
std::string_view atomicKindName(AtomicKind K);
std::string_view reduceKindName(ReduceKind K);
std::string_view scanKindName(ScanKind K);
std::string_view inputPrecisionName(InputPrecision P);
std::string_view cacheModifierName(CacheModifier C);
std::string_view evictionPolicyName(EvictionPolicy E);
std::string_view memSemanticName(MemSemantic S);
std::string_view memScopeName(MemScope S);
std::string_view hintKindName(HintKind K);

/// An SSA value: an op result or a block argument.
class Value {
public:
  const TileType &type() const { return Ty; }
  /// The defining op, or null for a block argument.
  Op *definingOp() const { return Def; }
  /// The block whose argument this is, or null for an op result.
  Block *ownerBlock() const { return Owner; }
  /// Result number or argument number.
  unsigned index() const { return Index; }
  /// Unique within the function; stable for the function's life.
  unsigned id() const { return Id; }
  /// A source-level name for printing (kernel parameters, loop variables); may be empty.
  const std::string &name() const { return Name; }
  void setName(std::string N) { Name = std::move(N); }

private:
  friend class Function;
  friend class Builder;
  TileType Ty;
  Op *Def = nullptr;
  Block *Owner = nullptr;
  unsigned Index = 0;
  unsigned Id = 0;
  std::string Name;
};

/// A straight-line list of ops with arguments. Every region is one Block.
class Block {
public:
  const std::vector<Value *> &arguments() const { return Args; }
  Value *argument(unsigned I) const { return Args[I]; }
  const std::vector<std::unique_ptr<Op>> &ops() const { return Ops; }
  /// The op owning this block as a region, or null for a function body.
  Op *parentOp() const { return Parent; }
  /// The last op when it is a terminator (yield, condition, return), else null.
  Op *terminator() const;

private:
  friend class Function;
  friend class Builder;
  std::vector<Value *> Args;
  std::vector<std::unique_ptr<Op>> Ops;
  Op *Parent = nullptr;
};

/// The generic op. See the subclasses for what each slot means per kind.
class Op {
public:
  OpKind kind() const { return Kind; }
  SourceRange loc() const { return Loc; }
  const std::vector<Value *> &operands() const { return Operands; }
  Value *operand(unsigned I) const { return Operands[I]; }
  unsigned numOperands() const { return static_cast<unsigned>(Operands.size()); }
  const std::vector<Value *> &results() const { return Results; }
  Value *result(unsigned I = 0) const { return Results[I]; }
  unsigned numResults() const { return static_cast<unsigned>(Results.size()); }
  const std::vector<std::unique_ptr<Block>> &regions() const { return Regions; }
  Block *region(unsigned I) const { return Regions[I].get(); }
  Block *parentBlock() const { return Parent; }

  // Generic attribute slots, read through the subclasses' accessors.
  int64_t intAttr() const { return IntAttr; }
  int64_t intAttr2() const { return IntAttr2; }
  const std::vector<int64_t> &intsAttr() const { return IntsAttr; }
  double floatAttr() const { return FloatAttr; }
  const std::string &strAttr() const { return StrAttr; }
  /// Which optional operands are present (load mask/other, store mask...).
  bool flag(unsigned Bit) const { return (Flags >> Bit) & 1; }

private:
  friend class Function;
  friend class Builder;
  OpKind Kind = OpKind::Return;
  SourceRange Loc;
  std::vector<Value *> Operands;
  std::vector<Value *> Results;
  std::vector<std::unique_ptr<Block>> Regions;
  Block *Parent = nullptr;
  int64_t IntAttr = 0;
  int64_t IntAttr2 = 0;
  std::vector<int64_t> IntsAttr;
  double FloatAttr = 0;
  std::string StrAttr;
  uint32_t Flags = 0;
};

/// A kernel specialization: parameters and a body ending in `return`.
class Function {
public:
  explicit Function(std::string Name);
  Function(const Function &) = delete;
  Function &operator=(const Function &) = delete;

  const std::string &name() const { return Name; }
  Block &body() { return Body; }
  const Block &body() const { return Body; }
  const std::vector<Value *> &params() const { return Body.Args; }
  /// Adds a parameter (a kernel argument) named Name.
  Value *addParam(const TileType &Ty, std::string ParamName);
  unsigned numValues() const { return static_cast<unsigned>(Values.size()); }

private:
  friend class Builder;
  Value *newValue(const TileType &Ty);
  std::string Name;
  Block Body;
  std::deque<Value> Values;
};

//===----------------------------------------------------------------------===//
// LLVM-style casting over Op kinds.
//===----------------------------------------------------------------------===//

template <typename T> bool isa(const Op *O) { return T::classof(O); }
template <typename T> T *cast(Op *O) {
  assert(T::classof(O) && "cast to the wrong op class");
  return static_cast<T *>(O);
}
template <typename T> const T *cast(const Op *O) {
  assert(T::classof(O) && "cast to the wrong op class");
  return static_cast<const T *>(O);
}
template <typename T> T *dyn_cast(Op *O) { return O && T::classof(O) ? static_cast<T *>(O) : nullptr; }
template <typename T> const T *dyn_cast(const Op *O) {
  return O && T::classof(O) ? static_cast<const T *>(O) : nullptr;
}

#define TESSEL_IR_SINGLE_KIND(Name, K)                                                                                 \
  static bool classof(const Op *O) { return O->kind() == OpKind::K; }

/// A scalar or splat constant: IntAttr holds integer and boolean values,
/// FloatAttr floating ones (read rounded to the element type, like an MLIR
/// float attribute of it: `constant 0.1 : fp16` is the fp16 nearest 0.1).
class ConstantOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(ConstantOp, Constant)
  int64_t intValue() const { return intAttr(); }
  double floatValue() const { return floatAttr(); }
};

/// splat / broadcast / reshape: the result type says the new shape.
class SplatOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(SplatOp, Splat)
};
class BroadcastOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(BroadcastOp, Broadcast)
};
class ReshapeOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(ReshapeOp, Reshape)
};
class ExpandDimsOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(ExpandDimsOp, ExpandDims)
  int axis() const { return static_cast<int>(intAttr()); }
};
/// Result dim I is input dim order()[I] (tl.permute / tl.trans).
class PermuteOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(PermuteOp, Permute)
  const std::vector<int64_t> &order() const { return intsAttr(); }
};
/// join(a, b): a new minor dimension of size 2. split: the inverse, two results.
class JoinOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(JoinOp, Join)
};
class SplitOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(SplitOp, Split)
};
class ArangeOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(ArangeOp, Arange)
  int64_t start() const { return intAttr(); }
  int64_t end() const { return intAttr2(); }
};
class ProgramIdOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(ProgramIdOp, ProgramId)
  int axis() const { return static_cast<int>(intAttr()); }
};
class NumProgramsOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(NumProgramsOp, NumPrograms)
  int axis() const { return static_cast<int>(intAttr()); }
};

class BinaryOp : public Op {
public:
  static bool classof(const Op *O) { return O->kind() >= FirstBinary && O->kind() <= LastBinary; }
  Value *lhs() const { return operand(0); }
  Value *rhs() const { return operand(1); }
  /// For minimum / maximum on floats.
  PropagateNan propagateNan() const { return static_cast<PropagateNan>(intAttr()); }
};
class UnaryOp : public Op {
public:
  static bool classof(const Op *O) { return O->kind() >= FirstUnary && O->kind() <= LastUnary; }
};
class FmaOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(FmaOp, Fma)
};
class CmpOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(CmpOp, Cmp)
  CmpPredicate predicate() const { return static_cast<CmpPredicate>(intAttr()); }
};
/// select(cond, a, b) = tl.where.
class SelectOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(SelectOp, Select)
};
/// A value-preserving conversion between element types (result type says
/// which); rounding applies to float narrowing.
class CastOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(CastOp, Cast)
  RoundingMode rounding() const { return static_cast<RoundingMode>(intAttr()); }
};
/// Reinterpretation of the bits between element types of equal width.
class BitcastOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(BitcastOp, Bitcast)
};
/// ptr + offset, the offset counted in elements of the pointee (tt.addptr).
class AddPtrOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(AddPtrOp, AddPtr)
};

/// Flag bits saying which optional operands a memory op has.
enum : unsigned { HasMaskBit = 0, HasOtherBit = 1, VolatileBit = 2, DescriptorBit = 3 };

/// The access through a tensor descriptor that a load or store is, when it
/// is one (DescriptorBit): its last operands are the descriptor (a host
/// TensorDescriptor's base parameter, or a MakeTensorDescOp's result) and
/// the access's offsets (i32, one per dimension of the block). The pointer, mask and other operands give the same
/// access in Triton's pointer form (what the interpreter runs); a target that copies descriptor blocks whole (TMA on
/// sm_90) reads these instead.
struct DescriptorAccess {
  Value *Base = nullptr;
  std::vector<Value *> Offsets;
};

/// A load's or store's DescriptorAccess, whose block has rank Rank: its last
/// Rank + 1 operands when DescriptorBit is set; null / none otherwise.
inline Value *descriptorBaseOperand(const Op &O, size_t Rank) {
  return O.flag(DescriptorBit) ? O.operand(static_cast<unsigned>(O.numOperands() - Rank - 1)) : nullptr;
}
inline std::vector<Value *> descriptorOffsetOperands(const Op &O, size_t Rank) {
  if (!O.flag(DescriptorBit))
    return {};
  return {O.operands().end() - static_cast<long>(Rank), O.operands().end()};
}

/// load(ptr [, mask [, other]] [, descriptor base, offsets...]).
class LoadOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(LoadOp, Load)
  Value *ptr() const { return operand(0); }
  Value *mask() const { return flag(HasMaskBit) ? operand(1) : nullptr; }
  Value *other() const { return flag(HasOtherBit) ? operand(2) : nullptr; }
  CacheModifier cache() const { return static_cast<CacheModifier>(intAttr()); }
  EvictionPolicy eviction() const { return static_cast<EvictionPolicy>(intAttr2()); }
  bool isVolatile() const { return flag(VolatileBit); }
  /// The descriptor (DescriptorAccess); null when the load is no
  /// descriptor access.
  Value *descriptorBase() const { return descriptorBaseOperand(*this, result()->type().Shape.size()); }
  std::vector<Value *> descriptorOffsets() const {
    return descriptorOffsetOperands(*this, result()->type().Shape.size());
  }
};
/// store(ptr, value [, mask] [, descriptor base, offsets...]).
class StoreOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(StoreOp, Store)
  Value *ptr() const { return operand(0); }
  Value *value() const { return operand(1); }
  Value *mask() const { return flag(HasMaskBit) ? operand(2) : nullptr; }
  CacheModifier cache() const { return static_cast<CacheModifier>(intAttr()); }
  EvictionPolicy eviction() const { return static_cast<EvictionPolicy>(intAttr2()); }
  /// As LoadOp's.
  Value *descriptorBase() const { return descriptorBaseOperand(*this, value()->type().Shape.size()); }
  std::vector<Value *> descriptorOffsets() const {
    return descriptorOffsetOperands(*this, value()->type().Shape.size());
  }
};
/// atomic_<kind>(ptr, val [, mask]) returning the old values.
class AtomicRMWOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(AtomicRMWOp, AtomicRMW)
  AtomicKind atomicKind() const { return static_cast<AtomicKind>(intAttr()); }
  Value *ptr() const { return operand(0); }
  Value *value() const { return operand(1); }
  Value *mask() const { return flag(HasMaskBit) ? operand(2) : nullptr; }
  MemSemantic semantic() const { return static_cast<MemSemantic>(intAttr2() & 0xFF); }
  MemScope scope() const { return static_cast<MemScope>(intAttr2() >> 8); }
};
/// atomic_cas(ptr, cmp, val) returning the old values.
class AtomicCasOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(AtomicCasOp, AtomicCas)
  Value *ptr() const { return operand(0); }
  Value *compare() const { return operand(1); }
  Value *value() const { return operand(2); }
  MemSemantic semantic() const { return static_cast<MemSemantic>(intAttr2() & 0xFF); }
  MemScope scope() const { return static_cast<MemScope>(intAttr2() >> 8); }
};

/// Reduction of its operands along axis(). Built-in kinds take one operand
/// and give one result (ArgMax/ArgMin give i32 indices; ties go to the lowest
/// index when tieBreakLeft()). Custom takes N operands and has one region
/// with 2N scalar arguments (the N left values, then the N right values)
/// that yields the N combined scalars: Triton's combine_fn, inlined.
class ReduceOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(ReduceOp, Reduce)
  ReduceKind reduceKind() const { return static_cast<ReduceKind>(intAttr()); }
  int axis() const { return static_cast<int>(intAttr2()); }
  bool tieBreakLeft() const { return flag(0); }
  Block *combine() const { return regions().empty() ? nullptr : region(0); }
};
/// Inclusive scan along axis(); Custom carries a combine region as ReduceOp.
class ScanOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(ScanOp, Scan)
  ScanKind scanKind() const { return static_cast<ScanKind>(intAttr()); }
  int axis() const { return static_cast<int>(intAttr2()); }
  bool reverse() const { return flag(0); }
  Block *combine() const { return regions().empty() ? nullptr : region(0); }
};
/// gather(src, index) along axis(): result[c] = src[c with c[axis] =
/// index[c]]; the result has the index's shape and the source's element
/// type, and the other dimensions of index and src agree (semantic.gather).
class GatherOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(GatherOp, Gather)
  Value *src() const { return operand(0); }
  Value *index() const { return operand(1); }
  int axis() const { return static_cast<int>(intAttr()); }
};
/// histogram(x [, mask]) of a 1-D integer tile into an i32[bins] tile: bin b
/// counts the unmasked lanes whose value's low log2(max(bins, 32)) bits are
/// b, as Triton 3.6's ballot lowering counts them (values outside [0, bins)
/// wrap; measured on an H200).
class HistogramOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(HistogramOp, Histogram)
  Value *input() const { return operand(0); }
  Value *mask() const { return numOperands() > 1 ? operand(1) : nullptr; }
  int64_t bins() const { return result()->type().Shape[0]; }
};
/// dot(a, b, acc): [.., M, K] x [.., K, N] + [.., M, N].
class DotOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(DotOp, Dot)
  Value *a() const { return operand(0); }
  Value *b() const { return operand(1); }
  Value *acc() const { return operand(2); }
  InputPrecision inputPrecision() const { return static_cast<InputPrecision>(intAttr()); }
  int64_t maxNumImpreciseAcc() const { return intAttr2(); }
};
/// rand / randn / randint(seed, offset): Philox4x32 with nRounds() rounds on
/// the counter (offset, 0, 0, 0). A randint may carry the other three
/// counter words (tl.philox(seed, c0, c1, c2, c3), randint4x) and give any
/// of the four output words (word()).
class RandomOp : public Op {
public:
  static bool classof(const Op *O) {
    return O->kind() == OpKind::Rand || O->kind() == OpKind::Randn || O->kind() == OpKind::Randint;
  }
  Value *seed() const { return operand(0); }
  Value *offset() const { return operand(1); }
  /// Counter word I (0..3): offset() for 0; null where the op has no such
  /// operand (the word is 0).
  Value *counter(unsigned I) const { return I == 0 ? offset() : numOperands() == 5 ? operand(I + 1) : nullptr; }
  int nRounds() const { return static_cast<int>(intAttr()); }
  int word() const { return static_cast<int>(intAttr2()); }
};
class DevicePrintOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(DevicePrintOp, DevicePrint)
  const std::string &prefix() const { return strAttr(); }
  bool hex() const { return flag(0); }
};
/// device_assert(cond [, mask]): lanes where cond is false (and mask true) fail.
class DeviceAssertOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(DeviceAssertOp, DeviceAssert)
  const std::string &message() const { return strAttr(); }
  Value *mask() const { return flag(HasMaskBit) ? operand(1) : nullptr; }
};
/// multiple_of / max_contiguous / max_constancy: the operand, with a fact.
/// inline_asm(args...) -> tiles of one shape: tl.inline_asm_elementwise,
/// one result per dtype it was given. The PTX text
/// and its LLVM constraint string share the string slot, separated by a NUL
/// (PTX text has none); pack() elements of each operand go to one asm
/// statement; a pure one may be removed or merged, another never.
class InlineAsmOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(InlineAsmOp, InlineAsm)
  std::string_view asmText() const {
    std::string_view S = strAttr();
    return S.substr(0, S.find('\0'));
  }
  std::string_view constraints() const {
    std::string_view S = strAttr();
    size_t Nul = S.find('\0');
    return Nul == std::string_view::npos ? std::string_view() : S.substr(Nul + 1);
  }
  bool pure() const { return flag(0); }
  int64_t pack() const { return intAttr(); }
};
/// make_tensor_descriptor(base, shape..., strides...): a device-side
/// descriptor of the tensor at base, its shape and strides (i64, in
/// elements) one per dimension, padding NaN when intAttr is 1. Its value
/// is base itself: the accesses through the descriptor carry their pointer
/// form (DescriptorAccess), so an executor of the IR needs nothing else; a
/// target that copies descriptor blocks whole (TMA on sm_90) builds the
/// tensor map from these operands where the op stands.
class MakeTensorDescOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(MakeTensorDescOp, MakeTensorDesc)
  Value *base() const { return operand(0); }
  size_t rank() const { return (numOperands() - 1) / 2; }
  Value *dim(size_t D) const { return operand(static_cast<unsigned>(1 + D)); }
  Value *stride(size_t D) const { return operand(static_cast<unsigned>(1 + rank() + D)); }
  bool padNan() const { return intAttr() != 0; }
};

class HintOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(HintOp, Hint)
  HintKind hintKind() const { return static_cast<HintKind>(intAttr()); }
  const std::vector<int64_t> &values() const { return intsAttr(); }
};

/// for %iv = lb to ub step s iter_args(inits): the body's arguments are the
/// induction variable then the carried values; it yields the next carried
/// values; the results are the last ones.
class ForOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(ForOp, For)
  Value *lowerBound() const { return operand(0); }
  Value *upperBound() const { return operand(1); }
  Value *step() const { return operand(2); }
  unsigned numInits() const { return numOperands() - 3; }
  Value *init(unsigned I) const { return operand(3 + I); }
  Block *body() const { return region(0); }
  Value *inductionVar() const { return body()->argument(0); }
  /// `tl.range(..., num_stages=N)`'s N; 0 when the loop gives none (the
  /// kernel's num_stages applies).
  int64_t numStages() const { return intAttr(); }
};
/// scf.while: `before` takes the carried values and ends in
/// `condition(%c, forwarded...)`; when %c holds, `after` takes the forwarded
/// values and yields the next carried values; otherwise the forwarded values
/// are the results. All carry the init types.
class WhileOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(WhileOp, While)
  Block *before() const { return region(0); }
  Block *after() const { return region(1); }
};
/// if %cond: then (and else) regions yield the results.
class IfOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(IfOp, If)
  Value *condition() const { return operand(0); }
  Block *thenBlock() const { return region(0); }
  Block *elseBlock() const { return regions().size() > 1 ? region(1) : nullptr; }
};
class YieldOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(YieldOp, Yield)
};
class ConditionOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(ConditionOp, Condition)
  Value *condition() const { return operand(0); }
};
class ReturnOp : public Op {
public:
  TESSEL_IR_SINGLE_KIND(ReturnOp, Return)
};

#undef TESSEL_IR_SINGLE_KIND

} // namespace tessel::ir

#endif // TESSEL_COMPILER_IR_OPS_H
