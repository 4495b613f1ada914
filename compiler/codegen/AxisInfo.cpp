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
    return {std::vector<int64_t>(R, 1), std::vector<int64_t>(R, 1), std::vector<int64_t>(R, 1), std::nullopt};
  }
  AxisInfo constantInfo(const ir::Value *V, int64_t Div, std::optional<int64_t> Value = std::nullopt) {
    AxisInfo I = conservative(V);
    for (size_t D = 0; D < I.Constancy.size(); ++D) {
      I.Constancy[D] = dimOf(V, D);
      I.Divisibility[D] = Div;
    }
    I.ConstantValue = Value;
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

  AxisInfo binary(const ir::Op &O) {
    const ir::Value *L = O.operand(0), *R = O.operand(1);
    const AxisInfo &X = get(L), &Y = get(R);
    AxisInfo I = conservative(O.result());
    int64_t Scale = O.kind() == ir::OpKind::AddPtr ? elemBytes(O.result()) : 1;
    bool XOne = X.ConstantValue == 1, YOne = Y.ConstantValue == 1;
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
      case ir::OpKind::Mul: {
        // Triton's rules: `x * 1` is x; otherwise a contiguous run's
        // divisibility holds for its first element only, so after the
        // product (contiguity 1) it counts as 1.
        if (YOne)
          I.Contiguity[D] = X.Contiguity[D];
        else if (XOne)
          I.Contiguity[D] = Y.Contiguity[D];
        int64_t XD = X.Contiguity[D] > 1 && !YOne ? 1 : X.Divisibility[D];
        int64_t YD = Y.Contiguity[D] > 1 && !XOne ? 1 : Y.Divisibility[D];
        I.Divisibility[D] = std::min(MaxDivisibility, XD * YD);
        break;
      }
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
    if (X.ConstantValue && Y.ConstantValue) {
      int64_t V = 0;
      bool Overflow = true;
      if (O.kind() == ir::OpKind::Add)
        Overflow = __builtin_add_overflow(*X.ConstantValue, *Y.ConstantValue, &V);
      else if (O.kind() == ir::OpKind::Sub)
        Overflow = __builtin_sub_overflow(*X.ConstantValue, *Y.ConstantValue, &V);
      else if (O.kind() == ir::OpKind::Mul)
        Overflow = __builtin_mul_overflow(*X.ConstantValue, *Y.ConstantValue, &V);
      if (!Overflow && fits(V, O.result()))
        I.ConstantValue = V;
    }
    return I;
  }

  /// V is representable in R's integer type (a constant must not be one
  /// the type wraps).
  static bool fits(int64_t V, const ir::Value *R) {
    ElemType E = R->type().Elem;
    if (E.isPointer() || !isInt(E.Scalar))
      return false;
    int Bits = bitWidth(E.Scalar);
    if (Bits >= 64)
      return true;
    return V >= -(int64_t{1} << (Bits - 1)) && V < (int64_t{1} << (Bits - 1));
  }

  /// Triton's MaxMinOpAxisInfoVisitor, for integers: the constant where
  /// both are; else each property of the two's gcd, divisibility bounded by
  /// the contiguities where those differ (getDivisibilityFromContiguity).
  /// mamba's `chunk_size_limit = min(chunk_size, seqlen - pid_c *
  /// chunk_size)` keeps the 16 both sides have, so the masks against it
  /// stay constant over 16 and a 64-element fp16 load under them is an
  /// 8-byte copy Triton pipelines.
  AxisInfo minMax(const ir::Op &O) {
    AxisInfo I = conservative(O.result());
    ElemType E = O.result()->type().Elem;
    if (E.isPointer() || !isInt(E.Scalar))
      return I;
    const AxisInfo &X = get(O.operand(0)), &Y = get(O.operand(1));
    if (X.ConstantValue && Y.ConstantValue) {
      int64_t V = O.kind() == ir::OpKind::Minimum ? std::min(*X.ConstantValue, *Y.ConstantValue)
                                                  : std::max(*X.ConstantValue, *Y.ConstantValue);
      return constantInfo(O.result(), pow2Divisor(V), V);
    }
    for (size_t D = 0; D < I.Contiguity.size(); ++D) {
      I.Constancy[D] = gcd64(X.Constancy[D], Y.Constancy[D]);
      I.Contiguity[D] = gcd64(X.Contiguity[D], Y.Contiguity[D]);
      int64_t Div = gcd64(X.Divisibility[D], Y.Divisibility[D]);
      if (X.Contiguity[D] != Y.Contiguity[D])
        Div = gcd64(Div, gcd64(X.Contiguity[D], Y.Contiguity[D]));
      I.Divisibility[D] = Div;
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
    if (Cur.ConstantValue && Cur.ConstantValue != With.ConstantValue) {
      Cur.ConstantValue.reset();
      Changed = true;
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
      bool Fp = isFloat(E.Scalar);
      set(O.result(), constantInfo(O.result(), Fp ? 1 : pow2Divisor(O.intAttr()),
                                   Fp || E.isPointer() ? std::nullopt : std::optional<int64_t>(O.intAttr())));
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
      const AxisInfo &X = get(O.operand(0));
      set(O.result(), constantInfo(O.result(), X.Divisibility[0], X.ConstantValue));
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
      if (O.operand(0)->type().Shape.empty()) {
        std::optional<int64_t> Value = I.ConstantValue;
        I = conservative(O.result()), I.Divisibility.assign(1, get(O.operand(0)).Divisibility[0]);
        I.ConstantValue = Value;
      } else {
        // Triton's ExpandDimsOpAxisInfoVisitor: along the new axis every
        // element is a run of its own, so its divisibility is that of every
        // element; a contiguous run [2^n, 2^n + 1, ...] counts as 1, not 2^n.
        // (Taking 2^n made `offs_m[:, None] >= offs_n[None, :]` look constant
        // over 32 columns, and the causal mask was merged across them.)
        int64_t Div = 0;
        for (size_t D = 0; D < I.Divisibility.size(); ++D)
          Div = gcd64(Div, I.Contiguity[D] > 1 ? 1 : I.Divisibility[D]);
        if (I.ConstantValue)
          Div = *I.ConstantValue == 0 ? I.Divisibility[0] : (*I.ConstantValue & -*I.ConstantValue);
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
    case K::Minimum:
    case K::Maximum:
      set(O.result(), minMax(O));
      return;
    case K::MakeTensorDesc: // its value is the base pointer
      set(O.result(), get(O.operand(0)));
      return;
    case K::Cast: {
      const ElemType &From = O.operand(0)->type().Elem, &To = O.result()->type().Elem;
      if (isInt(From.Scalar) && isInt(To.Scalar) && !From.isPointer() && !To.isPointer()) {
        AxisInfo I = get(O.operand(0));
        if (I.ConstantValue && !fits(*I.ConstantValue, O.result()))
          I.ConstantValue.reset();
        set(O.result(), I);
      } else
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
      // Triton's visitForOpInductionVar: every value of the induction
      // variable is lb + i * step.
      AxisInfo IV = conservative(F->inductionVar());
      IV.Divisibility[0] = gcd64(get(F->lowerBound()).Divisibility[0], get(F->step()).Divisibility[0]);
      set(F->inductionVar(), IV);
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
  Unknown = {std::vector<int64_t>(8, 1), std::vector<int64_t>(8, 1), std::vector<int64_t>(8, 1), std::nullopt};
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
