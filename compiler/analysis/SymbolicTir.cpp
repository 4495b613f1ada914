//===- SymbolicTir.cpp - tile IR values as Z3 terms, lane by lane ---------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The per-op rules of the Encoder (see the header for the model): shape ops
/// map lanes, integer ops become bit-vector ops of the model's width,
/// comparisons become Bools, `addptr` adds a sign-extended offset to the
/// pointer's 64-bit element offset, loops get an iteration count per side.
//===----------------------------------------------------------------------===//
#include "compiler/analysis/SymbolicTir.h"

#include <algorithm>
#include <unordered_set>

namespace tessel::analysis {

static bool isSignedInt(ScalarKind K) { return isInt(K) && !isUnsigned(K); }

Encoder::Encoder(z3::context &Ctx, const ir::Function &Fn, IntModel M,
                 const std::vector<std::optional<int64_t>> &Params, const std::array<std::optional<int64_t>, 3> &G)
    : C(Ctx), F(Fn), Model(M), Ranges(M == IntModel::Exact) {
  for (size_t I = 0; I < F.params().size(); ++I) {
    const ir::Value *P = F.params()[I];
    const ElemType &Ty = P->type().Elem;
    Sym S(C);
    if (Ty.isPointer()) {
      S.K = Sym::Kind::Ptr;
      S.Base = static_cast<int>(I);
      S.E = C.bv_val(0, 64);
    } else if (Ty.Scalar == ScalarKind::I1) {
      S.K = Sym::Kind::Bool;
      S.E = I < Params.size() && Params[I] ? C.bool_val(*Params[I] != 0) : C.bool_const(P->name().c_str());
    } else if (isInt(Ty.Scalar)) {
      S.K = Sym::Kind::Int;
      unsigned W = width(Ty);
      if (I < Params.size() && Params[I]) {
        S.E = constant(*Params[I], W);
      } else {
        S.E = C.bv_const(("arg." + P->name()).c_str(), W);
        LaunchVars.push_back({P->name(), S.E});
        // Integer arguments are sizes, strides and counts: positive, and as
        // Triton passes them (i32 when they fit, else i64).
        int64_t Max = bitWidth(Ty.Scalar) >= 64 ? (int64_t(1) << 40) : (int64_t(1) << 31) - 1;
        if (isUnsigned(Ty.Scalar) && bitWidth(Ty.Scalar) < 32)
          Max = (int64_t(1) << bitWidth(Ty.Scalar)) - 1;
        z3::expr E64 = toI64(S.E, isSignedInt(Ty.Scalar));
        LaunchConstraints.push_back(E64 >= C.bv_val(1, 64) && E64 <= C.bv_val(Max, 64));
        if (W >= 64 || Max <= (int64_t(1) << (W - 1)) - 1)
          Ranges.setVar(S.E, 1, Max);
      }
    }
    ParamSyms.push_back(S);
  }
  unsigned PW = M == IntModel::Exact ? 64 : 32;
  for (int A = 0; A < 3; ++A) {
    if (G[A]) {
      Grid.push_back(constant(*G[A], PW));
      continue;
    }
    z3::expr V = C.bv_const(("grid." + std::to_string(A)).c_str(), PW);
    Grid.push_back(V);
    LaunchVars.push_back({"grid" + std::to_string(A), V});
    z3::expr V64 = toI64(V, true);
    LaunchConstraints.push_back(V64 >= C.bv_val(1, 64) && V64 <= C.bv_val((int64_t(1) << 31) - 1, 64));
    Ranges.setVar(V, 1, (int64_t(1) << 31) - 1);
  }
}

unsigned Encoder::width(const ElemType &Ty) const {
  if (Ty.isPointer())
    return 64;
  if (Model == IntModel::Exact)
    return 64;
  int W = bitWidth(Ty.Scalar);
  return W > 1 ? static_cast<unsigned>(W) : 32;
}

z3::expr Encoder::constant(int64_t V, unsigned Width) {
  return C.bv_val(static_cast<uint64_t>(V) & (Width >= 64 ? ~uint64_t(0) : ((uint64_t(1) << Width) - 1)), Width);
}

z3::expr Encoder::toI64(const z3::expr &E, bool Signed) {
  unsigned W = E.get_sort().bv_size();
  if (W == 64)
    return E;
  if (W > 64)
    return E.extract(63, 0);
  return Signed ? z3::sext(E, 64 - W) : z3::zext(E, 64 - W);
}

z3::expr Encoder::castInt(const z3::expr &E, bool SrcSigned, unsigned To) {
  unsigned W = E.get_sort().bv_size();
  if (W == To)
    return E;
  if (W > To)
    return E.extract(To - 1, 0);
  return SrcSigned ? z3::sext(E, To - W) : z3::zext(E, To - W);
}

z3::expr Encoder::newVar(SideVars &S, const std::string &Name, const z3::sort &Sort) {
  std::string Full = S.Tag + "." + Name + "." + std::to_string(Counter++);
  z3::expr V = C.constant(Full.c_str(), Sort);
  S.Vars.push_back(V);
  S.VarIds.insert(V.id());
  return V;
}

std::shared_ptr<SideVars> Encoder::newSide(const std::string &Tag) {
  auto S = std::make_shared<SideVars>();
  S->Tag = Tag;
  S->Id = Counter++;
  unsigned PW = Model == IntModel::Exact ? 64 : 32;
  for (int A = 0; A < 3; ++A) {
    z3::expr P = newVar(*S, "pid" + std::to_string(A), C.bv_sort(PW));
    S->Pid.push_back(P);
    S->Constraints.push_back(z3::sge(P, C.bv_val(0, PW)) && z3::slt(P, Grid[A]));
    std::optional<Interval> G = Ranges.range(Grid[A]);
    Ranges.setVar(P, 0, G ? std::max<int64_t>(G->Hi - 1, 0) : (int64_t(1) << 31) - 2);
  }
  return S;
}

std::vector<z3::expr> Encoder::lanes(SideVars &S, const std::vector<int64_t> &Shape) {
  unsigned W = Model == IntModel::Exact ? 64 : 32;
  std::vector<z3::expr> Out;
  for (size_t D = 0; D < Shape.size(); ++D) {
    z3::expr L = newVar(S, "lane" + std::to_string(D), C.bv_sort(W));
    S.Constraints.push_back(z3::uge(L, C.bv_val(0, W)) && z3::ult(L, C.bv_val(Shape[D], W)));
    Ranges.setVar(L, 0, std::max<int64_t>(Shape[D] - 1, 0));
    Out.push_back(L);
  }
  return Out;
}

Sym Encoder::intSym(const z3::expr &E) const {
  Sym S(C);
  S.K = Sym::Kind::Int;
  S.E = E;
  return S;
}

Sym Encoder::fresh(SideVars &S, const ElemType &Ty, bool Data) {
  Sym Out(C);
  Out.Data = Data;
  if (Ty.isPointer()) {
    Out.K = Sym::Kind::Ptr; // a pointer loaded from memory: base unknown
    Out.E = newVar(S, "ptr", C.bv_sort(64));
  } else if (Ty.Scalar == ScalarKind::I1) {
    Out.K = Sym::Kind::Bool;
    Out.E = newVar(S, "b", C.bool_sort());
  } else if (isInt(Ty.Scalar)) {
    Out.K = Sym::Kind::Int;
    unsigned W = width(Ty);
    z3::expr V = newVar(S, "v", C.bv_sort(static_cast<unsigned>(bitWidth(Ty.Scalar))));
    Out.E = castInt(V, isSignedInt(Ty.Scalar), W);
  }
  return Out;
}

std::vector<z3::expr> Encoder::freeConstants(const z3::expr &E) {
  std::vector<z3::expr> Out;
  std::unordered_set<unsigned> Seen;
  std::vector<z3::expr> Work{E};
  while (!Work.empty()) {
    z3::expr X = Work.back();
    Work.pop_back();
    if (!Seen.insert(X.id()).second)
      continue;
    if (X.is_app()) {
      if (X.num_args() == 0 && X.decl().decl_kind() == Z3_OP_UNINTERPRETED)
        Out.push_back(X);
      for (unsigned I = 0; I < X.num_args(); ++I)
        Work.push_back(X.arg(I));
    } else if (X.is_quantifier()) {
      Work.push_back(X.body());
    }
  }
  return Out;
}

bool Encoder::mentions(const z3::expr &E, const SideVars &S) {
  for (const z3::expr &V : freeConstants(E))
    if (S.VarIds.count(V.id()))
      return true;
  return false;
}

SideVars::Loop &Encoder::loopState(SideVars &S, const ir::ForOp *L) {
  auto It = S.Loops.find(L);
  if (It != S.Loops.end())
    return It->second;
  const ElemType &IvTy = L->inductionVar()->type().Elem;
  bool Signed = isSignedInt(IvTy.Scalar);
  unsigned W = width(IvTy);
  Sym Lb = eval(S, L->lowerBound(), {}), Ub = eval(S, L->upperBound(), {}), Step = eval(S, L->step(), {});
  z3::expr T = newVar(S, "iter", C.bv_sort(64));
  z3::expr Iv(C);
  if (Lb.K == Sym::Kind::Int && Ub.K == Sym::Kind::Int && Step.K == Sym::Kind::Int) {
    z3::expr Lb64 = toI64(Lb.E, Signed), Ub64 = toI64(Ub.E, Signed), St64 = toI64(Step.E, Signed);
    S.Constraints.push_back(z3::sge(T, C.bv_val(0, 64)) && z3::sle(T, C.bv_val(int64_t(1) << 40, 64)));
    // The iteration count's range, where the bounds' ranges and a positive step give one.
    int64_t MaxT = int64_t(1) << 40;
    std::optional<Interval> LbR = Ranges.range(Lb64), UbR = Ranges.range(Ub64), StR = Ranges.range(St64);
    if (LbR && UbR && StR && StR->Lo > 0 && UbR->Hi < (int64_t(1) << 50) && LbR->Lo > -(int64_t(1) << 50))
      MaxT = std::clamp<int64_t>((UbR->Hi - 1 - LbR->Lo) / StR->Lo, 0, MaxT);
    Ranges.setVar(T, 0, MaxT);
    z3::expr Cur = Lb64 + T * St64;
    // The loop runs while iv < ub (positive steps; a negative step counts down).
    S.Constraints.push_back(z3::ite(z3::sgt(St64, C.bv_val(0, 64)), z3::slt(Cur, Ub64),
                                    z3::sgt(Cur, Ub64) && z3::slt(St64, C.bv_val(0, 64))));
    // Inside the loop the induction variable is below its upper bound.
    if (LbR && UbR && StR && StR->Lo > 0 && LbR->Lo <= UbR->Hi - 1)
      Ranges.setVar(Cur, LbR->Lo, UbR->Hi - 1);
    Iv = castInt(Cur, true, W);
  } else {
    Iv = newVar(S, "iv", C.bv_sort(W));
  }
  S.LoopOrder.push_back(L);
  return S.Loops.emplace(L, SideVars::Loop{T, Iv}).first->second;
}

z3::expr Encoder::pathCondition(SideVars &S, const ir::Op *Op) {
  // One n-ary `and` (see BoundsProver.cpp's conjunction: deep chains are slow to free).
  z3::expr_vector Cond(C);
  const ir::Block *B = Op->parentBlock();
  while (B && B->parentOp()) {
    const ir::Op *P = B->parentOp();
    if (const auto *If = ir::dyn_cast<ir::IfOp>(P)) {
      Sym CS = eval(S, If->condition(), {});
      if (CS.K == Sym::Kind::Bool && !CS.Data)
        Cond.push_back(B == If->thenBlock() ? CS.E : !CS.E);
    } else if (const auto *For = ir::dyn_cast<ir::ForOp>(P)) {
      loopState(S, For);
    }
    B = P->parentBlock();
  }
  return Cond.empty() ? C.bool_val(true) : Cond.size() == 1 ? Cond[0] : z3::mk_and(Cond);
}

Sym Encoder::eval(SideVars &S, const ir::Value *V, const std::vector<z3::expr> &Idx) {
  auto Bnd = Bound.find(V);
  if (Bnd != Bound.end())
    return Bnd->second;
  if (Classifying)
    return evalUncached(S, V, Idx);
  std::vector<unsigned> Key;
  for (const z3::expr &E : Idx)
    Key.push_back(E.id());
  auto K = std::make_tuple(S.Id, V, Key);
  auto It = Cache.find(K);
  if (It != Cache.end())
    return It->second;
  Sym R = evalUncached(S, V, Idx);
  Cache.emplace(std::move(K), R);
  return R;
}

Sym Encoder::evalUncached(SideVars &S, const ir::Value *V, const std::vector<z3::expr> &Idx) {
  // A lane of the wrong rank would be a bug here, never the user's: answer "unknown".
  if (Idx.size() != V->type().Shape.size())
    return fresh(S, V->type().Elem, true);
  if (const ir::Op *D = V->definingOp())
    return evalOp(S, D, V->index(), Idx);
  return evalBlockArg(S, V, Idx);
}

const Encoder::Recurrence &Encoder::recurrence(SideVars &S, const ir::ForOp *L, unsigned Carried) {
  auto Key = std::make_tuple(S.Id, static_cast<const ir::Op *>(L), Carried);
  auto It = Recurrences.find(Key);
  if (It != Recurrences.end())
    return *It->second;
  auto R = std::make_unique<Recurrence>(C);
  Recurrence &Rec = *R;
  Recurrences.emplace(Key, std::move(R));
  const ir::Block *Body = L->body();
  const ir::Op *Y = Body->terminator();
  if (!Y || Carried >= Y->numOperands())
    return Rec;
  loopState(S, L);
  // Bind every body argument to a placeholder, evaluate the yielded value
  // at generic lanes, and keep it when it is "placeholder + delta" with a
  // delta free of placeholders.
  std::vector<z3::expr> Placeholders;
  std::map<const ir::Value *, Sym> Saved = Bound;
  for (unsigned A = 0; A < Body->arguments().size(); ++A) {
    const ir::Value *Arg = Body->argument(A);
    Sym P(C);
    const ElemType &Ty = Arg->type().Elem;
    if (A > 0 && Ty.isPointer()) {
      Sym Init = eval(S, L->init(A - 1), lanes(S, L->init(A - 1)->type().Shape));
      P.K = Sym::Kind::Ptr;
      P.Base = Init.Base;
      P.E = newVar(S, "carried", C.bv_sort(64));
    } else if (Ty.Scalar == ScalarKind::I1 || !isInt(Ty.Scalar)) {
      P.K = Ty.Scalar == ScalarKind::I1 ? Sym::Kind::Bool : Sym::Kind::None;
      if (P.K == Sym::Kind::Bool)
        P.E = newVar(S, "carried", C.bool_sort());
      P.Data = true;
    } else {
      P.K = Sym::Kind::Int;
      P.E = newVar(S, "carried", C.bv_sort(width(Ty)));
    }
    if (P.K != Sym::Kind::None)
      Placeholders.push_back(P.E);
    Bound.insert_or_assign(Arg, P);
  }
  const ir::Value *Yv = Y->operand(Carried);
  std::vector<z3::expr> Generic = lanes(S, Yv->type().Shape);
  ++Classifying;
  Sym Next = eval(S, Yv, Generic);
  --Classifying;
  Sym Self = Bound.at(Body->argument(Carried + 1));
  Bound = Saved;
  if (Next.Data || Next.K != Self.K || (Next.K != Sym::Kind::Int && Next.K != Sym::Kind::Ptr) ||
      (Next.K == Sym::Kind::Ptr && Next.Base != Self.Base))
    return Rec;
  z3::expr Delta = (Next.E - Self.E).simplify();
  std::set<unsigned> PlaceIds;
  for (const z3::expr &P : Placeholders)
    PlaceIds.insert(P.id());
  for (const z3::expr &V : freeConstants(Delta))
    if (PlaceIds.count(V.id()))
      return Rec;
  Rec.Affine = true;
  Rec.Generic = Generic;
  Rec.Delta = Delta;
  return Rec;
}

Sym Encoder::evalBlockArg(SideVars &S, const ir::Value *V, const std::vector<z3::expr> &Idx) {
  const ir::Block *B = V->ownerBlock();
  if (!B || !B->parentOp()) {
    if (V->index() < ParamSyms.size())
      return ParamSyms[V->index()];
    return fresh(S, V->type().Elem, true);
  }
  const ir::Op *P = B->parentOp();
  if (const auto *L = ir::dyn_cast<ir::ForOp>(P)) {
    SideVars::Loop &LS = loopState(S, L);
    if (V->index() == 0) {
      Sym Out = intSym(LS.Iv);
      return Out;
    }
    unsigned K = V->index() - 1;
    const Recurrence &R = recurrence(S, L, K);
    Sym Init = eval(S, L->init(K), Idx);
    if (!R.Affine || Init.Data || (Init.K != Sym::Kind::Int && Init.K != Sym::Kind::Ptr))
      return fresh(S, V->type().Elem, true);
    z3::expr_vector From(C), To(C);
    for (size_t D = 0; D < R.Generic.size() && D < Idx.size(); ++D) {
      From.push_back(R.Generic[D]);
      To.push_back(Idx[D]);
    }
    z3::expr Delta = R.Delta;
    Delta = Delta.substitute(From, To);
    unsigned W = Init.E.get_sort().bv_size();
    z3::expr T = castInt(LS.T, false, W);
    Sym Out = Init;
    Out.E = Init.E + T * Delta;
    return Out;
  }
  return fresh(S, V->type().Elem, true);
}

/// Operand index for result lane Idx of a shape op.
static std::vector<z3::expr> broadcastIdx(z3::context &C, const std::vector<int64_t> &From,
                                          const std::vector<int64_t> &To, const std::vector<z3::expr> &Idx,
                                          unsigned W) {
  std::vector<z3::expr> Out;
  size_t Lead = To.size() - From.size();
  for (size_t D = 0; D < From.size(); ++D)
    Out.push_back(From[D] == 1 && To[D + Lead] != 1 ? C.bv_val(0, W) : Idx[D + Lead]);
  return Out;
}

Sym Encoder::leaf(SideVars &S, const ir::Value *V, const std::vector<z3::expr> &Idx) {
  const ir::Op *D = V->definingOp();
  const auto *Cmp = ir::dyn_cast<ir::CmpOp>(D);
  if (!Cmp)
    return eval(S, V, Idx);
  ir::CmpPredicate P = Cmp->predicate();
  if (P != ir::CmpPredicate::LE && P != ir::CmpPredicate::GE)
    return eval(S, V, Idx);
  // `a <= b` against a size b reads as `a < b` (the size the comparison names).
  const ir::Value *Index = P == ir::CmpPredicate::LE ? Cmp->operand(0) : Cmp->operand(1);
  const ir::Value *Size = P == ir::CmpPredicate::LE ? Cmp->operand(1) : Cmp->operand(0);
  Sym A = eval(S, Index, Idx), B = eval(S, Size, Idx);
  if (A.K != Sym::Kind::Int || B.K != Sym::Kind::Int || !sizeLike(S, B.E) || sizeLike(S, A.E))
    return eval(S, V, Idx);
  // `a <= n - 1` is already `a < n`.
  const ir::Value *Inner = Size;
  while (Inner->definingOp() &&
         (Inner->definingOp()->kind() == ir::OpKind::Splat || Inner->definingOp()->kind() == ir::OpKind::Broadcast))
    Inner = Inner->definingOp()->operand(0);
  if (const ir::Op *SD = Inner->definingOp(); SD && SD->kind() == ir::OpKind::Sub) {
    const ir::Op *One = SD->operand(1)->definingOp();
    while (One && (One->kind() == ir::OpKind::Splat))
      One = One->operand(0)->definingOp();
    if (One && One->kind() == ir::OpKind::Constant && ir::cast<ir::ConstantOp>(One)->intValue() == 1)
      return eval(S, V, Idx);
  }
  Sym Out(C);
  Out.K = Sym::Kind::Bool;
  Out.Data = A.Data || B.Data;
  bool Signed = isSignedInt(Index->type().Elem.Scalar);
  Out.E = Signed ? z3::slt(A.E, B.E) : z3::ult(A.E, B.E);
  return Out;
}

bool Encoder::sizeLike(SideVars &S, const z3::expr &E) { return !mentions(E, S); }

Sym Encoder::region(SideVars &S, const ir::Value *Mask, const std::vector<z3::expr> &Idx) {
  const ir::Op *D = Mask->definingOp();
  unsigned W = Model == IntModel::Exact ? 64 : 32;
  if (D && D->kind() == ir::OpKind::And && Mask->type().Elem.Scalar == ScalarKind::I1) {
    Sym A = region(S, D->operand(0), Idx), B = region(S, D->operand(1), Idx);
    if (A.K != Sym::Kind::Bool || B.K != Sym::Kind::Bool)
      return eval(S, Mask, Idx);
    Sym Out(C);
    Out.K = Sym::Kind::Bool;
    Out.E = A.E && B.E;
    Out.Data = A.Data || B.Data;
    return Out;
  }
  if (D && D->kind() == ir::OpKind::Broadcast)
    return region(S, D->operand(0), broadcastIdx(C, D->operand(0)->type().Shape, Mask->type().Shape, Idx, W));
  if (D && D->kind() == ir::OpKind::ExpandDims) {
    std::vector<z3::expr> In = Idx;
    In.erase(In.begin() + ir::cast<ir::ExpandDimsOp>(D)->axis());
    return region(S, D->operand(0), In);
  }
  if (D && D->kind() == ir::OpKind::Splat)
    return region(S, D->operand(0), {});
  return leaf(S, Mask, Idx);
}

Sym Encoder::evalOp(SideVars &S, const ir::Op *O, unsigned Result, const std::vector<z3::expr> &Idx) {
  const ir::Value *R = O->result(Result);
  const ElemType &Ty = R->type().Elem;
  unsigned LW = Model == IntModel::Exact ? 64 : 32;
  auto None = [&]() {
    Sym N(C);
    N.Data = true;
    return N;
  };
  auto Operand = [&](unsigned I) { return eval(S, O->operand(I), Idx); };
  switch (O->kind()) {
  case ir::OpKind::Constant: {
    Sym Out(C);
    if (Ty.Scalar == ScalarKind::I1) {
      Out.K = Sym::Kind::Bool;
      Out.E = C.bool_val(ir::cast<ir::ConstantOp>(O)->intValue() != 0);
    } else if (isInt(Ty.Scalar) && !Ty.isPointer()) {
      Out.K = Sym::Kind::Int;
      Out.E = constant(ir::cast<ir::ConstantOp>(O)->intValue(), width(Ty));
    }
    return Out;
  }
  case ir::OpKind::Splat:
    return eval(S, O->operand(0), {});
  case ir::OpKind::Broadcast:
    return eval(S, O->operand(0), broadcastIdx(C, O->operand(0)->type().Shape, R->type().Shape, Idx, LW));
  case ir::OpKind::ExpandDims: {
    std::vector<z3::expr> In = Idx;
    In.erase(In.begin() + ir::cast<ir::ExpandDimsOp>(O)->axis());
    return eval(S, O->operand(0), In);
  }
  case ir::OpKind::Permute: {
    const std::vector<int64_t> &Order = ir::cast<ir::PermuteOp>(O)->order();
    std::vector<z3::expr> In(Idx.size(), C.bv_val(0, LW));
    for (size_t I = 0; I < Order.size() && I < Idx.size(); ++I)
      In[static_cast<size_t>(Order[I])] = Idx[I];
    return eval(S, O->operand(0), In);
  }
  case ir::OpKind::Reshape: {
    const std::vector<int64_t> &To = R->type().Shape;
    const std::vector<int64_t> &From = O->operand(0)->type().Shape;
    z3::expr Linear = C.bv_val(0, LW);
    for (size_t D = 0; D < To.size(); ++D)
      Linear = Linear * C.bv_val(To[D], LW) + Idx[D];
    std::vector<z3::expr> In(From.size(), C.bv_val(0, LW));
    for (size_t D = From.size(); D-- > 0;) {
      In[D] = z3::urem(Linear, C.bv_val(From[D], LW));
      Linear = z3::udiv(Linear, C.bv_val(From[D], LW));
    }
    return eval(S, O->operand(0), In);
  }
  case ir::OpKind::Arange:
    return intSym(castInt(Idx.empty() ? C.bv_val(0, LW) : Idx[0], false, width(Ty)) +
                  constant(ir::cast<ir::ArangeOp>(O)->start(), width(Ty)));
  case ir::OpKind::ProgramId:
    return intSym(castInt(S.Pid[static_cast<size_t>(ir::cast<ir::ProgramIdOp>(O)->axis())], true, width(Ty)));
  case ir::OpKind::NumPrograms:
    return intSym(castInt(Grid[static_cast<size_t>(ir::cast<ir::NumProgramsOp>(O)->axis())], true, width(Ty)));
  case ir::OpKind::Hint:
  case ir::OpKind::MakeTensorDesc: // the base (its accesses carry their pointer form)
    return Operand(0);
  case ir::OpKind::AddPtr: {
    Sym P = Operand(0), Off = Operand(1);
    if (P.K != Sym::Kind::Ptr || Off.K != Sym::Kind::Int)
      return fresh(S, Ty, true);
    Sym Out = P;
    Out.E = P.E + toI64(Off.E, isSignedInt(O->operand(1)->type().Elem.Scalar));
    Out.Data = P.Data || Off.Data;
    return Out;
  }
  case ir::OpKind::Cmp: {
    Sym A = Operand(0), B = Operand(1);
    if (A.K != B.K || (A.K != Sym::Kind::Int && A.K != Sym::Kind::Bool && A.K != Sym::Kind::Ptr) ||
        (A.K == Sym::Kind::Ptr && A.Base != B.Base))
      return fresh(S, Ty, true);
    bool Signed = A.K == Sym::Kind::Ptr || isSignedInt(O->operand(0)->type().Elem.Scalar);
    Sym Out(C);
    Out.K = Sym::Kind::Bool;
    Out.Data = A.Data || B.Data;
    switch (ir::cast<ir::CmpOp>(O)->predicate()) {
    case ir::CmpPredicate::EQ:
      Out.E = A.E == B.E;
      break;
    case ir::CmpPredicate::NE:
      Out.E = A.E != B.E;
      break;
    case ir::CmpPredicate::LT:
      Out.E = A.K == Sym::Kind::Bool ? (!A.E && B.E) : Signed ? z3::slt(A.E, B.E) : z3::ult(A.E, B.E);
      break;
    case ir::CmpPredicate::LE:
      Out.E = A.K == Sym::Kind::Bool ? z3::implies(A.E, B.E) : Signed ? z3::sle(A.E, B.E) : z3::ule(A.E, B.E);
      break;
    case ir::CmpPredicate::GT:
      Out.E = A.K == Sym::Kind::Bool ? (A.E && !B.E) : Signed ? z3::sgt(A.E, B.E) : z3::ugt(A.E, B.E);
      break;
    case ir::CmpPredicate::GE:
      Out.E = A.K == Sym::Kind::Bool ? z3::implies(B.E, A.E) : Signed ? z3::sge(A.E, B.E) : z3::uge(A.E, B.E);
      break;
    }
    return Out;
  }
  case ir::OpKind::Select: {
    Sym Cd = Operand(0), A = Operand(1), B = Operand(2);
    if (Cd.K != Sym::Kind::Bool || A.K != B.K || A.K == Sym::Kind::None || (A.K == Sym::Kind::Ptr && A.Base != B.Base))
      return fresh(S, Ty, true);
    Sym Out = A;
    Out.E = z3::ite(Cd.E, A.E, B.E);
    Out.Data = Cd.Data || A.Data || B.Data;
    return Out;
  }
  case ir::OpKind::Cast: {
    Sym A = Operand(0);
    const ElemType &From = O->operand(0)->type().Elem;
    if (Ty.isPointer() || From.isPointer())
      return fresh(S, Ty, true);
    if (Ty.Scalar == ScalarKind::I1) {
      if (A.K == Sym::Kind::Int) {
        Sym Out(C);
        Out.K = Sym::Kind::Bool;
        Out.E = A.E != C.bv_val(0, A.E.get_sort().bv_size());
        Out.Data = A.Data;
        return Out;
      }
      return A.K == Sym::Kind::Bool ? A : fresh(S, Ty, true);
    }
    if (!isInt(Ty.Scalar))
      return None();
    if (A.K == Sym::Kind::Bool) {
      Sym Out = intSym(z3::ite(A.E, C.bv_val(1, width(Ty)), C.bv_val(0, width(Ty))));
      Out.Data = A.Data;
      return Out;
    }
    if (A.K != Sym::Kind::Int)
      return fresh(S, Ty, true);
    Sym Out = A;
    Out.E = castInt(A.E, isSignedInt(From.Scalar), width(Ty));
    return Out;
  }
  case ir::OpKind::If: {
    const auto *If = ir::cast<ir::IfOp>(O);
    const ir::Op *TY = If->thenBlock()->terminator();
    const ir::Op *EY = If->elseBlock() ? If->elseBlock()->terminator() : nullptr;
    Sym Cd = eval(S, If->condition(), {});
    if (!TY || !EY || Cd.K != Sym::Kind::Bool || Result >= TY->numOperands() || Result >= EY->numOperands())
      return fresh(S, Ty, true);
    Sym A = eval(S, TY->operand(Result), Idx), B = eval(S, EY->operand(Result), Idx);
    if (A.K != B.K || A.K == Sym::Kind::None || (A.K == Sym::Kind::Ptr && A.Base != B.Base))
      return fresh(S, Ty, true);
    Sym Out = A;
    Out.E = z3::ite(Cd.E, A.E, B.E);
    Out.Data = Cd.Data || A.Data || B.Data;
    return Out;
  }
  default:
    break;
  }
  if (ir::isa<ir::BinaryOp>(O) || O->kind() == ir::OpKind::Neg || O->kind() == ir::OpKind::Not ||
      O->kind() == ir::OpKind::Abs) {
    if (Ty.isPointer() || !isInt(Ty.Scalar))
      return None();
    bool Signed = isSignedInt(Ty.Scalar);
    if (O->kind() == ir::OpKind::Neg || O->kind() == ir::OpKind::Not || O->kind() == ir::OpKind::Abs) {
      Sym A = Operand(0);
      if (A.K == Sym::Kind::Bool && O->kind() == ir::OpKind::Not) {
        A.E = !A.E;
        return A;
      }
      if (A.K != Sym::Kind::Int)
        return fresh(S, Ty, true);
      Sym Out = A;
      if (O->kind() == ir::OpKind::Neg)
        Out.E = -A.E;
      else if (O->kind() == ir::OpKind::Not)
        Out.E = ~A.E;
      else
        Out.E = Signed ? z3::ite(z3::slt(A.E, C.bv_val(0, A.E.get_sort().bv_size())), -A.E, A.E) : A.E;
      return Out;
    }
    Sym A = Operand(0), B = Operand(1);
    if (A.K == Sym::Kind::Bool && B.K == Sym::Kind::Bool) {
      Sym Out = A;
      Out.Data = A.Data || B.Data;
      switch (O->kind()) {
      case ir::OpKind::And:
      case ir::OpKind::Minimum:
      case ir::OpKind::Mul:
        Out.E = A.E && B.E;
        return Out;
      case ir::OpKind::Or:
      case ir::OpKind::Maximum:
        Out.E = A.E || B.E;
        return Out;
      case ir::OpKind::Xor:
      case ir::OpKind::Add:
      case ir::OpKind::Sub:
        Out.E = A.E != B.E;
        return Out;
      default:
        return fresh(S, Ty, true);
      }
    }
    if (A.K != Sym::Kind::Int || B.K != Sym::Kind::Int)
      return fresh(S, Ty, true);
    Sym Out = A;
    Out.Data = A.Data || B.Data;
    const z3::expr &X = A.E, &Y = B.E;
    switch (O->kind()) {
    case ir::OpKind::Add:
      Out.E = X + Y;
      break;
    case ir::OpKind::Sub:
      Out.E = X - Y;
      break;
    case ir::OpKind::Mul:
      Out.E = X * Y;
      break;
    case ir::OpKind::FloorDiv:
    case ir::OpKind::Mod:
      // A lane that divides by zero has no defined result on the GPU (the
      // solver's bvsdiv would say -1): its addresses are not the kernel's,
      // so an execution is only one where every divisor it uses is nonzero.
      if (!Y.is_numeral())
        S.Constraints.push_back(Y != C.bv_val(0, Y.get_sort().bv_size()));
      if (O->kind() == ir::OpKind::FloorDiv)
        Out.E = Signed ? X / Y : z3::udiv(X, Y);
      else
        Out.E = Signed ? z3::srem(X, Y) : z3::urem(X, Y);
      break;
    case ir::OpKind::And:
      Out.E = X & Y;
      break;
    case ir::OpKind::Or:
      Out.E = X | Y;
      break;
    case ir::OpKind::Xor:
      Out.E = X ^ Y;
      break;
    case ir::OpKind::Shl:
      Out.E = z3::shl(X, Y);
      break;
    case ir::OpKind::Shr:
      Out.E = Signed ? z3::ashr(X, Y) : z3::lshr(X, Y);
      break;
    case ir::OpKind::Minimum:
      Out.E = z3::ite(Signed ? z3::slt(X, Y) : z3::ult(X, Y), X, Y);
      break;
    case ir::OpKind::Maximum:
      Out.E = z3::ite(Signed ? z3::sgt(X, Y) : z3::ugt(X, Y), X, Y);
      break;
    default:
      return fresh(S, Ty, true);
    }
    return Out;
  }
  if (const auto *L = ir::dyn_cast<ir::LoadOp>(O); L && isInt(Ty.Scalar) && !Ty.isPointer()) {
    Sym P = eval(S, L->ptr(), Idx);
    if (P.K == Sym::Kind::Ptr && !P.Data && P.Base >= 0 && static_cast<size_t>(P.Base) < Contents.size() &&
        Contents[static_cast<size_t>(P.Base)]) {
      auto [Lo, Hi] = *Contents[static_cast<size_t>(P.Base)];
      Sym V = fresh(S, Ty, false);
      unsigned W = width(Ty);
      S.Constraints.push_back(z3::sge(V.E, constant(Lo, W)) && z3::sle(V.E, constant(Hi, W)));
      S.Loads.push_back({P.Base, P.E, V.E});
      if (const ir::Value *Mask = L->mask()) {
        // A lane the mask turns off gets `other` (0 when absent).
        Sym M = eval(S, Mask, Idx);
        Sym Other = L->other() ? eval(S, L->other(), Idx) : intSym(constant(0, W));
        if (M.K != Sym::Kind::Bool || M.Data || Other.K != Sym::Kind::Int || Other.Data)
          return fresh(S, Ty, true);
        V.E = z3::ite(M.E, V.E, Other.E);
      }
      return V;
    }
  }
  // Loads, atomics, reductions, dots, random numbers, loop results: data.
  return fresh(S, Ty, true);
}

} // namespace tessel::analysis
