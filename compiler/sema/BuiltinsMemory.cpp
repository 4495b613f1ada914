//===- BuiltinsMemory.cpp - loads, stores, atomics, block pointers ---------===//
/// \file
/// tl.load / tl.store / tl.atomic_* with semantic.py's argument rules, and the
/// record of every access (pointer and mask index facts) that the masking
/// checks in diagnostics/ read.
//===----------------------------------------------------------------------===//
#include "compiler/sema/BuiltinCall.h"

#include "compiler/sema/MaskFacts.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace tessel::sema {

static bool knownNonPointer(const Value &P) {
  return P.isTensor() && !P.Type.Elem.isPointer() && P.Type.Elem.Scalar != ScalarKind::Unknown;
}

static std::string shapeText(const std::vector<int64_t> &S) {
  std::string Out = "[";
  for (size_t I = 0; I < S.size(); ++I)
    Out += (I ? ", " : "") + (S[I] == TileType::UnknownDim ? std::string("?") : std::to_string(S[I]));
  return Out + "]";
}

/// Fills the access record from the final pointer and mask values.
static void recordAccess(BuiltinCall &B, std::string Op, const Value &Ptr, const Value *Mask,
                         const std::vector<int64_t> &Shape) {
  MemoryAccess A;
  A.CallRange = B.Call->Range;
  A.Op = std::move(Op);
  A.PointerRange = B.rangeOf("pointer");
  A.IsBlockPointer = Ptr.IsBlockPtr;
  A.HasBoundaryCheck = B.present("boundary_check");
  size_t Rank = Shape.size();
  IndexFacts PF = alignFacts(Ptr, Rank);
  A.PointerAxes = PF.Axes;
  A.SlidingCause = PF.AxisCauses;
  // A block window in a row the host pads to whole blocks stays in its row
  // (flash attention's `TMP + off_hb * seqlen_q_rounded + offs_m`).
  if (const Specialization *S = B.C.specialization())
    for (size_t I = 0; I < A.PointerAxes.size() && I < A.SlidingCause.size(); ++I)
      for (const auto &[Axis, Pitch] : S->PaddedRowPitches)
        if (A.PointerAxes[I] == AxisIndex::Sliding && Pitch == PF.axisPitch(I) &&
            A.SlidingCause[I] == programIdCause(Axis))
          A.PointerAxes[I] = AxisIndex::Arange;
  if (Mask && Mask->isTensor()) {
    A.HasMask = true;
    IndexFacts MF = alignFacts(*Mask, Rank);
    A.MaskBounds = MF.MaskBounds;
    A.MaskBounds.resize(Rank, false);
    A.MaskBoundedScalars = MF.BoundedScalars;
  } else if (Mask && Mask->isKnownConstexpr() && !Mask->Const.isNone()) {
    A.HasMask = true;
    A.MaskBounds.assign(Rank, false);
  } else if (Mask && (Mask->isPoison() || (Mask->isConstexpr() && !Mask->isKnownConstexpr()))) {
    // Poison, or a constexpr of unknown value: a name the arms of an
    // undecided `if` set differently (`mask = None` when N % BLOCK == 0,
    // else `offs < N`). What it bounds is not known: nothing is claimed.
    A.HasMask = true;
    A.MaskBounds.assign(Rank, true);
  }
  B.C.recordAccess(std::move(A));
}

/// The mask an access record takes: toTensor makes a constexpr of unknown
/// value a tensor that would seem to bound nothing, so that one is kept as
/// written.
static const Value *maskAsWritten(bool HasMask, const Value &Written, const Value &Converted) {
  if (!HasMask)
    return nullptr;
  return Written.isConstexpr() && !Written.isKnownConstexpr() ? &Written : &Converted;
}

/// Broadcasts `Ptr` with an operand (mask / other / value) the way
/// `broadcast_impl_value` does; returns false after reporting a mismatch.
static bool broadcastWith(BuiltinCall &B, std::vector<int64_t> &Shape, const Value &Operand) {
  if (!Operand.isTensor())
    return true;
  auto S = broadcastShapes(Shape, Operand.Type.Shape);
  if (!S) {
    B.error(ProblemKind::ShapeMismatch, S.Error);
    return false;
  }
  Shape = *S.Result;
  return true;
}

/// semantic._str_to_load_cache_modifier / _str_to_store_cache_modifier /
/// _str_to_eviction_policy / _str_to_padding_option: a known string option
/// outside Triton's list is refused before anything else is checked.
static bool checkStringOption(BuiltinCall &B, std::string_view Param, std::initializer_list<std::string_view> Allowed,
                              std::string_view What) {
  Value V = B.value(Param);
  if (!V.isKnownConstexpr() || !V.Const.isStr() || V.Const.asStr().empty())
    return true;
  const std::string &S = V.Const.asStr();
  if (std::find(Allowed.begin(), Allowed.end(), S) != Allowed.end())
    return true;
  // Triton reports these at the call (measured), like every builtin error.
  B.error(ProblemKind::LoadStore, std::string(What) + " " + S + " not supported");
  return false;
}

static ir::CacheModifier cacheModifier(const std::string &S) {
  static const std::map<std::string, ir::CacheModifier> M = {
      {".ca", ir::CacheModifier::CA}, {".cg", ir::CacheModifier::CG}, {".cv", ir::CacheModifier::CV},
      {".wb", ir::CacheModifier::WB}, {".cs", ir::CacheModifier::CS}, {".wt", ir::CacheModifier::WT}};
  auto It = M.find(S);
  return It == M.end() ? ir::CacheModifier::None : It->second;
}

static ir::EvictionPolicy evictionPolicy(const std::string &S) {
  if (S == "evict_first")
    return ir::EvictionPolicy::EvictFirst;
  if (S == "evict_last")
    return ir::EvictionPolicy::EvictLast;
  return ir::EvictionPolicy::None;
}

static ir::MemSemantic memSemantic(const std::string &S) {
  if (S == "acquire")
    return ir::MemSemantic::Acquire;
  if (S == "release")
    return ir::MemSemantic::Release;
  if (S == "relaxed")
    return ir::MemSemantic::Relaxed;
  return ir::MemSemantic::AcqRel;
}

static ir::MemScope memScope(const std::string &S) {
  if (S == "cta")
    return ir::MemScope::Cta;
  if (S == "sys")
    return ir::MemScope::Sys;
  return ir::MemScope::Gpu;
}

/// The dimensions a `boundary_check` argument names.
static std::vector<size_t> boundaryChecks(BuiltinCall &B, size_t Rank) {
  std::vector<size_t> Dims;
  if (!B.present("boundary_check"))
    return Dims;
  for (const Value &E : elementsOf(B.value("boundary_check")))
    if (E.isKnownConstexpr() && E.Const.isIntLike())
      if (auto D = normaliseAxis(E.Const.asInt(), Rank))
        Dims.push_back(*D);
  return Dims;
}

/// The pointer tile a block pointer addresses (base + sum over dims of
/// (offset_d + arange(block_d)) * stride_d, in i64) and the mask of the
/// checked dims (0 <= index < shape_d); the mask is null without checks.
static std::pair<ir::Value *, ir::Value *> blockPointerTile(BuiltinCall &B, const Value &Ptr,
                                                            const std::vector<size_t> &Checks) {
  ir::Builder &IRB = *B.ir();
  SourceRange R = B.range();
  const std::vector<int64_t> &Shape = Ptr.BlockShape;
  size_t Rank = Shape.size();
  if (Ptr.BlockParts.size() != 3 * Rank) {
    B.C.loweringLimit(B.rangeOf("pointer"), "a block pointer whose shape, strides and offsets are not all known");
    return {B.C.lowerAs(Value::constant(PyValue::integer(0)), TileType{ElemType{ScalarKind::I32}, Shape}, R), nullptr};
  }
  TileType I64{ElemType{ScalarKind::I64}, Shape};
  ir::Value *Offset = nullptr, *Mask = nullptr;
  for (size_t D = 0; D < Rank; ++D) {
    ir::Value *Index = IRB.add(R, IRB.splat(R, Ptr.BlockParts[2 * Rank + D], {Shape[D]}), IRB.arange(R, 0, Shape[D]));
    Index = IRB.cast(R, Index, ElemType{ScalarKind::I64});
    std::vector<int64_t> Unit(Rank, 1);
    Unit[D] = Shape[D];
    Index = B.C.coerce(Rank == 1 ? Index : IRB.reshape(R, Index, Unit), I64, R);
    ir::Value *Term = IRB.mul(R, Index, B.C.coerce(Ptr.BlockParts[Rank + D], I64, R));
    Offset = Offset ? IRB.add(R, Offset, Term) : Term;
    if (std::find(Checks.begin(), Checks.end(), D) == Checks.end())
      continue;
    ir::Value *Zero = B.C.lowerAs(Value::constant(PyValue::integer(0)), I64, R);
    ir::Value *In = IRB.binary(R, ir::OpKind::And, IRB.cmp(R, ir::CmpPredicate::GE, Index, Zero),
                               IRB.cmp(R, ir::CmpPredicate::LT, Index, B.C.coerce(Ptr.BlockParts[D], I64, R)));
    Mask = Mask ? IRB.binary(R, ir::OpKind::And, Mask, In) : In;
  }
  ir::Value *Base = B.C.coerce(Ptr.IR, TileType{Ptr.Type.Elem, Shape}, R);
  return {Offset ? IRB.addPtr(R, Base, Offset) : Base, Mask};
}

/// What a masked-off element of a block reads: NaN for padding_option
/// "nan", else 0, as a tile of T.
static ir::Value *padding(BuiltinCall &B, bool Nan, const TileType &T, SourceRange R) {
  return B.C.lowerAs(Value::constant(Nan ? PyValue::floating(std::nan("")) : PyValue::integer(0)), T, R);
}

/// A block pointer's or descriptor's shape and strides, appended to its
/// BlockParts as semantic.py converts both: i64 scalars.
static void appendShapeAndStrides(BuiltinCall &B, Value &V, const std::vector<Value> &Dims,
                                  const std::vector<Value> &Strides) {
  TileType I64{ElemType{ScalarKind::I64}, {}};
  for (const Value &D : Dims)
    V.BlockParts.push_back(B.C.lowerAs(D, I64, B.rangeOf("shape")));
  for (const Value &S : Strides)
    V.BlockParts.push_back(B.C.lowerAs(S, I64, B.rangeOf("strides")));
}

static Value load(BuiltinCall &B) {
  if (!checkStringOption(B, "cache_modifier", {".ca", ".cg", ".cv"}, "Cache modifier") ||
      !checkStringOption(B, "eviction_policy", {"evict_last", "evict_first"}, "Eviction policy") ||
      !checkStringOption(B, "padding_option", {"zero", "nan"}, "Padding option"))
    return Value::poison();
  Value Ptr = B.value("pointer");
  Value Mask = B.value("mask"), Other = B.value("other");
  bool HasMask = B.present("mask"), HasOther = B.present("other");
  if (Ptr.IsBlockPtr) {
    if (HasMask || HasOther) {
      B.error(ProblemKind::LoadStore, "`mask` and `other` arguments cannot be specified for loading block pointers");
      return Value::poison();
    }
    recordAccess(B, "tl.load", Ptr, nullptr, Ptr.BlockShape);
    Value Out = Value::tensor(TileType{Ptr.Type.Elem.pointee(), Ptr.BlockShape});
    if (B.ir() && Ptr.IR) {
      auto [Ptrs, Mask] = blockPointerTile(B, Ptr, boundaryChecks(B, Ptr.BlockShape.size()));
      // padding_option: "zero" pads with 0, "nan" with NaN; none leaves the
      // padding undefined (the interpreter's masked-off lanes read 0).
      ir::Value *Other = nullptr;
      std::string Padding = B.str("padding_option");
      if (Mask && (Padding == "zero" || Padding == "nan"))
        Other = padding(B, Padding == "nan", Out.Type, B.rangeOf("padding_option"));
      Out.IR = B.ir()->load(B.range(), Ptrs, Mask, Other, cacheModifier(B.str("cache_modifier")),
                            evictionPolicy(B.str("eviction_policy")), B.flag("volatile"));
    }
    Out.Loaded = true;
    return Out;
  }
  if (!Ptr.isTensor())
    return Value::poison();
  if (knownNonPointer(Ptr)) {
    B.error(ProblemKind::LoadStore, "Unsupported ptr type " + typeRepr(Ptr.Type) + " in `tl.load`");
    return Value::poison();
  }
  if (!HasMask && HasOther) {
    B.error(ProblemKind::LoadStore, "`other` cannot be provided without `mask`");
    return Value::poison();
  }
  Value Check = B.value("boundary_check");
  bool HasBoundaryCheck = Check.isTensor() || (Check.isKnownConstexpr() && Check.Const.truthy().value_or(false));
  if (HasBoundaryCheck ||
      (B.given("padding_option") && B.value("padding_option").isKnownConstexpr() &&
       B.value("padding_option").Const.isStr() && !B.value("padding_option").Const.asStr().empty())) {
    B.error(ProblemKind::LoadStore,
            "`padding_option` or `boundary_check` argument is not supported for loading a tensor ofpointers or "
            "loading a scalar. Because the compiler does not know the boundary; please use block pointers (defined "
            "by `make_block_ptr`) instead");
    return Value::poison();
  }
  const Value WrittenMask = Mask; // for the access record: maskAsWritten
  if (HasMask)
    Mask = B.C.toTensor(Mask, B.rangeOf("mask"));
  if (HasOther)
    Other = B.C.toTensor(Other, B.rangeOf("other"));
  if (!Ptr.Type.isBlock()) {
    if (HasMask && Mask.isBlock()) {
      B.error(ProblemKind::LoadStore, "Mask argument cannot be block type if pointer argument is not a block");
      return Value::poison();
    }
    if (HasOther && Other.isBlock()) {
      B.error(ProblemKind::LoadStore, "Other argument cannot be block type if pointer argument is not a block");
      return Value::poison();
    }
  }
  std::vector<int64_t> Shape = Ptr.Type.Shape;
  if (Ptr.Type.isBlock()) {
    if (HasMask && !broadcastWith(B, Shape, Mask))
      return Value::poison();
    if (HasOther && !broadcastWith(B, Shape, Other))
      return Value::poison();
  }
  recordAccess(B, "tl.load", Ptr, maskAsWritten(HasMask, WrittenMask, Mask), Shape);
  ElemType Elem = Ptr.Type.Elem.isPointer() ? Ptr.Type.Elem.pointee() : ElemType{ScalarKind::Unknown};
  Value Out = Value::tensor(TileType{Elem, Shape});
  Out.DimNames = broadcastDimNames({&Ptr, &Mask}, Shape);
  if (B.ir() && Ptr.Type.Elem.isPointer()) {
    ir::Value *P = B.C.lowerAs(Ptr, TileType{Ptr.Type.Elem, Shape}, B.rangeOf("pointer"));
    ir::Value *M = HasMask ? B.C.lowerAs(Mask, TileType{ElemType{ScalarKind::I1}, Shape}, B.rangeOf("mask")) : nullptr;
    // semantic.load: `other` is cast to the pointee type and broadcast.
    ir::Value *O = HasMask && HasOther ? B.C.lowerAs(Other, Out.Type, B.rangeOf("other")) : nullptr;
    Out.IR = B.ir()->load(B.range(), P, M, O, cacheModifier(B.str("cache_modifier")),
                          evictionPolicy(B.str("eviction_policy")), B.flag("volatile"));
  }
  Out.Loaded = true;
  return Out;
}

void recordPoisonedWrite(BuiltinCall &B) {
  // After an error in the kernel Triton stops there: a value poisoned by it
  // says nothing more. One poisoned by tessel's own limits does not stop the
  // write.
  bool Atomic = B.Name.rfind("atomic_", 0) == 0;
  if ((B.Name != "store" && !Atomic) || B.ir() || !B.present("pointer") || B.C.errorsReported() > 0)
    return;
  Value Ptr = B.value("pointer");
  if (!Ptr.isTensor() || Ptr.IsBlockPtr || (Ptr.Type.Elem.Scalar != ScalarKind::Unknown && !Ptr.Type.Elem.isPointer()))
    return;
  std::vector<int64_t> Shape = Ptr.Type.Shape;
  Value Mask = B.present("mask") ? B.value("mask") : Value::constant(PyValue::none());
  if (Mask.isTensor() && Ptr.Type.isBlock()) {
    auto S = broadcastShapes(Shape, Mask.Type.Shape);
    if (!S)
      return;
    Shape = *S.Result;
  }
  recordAccess(B, "tl." + B.Name, Ptr, B.present("mask") ? &Mask : nullptr, Shape);
}

static Value store(BuiltinCall &B) {
  if (!checkStringOption(B, "cache_modifier", {".wb", ".cg", ".cs", ".wt"}, "Cache modifier") ||
      !checkStringOption(B, "eviction_policy", {"evict_last", "evict_first"}, "Eviction policy"))
    return Value::poison();
  Value Ptr = B.value("pointer");
  Value Val = B.value("value"), Mask = B.value("mask");
  bool HasMask = B.present("mask");
  if (Ptr.isTensor() && Ptr.Type.Elem.IsConst) {
    B.error(ProblemKind::LoadStore, "Cannot store to a constant pointer");
    return Value::poison();
  }
  if (Ptr.IsBlockPtr) {
    // semantic._store_block_pointer reuses the load's sentence.
    if (HasMask) {
      B.error(ProblemKind::LoadStore, "`mask` and `other` arguments cannot be specified for loading block pointers");
      return Value::poison();
    }
    // ...and asserts that the value already has the block's element type (no
    // implicit cast through a block pointer).
    Value V = B.C.toTensor(Val, B.rangeOf("value"));
    ElemType BlockElem = Ptr.Type.Elem.pointee();
    if (V.isBlock() && !V.Type.Elem.isPointer() && V.Type.Elem.Scalar != ScalarKind::Unknown &&
        BlockElem.Scalar != ScalarKind::Unknown && !(V.Type.Elem == BlockElem)) {
      B.error(ProblemKind::LoadStore, "Block element type(" + std::string(shortName(BlockElem.Scalar)) +
                                          ") and value element type(" + std::string(shortName(V.Type.Elem.Scalar)) +
                                          ") mismatch");
      return Value::poison();
    }
    recordAccess(B, "tl.store", Ptr, nullptr, Ptr.BlockShape);
    if (B.ir() && Ptr.IR) {
      auto [Ptrs, Mask] = blockPointerTile(B, Ptr, boundaryChecks(B, Ptr.BlockShape.size()));
      ir::Value *Stored = B.C.lowerAs(V, TileType{BlockElem, Ptr.BlockShape}, B.rangeOf("value"));
      B.ir()->store(B.range(), Ptrs, Stored, Mask, cacheModifier(B.str("cache_modifier")),
                    evictionPolicy(B.str("eviction_policy")));
    }
    return Value::constant(PyValue::none());
  }
  if (!Ptr.isTensor())
    return Value::poison();
  if (knownNonPointer(Ptr)) {
    B.error(ProblemKind::LoadStore, "Unsupported ptr type " + typeRepr(Ptr.Type) + " in `tl.store`");
    return Value::poison();
  }
  Val = B.C.toTensor(Val, B.rangeOf("value"));
  const Value WrittenMask = Mask; // as in load
  if (HasMask)
    Mask = B.C.toTensor(Mask, B.rangeOf("mask"));
  if (!Ptr.Type.isBlock()) {
    if (Val.isBlock()) {
      B.error(ProblemKind::LoadStore, "Value argument cannot be block type if pointer argument is not a block");
      return Value::poison();
    }
    if (HasMask && Mask.isBlock()) {
      B.error(ProblemKind::LoadStore, "Mask argument cannot be block type if pointer argument is not a block");
      return Value::poison();
    }
  }
  std::vector<int64_t> Shape = Ptr.Type.Shape;
  if (Ptr.Type.isBlock() || Val.isBlock()) {
    if (!broadcastWith(B, Shape, Val))
      return Value::poison();
    if (Shape != Ptr.Type.Shape) {
      B.error(ProblemKind::LoadStore,
              "Expected pointer argument to have shape " + shapeText(Shape) + " but got " + shapeText(Ptr.Type.Shape));
      return Value::poison();
    }
    if (HasMask && !broadcastWith(B, Shape, Mask))
      return Value::poison();
  }
  if (HasMask && Mask.isTensor() && Mask.Type.Elem.Scalar != ScalarKind::Unknown &&
      (Mask.Type.Elem.isPointer() || Mask.Type.Elem.Scalar != ScalarKind::I1)) {
    B.error(ProblemKind::LoadStore, "Mask must have boolean scalar type");
    return Value::poison();
  }
  recordAccess(B, "tl.store", Ptr, maskAsWritten(HasMask, WrittenMask, Mask), Shape);
  if (B.ir()) {
    if (!Ptr.Type.Elem.isPointer()) {
      B.C.loweringLimit(B.rangeOf("pointer"), "a store through a pointer of unknown type");
      return Value::constant(PyValue::none());
    }
    // semantic.store casts the value to the pointee type.
    ir::Value *P = B.C.lowerAs(Ptr, TileType{Ptr.Type.Elem, Shape}, B.rangeOf("pointer"));
    ir::Value *V = B.C.lowerAs(Val, TileType{Ptr.Type.Elem.pointee(), Shape}, B.rangeOf("value"));
    ir::Value *M = HasMask ? B.C.lowerAs(Mask, TileType{ElemType{ScalarKind::I1}, Shape}, B.rangeOf("mask")) : nullptr;
    B.ir()->store(B.range(), P, V, M, cacheModifier(B.str("cache_modifier")), evictionPolicy(B.str("eviction_policy")));
  }
  return Value::constant(PyValue::none());
}

static Value atomic(BuiltinCall &B) {
  Value Ptr = B.value("pointer");
  if (!Ptr.isTensor())
    return Value::poison();
  std::string Op = "tl." + B.Name;
  std::string Short = B.Name.substr(7); // after "atomic_"
  if (knownNonPointer(Ptr)) {
    // atom_red_typechecking_impl's sentence; atomic_cas has no check and
    // fails reading the pointee type.
    B.error(ProblemKind::LoadStore, Short == "cas" ? std::string("'dtype' object has no attribute 'element_ty'")
                                                   : "Pointer argument of store instruction is " + typeRepr(Ptr.Type));
    return Value::poison();
  }
  ScalarKind Elem = Ptr.Type.Elem.isPointer() ? Ptr.Type.Elem.Scalar : ScalarKind::Unknown;
  // semantic.atom_red_typechecking_impl (every atomic but cas): fp16/bf16
  // only for add, and no 16-bit integers or types narrower than 16 bits.
  if (Short != "cas" && Elem != ScalarKind::Unknown) {
    bool HalfFloat = Elem == ScalarKind::FP16 || Elem == ScalarKind::BF16;
    bool Narrow = Elem == ScalarKind::I16 || Elem == ScalarKind::U16 || bitWidth(Elem) < 16;
    if ((HalfFloat && Short != "add") || (!HalfFloat && Narrow)) {
      B.error(ProblemKind::LoadStore, "atomic_" + Short + " does not support " + std::string(shortName(Elem)));
      return Value::poison();
    }
  }
  // _str_to_sem / _str_to_scope (both say "Memory semantic").
  if (!checkStringOption(B, "sem", {"acquire", "release", "acq_rel", "relaxed"}, "Memory semantic") ||
      !checkStringOption(B, "scope", {"gpu", "cta", "sys"}, "Memory semantic"))
    return Value::poison();
  if (Short == "cas" && Elem != ScalarKind::Unknown && bitWidth(Elem) != 16 && bitWidth(Elem) != 32 &&
      bitWidth(Elem) != 64) {
    B.error(ProblemKind::LoadStore, "atomic_cas only supports elements with width {16, 32, 64}");
    return Value::poison();
  }
  std::vector<int64_t> Shape = Ptr.Type.Shape;
  Value Val = B.C.toTensor(B.value("val"), B.rangeOf("val"));
  if (Ptr.Type.isBlock() && !broadcastWith(B, Shape, Val))
    return Value::poison();
  Value Mask = B.value("mask");
  const Value WrittenMask = Mask; // as in load
  bool HasMask = B.present("mask");
  if (HasMask) {
    Mask = B.C.toTensor(Mask, B.rangeOf("mask"));
    if (Ptr.Type.isBlock() && !broadcastWith(B, Shape, Mask))
      return Value::poison();
  }
  recordAccess(B, Op, Ptr, maskAsWritten(HasMask, WrittenMask, Mask), Shape);
  Value Out = Value::tensor(
      TileType{Ptr.Type.Elem.isPointer() ? Ptr.Type.Elem.pointee() : ElemType{ScalarKind::Unknown}, Shape});
  if (B.ir() && Ptr.Type.Elem.isPointer()) {
    ir::Value *P = B.C.lowerAs(Ptr, TileType{Ptr.Type.Elem, Shape}, B.rangeOf("pointer"));
    ir::Value *V = B.C.lowerAs(Val, Out.Type, B.rangeOf("val"));
    ir::MemSemantic Sem = memSemantic(B.str("sem"));
    ir::MemScope Scope = memScope(B.str("scope"));
    if (Short == "cas") {
      ir::Value *Cmp = B.lowerAs("cmp", Out.Type);
      Out.IR = B.ir()->atomicCas(B.range(), P, Cmp, V, Sem, Scope);
    } else {
      static const std::map<std::string, ir::AtomicKind> Kinds = {
          {"add", ir::AtomicKind::Add},  {"max", ir::AtomicKind::Max}, {"min", ir::AtomicKind::Min},
          {"and", ir::AtomicKind::And},  {"or", ir::AtomicKind::Or},   {"xor", ir::AtomicKind::Xor},
          {"xchg", ir::AtomicKind::Xchg}};
      ir::Value *M =
          HasMask ? B.C.lowerAs(Mask, TileType{ElemType{ScalarKind::I1}, Shape}, B.rangeOf("mask")) : nullptr;
      Out.IR = B.ir()->atomicRMW(B.range(), Kinds.at(Short), P, V, M, Sem, Scope);
    }
  }
  return Out;
}

static Value makeBlockPtr(BuiltinCall &B) {
  Value Base = B.value("base");
  auto Shape = B.shape("block_shape");
  if (!Base.isTensor() || !Shape)
    return Value::poison();
  if (!B.C.validateShape(*Shape, B.range()))
    return Value::poison();
  Value V = Value::tensor(TileType{Base.Type.Elem, {}});
  V.IsBlockPtr = true;
  V.BlockShape = *Shape;
  if (B.ir()) {
    // semantic.make_block_ptr: shape and strides as int64, offsets as int32.
    V.IR = B.lower("base");
    std::vector<Value> Dims = elementsOf(B.value("shape")), Strides = elementsOf(B.value("strides")),
                       Offsets = elementsOf(B.value("offsets"));
    size_t Rank = Shape->size();
    if (Dims.size() != Rank || Strides.size() != Rank || Offsets.size() != Rank) {
      B.C.loweringLimit(B.range(), "a block pointer whose shape, strides and offsets do not match its block rank");
      return V;
    }
    appendShapeAndStrides(B, V, Dims, Strides);
    TileType I32{ElemType{ScalarKind::I32}, {}};
    for (const Value &O : Offsets)
      V.BlockParts.push_back(B.C.lowerAs(O, I32, B.rangeOf("offsets")));
  }
  return V;
}

static Value advance(BuiltinCall &B) {
  Value Base = B.value("base");
  if (!Base.IsBlockPtr)
    return Base.isPoison() ? Base : Value::poison();
  Value V = Base;
  size_t Rank = Base.BlockShape.size();
  if (B.ir() && V.BlockParts.size() == 3 * Rank) {
    std::vector<Value> Deltas = elementsOf(B.value("offsets"));
    if (Deltas.size() != Rank) {
      B.C.loweringLimit(B.range(), "tl.advance with offsets that do not match the block rank");
      return V;
    }
    TileType I32{ElemType{ScalarKind::I32}, {}};
    for (size_t D = 0; D < Rank; ++D)
      V.BlockParts[2 * Rank + D] =
          B.ir()->add(B.range(), V.BlockParts[2 * Rank + D], B.C.lowerAs(Deltas[D], I32, B.rangeOf("offsets")));
  }
  return V;
}

/// semantic.make_tensor_descriptor: a block shape of constexprs whose row
/// spans at least 16 bytes (a TMA box's rule). Lowered as what it means for
/// the values: every desc.load / desc.store addresses the block at its offsets
/// with all dimensions bounds-checked, and names the ir::MakeTensorDescOp
/// made here, through whose tensor map a target may copy the block instead
/// (TMA on sm_90, as Triton on Hopper; the values are the same).
static Value makeTensorDescriptor(BuiltinCall &B) {
  Value Base = B.value("base");
  std::vector<Value> Block = elementsOf(B.value("block_shape"));
  // semantic.make_tensor_descriptor's checks, in its order and words.
  std::vector<Value> Dims = elementsOf(B.value("shape")), Strides = elementsOf(B.value("strides"));
  auto Sequence = [](const Value &V) {
    return V.K == Value::Kind::Tuple || (V.isKnownConstexpr() && V.Const.isSequence());
  };
  if (Sequence(B.value("shape"))) {
    size_t N = Dims.size();
    if (N < 1 || N > 5) {
      B.error(ProblemKind::InvalidOperands, "Expected 1 <= ndim <= 5 but got " + std::to_string(N) + " dimensions");
      return Value::poison();
    }
    if (Sequence(B.value("strides")) && Strides.size() != N) {
      B.error(ProblemKind::InvalidOperands,
              "Expected " + std::to_string(N) + " strides but got " + std::to_string(Strides.size()));
      return Value::poison();
    }
    if (Sequence(B.value("block_shape")) && Block.size() != N) {
      // (Triton's message counts the strides here.)
      B.error(ProblemKind::InvalidOperands, "Expected block_shape to have " + std::to_string(N) +
                                                " dimensions but got " + std::to_string(Strides.size()));
      return Value::poison();
    }
  }
  if (Base.isTensor() && !Base.Type.Elem.isPointer() && Base.Type.Elem.Scalar != ScalarKind::Unknown) {
    B.error(ProblemKind::InvalidOperands, "AssertionError()"); // `assert isinstance(base.dtype, tl.pointer_type)`
    return Value::poison();
  }
  if (Base.isTensor() && Base.Type.Elem.isPointer() && Base.Type.Elem.PointerDepth == 1 &&
      Base.Type.Elem.Scalar != ScalarKind::Unknown && !Block.empty() && Block.back().isKnownConstexpr() &&
      Block.back().Const.isIntLike()) {
    int64_t Contig = Block.back().Const.asInt();
    int64_t ElemSize = bitWidth(Base.Type.Elem.Scalar) / 8;
    if (Contig * ElemSize < 16) {
      B.error(ProblemKind::InvalidOperands,
              "Descriptor block shape must have at least 16 bytes in the last dimension, but got " +
                  std::to_string(Contig) + " * " + std::to_string(ElemSize) + " = " +
                  std::to_string(Contig * ElemSize) + " bytes");
      return Value::poison();
    }
  }
  if (!Strides.empty() && Strides.back().isKnownConstexpr() && Strides.back().Const.isIntLike() &&
      Strides.back().Const.asInt() != 1) {
    B.error(ProblemKind::InvalidOperands,
            "Tensor descriptor last dim must be 1 but got " + std::to_string(Strides.back().Const.asInt()));
    return Value::poison();
  }
  if (B.str("padding_option") == "nan" && Base.isTensor() && Base.Type.Elem.isPointer() &&
      isInt(Base.Type.Elem.Scalar)) {
    B.error(ProblemKind::InvalidOperands, "Padding option `nan` is not supported for integer blocks");
    return Value::poison();
  }
  if (!Base.isTensor() || !Base.Type.Elem.isPointer() || Base.Type.isBlock() ||
      !checkStringOption(B, "padding_option", {"zero", "nan"}, "Padding option"))
    return Value::poison();
  auto Shape = B.shape("block_shape");
  if (!Shape || !B.C.validateShape(*Shape, B.range()))
    return Value::poison();
  Value V = Value::tensor(TileType{Base.Type.Elem, {}});
  V.IsBlockPtr = V.IsDescriptor = true;
  V.BlockShape = *Shape;
  V.PadNan = B.str("padding_option") == "nan";
  if (B.ir()) {
    V.IR = B.lower("base");
    size_t Rank = Shape->size();
    if (Dims.size() != Rank || Strides.size() != Rank) {
      B.C.loweringLimit(B.range(), "a tensor descriptor whose shape and strides do not match its block rank");
      return V;
    }
    appendShapeAndStrides(B, V, Dims, Strides);
    V.DeviceDesc = B.ir()->makeTensorDesc(B.range(), V.IR, {V.BlockParts.begin(), V.BlockParts.begin() + long(Rank)},
                                          {V.BlockParts.begin() + long(Rank), V.BlockParts.end()}, V.PadNan);
  }
  return V;
}

/// The block a descriptor access addresses: the descriptor with the call's
/// offsets (i32, as semantic.descriptor_load converts them) and every
/// dimension checked. Null pointer tile when the offsets do not fit. For a
/// host descriptor (a kernel parameter) or a tl.make_tensor_descriptor,
/// Access names it and the offsets: the access a target may make through a
/// tensor map instead.
struct DescriptorTile {
  ir::Value *Ptrs = nullptr, *Mask = nullptr;
  ir::DescriptorAccess Access;
};
static DescriptorTile descriptorTile(BuiltinCall &B, const Value &Desc) {
  size_t Rank = Desc.BlockShape.size();
  std::vector<Value> Offsets = elementsOf(B.value("offsets"));
  if (Offsets.size() != Rank || Desc.BlockParts.size() != 2 * Rank) {
    B.C.loweringLimit(B.rangeOf("offsets"), "a tensor descriptor access whose offsets do not match its block rank");
    return {};
  }
  Value At = Desc;
  TileType I32{ElemType{ScalarKind::I32}, {}};
  std::vector<ir::Value *> Lowered;
  for (const Value &O : Offsets)
    Lowered.push_back(B.C.lowerAs(O, I32, B.rangeOf("offsets")));
  At.BlockParts.insert(At.BlockParts.end(), Lowered.begin(), Lowered.end());
  std::vector<size_t> All(Rank);
  for (size_t D = 0; D < Rank; ++D)
    All[D] = D;
  auto [Ptrs, Mask] = blockPointerTile(B, At, All);
  DescriptorTile T{Ptrs, Mask, {}};
  if (Desc.DeviceDesc)
    T.Access = {Desc.DeviceDesc, std::move(Lowered)};
  else if (!Desc.HostDescParts.empty() && Desc.IR && !Desc.IR->definingOp())
    T.Access = {Desc.IR, std::move(Lowered)};
  return T;
}

/// desc.load(offsets) / tl.load_tensor_descriptor: the block, out-of-bounds
/// elements padded. No access record: a descriptor never reads out of bounds.
static Value loadTensorDescriptor(BuiltinCall &B) {
  Value Desc = B.value("pointer");
  if (!Desc.IsDescriptor)
    return Value::poison();
  Value Out = Value::tensor(TileType{Desc.Type.Elem.pointee(), Desc.BlockShape});
  if (B.ir() && Desc.IR) {
    DescriptorTile T = descriptorTile(B, Desc);
    if (!T.Ptrs)
      return Value::poison();
    ir::Value *Other = padding(B, Desc.PadNan, Out.Type, B.range());
    if (!Desc.HostDescParts.empty() && Desc.HostDescParts[0] && isFloat(Out.Type.Elem.Scalar)) {
      // A host descriptor's padding is a launch argument: the `other` is
      // chosen at run time, as RewriteTensorDescriptorToPointer does.
      TileType Scalar{Out.Type.Elem, {}};
      ir::Value *Pick = B.ir()->select(B.range(), Desc.HostDescParts[0], padding(B, true, Scalar, B.range()),
                                       padding(B, false, Scalar, B.range()));
      Other = B.ir()->splat(B.range(), Pick, Out.Type.Shape);
    }
    Out.IR = B.ir()->load(B.range(), T.Ptrs, T.Mask, Other, ir::CacheModifier::None, ir::EvictionPolicy::None, false,
                          T.Access.Base ? &T.Access : nullptr);
  }
  Out.Loaded = true;
  return Out;
}

/// desc.store(offsets, value) / tl.store_tensor_descriptor: out-of-bounds
/// elements are dropped; the value is converted to the descriptor's type.
static Value storeTensorDescriptor(BuiltinCall &B) {
  Value Desc = B.value("pointer");
  if (!Desc.IsDescriptor)
    return Value::poison();
  if (Desc.Type.Elem.IsConst) {
    B.error(ProblemKind::LoadStore, "Cannot store to a constant pointer");
    return Value::poison();
  }
  Value V = B.C.toTensor(B.value("value"), B.rangeOf("value"));
  if (B.ir() && Desc.IR) {
    DescriptorTile T = descriptorTile(B, Desc);
    if (!T.Ptrs)
      return Value::poison();
    ir::Value *Stored = B.C.lowerAs(V, TileType{Desc.Type.Elem.pointee(), Desc.BlockShape}, B.rangeOf("value"));
    B.ir()->store(B.range(), T.Ptrs, Stored, T.Mask, ir::CacheModifier::None, ir::EvictionPolicy::None,
                  T.Access.Base ? &T.Access : nullptr);
  }
  return Value::constant(PyValue::none());
}

const std::vector<BuiltinEntry> &memoryBuiltins() {
  static const std::vector<BuiltinEntry> Entries = {
      {"load",
       "pointer, mask=, other=, boundary_check:C=, padding_option:C=, cache_modifier:C=, "
       "eviction_policy:C=, volatile:C=",
       load},
      {"store", "pointer, value, mask=, boundary_check:C=, cache_modifier:C=, eviction_policy:C=", store},
      {"atomic_add", "pointer, val, mask=, sem:C=, scope:C=", atomic},
      {"atomic_max", "pointer, val, mask=, sem:C=, scope:C=", atomic},
      {"atomic_min", "pointer, val, mask=, sem:C=, scope:C=", atomic},
      {"atomic_and", "pointer, val, mask=, sem:C=, scope:C=", atomic},
      {"atomic_or", "pointer, val, mask=, sem:C=, scope:C=", atomic},
      {"atomic_xor", "pointer, val, mask=, sem:C=, scope:C=", atomic},
      {"atomic_xchg", "pointer, val, mask=, sem:C=, scope:C=", atomic},
      {"atomic_cas", "pointer, cmp, val, sem:C=, scope:C=", atomic},
      {"make_block_ptr", "base, shape, strides, offsets, block_shape:C, order:C", makeBlockPtr},
      {"advance", "base, offsets", advance},
      {"make_tensor_descriptor", "base, shape, strides, block_shape, padding_option=", makeTensorDescriptor},
      {"load_tensor_descriptor", "pointer, offsets", loadTensorDescriptor},
      {"store_tensor_descriptor", "pointer, offsets, value", storeTensorDescriptor},
  };
  return Entries;
}

} // namespace tessel::sema
