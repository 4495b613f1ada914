//===- BoundsProver.cpp - every access in bounds, or the launch that breaks it -===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The driver of the bounds prover (the model is in the header): plans the
/// launches (sema::planLaunch), lowers each specialization, collects the
/// accesses, groups them by base pointer and offsets, and asks Z3 per access
/// whether an enabled lane goes below 0 or past the extent. A satisfiable
/// query becomes a counterexample in words and as a launch spec; Z3's
/// exceptions and time-outs become "undecided", never a finding.
//===----------------------------------------------------------------------===//
#include "compiler/analysis/BoundsProver.h"

#include "compiler/analysis/SymbolicTir.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>

namespace tessel::analysis {

namespace {

using Clock = std::chrono::steady_clock;

struct Access {
  const ir::Op *Op = nullptr;
  const ir::Value *Ptr = nullptr;
  const ir::Value *Mask = nullptr;
  const ir::Value *Offsets = nullptr; ///< the offsets added to a splat kernel argument, when that is the shape
  std::string Name, Verb;
  int Base = -1;
  bool Data = false;
  size_t Group = 0;
};

/// One launch environment: what is concrete and what the accesses are.
struct Environment {
  const ParsedFile *File = nullptr;
  const ir::Function *F = nullptr;
  const launch::ConcreteLaunch *Launch = nullptr; ///< null: the conventional reading
  const sema::LoweringRequest *Request = nullptr;
};

std::string opName(const ir::Op *O) {
  if (const auto *A = ir::dyn_cast<ir::AtomicRMWOp>(O))
    return "atomic_" + std::string(ir::atomicKindName(A->atomicKind()));
  return std::string(ir::opName(O->kind()));
}

void collectAccesses(const ir::Block &B, std::vector<Access> &Out) {
  for (const auto &Op : B.ops()) {
    Access A;
    A.Op = Op.get();
    if (const auto *L = ir::dyn_cast<ir::LoadOp>(Op.get())) {
      A.Ptr = L->ptr();
      A.Mask = L->mask();
      A.Verb = "read";
    } else if (const auto *S = ir::dyn_cast<ir::StoreOp>(Op.get())) {
      A.Ptr = S->ptr();
      A.Mask = S->mask();
      A.Verb = "written";
    } else if (const auto *R = ir::dyn_cast<ir::AtomicRMWOp>(Op.get())) {
      A.Ptr = R->ptr();
      A.Mask = R->mask();
      A.Verb = "updated";
    } else if (const auto *Cas = ir::dyn_cast<ir::AtomicCasOp>(Op.get())) {
      A.Ptr = Cas->ptr();
      A.Verb = "updated";
    }
    if (A.Ptr) {
      A.Name = opName(Op.get());
      if (const ir::Op *D = A.Ptr->definingOp(); D && D->kind() == ir::OpKind::AddPtr) {
        const ir::Op *Base = D->operand(0)->definingOp();
        while (Base && (Base->kind() == ir::OpKind::Splat || Base->kind() == ir::OpKind::Broadcast))
          Base = Base->operand(0)->definingOp();
        if (!Base)
          A.Offsets = D->operand(1);
      }
      Out.push_back(A);
    }
    for (const auto &R : Op->regions())
      collectAccesses(*R, Out);
  }
}

/// Predicates (tl.where conditions) that guard values of Access's shape and
/// are computed where the access can see them.
bool encloses(const ir::Block *Outer, const ir::Op *Inner) {
  for (const ir::Block *B = Inner->parentBlock(); B; B = B->parentOp() ? B->parentOp()->parentBlock() : nullptr)
    if (B == Outer)
      return true;
  return false;
}

void collectWhereConditions(const ir::Block &B, std::vector<const ir::Value *> &Out) {
  for (const auto &Op : B.ops()) {
    if (Op->kind() == ir::OpKind::Select && !Op->operand(0)->type().Shape.empty())
      Out.push_back(Op->operand(0));
    for (const auto &R : Op->regions())
      collectWhereConditions(*R, Out);
  }
}

int64_t signedValue(const z3::expr &V) {
  uint64_t U = 0;
  if (!V.is_numeral() || !Z3_get_numeral_uint64(V.ctx(), V, &U))
    return 0;
  unsigned W = V.get_sort().is_bv() ? V.get_sort().bv_size() : 64;
  if (W < 64 && (U >> (W - 1)) & 1)
    U |= ~uint64_t(0) << W;
  return static_cast<int64_t>(U);
}

std::string pointeeName(const ir::Value *P) {
  ScalarKind K = P->type().Elem.Scalar;
  return K == ScalarKind::Unknown || K == ScalarKind::Void ? "fp32" : std::string(shortName(K));
}

class KernelProver {
public:
  KernelProver(const Environment &Env, const ProverOptions &Opts, Clock::time_point Deadline)
      : Env(Env), Opts(Opts), Deadline(Deadline) {}

  /// Verdicts for every access of Env.F, in source order.
  std::vector<AccessBounds> run(std::vector<std::string> &Assumptions, bool &TimedOut);

private:
  std::optional<unsigned> budget() {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(Deadline - Clock::now()).count();
    if (Left <= 0)
      return std::nullopt;
    return static_cast<unsigned>(std::min<int64_t>(Left, Opts.QueryTimeoutMs));
  }
  z3::check_result check(z3::solver &S) {
    std::optional<unsigned> Ms = budget();
    if (!Ms) {
      OutOfTime = true;
      return z3::unknown;
    }
    z3::params P(Ctx);
    P.set("timeout", *Ms);
    S.set(P);
    z3::check_result R = S.check();
    if (R == z3::unknown)
      OutOfTime = OutOfTime || !budget();
    return R;
  }
  void setUp(std::vector<std::string> &Assumptions);
  void constrainGrid(std::vector<std::string> &Assumptions);
  /// The accesses' reference region on side S at lanes L (see the header).
  Sym referenceRegion(SideVars &S, const Access &R, const std::vector<z3::expr> &L);
  AccessBounds prove(const Access &A);
  Counterexample example(const Access &A, const z3::model &M, SideVars &SA, const std::vector<z3::expr> &Lanes,
                         const Sym &Ptr, int64_t Extent);
  int64_t groupExtent(size_t Group, const z3::model &M);
  int64_t extentOf(const Access &R, const z3::model &M);
  z3::expr launchEquals(const z3::model &M);

  const Environment &Env;
  const ProverOptions &Opts;
  Clock::time_point Deadline;
  z3::context Ctx;
  std::unique_ptr<Encoder> Enc;
  std::vector<Access> Accesses;
  std::vector<const ir::Value *> WhereConds;
  std::vector<z3::expr> Global;
  std::map<int, int64_t> SpecExtent; ///< parameter index -> elements (launch spec)
  unsigned SideCounter = 0;
  bool OutOfTime = false;
};

void KernelProver::setUp(std::vector<std::string> &Assumptions) {
  const ir::Function &F = *Env.F;
  std::vector<std::optional<int64_t>> Params(F.params().size());
  std::array<std::optional<int64_t>, 3> Grid;
  if (Env.Launch) {
    for (size_t I = 0; I < F.params().size(); ++I) {
      const ir::Value *P = F.params()[I];
      if (P->type().Elem.isPointer()) {
        for (const launch::ConcreteTensor &T : Env.Launch->Tensors)
          if (T.Name == P->name())
            SpecExtent[static_cast<int>(I)] = T.StorageElements;
        continue;
      }
      if (const launch::ConcreteValue *V = Env.Launch->value(P->name()); V && !V->IsFloat)
        Params[I] = V->Int;
    }
    for (int A = 0; A < 3; ++A)
      Grid[A] = Env.Launch->Grid[A];
  }
  Enc = std::make_unique<Encoder>(Ctx, F, Env.Launch ? IntModel::Wrapping : IntModel::Exact, Params, Grid);
  for (const z3::expr &E : Enc->launchConstraints())
    Global.push_back(E);
  collectAccesses(F.body(), Accesses);
  collectWhereConditions(F.body(), WhereConds);
  // Base pointers, and groups: same base argument, same pointer tile or same offsets.
  std::shared_ptr<SideVars> Probe = Enc->newSide("probe");
  for (Access &A : Accesses) {
    std::vector<z3::expr> L = Enc->lanes(*Probe, A.Ptr->type().Shape);
    Sym P = Enc->eval(*Probe, A.Ptr, L);
    A.Base = P.K == Sym::Kind::Ptr ? P.Base : -1;
    A.Data = P.Data || P.K != Sym::Kind::Ptr;
    if (A.Mask) {
      Sym M = Enc->eval(*Probe, A.Mask, L);
      A.Data = A.Data || M.Data || M.K != Sym::Kind::Bool;
    }
  }
  std::vector<size_t> Parent(Accesses.size());
  for (size_t I = 0; I < Parent.size(); ++I)
    Parent[I] = I;
  auto Find = [&](size_t X) {
    while (Parent[X] != X)
      X = Parent[X] = Parent[Parent[X]];
    return X;
  };
  for (size_t I = 0; I < Accesses.size(); ++I)
    for (size_t J = 0; J < I; ++J) {
      const Access &A = Accesses[I], &B = Accesses[J];
      bool Same = (A.Base >= 0 && A.Base == B.Base) || A.Ptr == B.Ptr ||
                  (A.Offsets && A.Offsets == B.Offsets && A.Ptr->type().Shape == B.Ptr->type().Shape);
      if (Same)
        Parent[Find(I)] = Find(J);
    }
  for (size_t I = 0; I < Accesses.size(); ++I)
    Accesses[I].Group = Find(I);
  if (!Env.Launch)
    constrainGrid(Assumptions);
}

/// The conventional grid: along an axis whose program id indexes a mask
/// comparison `pid * BLOCK + lane < size`, cdiv(size, BLOCK) programs.
void KernelProver::constrainGrid(std::vector<std::string> &Assumptions) {
  std::vector<const ir::CmpOp *> Cmps;
  std::vector<const ir::Block *> Work{&Env.F->body()};
  while (!Work.empty()) {
    const ir::Block *B = Work.back();
    Work.pop_back();
    for (const auto &Op : B->ops()) {
      if (const auto *C = ir::dyn_cast<ir::CmpOp>(Op.get()))
        Cmps.push_back(C);
      for (const auto &R : Op->regions())
        Work.push_back(R.get());
    }
  }
  std::sort(Cmps.begin(), Cmps.end(),
            [](const ir::CmpOp *A, const ir::CmpOp *B) { return A->loc().Begin < B->loc().Begin; });
  std::array<bool, 3> Done{};
  std::shared_ptr<SideVars> P = Enc->newSide("grid");
  for (const ir::CmpOp *C : Cmps) {
    ir::CmpPredicate Pr = C->predicate();
    if (Pr == ir::CmpPredicate::EQ || Pr == ir::CmpPredicate::NE || C->operand(0)->type().Shape.empty())
      continue;
    bool Upper = Pr == ir::CmpPredicate::LT || Pr == ir::CmpPredicate::LE;
    const ir::Value *Index = Upper ? C->operand(0) : C->operand(1), *Size = Upper ? C->operand(1) : C->operand(0);
    std::vector<z3::expr> L = Enc->lanes(*P, Index->type().Shape);
    Sym I = Enc->eval(*P, Index, L), S = Enc->eval(*P, Size, L);
    if (I.K != Sym::Kind::Int || S.K != Sym::Kind::Int || I.Data || S.Data || Enc->mentions(S.E, *P))
      continue;
    for (int A = 0; A < 3; ++A) {
      if (Done[A])
        continue;
      z3::expr_vector From(Ctx), To0(Ctx), To1(Ctx);
      for (const z3::expr &V : P->Vars) {
        From.push_back(V);
        bool IsPid = z3::eq(V, P->Pid[static_cast<size_t>(A)]);
        To0.push_back(Ctx.bv_val(0, V.get_sort().bv_size()));
        To1.push_back(Ctx.bv_val(IsPid ? 1 : 0, V.get_sort().bv_size()));
      }
      z3::expr Step = (I.E.substitute(From, To1) - I.E.substitute(From, To0)).simplify();
      if (!Step.is_numeral())
        continue;
      int64_t Block = signedValue(Step);
      if (Block <= 0)
        continue;
      z3::expr G = Enc->toI64(Enc->grid(A), true), Sz = Enc->toI64(S.E, true), B = Ctx.bv_val(Block, 64);
      Global.push_back(z3::sge(G * B, Sz) && z3::slt(G * B, Sz + B));
      Done[A] = true;
      std::string Text(Env.File->text().slice(C->loc()));
      Assumptions.push_back("program_id(" + std::to_string(A) + ") ranges over cdiv(size, " + std::to_string(Block) +
                            ") programs, the size `" + Text + "` compares against");
    }
  }
}

Sym KernelProver::referenceRegion(SideVars &S, const Access &R, const std::vector<z3::expr> &L) {
  if (R.Mask)
    return Enc->region(S, R.Mask, L);
  Sym Out(Ctx);
  Out.K = Sym::Kind::Bool;
  Out.E = Ctx.bool_val(true);
  for (const ir::Value *W : WhereConds) {
    if (W->type().Shape != R.Ptr->type().Shape || !W->definingOp() || !encloses(W->definingOp()->parentBlock(), R.Op))
      continue;
    Sym C = Enc->region(S, W, L);
    if (C.K == Sym::Kind::Bool && !C.Data)
      Out.E = Out.E && C.E;
  }
  return Out;
}

z3::expr KernelProver::launchEquals(const z3::model &M) {
  z3::expr Out = Ctx.bool_val(true);
  for (const auto &[Name, V] : Enc->launchVars())
    Out = Out && V == M.eval(V, true);
  return Out;
}

int64_t KernelProver::extentOf(const Access &R, const z3::model &M) {
  std::shared_ptr<SideVars> S = Enc->newSide("x" + std::to_string(SideCounter++));
  std::vector<z3::expr> L = Enc->lanes(*S, R.Ptr->type().Shape);
  Sym P = Enc->eval(*S, R.Ptr, L);
  Sym Reg = referenceRegion(*S, R, L);
  z3::expr Path = Enc->pathCondition(*S, R.Op);
  if (P.K != Sym::Kind::Ptr || P.Data || Reg.Data)
    return -1;
  z3::optimize O(Ctx);
  std::optional<unsigned> Ms = budget();
  if (!Ms)
    return -1;
  z3::params Pm(Ctx);
  Pm.set("timeout", *Ms);
  O.set(Pm);
  for (const z3::expr &G : Global)
    O.add(G);
  for (const z3::expr &C : S->Constraints)
    O.add(C);
  O.add(launchEquals(M));
  O.add(Path);
  O.add(Reg.E);
  // Signed order as unsigned: flip the sign bit.
  z3::expr Key = P.E ^ Ctx.bv_val(uint64_t(1) << 63, 64);
  z3::optimize::handle H = O.maximize(Key);
  if (O.check() != z3::sat)
    return -1;
  (void)H;
  int64_t Max = signedValue(O.get_model().eval(P.E, true));
  return Max + 1;
}

int64_t KernelProver::groupExtent(size_t Group, const z3::model &M) {
  int64_t Best = -1;
  for (const Access &R : Accesses) {
    if (R.Group != Group || R.Data)
      continue;
    int64_t E = extentOf(R, M);
    if (E > 0 && (Best < 0 || E < Best))
      Best = E;
  }
  return Best;
}

Counterexample KernelProver::example(const Access &A, const z3::model &M, SideVars &SA,
                                     const std::vector<z3::expr> &Lanes, const Sym &Ptr, int64_t Extent) {
  const ir::Function &F = *Env.F;
  Counterexample C;
  C.Pointer = A.Base >= 0 ? F.params()[static_cast<size_t>(A.Base)]->name() : "?";
  C.Offset = signedValue(M.eval(Ptr.E, true));
  for (int D = 0; D < 3; ++D) {
    C.ProgramId[D] = signedValue(M.eval(SA.Pid[D], true));
    C.Grid[D] = signedValue(M.eval(Enc->grid(D), true));
  }
  const std::vector<int64_t> &Shape = A.Ptr->type().Shape;
  C.Lane = 0;
  for (size_t D = 0; D < Shape.size(); ++D)
    C.Lane = C.Lane * Shape[D] + signedValue(M.eval(Lanes[D], true));
  for (const ir::Op *L : SA.LoopOrder) {
    const auto *For = ir::cast<ir::ForOp>(L);
    if (!encloses(For->body(), A.Op))
      continue;
    std::string Name = For->inductionVar()->name().empty() ? "i" : For->inductionVar()->name();
    C.Iterations.push_back({Name, signedValue(M.eval(SA.Loops.at(L).Iv, true))});
  }
  std::string Sizes;
  for (size_t I = 0; I < F.params().size(); ++I) {
    const ir::Value *P = F.params()[I];
    if (P->type().Elem.isPointer()) {
      int64_t Elements = 1;
      if (Env.Launch) {
        auto It = SpecExtent.find(static_cast<int>(I));
        Elements = It == SpecExtent.end() ? 1 : It->second;
      } else if (static_cast<int>(I) == A.Base) {
        Elements = Extent;
      } else {
        for (const Access &B : Accesses)
          if (B.Base == static_cast<int>(I)) {
            Elements = groupExtent(B.Group, M);
            break;
          }
      }
      if (Elements <= 0)
        Elements = std::max<int64_t>(C.Offset + 1, 1);
      C.Tensors.push_back({P->name(), pointeeName(P), Elements});
      continue;
    }
    if (isFloat(P->type().Elem.Scalar)) {
      const launch::ConcreteValue *CV = Env.Launch ? Env.Launch->value(P->name()) : nullptr;
      C.Floats.push_back({P->name(), CV ? CV->Float : 0.5});
      continue;
    }
    if (!isInt(P->type().Elem.Scalar))
      continue;
    int64_t V = 1;
    if (Env.Launch) {
      if (const launch::ConcreteValue *CV = Env.Launch->value(P->name()))
        V = CV->Int;
    } else {
      for (const auto &[Name, E] : Enc->launchVars())
        if (Name == P->name())
          V = signedValue(M.eval(E, true));
    }
    C.Scalars.push_back({P->name(), V});
    Sizes += (Sizes.empty() ? "" : ", ") + P->name() + " = " + std::to_string(V);
  }
  if (Env.Request) {
    for (const std::string &Name : Env.Request->EqualToOne)
      C.Scalars.push_back({Name, 1});
    for (const auto &[Name, V] : Env.Request->Constexprs)
      if (V.isIntLike())
        C.Scalars.push_back({Name, V.asInt()});
  }
  C.Extent = Extent;
  std::string Program = C.Grid[1] == 1 && C.Grid[2] == 1 ? std::to_string(C.ProgramId[0])
                                                         : "(" + std::to_string(C.ProgramId[0]) + ", " +
                                                               std::to_string(C.ProgramId[1]) + ", " +
                                                               std::to_string(C.ProgramId[2]) + ")";
  C.Text = C.Pointer + "[" + std::to_string(C.Offset) + "] " + A.Verb + " by program " + Program;
  if (!Shape.empty())
    C.Text += ", lane " + std::to_string(C.Lane);
  for (const auto &[Name, V] : C.Iterations)
    C.Text += ", iteration " + Name + " = " + std::to_string(V);
  if (Env.Launch && !Env.Launch->Label.empty())
    C.Text += ", with " + Env.Launch->Label;
  else if (!Sizes.empty())
    C.Text += ", with " + Sizes;
  if (Extent > 0)
    C.Text += " (" + C.Pointer + " has " + std::to_string(Extent) + " element" + (Extent == 1 ? "" : "s") + ")";
  return C;
}

AccessBounds KernelProver::prove(const Access &A) {
  AccessBounds Out;
  Out.Range = A.Op->loc();
  Out.Op = A.Name;
  if (A.Base < 0) {
    Out.Reason = "the pointer is not traced to a kernel argument";
    return Out;
  }
  if (Env.Launch && !SpecExtent.count(A.Base)) {
    Out.Reason = "the launch spec gives no tensor for " + Env.F->params()[static_cast<size_t>(A.Base)]->name();
    return Out;
  }
  std::shared_ptr<SideVars> SA = Enc->newSide("a" + std::to_string(SideCounter++));
  std::vector<z3::expr> Lanes = Enc->lanes(*SA, A.Ptr->type().Shape);
  Sym Ptr = Enc->eval(*SA, A.Ptr, Lanes);
  z3::expr Enabled = Enc->pathCondition(*SA, A.Op);
  bool Data = Ptr.Data;
  if (A.Mask) {
    Sym M = Enc->eval(*SA, A.Mask, Lanes);
    if (M.K == Sym::Kind::Bool)
      Enabled = Enabled && M.E;
    Data = Data || M.Data || M.K != Sym::Kind::Bool;
  }
  auto Base = [&](z3::solver &S) {
    for (const z3::expr &G : Global)
      S.add(G);
    for (const z3::expr &C : SA->Constraints)
      S.add(C);
    S.add(Enabled);
  };
  bool Unknown = false;
  auto Refute = [&](z3::solver &S, int64_t Extent) {
    // A smaller launch reads better; keep it when one exists.
    if (!Enc->launchVars().empty()) {
      S.push();
      for (const auto &[Name, V] : Enc->launchVars())
        S.add(z3::sle(Enc->toI64(V, true), Ctx.bv_val(4096, 64)));
      if (check(S) != z3::sat) {
        S.pop();
        check(S);
      }
    }
    z3::model M = S.get_model();
    if (Extent < 0 && !Env.Launch)
      Extent = groupExtent(A.Group, M);
    Out.Verdict = BoundsVerdict::Refuted;
    Out.Certain = Env.Launch != nullptr;
    Out.Example = example(A, M, *SA, Lanes, Ptr, Extent);
  };
  auto Undecided = [&](const std::string &Why) {
    Out.Verdict = BoundsVerdict::Undecided;
    Out.Reason = Why;
  };
  // Below the start of the buffer.
  {
    z3::solver S(Ctx);
    Base(S);
    S.add(z3::slt(Ptr.E, Ctx.bv_val(0, 64)));
    z3::check_result R = check(S);
    if (R == z3::sat) {
      if (Data) {
        Undecided("the offsets depend on values loaded from memory");
        return Out;
      }
      Refute(S, Env.Launch ? SpecExtent[A.Base] : -1);
      return Out;
    }
    Unknown = Unknown || R == z3::unknown;
  }
  // At or past the end.
  if (Env.Launch) {
    z3::solver S(Ctx);
    Base(S);
    S.add(z3::sge(Ptr.E, Ctx.bv_val(SpecExtent[A.Base], 64)));
    z3::check_result R = check(S);
    if (R == z3::sat) {
      if (Data) {
        Undecided("the offsets depend on values loaded from memory");
        return Out;
      }
      Refute(S, SpecExtent[A.Base]);
      return Out;
    }
    Unknown = Unknown || R == z3::unknown;
  } else {
    bool Sized = false;
    for (const Access &R : Accesses) {
      if (R.Group != A.Group || R.Data)
        continue;
      std::shared_ptr<SideVars> SR = Enc->newSide("r" + std::to_string(SideCounter++));
      std::vector<z3::expr> LR = Enc->lanes(*SR, R.Ptr->type().Shape);
      Sym PR = Enc->eval(*SR, R.Ptr, LR);
      Sym Reg = referenceRegion(*SR, R, LR);
      z3::expr PathR = Enc->pathCondition(*SR, R.Op);
      if (PR.K != Sym::Kind::Ptr || PR.Data || Reg.Data || Reg.K != Sym::Kind::Bool || Reg.E.simplify().is_true())
        continue;
      Sized = true;
      // A witness that R's region is not empty, so that it says something.
      std::shared_ptr<SideVars> SW = Enc->newSide("w" + std::to_string(SideCounter++));
      std::vector<z3::expr> LW = Enc->lanes(*SW, R.Ptr->type().Shape);
      Sym RegW = referenceRegion(*SW, R, LW);
      z3::expr PathW = Enc->pathCondition(*SW, R.Op);
      z3::expr DomR = Ctx.bool_val(true);
      for (const z3::expr &C : SR->Constraints)
        DomR = DomR && C;
      z3::expr_vector Vars(Ctx);
      for (const z3::expr &V : SR->Vars)
        Vars.push_back(V);
      z3::solver S(Ctx);
      Base(S);
      for (const z3::expr &C : SW->Constraints)
        S.add(C);
      S.add(PathW && RegW.E);
      S.add(z3::forall(Vars, z3::implies(DomR && PathR && Reg.E, z3::slt(PR.E, Ptr.E))));
      z3::check_result Res = check(S);
      if (Res == z3::sat) {
        if (Data) {
          Undecided("the offsets depend on values loaded from memory");
          return Out;
        }
        Refute(S, -1);
        return Out;
      }
      Unknown = Unknown || Res == z3::unknown;
    }
    if (!Sized) {
      // No mask or tl.where of the group bounds the offsets: nothing says
      // how large the tensor is, so nothing is claimed.
      Undecided("no mask says how many elements " + Env.F->params()[static_cast<size_t>(A.Base)]->name() + " has");
      return Out;
    }
  }
  if (Unknown) {
    Undecided(OutOfTime ? "the kernel's time limit ran out" : "the solver gave up within its time limit");
    return Out;
  }
  Out.Verdict = BoundsVerdict::Proven;
  return Out;
}

std::vector<AccessBounds> KernelProver::run(std::vector<std::string> &Assumptions, bool &TimedOut) {
  setUp(Assumptions);
  std::vector<AccessBounds> Out;
  for (const Access &A : Accesses) {
    if (!budget()) {
      AccessBounds B;
      B.Range = A.Op->loc();
      B.Op = A.Name;
      B.Reason = "the kernel's time limit ran out";
      OutOfTime = true;
      Out.push_back(B);
      continue;
    }
    Out.push_back(prove(A));
  }
  TimedOut = OutOfTime;
  return Out;
}

/// The verdicts of several launches of one kernel merged per access: the
/// first refutation wins; proven only where every launch proves it.
void merge(std::vector<AccessBounds> &Into, std::vector<AccessBounds> From) {
  for (AccessBounds &B : From) {
    auto It = std::find_if(Into.begin(), Into.end(), [&](const AccessBounds &A) { return A.Range == B.Range; });
    if (It == Into.end()) {
      Into.push_back(std::move(B));
      continue;
    }
    if (It->Verdict == BoundsVerdict::Refuted)
      continue;
    if (B.Verdict == BoundsVerdict::Refuted || (B.Verdict == BoundsVerdict::Undecided))
      *It = std::move(B);
  }
}

} // namespace

std::string launchSpecText(const Counterexample &C) {
  std::string Out;
  auto Add = [&Out](const std::string &S) { Out += (Out.empty() ? "" : " ") + S; };
  for (const auto &[Name, V] : C.Scalars)
    Add(Name + "=" + std::to_string(V));
  for (const auto &[Name, V] : C.Floats)
    Add(Name + "=" + std::to_string(V));
  for (const Counterexample::Tensor &T : C.Tensors)
    Add(T.Name + "=" + T.DType + "[" + std::to_string(T.Elements) + "]");
  std::string Grid = "grid=(" + std::to_string(C.Grid[0]);
  if (C.Grid[1] != 1 || C.Grid[2] != 1)
    Grid += ", " + std::to_string(C.Grid[1]);
  if (C.Grid[2] != 1)
    Grid += ", " + std::to_string(C.Grid[2]);
  Add(Grid + (C.Grid[1] == 1 && C.Grid[2] == 1 ? ",)" : ")"));
  return Out;
}

KernelBounds proveKernel(const ParsedFile &File, const ModuleInfo &Info, std::string_view Kernel,
                         const ProverOptions &Opts) {
  Clock::time_point Start = Clock::now();
  Clock::time_point Deadline = Start + std::chrono::milliseconds(Opts.KernelTimeoutMs);
  KernelBounds KB;
  KB.Kernel = std::string(Kernel);
  if (const JitFunction *Fn = Info.jit(KB.Kernel); Fn && Fn->Def)
    KB.NameRange = Fn->Def->NameRange;
  sema::LaunchPlan Plan = sema::planLaunch(File, Info, Kernel);
  auto Finish = [&]() {
    KB.Milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - Start).count();
    return KB;
  };
  if (!Plan.Error.empty() || Plan.Launches.empty()) {
    KB.Reason = !Plan.Error.empty()      ? Plan.Error
                : !Plan.Problems.empty() ? Plan.Problems.front().Message
                                         : "no launch to analyse";
    return Finish();
  }
  KB.FromSpec = Plan.Origin != sema::SpecOrigin::Derived;
  for (const std::string &A : Plan.Assumptions)
    if (KB.FromSpec || A.find(" from ") != std::string::npos)
      KB.Assumptions.push_back(A);
  if (!KB.FromSpec) {
    KB.Assumptions.insert(KB.Assumptions.begin(),
                          {"no launch spec: integer arguments are symbolic (1 to 2^31-1) and offsets do not wrap "
                           "(tensors below 2^31 elements)",
                           "each pointer covers the offsets its most tightly masked access reaches (accesses with "
                           "the same base pointer or the same offsets share one size)"});
  }
  try {
    size_t Instances = KB.FromSpec ? std::min(Plan.Launches.size(), Opts.MaxInstances) : 1;
    for (size_t I = 0; I < Instances; ++I) {
      sema::PlannedLaunch &PL = Plan.Launches[I];
      if (!KB.FromSpec)
        PL.Request.EqualToOne.clear(); // sizes stay symbolic, none is specialized to 1
      sema::LoweredKernel LK = sema::lowerKernel(File, Info, PL.Request);
      if (!LK.Function) {
        KB.Analysed = false;
        KB.Reason = LK.Problems.empty() ? "the kernel could not be lowered" : LK.Problems.front().Message;
        KB.Accesses.clear();
        return Finish();
      }
      Environment Env;
      Env.File = &File;
      Env.F = LK.Function.get();
      Env.Launch = KB.FromSpec ? &PL.Launch : nullptr;
      Env.Request = &PL.Request;
      KernelProver P(Env, Opts, Deadline);
      bool TimedOut = false;
      std::vector<std::string> More;
      merge(KB.Accesses, P.run(More, TimedOut));
      KB.TimedOut = KB.TimedOut || TimedOut;
      for (std::string &A : More)
        if (std::find(KB.Assumptions.begin(), KB.Assumptions.end(), A) == KB.Assumptions.end())
          KB.Assumptions.push_back(std::move(A));
      if (KB.FromSpec && !PL.Launch.Label.empty())
        KB.Assumptions.push_back("launch spec instance " + PL.Launch.Label);
    }
    KB.Analysed = true;
  } catch (const z3::exception &E) {
    KB.Analysed = false;
    KB.Accesses.clear();
    KB.Reason = std::string("the solver failed: ") + E.msg();
  }
  std::sort(KB.Accesses.begin(), KB.Accesses.end(),
            [](const AccessBounds &A, const AccessBounds &B) { return A.Range < B.Range; });
  return Finish();
}

std::vector<KernelBounds> proveFile(const ParsedFile &File, const ModuleInfo &Info, const ProverOptions &Opts) {
  std::vector<KernelBounds> Out;
  for (const std::string &Name : Info.Order) {
    const JitFunction &J = Info.Jit.at(Name);
    if (!J.IsKernel || !J.Def)
      continue;
    Out.push_back(proveKernel(File, Info, Name, Opts));
  }
  return Out;
}

const AccessBounds *accessAt(const std::vector<KernelBounds> &Kernels, uint32_t Offset, const KernelBounds **Owner) {
  const AccessBounds *Best = nullptr;
  for (const KernelBounds &K : Kernels)
    for (const AccessBounds &A : K.Accesses)
      if (A.Range.Begin <= Offset && Offset < A.Range.End &&
          (!Best || A.Range.End - A.Range.Begin < Best->Range.End - Best->Range.Begin)) {
        Best = &A;
        if (Owner)
          *Owner = &K;
      }
  return Best;
}

std::vector<std::string> describeVerdict(const KernelBounds &Kernel, const AccessBounds &Access) {
  std::vector<std::string> Out;
  switch (Access.Verdict) {
  case BoundsVerdict::Proven:
    Out.push_back(Kernel.FromSpec ? "bounds: proven in bounds under the launch spec"
                                  : "bounds: proven in bounds for every size, assuming:");
    break;
  case BoundsVerdict::Refuted:
    Out.push_back("bounds: not proven: " + Access.Example.Text);
    Out.push_back("reproduce with `# tessel: launch " + launchSpecText(Access.Example) + "`");
    break;
  case BoundsVerdict::Undecided:
    Out.push_back("bounds: not proven (" + Access.Reason + ")");
    break;
  }
  if (Access.Verdict != BoundsVerdict::Undecided)
    for (const std::string &A : Kernel.Assumptions)
      Out.push_back("- " + A);
  return Out;
}

} // namespace tessel::analysis
