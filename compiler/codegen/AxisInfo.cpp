//===- AxisInfo.cpp - contiguity, divisibility and constancy --------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// One forward walk over the function (regions included) applying Triton's
/// transfer rules; loop-carried values start from their inits and are met
/// with the values yielded until nothing changes (at most a few rounds:
/// every meet only lowers the facts).
//===----------------------------------------------------------------------===//
#include "compiler/codegen/AxisInfo.h"

#include "compiler/ir/Ops.h"

#include <algorithm>
#include <numeric>

namespace tessel::codegen {

namespace {
constexpr int64_t MaxDivisibility = int64_t{1} << 30;

int64_t pow2Divisor(int64_t V) {
  if (V == 0)
    return MaxDivisibility;
  int64_t D = 1;
  while (D < MaxDivisibility && (V % (D * 2)) == 0)
    D *= 2;
  return D;
}

int64_t gcd64(int64_t A, int64_t B) { return std::gcd(A, B); }
} // namespace

struct AxisInfoBuilder {
  AxisInfoAnalysis &A;
  const std::set<std::string> &Divisible;

  static size_t rankOf(const ir::Value *V) { return std::max<size_t>(1, V->type().Shape.size()); }
  static int64_t dimOf(const ir::Value *V, size_t D) { return V->type().Shape.empty() ? 1 : V->type().Shape[D]; }

  AxisInfo conservative(const ir::Value *V) {
    size_t R = rankOf(V);
    return {std::vector<int64_t>(R, 1), std::vector<int64_t>(R, 1), std::vector<int64_t>(R, 1)};
  }
  AxisInfo constantInfo(const ir::Value *V, int64_t Div) {
    AxisInfo I = conservative(V);
    for (size_t D = 0; D < I.Constancy.size(); ++D) {
      I.Constancy[D] = dimOf(V, D);
      I.Divisibility[D] = Div;
    }
    return I;
  }
  const AxisInfo &get(const ir::Value *V) {
    auto It = A.Infos.find(V);
    if (It == A.Infos.end())
      It = A.Infos.emplace(V, conservative(V)).first;
    return It->second;
  }
  void set(const ir::Value *V, AxisInfo I) { A.Infos[V] = std::move(I); }

  static int64_t elemBytes(const ir::Value *V) {
    ElemType E = V->type().Elem;
    return std::max(1, bitWidth(E.pointee().Scalar) / 8);
  }

  /// Whether V is the integer constant 1 (or a splat of it).
  static bool isOne(const ir::Value *V) {
    const ir::Op *D = V->definingOp();
    if (D && D->kind() == ir::OpKind::Splat)
      D = D->operand(0)->definingOp();
    return D && D->kind() == ir::OpKind::Constant && isInt(V->type().Elem.Scalar) && !V->type().Elem.isPointer() &&
           ir::cast<ir::ConstantOp>(D)->intValue() == 1;
  }

  AxisInfo binary(const ir::Op &O) {
    const ir::Value *L = O.operand(0), *R = O.operand(1);
    const AxisInfo &X = get(L), &Y = get(R);
    AxisInfo I = conservative(O.result());
    int64_t Scale = O.kind() == ir::OpKind::AddPtr ? elemBytes(O.result()) : 1;
    for (size_t D = 0; D < I.Contiguity.size(); ++D) {
      I.Constancy[D] = gcd64(X.Constancy[D], Y.Constancy[D]);
      switch (O.kind()) {
      case ir::OpKind::Add:
      case ir::OpKind::AddPtr:
        I.Contiguity[D] = std::max(gcd64(X.Contiguity[D], Y.Constancy[D]), gcd64(X.Constancy[D], Y.Contiguity[D]));
        I.Divisibility[D] = gcd64(X.Divisibility[D], Y.Divisibility[D] * Scale);
        break;
      case ir::OpKind::Sub:
        I.Contiguity[D] = gcd64(X.Contiguity[D], Y.Constancy[D]);
        I.Divisibility[D] = gcd64(X.Divisibility[D], Y.Divisibility[D]);
        break;
      case ir::OpKind::Mul:
        I.Divisibility[D] = std::min(MaxDivisibility, X.Divisibility[D] * Y.Divisibility[D]);
        // x * 1 is x (Triton's MulIOp rule): a stride specialized to 1.
        if (isOne(R))
          I.Contiguity[D] = X.Contiguity[D];
        else if (isOne(L))
          I.Contiguity[D] = Y.Contiguity[D];
        break;
      case ir::OpKind::Mod:
        // (contiguous run) % (multiple of d) stays contiguous for d steps.
        I.Contiguity[D] = gcd64(X.Contiguity[D], Y.Divisibility[D]);
        I.Divisibility[D] = gcd64(X.Divisibility[D], Y.Divisibility[D]);
        break;
      case ir::OpKind::And:
      case ir::OpKind::Or:
        break;
      default:
        break;
      }
    }
    return I;
  }

  AxisInfo compare(const ir::Op &O) {
    const AxisInfo &X = get(O.operand(0)), &Y = get(O.operand(1));
    AxisInfo I = conservative(O.result());
    auto P = ir::cast<ir::CmpOp>(&O)->predicate();
    bool Ordered = P != ir::CmpPredicate::EQ && P != ir::CmpPredicate::NE;
    for (size_t D = 0; D < I.Constancy.size(); ++D) {
      int64_t C = gcd64(X.Constancy[D], Y.Constancy[D]);
      // `offs < n`: a contiguous run compared with a constant both aligned
      // to g changes its answer only at multiples of g.
      if (Ordered) {
        int64_t G = gcd64(X.Divisibility[D], Y.Divisibility[D]);
        C = std::max(C, std::min({X.Contiguity[D], G, Y.Constancy[D]}));
        C = std::max(C, std::min({Y.Contiguity[D], G, X.Constancy[D]}));
      }
      I.Constancy[D] = C;
    }
    return I;
  }

  void visitBlock(const ir::Block &B) {
    for (const auto &Op : B.ops())
      visit(*Op);
  }

  void meetInto(const ir::Value *V, const AxisInfo &With, bool &Changed) {
    AxisInfo Cur = get(V);
    for (size_t D = 0; D < Cur.Contiguity.size() && D < With.Contiguity.size(); ++D) {
      int64_t C = std::min(Cur.Contiguity[D], With.Contiguity[D]);
      int64_t Dv = gcd64(Cur.Divisibility[D], With.Divisibility[D]);
      int64_t K = std::min(Cur.Constancy[D], With.Constancy[D]);
      if (C != Cur.Contiguity[D] || Dv != Cur.Divisibility[D] || K != Cur.Constancy[D])
        Changed = true;
      Cur.Contiguity[D] = C;
      Cur.Divisibility[D] = Dv;
      Cur.Constancy[D] = K;
    }
    set(V, std::move(Cur));
  }

  void visitLoop(const ir::Block &Body, unsigned FirstArg, const std::vector<ir::Value *> &Inits) {
    for (size_t I = 0; I < Inits.size(); ++I)
      set(Body.argument(FirstArg + I), get(Inits[I]));
    for (int Round = 0; Round < 4; ++Round) {
      visitBlock(Body);
      const ir::Op *Y = Body.terminator();
      if (!Y)
        return;
      bool Changed = false;
      unsigned Skip = Y->kind() == ir::OpKind::Condition ? 1 : 0;
      for (size_t I = 0; I < Inits.size() && I + Skip < Y->numOperands(); ++I)
        meetInto(Body.argument(FirstArg + I), get(Y->operand(I + Skip)), Changed);
      if (!Changed)
        return;
    }
  }

  void visit(const ir::Op &O) {
    using K = ir::OpKind;
    switch (O.kind()) {
    case K::Constant: {
      ElemType E = O.result()->type().Elem;
      set(O.result(), constantInfo(O.result(), isFloat(E.Scalar) ? 1 : pow2Divisor(O.intAttr())));
      return;
    }
    case K::Arange: {
      AxisInfo I = conservative(O.result());
      I.Contiguity[0] = O.result()->type().Shape[0];
      I.Divisibility[0] = pow2Divisor(ir::cast<ir::ArangeOp>(&O)->start());
      set(O.result(), I);
      return;
    }
    case K::ProgramId:
    case K::NumPrograms:
      set(O.result(), conservative(O.result()));
      return;
    case K::Splat: {
      set(O.result(), constantInfo(O.result(), get(O.operand(0)).Divisibility[0]));
      return;
    }
    case K::Broadcast: {
      const AxisInfo &X = get(O.operand(0));
      AxisInfo I = X;
      const auto &From = O.operand(0)->type().Shape, &To = O.result()->type().Shape;
      for (size_t D = 0; D < To.size() && D < From.size(); ++D)
        if (From[D] == 1 && To[D] != 1) {
          I.Contiguity[D] = 1;
          I.Constancy[D] = To[D];
        }
      set(O.result(), I);
      return;
    }
    case K::ExpandDims: {
      AxisInfo I = get(O.operand(0));
      size_t Ax = static_cast<size_t>(ir::cast<ir::ExpandDimsOp>(&O)->axis());
      if (O.operand(0)->type().Shape.empty())
        I = conservative(O.result()), I.Divisibility.assign(1, get(O.operand(0)).Divisibility[0]);
      else {
        int64_t Div = *std::min_element(I.Divisibility.begin(), I.Divisibility.end());
        I.Contiguity.insert(I.Contiguity.begin() + Ax, 1);
        I.Divisibility.insert(I.Divisibility.begin() + Ax, Div);
        I.Constancy.insert(I.Constancy.begin() + Ax, 1);
      }
      set(O.result(), I);
      return;
    }
    case K::Add:
    case K::Sub:
    case K::Mul:
    case K::Mod:
    case K::AddPtr:
    case K::And:
    case K::Or:
      set(O.result(), binary(O));
      return;
    case K::Cmp:
      set(O.result(), compare(O));
      return;
    case K::Cast: {
      const ElemType &From = O.operand(0)->type().Elem, &To = O.result()->type().Elem;
      if (isInt(From.Scalar) && isInt(To.Scalar) && !From.isPointer() && !To.isPointer())
        set(O.result(), get(O.operand(0)));
      else
        set(O.result(), conservative(O.result()));
      return;
    }
    case K::Hint: {
      AxisInfo I = get(O.operand(0));
      const auto *H = ir::cast<ir::HintOp>(&O);
      for (size_t D = 0; D < I.Contiguity.size() && D < H->values().size(); ++D) {
        int64_t V = H->values()[D];
        switch (H->hintKind()) {
        case ir::HintKind::MultipleOf:
          I.Divisibility[D] = std::max(I.Divisibility[D], pow2Divisor(V));
          break;
        case ir::HintKind::MaxContiguous:
          I.Contiguity[D] = std::max(I.Contiguity[D], V);
          break;
        case ir::HintKind::MaxConstancy:
          I.Constancy[D] = std::max(I.Constancy[D], V);
          break;
        }
      }
      set(O.result(), I);
      return;
    }
    case K::Select: {
      const AxisInfo &C = get(O.operand(0)), &X = get(O.operand(1)), &Y = get(O.operand(2));
      AxisInfo I = conservative(O.result());
      for (size_t D = 0; D < I.Contiguity.size(); ++D) {
        I.Constancy[D] = gcd64(C.Constancy[D], gcd64(X.Constancy[D], Y.Constancy[D]));
        I.Divisibility[D] = gcd64(X.Divisibility[D], Y.Divisibility[D]);
        I.Contiguity[D] = gcd64(C.Constancy[D], std::min(X.Contiguity[D], Y.Contiguity[D]));
      }
      set(O.result(), I);
      return;
    }
    case K::For: {
      const auto *F = ir::cast<ir::ForOp>(&O);
      // Triton's visitForOpInductionVar: every value is lb + i * step.
      AxisInfo Iv = conservative(F->inductionVar());
      Iv.Divisibility[0] = gcd64(get(F->lowerBound()).Divisibility[0], get(F->step()).Divisibility[0]);
      set(F->inductionVar(), Iv);
      std::vector<ir::Value *> Inits;
      for (unsigned I = 0; I < F->numInits(); ++I)
        Inits.push_back(F->init(I));
      visitLoop(*F->body(), 1, Inits);
      // The results are the carried values: the meet of the inits and the
      // yields, which the region arguments hold (Triton's scf.for rule), so
      // a pointer carried through nested loops keeps its contiguity.
      for (unsigned I = 0; I < F->numResults() && 1 + I < F->body()->arguments().size(); ++I)
        set(F->result(I), get(F->body()->argument(1 + I)));
      return;
    }
    case K::While: {
      const auto *W = ir::cast<ir::WhileOp>(&O);
      visitLoop(*W->before(), 0, O.operands());
      for (ir::Value *Arg : W->after()->arguments())
        set(Arg, conservative(Arg));
      visitBlock(*W->after());
      break;
    }
    case K::If:
    case K::Reduce:
    case K::Scan:
      for (const auto &R : O.regions()) {
        for (ir::Value *Arg : R->arguments())
          set(Arg, conservative(Arg));
        visitBlock(*R);
      }
      break;
    default:
      break;
    }
    for (ir::Value *R : O.results())
      set(R, conservative(R));
  }
};

AxisInfoAnalysis::AxisInfoAnalysis(const ir::Function &F, const std::set<std::string> &DivisibleBy16) {
  // Wide enough for any rank a consumer indexes.
  Unknown = {std::vector<int64_t>(8, 1), std::vector<int64_t>(8, 1), std::vector<int64_t>(8, 1)};
  AxisInfoBuilder B{*this, DivisibleBy16};
  for (ir::Value *P : F.params()) {
    AxisInfo I = B.conservative(P);
    if (DivisibleBy16.count(P->name()))
      I.Divisibility[0] = 16;
    Infos[P] = I;
  }
  B.visitBlock(F.body());
}

const AxisInfo &AxisInfoAnalysis::get(const ir::Value *V) const {
  auto It = Infos.find(V);
  return It == Infos.end() ? Unknown : It->second;
}

} // namespace tessel::codegen
