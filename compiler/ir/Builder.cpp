//===- Builder.cpp - creating tile IR ops with source ranges --------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// Result-type rules of every op. They assume well-formed operands and fall
/// back to something printable when they are not (an empty shape, the
/// operand's type), so a lowering bug shows up as a verifier message on a
/// printed function rather than as a crash.
//===----------------------------------------------------------------------===//
#include "compiler/ir/Builder.h"

#include "compiler/ir/TypeUtils.h"

#include <algorithm>
#include <functional>
#include <set>

namespace tessel::ir {

Op *Builder::create(OpKind K, SourceRange Loc, std::vector<Value *> Operands,
                    const std::vector<TileType> &ResultTypes) {
  auto O = std::make_unique<Op>();
  O->Kind = K;
  O->Loc = Loc;
  O->Operands = std::move(Operands);
  O->Parent = Insert;
  for (const TileType &T : ResultTypes) {
    Value *V = F.newValue(T);
    V->Def = O.get();
    V->Index = static_cast<unsigned>(O->Results.size());
    O->Results.push_back(V);
  }
  Op *Raw = O.get();
  Insert->Ops.push_back(std::move(O));
  return Raw;
}

Block *Builder::addRegion(Op *O, const std::vector<TileType> &ArgTypes) {
  auto B = std::make_unique<Block>();
  B->Parent = O;
  for (const TileType &T : ArgTypes) {
    Value *V = F.newValue(T);
    V->Owner = B.get();
    V->Index = static_cast<unsigned>(B->Args.size());
    B->Args.push_back(V);
  }
  Block *Raw = B.get();
  O->Regions.push_back(std::move(B));
  return Raw;
}

static std::vector<TileType> typesOf(const std::vector<Value *> &Values) {
  std::vector<TileType> Types;
  for (Value *V : Values)
    Types.push_back(V->type());
  return Types;
}

Value *Builder::constantInt(SourceRange Loc, int64_t V, const TileType &Ty) {
  Op *O = create(OpKind::Constant, Loc, {}, {Ty});
  O->IntAttr = V;
  O->FloatAttr = static_cast<double>(V);
  return O->result();
}

Value *Builder::constantFloat(SourceRange Loc, double V, const TileType &Ty) {
  Op *O = create(OpKind::Constant, Loc, {}, {Ty});
  O->FloatAttr = V;
  return O->result();
}

Value *Builder::splat(SourceRange Loc, Value *X, std::vector<int64_t> Shape) {
  return create(OpKind::Splat, Loc, {X}, {withShape(X->type(), std::move(Shape))})->result();
}

Value *Builder::broadcast(SourceRange Loc, Value *X, std::vector<int64_t> Shape) {
  return create(OpKind::Broadcast, Loc, {X}, {withShape(X->type(), std::move(Shape))})->result();
}

Value *Builder::expandDims(SourceRange Loc, Value *X, int Axis) {
  std::vector<int64_t> Shape = X->type().Shape;
  int Rank = static_cast<int>(Shape.size());
  int Pos = Axis < 0 ? Axis + Rank + 1 : Axis;
  Pos = std::clamp(Pos, 0, Rank);
  Shape.insert(Shape.begin() + Pos, 1);
  Op *O = create(OpKind::ExpandDims, Loc, {X}, {withShape(X->type(), Shape)});
  O->IntAttr = Pos;
  return O->result();
}

Value *Builder::reshape(SourceRange Loc, Value *X, std::vector<int64_t> Shape) {
  return create(OpKind::Reshape, Loc, {X}, {withShape(X->type(), std::move(Shape))})->result();
}

Value *Builder::permute(SourceRange Loc, Value *X, std::vector<int64_t> Order) {
  const std::vector<int64_t> &In = X->type().Shape;
  std::vector<int64_t> Shape;
  for (int64_t D : Order)
    Shape.push_back(D >= 0 && D < static_cast<int64_t>(In.size()) ? In[D] : 0);
  Op *O = create(OpKind::Permute, Loc, {X}, {withShape(X->type(), Shape)});
  O->IntsAttr = std::move(Order);
  return O->result();
}

Value *Builder::trans(SourceRange Loc, Value *X) {
  std::vector<int64_t> Order;
  for (int64_t I = static_cast<int64_t>(X->type().Shape.size()) - 1; I >= 0; --I)
    Order.push_back(I);
  return permute(Loc, X, std::move(Order));
}

Value *Builder::join(SourceRange Loc, Value *A, Value *B) {
  std::vector<int64_t> Shape = A->type().Shape;
  Shape.push_back(2);
  return create(OpKind::Join, Loc, {A, B}, {withShape(A->type(), Shape)})->result();
}

std::pair<Value *, Value *> Builder::split(SourceRange Loc, Value *X) {
  std::vector<int64_t> Shape = X->type().Shape;
  if (!Shape.empty())
    Shape.pop_back();
  TileType Half = withShape(X->type(), Shape);
  Op *O = create(OpKind::Split, Loc, {X}, {Half, Half});
  return {O->result(0), O->result(1)};
}

Value *Builder::arange(SourceRange Loc, int64_t Start, int64_t End) {
  Op *O = create(OpKind::Arange, Loc, {}, {tileType(ScalarKind::I32, {End - Start})});
  O->IntAttr = Start;
  O->IntAttr2 = End;
  return O->result();
}

Value *Builder::programId(SourceRange Loc, int Axis) {
  Op *O = create(OpKind::ProgramId, Loc, {}, {scalarType(ScalarKind::I32)});
  O->IntAttr = Axis;
  return O->result();
}

Value *Builder::numPrograms(SourceRange Loc, int Axis) {
  Op *O = create(OpKind::NumPrograms, Loc, {}, {scalarType(ScalarKind::I32)});
  O->IntAttr = Axis;
  return O->result();
}

Value *Builder::binary(SourceRange Loc, OpKind K, Value *L, Value *R) {
  return create(K, Loc, {L, R}, {L->type()})->result();
}

Value *Builder::minimum(SourceRange Loc, Value *L, Value *R, PropagateNan P) {
  Op *O = create(OpKind::Minimum, Loc, {L, R}, {L->type()});
  O->IntAttr = static_cast<int64_t>(P);
  return O->result();
}

Value *Builder::maximum(SourceRange Loc, Value *L, Value *R, PropagateNan P) {
  Op *O = create(OpKind::Maximum, Loc, {L, R}, {L->type()});
  O->IntAttr = static_cast<int64_t>(P);
  return O->result();
}

Value *Builder::unary(SourceRange Loc, OpKind K, Value *X) { return create(K, Loc, {X}, {X->type()})->result(); }

Value *Builder::fma(SourceRange Loc, Value *A, Value *B, Value *C) {
  return create(OpKind::Fma, Loc, {A, B, C}, {A->type()})->result();
}

Value *Builder::cmp(SourceRange Loc, CmpPredicate P, Value *L, Value *R) {
  Op *O = create(OpKind::Cmp, Loc, {L, R}, {withElem(L->type(), {ScalarKind::I1, 0, false})});
  O->IntAttr = static_cast<int64_t>(P);
  return O->result();
}

Value *Builder::select(SourceRange Loc, Value *Cond, Value *A, Value *B) {
  return create(OpKind::Select, Loc, {Cond, A, B}, {A->type()})->result();
}

Value *Builder::cast(SourceRange Loc, Value *X, ElemType To, RoundingMode R) {
  Op *O = create(OpKind::Cast, Loc, {X}, {withElem(X->type(), To)});
  O->IntAttr = static_cast<int64_t>(R);
  return O->result();
}

Value *Builder::bitcast(SourceRange Loc, Value *X, ElemType To) {
  return create(OpKind::Bitcast, Loc, {X}, {withElem(X->type(), To)})->result();
}

Value *Builder::addPtr(SourceRange Loc, Value *Ptr, Value *Offset) {
  return create(OpKind::AddPtr, Loc, {Ptr, Offset}, {Ptr->type()})->result();
}

/// Appends Desc's operands and sets its flag.
static void addDescriptor(std::vector<Value *> &Operands, uint32_t &Flags, const DescriptorAccess *Desc) {
  if (!Desc || !Desc->Base)
    return;
  Operands.push_back(Desc->Base);
  Operands.insert(Operands.end(), Desc->Offsets.begin(), Desc->Offsets.end());
  Flags |= 1u << DescriptorBit;
}

Value *Builder::load(SourceRange Loc, Value *Ptr, Value *Mask, Value *Other, CacheModifier Cache, EvictionPolicy Evict,
                     bool Volatile, const DescriptorAccess *Desc) {
  std::vector<Value *> Operands{Ptr};
  uint32_t Flags = 0;
  if (Mask) {
    Operands.push_back(Mask);
    Flags |= 1u << HasMaskBit;
    if (Other) {
      Operands.push_back(Other);
      Flags |= 1u << HasOtherBit;
    }
  }
  if (Volatile)
    Flags |= 1u << VolatileBit;
  addDescriptor(Operands, Flags, Desc);
  Op *O = create(OpKind::Load, Loc, std::move(Operands), {withElem(Ptr->type(), Ptr->type().Elem.pointee())});
  O->Flags = Flags;
  O->IntAttr = static_cast<int64_t>(Cache);
  O->IntAttr2 = static_cast<int64_t>(Evict);
  return O->result();
}

Op *Builder::store(SourceRange Loc, Value *Ptr, Value *Val, Value *Mask, CacheModifier Cache, EvictionPolicy Evict,
                   const DescriptorAccess *Desc) {
  std::vector<Value *> Operands{Ptr, Val};
  if (Mask)
    Operands.push_back(Mask);
  uint32_t Flags = Mask ? 1u << HasMaskBit : 0;
  addDescriptor(Operands, Flags, Desc);
  Op *O = create(OpKind::Store, Loc, std::move(Operands), {});
  O->Flags = Flags;
  O->IntAttr = static_cast<int64_t>(Cache);
  O->IntAttr2 = static_cast<int64_t>(Evict);
  return O;
}

Value *Builder::atomicRMW(SourceRange Loc, AtomicKind K, Value *Ptr, Value *Val, Value *Mask, MemSemantic Sem,
                          MemScope Scope) {
  std::vector<Value *> Operands{Ptr, Val};
  if (Mask)
    Operands.push_back(Mask);
  Op *O = create(OpKind::AtomicRMW, Loc, std::move(Operands), {withElem(Ptr->type(), Ptr->type().Elem.pointee())});
  O->Flags = Mask ? 1u << HasMaskBit : 0;
  O->IntAttr = static_cast<int64_t>(K);
  O->IntAttr2 = static_cast<int64_t>(Sem) | (static_cast<int64_t>(Scope) << 8);
  return O->result();
}

Value *Builder::atomicCas(SourceRange Loc, Value *Ptr, Value *Cmp, Value *Val, MemSemantic Sem, MemScope Scope) {
  Op *O = create(OpKind::AtomicCas, Loc, {Ptr, Cmp, Val}, {withElem(Ptr->type(), Ptr->type().Elem.pointee())});
  O->IntAttr2 = static_cast<int64_t>(Sem) | (static_cast<int64_t>(Scope) << 8);
  return O->result();
}

/// The shape left after removing Axis (negative axes count from the end).
static std::vector<int64_t> reducedShape(const std::vector<int64_t> &Shape, int &Axis) {
  int Rank = static_cast<int>(Shape.size());
  if (Axis < 0)
    Axis += Rank;
  std::vector<int64_t> Out = Shape;
  if (Axis >= 0 && Axis < Rank)
    Out.erase(Out.begin() + Axis);
  return Out;
}

Value *Builder::reduce(SourceRange Loc, ReduceKind K, Value *X, int Axis, bool TieBreakLeft) {
  std::vector<int64_t> Shape = reducedShape(X->type().Shape, Axis);
  ElemType Elem =
      (K == ReduceKind::ArgMax || K == ReduceKind::ArgMin) ? ElemType{ScalarKind::I32, 0, false} : X->type().Elem;
  Op *O = create(OpKind::Reduce, Loc, {X}, {TileType{Elem, Shape}});
  O->IntAttr = static_cast<int64_t>(K);
  O->IntAttr2 = Axis;
  O->Flags = TieBreakLeft ? 1 : 0;
  return O->result();
}

/// Ops that compute values only: removing one unused changes nothing else.
static bool computesOnly(const Op &O) {
  switch (O.kind()) {
  case OpKind::Constant:
  case OpKind::Splat:
  case OpKind::Broadcast:
  case OpKind::ExpandDims:
  case OpKind::Reshape:
  case OpKind::Permute:
  case OpKind::Arange:
  case OpKind::Cmp:
  case OpKind::Select:
  case OpKind::Cast:
  case OpKind::Bitcast:
  case OpKind::Fma:
    return true;
  default:
    return isa<BinaryOp>(&O) || isa<UnaryOp>(&O);
  }
}

void Builder::eraseDeadValueOps(Block *B) {
  for (bool Changed = true; Changed;) {
    Changed = false;
    std::set<const Value *> Used;
    std::function<void(const Block &)> Collect = [&](const Block &Blk) {
      for (const auto &O : Blk.ops()) {
        for (const Value *V : O->operands())
          Used.insert(V);
        for (const auto &R : O->regions())
          Collect(*R);
      }
    };
    Collect(*B);
    for (size_t I = B->Ops.size(); I-- > 0;) {
      Op &O = *B->Ops[I];
      if (!computesOnly(O) || !O.regions().empty() ||
          std::any_of(O.results().begin(), O.results().end(), [&](const Value *R) { return Used.count(R); }))
        continue;
      for (Value *R : O.results())
        R->Def = nullptr; // an orphan: the function still owns it, nothing refers to it
      B->Ops.erase(B->Ops.begin() + static_cast<std::ptrdiff_t>(I));
      Changed = true;
    }
  }
}

ReduceOp *Builder::customReduce(SourceRange Loc, const std::vector<Value *> &Inputs, int Axis) {
  std::vector<TileType> Results, Args;
  int A = Axis;
  for (Value *V : Inputs) {
    A = Axis;
    Results.push_back({V->type().Elem, reducedShape(V->type().Shape, A)});
  }
  for (int Side = 0; Side < 2; ++Side)
    for (Value *V : Inputs)
      Args.push_back(TileType{V->type().Elem, {}});
  Op *O = create(OpKind::Reduce, Loc, Inputs, Results);
  O->IntAttr = static_cast<int64_t>(ReduceKind::Custom);
  O->IntAttr2 = A;
  O->Flags = 1;
  addRegion(O, Args);
  return ir::cast<ReduceOp>(O);
}

Value *Builder::scan(SourceRange Loc, ScanKind K, Value *X, int Axis, bool Reverse) {
  if (Axis < 0)
    Axis += static_cast<int>(X->type().Shape.size());
  Op *O = create(OpKind::Scan, Loc, {X}, {X->type()});
  O->IntAttr = static_cast<int64_t>(K);
  O->IntAttr2 = Axis;
  O->Flags = Reverse ? 1 : 0;
  return O->result();
}

Value *Builder::gather(SourceRange Loc, Value *Src, Value *Index, int Axis) {
  Op *O = create(OpKind::Gather, Loc, {Src, Index}, {withShape(Src->type(), Index->type().Shape)});
  O->IntAttr = Axis;
  return O->result();
}

Value *Builder::histogram(SourceRange Loc, Value *X, int64_t Bins, Value *Mask) {
  std::vector<Value *> Operands = {X};
  if (Mask)
    Operands.push_back(Mask);
  return create(OpKind::Histogram, Loc, Operands, {TileType{ElemType{ScalarKind::I32}, {Bins}}})->result();
}

ScanOp *Builder::customScan(SourceRange Loc, const std::vector<Value *> &Inputs, int Axis, bool Reverse) {
  std::vector<TileType> Args;
  for (int Side = 0; Side < 2; ++Side)
    for (Value *V : Inputs)
      Args.push_back(TileType{V->type().Elem, {}});
  if (Axis < 0 && !Inputs.empty())
    Axis += static_cast<int>(Inputs[0]->type().Shape.size());
  Op *O = create(OpKind::Scan, Loc, Inputs, typesOf(Inputs));
  O->IntAttr = static_cast<int64_t>(ScanKind::Custom);
  O->IntAttr2 = Axis;
  O->Flags = Reverse ? 1 : 0;
  addRegion(O, Args);
  return ir::cast<ScanOp>(O);
}

Value *Builder::dot(SourceRange Loc, Value *A, Value *B, Value *Acc, InputPrecision P, int64_t MaxNumImpreciseAcc,
                    ScalarKind OutElem) {
  TileType Out;
  if (Acc) {
    Out = Acc->type();
  } else {
    std::vector<int64_t> Shape = A->type().Shape;
    if (!Shape.empty() && !B->type().Shape.empty())
      Shape.back() = B->type().Shape.back();
    bool IntDot = isIntScalar(A->type().Elem.Scalar);
    Out = tileType(IntDot ? ScalarKind::I32 : OutElem, Shape);
    // The lowering passes an explicit zero accumulator; keep the op uniform.
    Acc = IntDot ? constantInt(Loc, 0, Out) : constantFloat(Loc, 0.0, Out);
  }
  Op *O = create(OpKind::Dot, Loc, {A, B, Acc}, {Out});
  O->IntAttr = static_cast<int64_t>(P);
  O->IntAttr2 = MaxNumImpreciseAcc;
  return O->result();
}

Value *Builder::random(SourceRange Loc, OpKind K, Value *Seed, Value *Offset, int NRounds) {
  ScalarKind Elem = K == OpKind::Randint ? ScalarKind::U32 : ScalarKind::FP32;
  Op *O = create(K, Loc, {Seed, Offset}, {tileType(Elem, Offset->type().Shape)});
  O->IntAttr = NRounds;
  return O->result();
}

Value *Builder::philox(SourceRange Loc, Value *Seed, const std::array<Value *, 4> &C, int NRounds, int Word) {
  Op *O = create(OpKind::Randint, Loc, {Seed, C[0], C[1], C[2], C[3]}, {tileType(ScalarKind::U32, C[0]->type().Shape)});
  O->IntAttr = NRounds;
  O->IntAttr2 = Word;
  return O->result();
}

InlineAsmOp *Builder::inlineAsm(SourceRange Loc, std::string_view Asm, std::string_view Constraints,
                                const std::vector<Value *> &Args, std::vector<TileType> Results, bool Pure,
                                int64_t Pack) {
  Op *O = create(OpKind::InlineAsm, Loc, Args, std::move(Results));
  O->StrAttr = std::string(Asm) + '\0' + std::string(Constraints);
  O->IntAttr = Pack;
  O->Flags = Pure ? 1 : 0;
  return ir::cast<InlineAsmOp>(O);
}

Op *Builder::devicePrint(SourceRange Loc, std::string Prefix, const std::vector<Value *> &Args, bool Hex) {
  Op *O = create(OpKind::DevicePrint, Loc, Args, {});
  O->StrAttr = std::move(Prefix);
  O->Flags = Hex ? 1 : 0;
  return O;
}

Op *Builder::deviceAssert(SourceRange Loc, Value *Cond, std::string Message, Value *Mask) {
  std::vector<Value *> Operands{Cond};
  if (Mask)
    Operands.push_back(Mask);
  Op *O = create(OpKind::DeviceAssert, Loc, std::move(Operands), {});
  O->StrAttr = std::move(Message);
  O->Flags = Mask ? 1u << HasMaskBit : 0;
  return O;
}

Op *Builder::barrier(SourceRange Loc) { return create(OpKind::Barrier, Loc, {}, {}); }

Value *Builder::hint(SourceRange Loc, HintKind K, Value *X, std::vector<int64_t> Values) {
  Op *O = create(OpKind::Hint, Loc, {X}, {X->type()});
  O->IntAttr = static_cast<int64_t>(K);
  O->IntsAttr = std::move(Values);
  return O->result();
}

Value *Builder::makeTensorDesc(SourceRange Loc, Value *Base, const std::vector<Value *> &Dims,
                               const std::vector<Value *> &Strides, bool PadNan) {
  std::vector<Value *> Operands{Base};
  Operands.insert(Operands.end(), Dims.begin(), Dims.end());
  Operands.insert(Operands.end(), Strides.begin(), Strides.end());
  Op *O = create(OpKind::MakeTensorDesc, Loc, std::move(Operands), {Base->type()});
  O->IntAttr = PadNan ? 1 : 0;
  return O->result();
}

ForOp *Builder::createFor(SourceRange Loc, Value *Lb, Value *Ub, Value *Step, const std::vector<Value *> &Inits,
                          int64_t NumStages) {
  std::vector<Value *> Operands{Lb, Ub, Step};
  Operands.insert(Operands.end(), Inits.begin(), Inits.end());
  std::vector<TileType> Carried = typesOf(Inits);
  Op *O = create(OpKind::For, Loc, std::move(Operands), Carried);
  O->IntAttr = NumStages;
  std::vector<TileType> Args{Lb->type()};
  Args.insert(Args.end(), Carried.begin(), Carried.end());
  addRegion(O, Args);
  return ir::cast<ForOp>(O);
}

WhileOp *Builder::createWhile(SourceRange Loc, const std::vector<Value *> &Inits) {
  std::vector<TileType> Carried = typesOf(Inits);
  Op *O = create(OpKind::While, Loc, Inits, Carried);
  addRegion(O, Carried);
  addRegion(O, Carried);
  return ir::cast<WhileOp>(O);
}

IfOp *Builder::createIf(SourceRange Loc, Value *Cond, const std::vector<TileType> &ResultTypes, bool WithElse) {
  Op *O = create(OpKind::If, Loc, {Cond}, ResultTypes);
  addRegion(O, {});
  if (WithElse)
    addRegion(O, {});
  return ir::cast<IfOp>(O);
}

Value *Builder::addResult(Op *O, const TileType &Ty) {
  Value *V = F.newValue(Ty);
  V->Def = O;
  V->Index = static_cast<unsigned>(O->Results.size());
  O->Results.push_back(V);
  return V;
}

Op *Builder::yield(SourceRange Loc, const std::vector<Value *> &Values) {
  return create(OpKind::Yield, Loc, Values, {});
}

Op *Builder::condition(SourceRange Loc, Value *Cond, const std::vector<Value *> &Forwarded) {
  std::vector<Value *> Operands{Cond};
  Operands.insert(Operands.end(), Forwarded.begin(), Forwarded.end());
  return create(OpKind::Condition, Loc, std::move(Operands), {});
}

Op *Builder::ret(SourceRange Loc) { return create(OpKind::Return, Loc, {}, {}); }

} // namespace tessel::ir
