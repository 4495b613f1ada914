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

#include "compiler/analysis/IntTerms.h"
#include "compiler/analysis/SymbolicTir.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"
#include "compiler/sema/ParamAnnotations.h"
#include "compiler/sema/PointerParams.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>

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
  bool Sized = false; ///< its reference region bounds something (a mask or tl.where that is not always true)
};

/// One launch environment: what is concrete and what the accesses are.
struct Environment {
  const ParsedFile *File = nullptr;
  const ir::Function *F = nullptr;
  const launch::ConcreteLaunch *Launch = nullptr; ///< null: the conventional reading
  const sema::LoweringRequest *Request = nullptr;
  /// The accesses written in the checked file (LoweredKernel::OwnAccesses):
  /// only they get verdicts; those of helpers imported from other modules
  /// still say how large a tensor is.
  const std::vector<SourceRange> *Own = nullptr;
  /// Without a spec: the symbolic launch of an uncalled host wrapper, when
  /// the file has one for this kernel.
  const SymbolicLaunch *Wrapper = nullptr;
  /// The launch has values tessel made up (sema::LaunchPlan::MadeUp): its
  /// violations are not certain, and no content range is trusted under it
  /// (an index range the host code gives says nothing of a tensor whose
  /// size tessel assumed).
  bool MadeUp = false;
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

/// Is the predicate a conjunction of ordering comparisons (`offs < n`,
/// `(rows < M)[:, None] & ...`)? Only those say how large a tensor is; a
/// `tl.where(lane == 0, ...)` picks a lane, it bounds nothing.
bool isBoundPredicate(const ir::Value *V) {
  const ir::Op *D = V->definingOp();
  if (!D)
    return false;
  switch (D->kind()) {
  case ir::OpKind::And:
    return isBoundPredicate(D->operand(0)) && isBoundPredicate(D->operand(1));
  case ir::OpKind::Broadcast:
  case ir::OpKind::ExpandDims:
  case ir::OpKind::Splat:
    return isBoundPredicate(D->operand(0));
  case ir::OpKind::Cmp: {
    ir::CmpPredicate P = ir::cast<ir::CmpOp>(D)->predicate();
    return P != ir::CmpPredicate::EQ && P != ir::CmpPredicate::NE;
  }
  default:
    return false;
  }
}

/// Is Inner inside Outer (or one of the regions nested in it)?
bool encloses(const ir::Block *Outer, const ir::Op *Inner) {
  for (const ir::Block *B = Inner->parentBlock(); B; B = B->parentOp() ? B->parentOp()->parentBlock() : nullptr)
    if (B == Outer)
      return true;
  return false;
}

void collectWheres(const ir::Block &B, std::vector<const ir::Op *> &Out) {
  for (const auto &Op : B.ops()) {
    if (Op->kind() == ir::OpKind::Select && !Op->operand(0)->type().Shape.empty())
      Out.push_back(Op.get());
    for (const auto &R : Op->regions())
      collectWheres(*R, Out);
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

/// A bit-vector division, remainder or modulo (signed or not, with or
/// without Z3's division-by-zero variants).
bool isDivision(Z3_decl_kind K) {
  switch (K) {
  case Z3_OP_BSDIV:
  case Z3_OP_BSDIV_I:
  case Z3_OP_BUDIV:
  case Z3_OP_BUDIV_I:
  case Z3_OP_BSREM:
  case Z3_OP_BSREM_I:
  case Z3_OP_BUREM:
  case Z3_OP_BUREM_I:
  case Z3_OP_BSMOD:
  case Z3_OP_BSMOD_I:
    return true;
  default:
    return false;
  }
}

/// Does E multiply two non-constants, or divide or take a remainder by a
/// non-constant? Bit-blasting such a term makes a query expensive; with
/// MinMax, a min/max (an ite) counts too, for choosing what to abstract.
/// A constant is a term without variables (`sext(4)` as well as `4`).
bool nonlinear(const z3::expr &E, bool MinMax = false) {
  std::map<unsigned, bool> Ground;
  bool Found = false;
  // Post-order over the DAG: whether each term is ground, and whether some
  // operation has two non-ground factors or a non-ground divisor.
  std::vector<std::pair<z3::expr, bool>> Work{{E, false}};
  while (!Work.empty() && !Found) {
    auto [X, Expanded] = Work.back();
    Work.pop_back();
    if (Ground.count(X.id()))
      continue;
    if (!X.is_app()) {
      Ground[X.id()] = false;
      continue;
    }
    if (!Expanded) {
      Work.push_back({X, true});
      for (unsigned I = 0; I < X.num_args(); ++I)
        if (!Ground.count(X.arg(I).id()))
          Work.push_back({X.arg(I), false});
      continue;
    }
    bool G = !(X.num_args() == 0 && X.decl().decl_kind() == Z3_OP_UNINTERPRETED);
    unsigned Symbolic = 0;
    for (unsigned I = 0; I < X.num_args(); ++I) {
      bool AG = Ground[X.arg(I).id()];
      G = G && AG;
      Symbolic += !AG;
    }
    Ground[X.id()] = G;
    Z3_decl_kind K = X.decl().decl_kind();
    if (K == Z3_OP_BMUL)
      Found = Symbolic >= 2;
    else if (isDivision(K))
      Found = X.num_args() == 2 && !Ground[X.arg(1).id()];
    else if (K == Z3_OP_ITE)
      Found = MinMax && X.is_bv() && !G;
  }
  return Found;
}

/// Does E divide or take a remainder? A bit-vector division, even by a
/// constant (the cdiv of a wrapper's grid), is a divider circuit to the
/// solver, while the integer solver reads a division by a constant as a
/// linear bound.
bool hasDivision(const z3::expr &E) {
  std::unordered_set<unsigned> Seen;
  std::vector<z3::expr> Work{E};
  while (!Work.empty()) {
    z3::expr X = Work.back();
    Work.pop_back();
    if (!X.is_app() || !Seen.insert(X.id()).second)
      continue;
    if (isDivision(X.decl().decl_kind()))
      return true;
    for (unsigned I = 0; I < X.num_args(); ++I)
      Work.push_back(X.arg(I));
  }
  return false;
}

/// The conjunction of Terms as one n-ary `and`. A chain of binary ones as
/// deep as the list costs Z3 (4.8) a pass over its whole term table per
/// level when the context is deleted: about 0.65 ms a level, tens of
/// milliseconds per kernel (a kernel's queries conjoin every launch
/// constraint).
z3::expr conjunction(z3::context &C, const std::vector<z3::expr> &Terms) {
  if (Terms.empty())
    return C.bool_val(true);
  if (Terms.size() == 1)
    return Terms.front();
  z3::expr_vector V(C);
  for (const z3::expr &T : Terms)
    V.push_back(T);
  return z3::mk_and(V);
}

std::string pointeeName(const ir::Value *P) {
  ScalarKind K = P->type().Elem.Scalar;
  return K == ScalarKind::Unknown || K == ScalarKind::Void ? "fp32" : std::string(shortName(K));
}

/// The integers a launch's input tensor holds, when its fill fixes them:
/// randint's [low, high), the test inputs of an indexing kernel
/// (`torch.randint(0, 8, (n,))`). Other fills bound nothing: random ones
/// are tessel's own choice of contents, and a buffer made by zeros or ones
/// is often filled by an earlier kernel before it is read as indices.
static std::optional<std::pair<int64_t, int64_t>> contentRange(const launch::ConcreteTensor &T) {
  if (T.Init != launch::TensorInit::Randint || T.High <= T.Low)
    return std::nullopt;
  return std::pair{T.Low, T.High - 1};
}

static std::string contentFlag(const launch::ConcreteTensor &T) {
  return "randint(" + std::to_string(T.Low) + ", " + std::to_string(T.High) + ")";
}

class KernelProver {
public:
  KernelProver(const Environment &Env, const ProverOptions &Opts, Clock::time_point Deadline)
      : Env(Env), Opts(Opts), Deadline(Deadline) {}

  /// Verdicts for every access of Env.F, in source order.
  std::vector<AccessBounds> run(std::vector<std::string> &Assumptions, bool &TimedOut);

private:
  /// The limits of the next query, or nullopt when the kernel's budget is
  /// spent. Resource units (Z3's rlimit) make the verdicts deterministic;
  /// the wall-clock limits only guard against a machine that stalls.
  std::optional<z3::params> limits() {
    auto Left = std::chrono::duration_cast<std::chrono::milliseconds>(Deadline - Clock::now()).count();
    if (Left <= 0 || Used >= Opts.KernelRlimit) {
      OutOfTime = true;
      return std::nullopt;
    }
    z3::params P(Ctx);
    P.set("timeout", static_cast<unsigned>(std::min<int64_t>(Left, Opts.QueryTimeoutMs)));
    uint64_t Query = QueryLimit ? QueryLimit : Opts.QueryRlimit;
    P.set("rlimit", static_cast<unsigned>(std::min<uint64_t>(Query, Opts.KernelRlimit - Used)));
    return P;
  }
  bool budgetLeft() { return Clock::now() < Deadline && Used < Opts.KernelRlimit; }
  template <typename SolverT> void account(SolverT &S) {
    z3::stats St = S.statistics();
    for (unsigned I = 0; I < St.size(); ++I)
      if (St.key(I) == "rlimit count")
        Used = std::max<uint64_t>(Used, St.uint_value(I));
    if (!budgetLeft())
      OutOfTime = true;
  }
  z3::check_result check(z3::solver &S) {
    std::optional<z3::params> P = limits();
    if (!P)
      return z3::unknown;
    S.set(*P);
    z3::check_result R = S.check();
    account(S);
    return R;
  }
  z3::check_result check(z3::optimize &O) {
    std::optional<z3::params> P = limits();
    if (!P)
      return z3::unknown;
    O.set(*P);
    z3::check_result R = O.check();
    account(O);
    return R;
  }
  void setUp(std::vector<std::string> &Assumptions);
  /// Query (an exact-model query) over the integers (IntTerms.h); nullopt
  /// when it cannot be written there. Only its unsat is an answer: a model
  /// of the integers is no bit-vector model.
  std::optional<z3::check_result> askIntegers(const z3::expr &Query, bool Nonlinear);
  /// The wrapper's sizes as constraints (Env.Wrapper): its symbols, the
  /// integer arguments and grid sizes it computes, the extents of its tensors.
  void constrainByWrapper();
  z3::expr sizeTerm(const SizeTerm &T);
  void constrainGrid(std::vector<std::string> &Assumptions);
  /// The accesses' reference region on side S at lanes L (see the header).
  Sym referenceRegion(SideVars &S, const Access &R, const std::vector<z3::expr> &L);
  AccessBounds prove(const Access &A);
  /// The program-id computations of side S replaced by bounded variables
  /// (see collectPidScalars), and the block-index assumptions of S.
  struct Abstraction {
    z3::expr_vector From, To;
    z3::expr Ranges;
    /// Under a launch spec with at most MaxTabled programs: Ranges is the
    /// table of every program's values (program ids -> the values From
    /// computes), so the abstracted query is exact and linear.
    bool Exact = false;
    explicit Abstraction(z3::context &C) : From(C), To(C), Ranges(C.bool_val(true)) {}
  };
  static constexpr int64_t MaxTabled = 1024;
  Abstraction abstraction(SideVars &S, const ir::Op *Op, const std::vector<z3::expr> &Terms);
  z3::expr abstracted(const z3::expr &Q, const Abstraction &Ab);
  z3::expr sideFacts(SideVars &S);
  std::string valueName(const ir::Value *V);
  void collectPidScalars(SideVars &Probe);
  void refuted(AccessBounds &Out, const Access &A, const z3::model &M, SideVars &SA, const std::vector<z3::expr> &Lanes,
               const Sym &Ptr, int64_t Extent);
  Counterexample example(const Access &A, const z3::model &M, SideVars &SA, const std::vector<z3::expr> &Lanes,
                         const Sym &Ptr, int64_t Extent);
  /// Under M's sizes: the elements pointer Base covers (1 + the largest
  /// offset a masked access of it reaches), and the size an access is held
  /// to (the smallest of its own pointer's and of pointers with its offsets).
  int64_t pointerExtent(int Base, const z3::model &M);
  int64_t accessExtent(const Access &A, const z3::model &M);
  int64_t extentOf(const Access &R, const z3::model &M);
  int64_t extentUncached(const Access &R, const z3::model &M);
  std::map<std::pair<const ir::Op *, std::string>, int64_t> ExtentCache;
  z3::expr launchEquals(const z3::model &M);

  const Environment &Env;
  const ProverOptions &Opts;
  Clock::time_point Deadline;
  z3::context Ctx;
  /// One quantifier-free solver for every query of the kernel, used with push/pop.
  z3::solver QF{Ctx, "QF_BV"};
  IntTerms Ints{Ctx};
  z3::solver IntQF{Ctx};
  std::unique_ptr<Encoder> Enc;
  /// Rank-0 integer values computed from program ids and launch values
  /// alone through a division or remainder by a non-constant, a product of
  /// two non-constants or a min/max (`pid_m`, `group_size_m` of grouped
  /// ordering): the cheap tier of each query replaces them by a variable
  /// bounded by their range, which keeps it linear.
  std::vector<const ir::Value *> PidScalars;
  /// The conventional reading's assumption on such a value V: a mask
  /// compares `V * Block + lane` with Size, and the launch starts no program
  /// whose V is past the last block (0 <= V < cdiv(Size, Block)), as a
  /// cdiv grid does for `pid * Block + lane`.
  struct BlockIndex {
    const ir::Value *V;
    int64_t Block;
    z3::expr Size;
  };
  std::vector<BlockIndex> BlockIndices;
  uint64_t QueryLimit = 0;         ///< the next query's resource units; 0: Opts.QueryRlimit
  std::set<unsigned> LaunchVarIds; ///< integer arguments and grid sizes (>= 1)
  std::vector<Access> Accesses;
  std::vector<const ir::Op *> WhereOps; ///< tl.where selects on tiles
  std::vector<z3::expr> Global;
  std::map<int, int64_t> SpecExtent; ///< parameter index -> elements (launch spec)
  /// Parameter index -> the integer range its tensor holds and the spec flag
  /// that says so (launch spec): Encoder::setContents.
  std::map<int, std::pair<std::pair<int64_t, int64_t>, std::string>> ContentRanges;
  /// Parameter index -> elements, as the host wrapper's symbols give them.
  std::map<int, z3::expr> WrapperExtent;
  std::vector<z3::expr> WrapperSymbols;
  std::array<bool, 3> WrapperGrid{}; ///< grid axes the wrapper fixes
  unsigned SideCounter = 0;
  bool OutOfTime = false;
  uint64_t Used = 0; ///< Z3 resource units spent on this kernel so far
};

void KernelProver::setUp(std::vector<std::string> &Assumptions) {
  const ir::Function &F = *Env.F;
  std::vector<std::optional<int64_t>> Params(F.params().size());
  std::vector<std::optional<std::pair<int64_t, int64_t>>> Contents(F.params().size());
  std::array<std::optional<int64_t>, 3> Grid;
  if (Env.Launch) {
    for (size_t I = 0; I < F.params().size(); ++I) {
      const ir::Value *P = F.params()[I];
      if (P->type().Elem.isPointer()) {
        for (const launch::ConcreteTensor &T : Env.Launch->Tensors)
          if (T.Name == P->name()) {
            SpecExtent[static_cast<int>(I)] = T.StorageElements;
            if (!T.IsOutput && !Env.MadeUp && isInt(P->type().Elem.Scalar))
              if (std::optional<std::pair<int64_t, int64_t>> R = contentRange(T)) {
                Contents[I] = R;
                ContentRanges[static_cast<int>(I)] = {*R, contentFlag(T)};
              }
          }
        continue;
      }
      if (const launch::ConcreteValue *V = Env.Launch->value(P->name()); V && !V->IsFloat)
        Params[I] = V->Int;
    }
    for (int A = 0; A < 3; ++A)
      Grid[A] = Env.Launch->Grid[A];
  } else {
    // A grid axis the kernel never asks about has one program.
    std::array<bool, 3> Used{};
    std::vector<const ir::Block *> Work{&F.body()};
    while (!Work.empty()) {
      const ir::Block *B = Work.back();
      Work.pop_back();
      for (const auto &Op : B->ops()) {
        if (const auto *P = ir::dyn_cast<ir::ProgramIdOp>(Op.get()))
          Used[static_cast<size_t>(P->axis())] = true;
        if (const auto *N = ir::dyn_cast<ir::NumProgramsOp>(Op.get()))
          Used[static_cast<size_t>(N->axis())] = true;
        for (const auto &R : Op->regions())
          Work.push_back(R.get());
      }
    }
    for (int A = 0; A < 3; ++A)
      if (!Used[A])
        Grid[A] = 1;
  }
  Enc = std::make_unique<Encoder>(Ctx, F, Env.Launch ? IntModel::Wrapping : IntModel::Exact, Params, Grid);
  Enc->setContents(std::move(Contents));
  for (const z3::expr &E : Enc->launchConstraints())
    Global.push_back(E);
  for (const auto &[Name, V] : Enc->launchVars())
    LaunchVarIds.insert(V.id());
  collectAccesses(F.body(), Accesses);
  collectWheres(F.body(), WhereOps);
  // Base pointers, and whether each access's region bounds anything.
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
  for (Access &A : Accesses) {
    std::vector<z3::expr> L = Enc->lanes(*Probe, A.Ptr->type().Shape);
    Sym Reg = referenceRegion(*Probe, A, L);
    A.Sized = Reg.K == Sym::Kind::Bool && !Reg.Data && !Reg.E.simplify().is_true();
  }
  collectPidScalars(*Probe);
  if (!Env.Launch && Env.Wrapper)
    constrainByWrapper();
  if (!Env.Launch)
    constrainGrid(Assumptions);
}

z3::expr KernelProver::sizeTerm(const SizeTerm &T) {
  z3::expr E = Ctx.bv_val(1, 64);
  for (unsigned S : T.Symbols)
    E = E * WrapperSymbols[S];
  if (T.CeilDiv != 1) {
    z3::expr D = Ctx.bv_val(T.CeilDiv, 64);
    E = z3::udiv(E + D - Ctx.bv_val(1, 64), D);
  }
  if (T.Coefficient != 1)
    E = Ctx.bv_val(T.Coefficient, 64) * E;
  return T.Offset ? E + Ctx.bv_val(T.Offset, 64) : E;
}

void KernelProver::constrainByWrapper() {
  const SymbolicLaunch &W = *Env.Wrapper;
  // Sizes of tensors below 2^31 elements (the conventional reading's rule),
  // so no product of symbols wraps: every symbol, and every product the
  // wrapper forms, is below 2^31.
  z3::expr Limit = Ctx.bv_val(int64_t(1) << 31, 64), One = Ctx.bv_val(1, 64);
  for (size_t I = 0; I < W.Symbols.size(); ++I) {
    z3::expr X = Ctx.bv_const(("size." + std::to_string(I)).c_str(), 64);
    WrapperSymbols.push_back(X);
    Enc->ranges().setVar(X, 1, (int64_t(1) << 31) - 1);
    Global.push_back(z3::sge(X, One) && z3::slt(X, Limit));
  }
  auto Bounded = [&](const SizeTerm &T) {
    z3::expr P = Ctx.bv_val(1, 64);
    for (unsigned S : T.Symbols) {
      P = P * WrapperSymbols[S];
      Global.push_back(z3::slt(P, Limit));
    }
    Global.push_back(z3::slt(sizeTerm(T), Limit));
  };
  const ir::Function &F = *Env.F;
  for (size_t I = 0; I < F.params().size(); ++I) {
    const ir::Value *P = F.params()[I];
    if (P->type().Elem.isPointer()) {
      auto It = W.Extents.find(P->name());
      if (It == W.Extents.end())
        continue;
      Bounded(It->second);
      WrapperExtent.emplace(static_cast<int>(I), sizeTerm(It->second));
      continue;
    }
    auto It = W.Ints.find(P->name());
    if (It == W.Ints.end())
      continue;
    for (const auto &[Name, V] : Enc->launchVars())
      if (Name == P->name()) {
        Bounded(It->second);
        Global.push_back(Enc->toI64(V, true) == sizeTerm(It->second));
      }
  }
  for (size_t A = 0; A < W.Grid.size() && A < 3; ++A) {
    Bounded(W.Grid[A]);
    Global.push_back(Enc->toI64(Enc->grid(static_cast<int>(A)), true) == sizeTerm(W.Grid[A]));
    WrapperGrid[A] = true;
  }
}

std::optional<z3::check_result> KernelProver::askIntegers(const z3::expr &Query, bool Nonlinear) {
  std::optional<z3::expr> I = Ints.rewrite(Query);
  if (!I)
    return std::nullopt;
  QueryLimit = Nonlinear ? Opts.IntegerQueryRlimit : Opts.QueryRlimit;
  IntQF.push();
  IntQF.add(*I);
  z3::check_result R = check(IntQF);
  IntQF.pop();
  return R;
}

void KernelProver::collectPidScalars(SideVars &Probe) {
  std::vector<const ir::Block *> Work{&Env.F->body()};
  std::set<unsigned> Pids;
  for (const z3::expr &P : Probe.Pid)
    Pids.insert(P.id());
  std::set<unsigned> Seen;
  while (!Work.empty()) {
    const ir::Block *B = Work.back();
    Work.pop_back();
    for (const auto &Op : B->ops()) {
      for (const auto &R : Op->regions())
        Work.push_back(R.get());
      if (Op->kind() == ir::OpKind::Constant)
        continue;
      for (unsigned I = 0; I < Op->numResults(); ++I) {
        const ir::Value *V = Op->result(I);
        if (!V->type().Shape.empty() || V->type().Elem.isPointer() || !isInt(V->type().Elem.Scalar))
          continue;
        Sym T = Enc->eval(Probe, V, {});
        if (T.K != Sym::Kind::Int || T.Data || T.E.is_numeral())
          continue;
        bool OnlyPids = true, AnyPid = false;
        for (const z3::expr &C : Enc->freeConstants(T.E)) {
          bool Pid = Pids.count(C.id()) > 0;
          AnyPid = AnyPid || Pid;
          OnlyPids = OnlyPids && (Pid || LaunchVarIds.count(C.id()));
        }
        if (AnyPid && OnlyPids && nonlinear(T.E, true) && Seen.insert(T.E.id()).second)
          PidScalars.push_back(V);
      }
    }
  }
}

/// What the source calls V: the name it is assigned to (`pid_m = ...`),
/// else the expression that computes it.
std::string KernelProver::valueName(const ir::Value *V) {
  if (!V->name().empty())
    return V->name();
  if (!V->definingOp())
    return "?";
  std::string_view Text = Env.File->text().text();
  SourceRange R = V->definingOp()->loc();
  size_t LineStart = Text.rfind('\n', R.Begin == 0 ? 0 : R.Begin - 1);
  LineStart = LineStart == std::string_view::npos ? 0 : LineStart + 1;
  std::string_view Before = Text.substr(LineStart, R.Begin - LineStart);
  size_t Eq = Before.find('=');
  if (Eq != std::string_view::npos && Before.find_first_not_of(" \t", Eq + 1) == std::string_view::npos) {
    std::string_view Name = Before.substr(0, Eq);
    size_t B = Name.find_first_not_of(" \t"), E = Name.find_last_not_of(" \t");
    if (B != std::string_view::npos) {
      Name = Name.substr(B, E - B + 1);
      if (std::all_of(Name.begin(), Name.end(),
                      [](char C) { return std::isalnum(static_cast<unsigned char>(C)) || C == '_'; }))
        return std::string(Name);
    }
  }
  return std::string(Env.File->text().slice(R));
}

/// The ids of every subterm of Terms.
static std::unordered_set<unsigned> subtermIds(const std::vector<z3::expr> &Terms) {
  std::unordered_set<unsigned> Out;
  std::vector<z3::expr> Work = Terms;
  while (!Work.empty()) {
    z3::expr X = Work.back();
    Work.pop_back();
    if (!Out.insert(X.id()).second || !X.is_app())
      continue;
    for (unsigned I = 0; I < X.num_args(); ++I)
      Work.push_back(X.arg(I));
  }
  return Out;
}

/// The values Op's operands are computed from (through loop-carried values,
/// `if` results and the conditions of the enclosing `if`s): a superset of
/// what its terms mention.
static std::unordered_set<const ir::Value *> backwardSlice(const ir::Op *Op) {
  std::unordered_set<const ir::Value *> Seen;
  std::vector<const ir::Value *> Work;
  auto AddOperands = [&Work](const ir::Op *O) {
    for (unsigned I = 0; I < O->numOperands(); ++I)
      Work.push_back(O->operand(I));
  };
  auto AddYields = [&](const ir::Op *O) {
    for (const auto &R : O->regions())
      if (const ir::Op *T = R->terminator())
        AddOperands(T);
  };
  AddOperands(Op);
  for (const ir::Block *B = Op->parentBlock(); B && B->parentOp(); B = B->parentOp()->parentBlock())
    AddOperands(B->parentOp());
  while (!Work.empty()) {
    const ir::Value *V = Work.back();
    Work.pop_back();
    if (!V || !Seen.insert(V).second)
      continue;
    if (const ir::Op *D = V->definingOp()) {
      AddOperands(D);
      AddYields(D);
    } else if (const ir::Block *B = V->ownerBlock(); B && B->parentOp()) {
      AddOperands(B->parentOp());
      AddYields(B->parentOp());
    }
  }
  return Seen;
}

KernelProver::Abstraction KernelProver::abstraction(SideVars &S, const ir::Op *Op, const std::vector<z3::expr> &Terms) {
  Abstraction Ab(Ctx);
  if (PidScalars.empty())
    return Ab;
  std::vector<z3::expr> Ranges;
  std::unordered_set<const ir::Value *> Slice = backwardSlice(Op);
  // Only what the query mentions (an unrolled loop makes hundreds of such
  // values, each access uses a few).
  std::unordered_set<unsigned> Occurs = subtermIds(Terms);
  std::set<unsigned> Done;
  for (const ir::Value *V : PidScalars) {
    if (!Slice.count(V))
      continue;
    Sym T = Enc->eval(S, V, {});
    if (T.K != Sym::Kind::Int || T.Data || !Occurs.count(T.E.id()) || !Done.insert(T.E.id()).second)
      continue;
    std::optional<Interval> R = Enc->ranges().range(T.E);
    for (const BlockIndex &B : BlockIndices) {
      std::optional<Interval> SR = Enc->ranges().range(B.Size);
      if (B.V != V || !SR || SR->Hi < 1)
        continue;
      int64_t Hi = (SR->Hi - 1) / B.Block;
      R = R ? Interval{std::max<int64_t>(R->Lo, 0), std::min(R->Hi, Hi)} : Interval{0, Hi};
    }
    if (!R || R->Lo > R->Hi)
      continue;
    unsigned W = T.E.get_sort().bv_size();
    z3::expr X = Ctx.bv_const(("abs." + std::to_string(SideCounter++)).c_str(), W);
    Enc->ranges().setVar(X, R->Lo, R->Hi);
    Ab.From.push_back(T.E);
    Ab.To.push_back(X);
    Ranges.push_back(z3::sge(X, Ctx.bv_val(R->Lo, W)));
    Ranges.push_back(z3::sle(X, Ctx.bv_val(R->Hi, W)));
  }
  Ab.Ranges = conjunction(Ctx, Ranges);
  // Under a launch spec the grid is concrete: with few programs, each
  // program's values are computed once and the table replaces the ranges.
  if (!Env.Launch || Ab.From.empty())
    return Ab;
  std::array<int64_t, 3> G{};
  for (int D = 0; D < 3; ++D) {
    std::optional<Interval> R = Enc->ranges().range(Enc->grid(D));
    if (!R || R->Lo != R->Hi || R->Lo < 1)
      return Ab;
    G[D] = R->Lo;
  }
  if (G[0] * G[1] * G[2] > MaxTabled)
    return Ab;
  std::set<unsigned> Pids;
  for (const z3::expr &P : S.Pid)
    Pids.insert(P.id());
  for (unsigned I = 0; I < Ab.From.size(); ++I)
    for (const z3::expr &C : Enc->freeConstants(Ab.From[I]))
      if (!Pids.count(C.id()))
        return Ab;
  z3::expr_vector Table(Ctx);
  unsigned PW = S.Pid[0].get_sort().bv_size();
  for (int64_t P0 = 0; P0 < G[0]; ++P0)
    for (int64_t P1 = 0; P1 < G[1]; ++P1)
      for (int64_t P2 = 0; P2 < G[2]; ++P2) {
        z3::expr_vector Pid(Ctx), Val(Ctx);
        std::vector<z3::expr> Row;
        for (int D = 0; D < 3; ++D) {
          int64_t V = D == 0 ? P0 : D == 1 ? P1 : P2;
          Pid.push_back(S.Pid[D]);
          Val.push_back(Ctx.bv_val(V, PW));
          Row.push_back(S.Pid[D] == Ctx.bv_val(V, PW));
        }
        for (unsigned I = 0; I < Ab.From.size(); ++I) {
          z3::expr T = Ab.From[I];
          z3::expr V = T.substitute(Pid, Val).simplify();
          if (!V.is_numeral())
            return Ab;
          Row.push_back(Ab.To[I] == V);
        }
        Table.push_back(conjunction(Ctx, Row));
      }
  Ranges.push_back(z3::mk_or(Table));
  Ab.Ranges = conjunction(Ctx, Ranges);
  Ab.Exact = true;
  return Ab;
}

z3::expr KernelProver::abstracted(const z3::expr &Q, const Abstraction &Ab) {
  if (Ab.From.empty())
    return Q;
  z3::expr Copy = Q;
  z3::expr Out = Copy.substitute(Ab.From, Ab.To);
  return Out.is_bool() ? Out && Ab.Ranges : Out;
}

z3::expr KernelProver::sideFacts(SideVars &S) {
  std::vector<z3::expr> Out;
  for (const BlockIndex &B : BlockIndices) {
    Sym T = Enc->eval(S, B.V, {});
    if (T.K != Sym::Kind::Int || T.Data)
      continue;
    z3::expr V = Enc->toI64(T.E, true), Zero = Ctx.bv_val(0, 64);
    Out.push_back(z3::sge(V, Zero));
    Out.push_back(z3::slt(V * Ctx.bv_val(B.Block, 64), B.Size));
    Out.push_back(z3::slt(V, B.Size));
  }
  return conjunction(Ctx, Out);
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
  std::array<bool, 3> Done = WrapperGrid; // the wrapper's grid is what it computes
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
        if (!V.is_bv())
          continue;
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
    // A block index computed from the program ids (grouped ordering's
    // `pid_m`): `pid_m * BLOCK + lane < size` says the launch covers size
    // with cdiv(size, BLOCK) blocks, so no program gets a pid_m past them.
    std::unordered_set<unsigned> InIndex;
    if (!PidScalars.empty())
      InIndex = subtermIds({I.E});
    for (const ir::Value *V : PidScalars) {
      if (std::any_of(BlockIndices.begin(), BlockIndices.end(), [V](const BlockIndex &B) { return B.V == V; }))
        continue;
      Sym T = Enc->eval(*P, V, {});
      if (T.K != Sym::Kind::Int || T.Data || !InIndex.count(T.E.id()))
        continue;
      z3::expr X = Ctx.bv_const(("blockindex." + std::to_string(SideCounter++)).c_str(), T.E.get_sort().bv_size());
      z3::expr_vector FromT(Ctx), ToX(Ctx);
      FromT.push_back(T.E);
      ToX.push_back(X);
      z3::expr Replaced = I.E;
      Replaced = Replaced.substitute(FromT, ToX);
      if (z3::eq(Replaced, I.E))
        continue;
      bool StillPid = false;
      for (const z3::expr &C : Enc->freeConstants(Replaced))
        for (const z3::expr &Pid : P->Pid)
          StillPid = StillPid || z3::eq(C, Pid);
      if (StillPid)
        continue;
      z3::expr_vector From(Ctx), To0(Ctx), To1(Ctx);
      for (const z3::expr &Var : P->Vars) {
        if (!Var.is_bv())
          continue;
        From.push_back(Var);
        To0.push_back(Ctx.bv_val(0, Var.get_sort().bv_size()));
        To1.push_back(Ctx.bv_val(0, Var.get_sort().bv_size()));
      }
      From.push_back(X);
      To0.push_back(Ctx.bv_val(0, X.get_sort().bv_size()));
      To1.push_back(Ctx.bv_val(1, X.get_sort().bv_size()));
      z3::expr R0 = Replaced, R1 = Replaced;
      z3::expr Step = (R1.substitute(From, To1) - R0.substitute(From, To0)).simplify();
      if (!Step.is_numeral() || signedValue(Step) <= 0)
        continue;
      int64_t Block = signedValue(Step);
      BlockIndices.push_back(BlockIndex{V, Block, Enc->toI64(S.E, true)});
      std::string Text(Env.File->text().slice(C->loc()));
      Assumptions.push_back("no program gets `" + valueName(V) + "` past cdiv(size, " + std::to_string(Block) +
                            "), the size `" + Text + "` compares against");
      break; // one per comparison: the first is the block index itself, later ones scale it
    }
  }
}

Sym KernelProver::referenceRegion(SideVars &S, const Access &R, const std::vector<z3::expr> &L) {
  if (R.Mask)
    return Enc->region(S, R.Mask, L);
  Sym Out(Ctx);
  Out.K = Sym::Kind::Bool;
  std::vector<z3::expr> Guards;
  for (const ir::Op *Sel : WhereOps) {
    // Only a tl.where that selects this load's own value guards it.
    const ir::Value *W = Sel->operand(0);
    if (R.Op->numResults() == 0 || (Sel->operand(1) != R.Op->result() && Sel->operand(2) != R.Op->result()))
      continue;
    if (W->type().Shape != R.Ptr->type().Shape || !W->definingOp() || !encloses(W->definingOp()->parentBlock(), R.Op) ||
        !isBoundPredicate(W))
      continue;
    Sym C = Enc->region(S, W, L);
    if (C.K == Sym::Kind::Bool && !C.Data)
      Guards.push_back(C.E);
  }
  Out.E = conjunction(Ctx, Guards);
  return Out;
}

z3::expr KernelProver::launchEquals(const z3::model &M) {
  std::vector<z3::expr> Out;
  for (const auto &[Name, V] : Enc->launchVars())
    Out.push_back(V == M.eval(V, true));
  return conjunction(Ctx, Out);
}

int64_t KernelProver::extentOf(const Access &R, const z3::model &M) {
  // A refutation asks for the same extents several times (the access's
  // own, each pointer's for the counterexample's tensors): once per launch.
  std::string Key;
  for (const auto &[Name, V] : Enc->launchVars())
    Key += M.eval(V, true).to_string() + ",";
  auto [It, New] = ExtentCache.try_emplace({R.Op, Key}, -1);
  if (!New)
    return It->second;
  It->second = extentUncached(R, M);
  return It->second;
}

int64_t KernelProver::extentUncached(const Access &R, const z3::model &M) {
  std::shared_ptr<SideVars> S = Enc->newSide("x" + std::to_string(SideCounter++));
  std::vector<z3::expr> L = Enc->lanes(*S, R.Ptr->type().Shape);
  Sym P = Enc->eval(*S, R.Ptr, L);
  Sym Reg = referenceRegion(*S, R, L);
  z3::expr Path = Enc->pathCondition(*S, R.Op);
  if (P.K != Sym::Kind::Ptr || P.Data || Reg.Data)
    return -1;
  z3::optimize O(Ctx);
  for (const z3::expr &G : Global)
    O.add(G);
  for (const z3::expr &C : S->Constraints)
    O.add(C);
  O.add(sideFacts(*S));
  O.add(launchEquals(M));
  O.add(Path);
  O.add(Reg.E);
  // Signed order as unsigned: flip the sign bit.
  z3::expr Key = P.E ^ Ctx.bv_val(uint64_t(1) << 63, 64);
  O.maximize(Key);
  if (check(O) != z3::sat)
    return -1;
  int64_t Max = signedValue(O.get_model().eval(P.E, true));
  return Max + 1;
}

int64_t KernelProver::pointerExtent(int Base, const z3::model &M) {
  int64_t Best = -1;
  for (const Access &R : Accesses) {
    if (R.Base != Base || R.Data || !R.Sized)
      continue;
    Best = std::max(Best, extentOf(R, M));
  }
  return Best;
}

int64_t KernelProver::accessExtent(const Access &A, const z3::model &M) {
  std::set<int> Pointers{A.Base};
  for (const Access &R : Accesses)
    if (A.Offsets && R.Offsets == A.Offsets && R.Base >= 0 && R.Ptr->type().Shape == A.Ptr->type().Shape)
      Pointers.insert(R.Base);
  int64_t Best = -1;
  for (int B : Pointers) {
    int64_t E = pointerExtent(B, M);
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
      } else if (auto W = WrapperExtent.find(static_cast<int>(I)); W != WrapperExtent.end()) {
        Elements = signedValue(M.eval(W->second, true));
      } else if (static_cast<int>(I) == A.Base) {
        Elements = Extent;
      } else {
        Elements = pointerExtent(static_cast<int>(I), M);
      }
      if (Elements <= 0)
        Elements = std::max<int64_t>(C.Offset + 1, 1 << 16);
      std::string Fill;
      if (auto R = ContentRanges.find(static_cast<int>(I)); R != ContentRanges.end())
        Fill = R->second.second;
      C.Tensors.push_back({P->name(), pointeeName(P), Elements, Fill});
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
  for (const SideVars::Loaded &L : SA.Loads)
    C.Loaded.push_back({F.params()[static_cast<size_t>(L.Param)]->name() + "[" +
                            std::to_string(signedValue(M.eval(L.Offset, true))) + "]",
                        signedValue(M.eval(L.Value, true))});
  C.Extent = Extent;
  std::string Program = C.Grid[1] == 1 && C.Grid[2] == 1
                            ? std::to_string(C.ProgramId[0])
                            : "(" + std::to_string(C.ProgramId[0]) + ", " + std::to_string(C.ProgramId[1]) + ", " +
                                  std::to_string(C.ProgramId[2]) + ")";
  C.Text = C.Pointer + "[" + std::to_string(C.Offset) + "] " + A.Verb + " by program " + Program;
  if (!Shape.empty())
    C.Text += ", lane " + std::to_string(C.Lane);
  for (const auto &[Name, V] : C.Iterations)
    C.Text += ", iteration " + Name + " = " + std::to_string(V);
  for (size_t I = 0; I < C.Loaded.size(); ++I)
    C.Text += (I ? " and " : ", where ") + C.Loaded[I].first + " = " + std::to_string(C.Loaded[I].second);
  if (Env.Launch && !Env.Launch->Label.empty())
    C.Text += ", with " + Env.Launch->Label;
  else if (!Sizes.empty())
    C.Text += ", with " + Sizes;
  if (Extent > 0)
    C.Text += " (" + C.Pointer + " has " + std::to_string(Extent) + " element" + (Extent == 1 ? "" : "s") + ")";
  return C;
}

void KernelProver::refuted(AccessBounds &Out, const Access &A, const z3::model &M, SideVars &SA,
                           const std::vector<z3::expr> &Lanes, const Sym &Ptr, int64_t Extent) {
  if (Extent < 0 && !Env.Launch)
    Extent = accessExtent(A, M);
  Out.Verdict = BoundsVerdict::Refuted;
  Out.Certain = Env.Launch != nullptr && !Env.MadeUp;
  Out.Example = example(A, M, SA, Lanes, Ptr, Extent);
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
  // Everything that holds when A runs: the launch, A's program, lane and loops, its mask.
  std::vector<z3::expr> Facts{Enabled, sideFacts(*SA)};
  Facts.insert(Facts.end(), Global.begin(), Global.end());
  Facts.insert(Facts.end(), SA->Constraints.begin(), SA->Constraints.end());
  z3::expr Base = conjunction(Ctx, Facts);
  // The cheap tier: program-id computations replaced by their ranges.
  // Made only for a query that needs it (most are linear, or settled by the ranges).
  std::optional<Abstraction> Ab;
  auto GetAb = [&]() -> const Abstraction & {
    if (!Ab)
      Ab = abstraction(*SA, A.Op, {Base, Ptr.E});
    return *Ab;
  };
  int64_t End = Env.Launch ? SpecExtent[A.Base] : std::numeric_limits<int64_t>::max();
  std::optional<Interval> PtrRange = Enc->ranges().range(Ptr.E);
  if ((!PtrRange || PtrRange->Lo < 0 || PtrRange->Hi >= End) && !PidScalars.empty() && nonlinear(Ptr.E, true))
    if (std::optional<Interval> R = Enc->ranges().range(abstracted(Ptr.E, GetAb())))
      PtrRange = R;
  bool Unknown = false;
  auto Undecided = [&](const std::string &Why) {
    Out.Verdict = BoundsVerdict::Undecided;
    Out.Reason = Why;
  };
  // Linear before nonlinear: the abstracted query first (unsat there is
  // unsat here), then the exact one, under a smaller budget when it is
  // nonlinear (its "undecided" is then what it says).
  // Once a nonlinear query of this access was not decided, the others
  // (the same terms, more constraints) are not asked: undecided at once.
  bool GaveUp = false;
  auto Ask = [&](const z3::expr &Query) {
    bool Nonlinear = nonlinear(Query);
    if (Nonlinear && GaveUp)
      return z3::unknown;
    if (Nonlinear && !PidScalars.empty() && !GetAb().From.empty()) {
      z3::expr Cheap = abstracted(Query, *Ab);
      QF.push();
      QF.add(Cheap);
      QueryLimit = nonlinear(Cheap) ? Opts.NonlinearQueryRlimit : Opts.QueryRlimit;
      z3::check_result R = check(QF);
      // A tabled abstraction is exact: its model is a launch's (left pushed, as below).
      if (Ab->Exact && R == z3::sat)
        return R;
      QF.pop();
      if (R == z3::unsat)
        return R;
    }
    // The exact model over the integers (IntTerms.h): bit-blasting a 64-bit
    // division or product is what makes such a bit-vector query slow.
    if (!Env.Launch && (Nonlinear || hasDivision(Query))) {
      std::optional<z3::check_result> R = askIntegers(Query, Nonlinear);
      if (R == z3::unsat)
        return z3::unsat;
      // Undecided over the integers, a wrapper's product of sizes: the
      // bit-vector query would only bit-blast its multipliers (tens of
      // milliseconds) to give up as well; the conventional reading decides
      // the access (proveKernel). Where the integers found a model, the
      // bit-vector query is asked as before, for a counterexample.
      if (R == z3::unknown && Nonlinear && Env.Wrapper) {
        GaveUp = true;
        return z3::unknown;
      }
    }
    QueryLimit = Nonlinear ? Opts.NonlinearQueryRlimit : Opts.QueryRlimit;
    QF.push();
    QF.add(Query);
    z3::check_result R = check(QF);
    if (R != z3::sat)
      QF.pop();
    GaveUp = GaveUp || (Nonlinear && R == z3::unknown);
    return R;
  };
  /// A model of the last satisfied Ask, preferring a small launch.
  auto Model = [&]() {
    if (!Enc->launchVars().empty()) {
      // Few programs and sizes of a few thousand first, then larger ones.
      for (int64_t Bound : {int64_t(16), int64_t(4096)}) {
        QF.push();
        for (const auto &[Name, V] : Enc->launchVars())
          QF.add(z3::sle(Enc->toI64(V, true), Ctx.bv_val(Name.rfind("grid", 0) == 0 ? Bound : 4096, 64)));
        if (check(QF) == z3::sat) {
          z3::model M = QF.get_model();
          QF.pop();
          QF.pop();
          return std::optional<z3::model>(M);
        }
        QF.pop();
      }
      if (check(QF) != z3::sat) {
        QF.pop();
        return std::optional<z3::model>();
      }
    }
    z3::model M = QF.get_model();
    QF.pop();
    return std::optional<z3::model>(M);
  };

  // A query that found an address out of bounds: its counterexample, with
  // the buffer's extent under that model, or undecided where the model
  // cannot be trusted (loaded offsets) or was not given.
  auto Refute = [&](auto ExtentUnder) {
    std::optional<z3::model> M = Model();
    if (Data || !M) {
      Undecided(Data ? "the offsets depend on values loaded from memory" : "the solver gave up within its time limit");
      return;
    }
    refuted(Out, A, *M, *SA, Lanes, Ptr, ExtentUnder(*M));
  };

  // Below the start of the buffer (the ranges often say it cannot be).
  if (!PtrRange || PtrRange->Lo < 0) {
    z3::check_result R = Ask(Base && z3::slt(Ptr.E, Ctx.bv_val(0, 64)));
    if (R == z3::sat) {
      Refute([&](const z3::model &M) {
        return Env.Launch                         ? SpecExtent[A.Base]
               : WrapperExtent.count(A.Base) != 0 ? signedValue(M.eval(WrapperExtent.at(A.Base), true))
                                                  : -1;
      });
      return Out;
    }
    Unknown = Unknown || R == z3::unknown;
  }
  // At or past the end.
  if (Env.Launch && PtrRange && PtrRange->Hi < SpecExtent[A.Base]) {
    // In bounds by the ranges alone.
  } else if (auto W = WrapperExtent.find(A.Base); !Env.Launch && W != WrapperExtent.end()) {
    // The wrapper says how large the tensor is: past that, whatever the masks say.
    z3::check_result R = Ask(Base && z3::sge(Ptr.E, W->second));
    if (R == z3::sat) {
      Refute([&](const z3::model &M) { return signedValue(M.eval(W->second, true)); });
      return Out;
    }
    Unknown = Unknown || R == z3::unknown;
  } else if (Env.Launch) {
    z3::check_result R = Ask(Base && z3::sge(Ptr.E, Ctx.bv_val(SpecExtent[A.Base], 64)));
    if (R == z3::sat) {
      Refute([&](const z3::model &) { return SpecExtent[A.Base]; });
      return Out;
    }
    Unknown = Unknown || R == z3::unknown;
  } else {
    // The pointers whose size bounds A: its own, and those indexed by the same offsets.
    std::set<int> Pointers{A.Base};
    for (const Access &R : Accesses)
      if (A.Offsets && R.Offsets == A.Offsets && R.Base >= 0 && R.Ptr->type().Shape == A.Ptr->type().Shape)
        Pointers.insert(R.Base);
    bool Sized = false;
    for (int B : Pointers) {
      std::vector<const Access *> Refs;
      for (const Access &R : Accesses)
        if (R.Base == B && !R.Data && R.Sized)
          Refs.push_back(&R);
      if (Refs.empty())
        continue;
      Sized = true;
      // Fast path: a reference with the same offsets whose region holds
      // wherever A is enabled reaches every offset A reaches. Where it does
      // not hold, the lanes outside it are where to look for a violation.
      bool Covered = false;
      std::vector<z3::model> Candidates;
      for (const Access *R : Refs) {
        if (!(R->Ptr == A.Ptr || (A.Offsets && R->Offsets == A.Offsets)))
          continue;
        Sym Reg = referenceRegion(*SA, *R, Lanes);
        if (Reg.K != Sym::Kind::Bool || Reg.Data)
          continue;
        z3::check_result Res = Ask(Base && !Reg.E);
        if (Res == z3::unsat) {
          Covered = true;
          break;
        }
        if (Res == z3::sat)
          if (std::optional<z3::model> M = Model())
            Candidates.push_back(*M);
      }
      if (Covered)
        continue;
      if (Candidates.empty() && Ask(Base) == z3::sat)
        if (std::optional<z3::model> M = Model())
          Candidates.push_back(*M);
      QueryLimit = 0;
      // With the sizes of a candidate fixed, the arithmetic is linear: the
      // largest offset A reaches against the extent B's references give.
      for (const z3::model &M : Candidates) {
        int64_t Extent = pointerExtent(B, M);
        if (Extent <= 0)
          continue;
        z3::optimize O(Ctx);
        O.add(Base);
        O.add(launchEquals(M));
        O.maximize(Ptr.E ^ Ctx.bv_val(uint64_t(1) << 63, 64));
        if (check(O) != z3::sat)
          continue;
        z3::model Best = O.get_model();
        if (signedValue(Best.eval(Ptr.E, true)) < Extent)
          continue;
        if (Data) {
          Undecided("the offsets depend on values loaded from memory");
          return Out;
        }
        refuted(Out, A, Best, *SA, Lanes, Ptr, -1);
        return Out;
      }
      // Otherwise the full question: does A reach past every offset each
      // reference of B reaches inside its region, for some sizes?
      z3::solver S(Ctx);
      S.add(Base);
      z3::expr_vector Witness(Ctx);
      for (const Access *R : Refs) {
        std::shared_ptr<SideVars> SR = Enc->newSide("r" + std::to_string(SideCounter++));
        std::vector<z3::expr> LR = Enc->lanes(*SR, R->Ptr->type().Shape);
        Sym PR = Enc->eval(*SR, R->Ptr, LR);
        Sym Reg = referenceRegion(*SR, *R, LR);
        z3::expr PathR = Enc->pathCondition(*SR, R->Op);
        std::vector<z3::expr> Dom{sideFacts(*SR), PathR, Reg.E};
        Dom.insert(Dom.end(), SR->Constraints.begin(), SR->Constraints.end());
        z3::expr_vector Vars(Ctx);
        for (const z3::expr &V : SR->Vars)
          Vars.push_back(V);
        S.add(z3::forall(Vars, z3::implies(conjunction(Ctx, Dom), z3::slt(PR.E, Ptr.E))));
        // A witness that the region is not empty, so that it says something.
        std::shared_ptr<SideVars> SW = Enc->newSide("w" + std::to_string(SideCounter++));
        std::vector<z3::expr> LW = Enc->lanes(*SW, R->Ptr->type().Shape);
        Sym RegW = referenceRegion(*SW, *R, LW);
        std::vector<z3::expr> W{Enc->pathCondition(*SW, R->Op), RegW.E, sideFacts(*SW)};
        W.insert(W.end(), SW->Constraints.begin(), SW->Constraints.end());
        Witness.push_back(conjunction(Ctx, W));
      }
      S.add(z3::mk_or(Witness));
      // Quantified over sizes and strides: a nonlinear one rarely ends in time.
      QueryLimit = nonlinear(Ptr.E) ? Opts.NonlinearQueryRlimit : 0;
      z3::check_result Res = GaveUp && QueryLimit ? z3::unknown : check(S);
      if (Res == z3::sat) {
        if (Data) {
          Undecided("the offsets depend on values loaded from memory");
          return Out;
        }
        refuted(Out, A, S.get_model(), *SA, Lanes, Ptr, -1);
        return Out;
      }
      Unknown = Unknown || Res == z3::unknown;
    }
    if (!Sized) {
      // No mask or tl.where bounds the offsets of these tensors: nothing
      // says how large they are, so nothing is claimed.
      Undecided("no mask says how many elements " + Env.F->params()[static_cast<size_t>(A.Base)]->name() + " has");
      return Out;
    }
  }
  if (Unknown) {
    Undecided(OutOfTime ? "the kernel's time limit ran out" : "the solver gave up within its time limit");
    Out.OutOfLimits = true;
    return Out;
  }
  Out.Verdict = BoundsVerdict::Proven;
  return Out;
}

std::vector<AccessBounds> KernelProver::run(std::vector<std::string> &Assumptions, bool &TimedOut) {
  setUp(Assumptions);
  std::vector<AccessBounds> Out;
  for (const Access &A : Accesses) {
    if (Env.Own && std::find(Env.Own->begin(), Env.Own->end(), A.Op->loc()) == Env.Own->end())
      continue;
    if (!budgetLeft()) {
      AccessBounds B;
      B.Range = A.Op->loc();
      B.Op = A.Name;
      B.Reason = "the kernel's time limit ran out";
      B.OutOfLimits = true;
      OutOfTime = true;
      Out.push_back(B);
      continue;
    }
    Out.push_back(prove(A));
  }
  TimedOut = OutOfTime || std::any_of(Out.begin(), Out.end(), [](const AccessBounds &B) { return B.OutOfLimits; });
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
    Add(T.Name + "=" + T.DType + "[" + std::to_string(T.Elements) + "]" + (T.Fill.empty() ? "" : ":" + T.Fill));
  std::string Grid = "grid=(" + std::to_string(C.Grid[0]);
  if (C.Grid[1] != 1 || C.Grid[2] != 1)
    Grid += ", " + std::to_string(C.Grid[1]);
  if (C.Grid[2] != 1)
    Grid += ", " + std::to_string(C.Grid[2]);
  Add(Grid + (C.Grid[1] == 1 && C.Grid[2] == 1 ? ",)" : ")"));
  return Out;
}

/// The derived plan, with every block-size constexpr nothing fixes set to
/// 128: a spec naming every parameter (tensors of 1024 elements, integers
/// 1024), which only lends its specialization to the conventional reading.
static sema::LaunchPlanOptions planOptions(const FileLaunches &Shared) {
  sema::LaunchPlanOptions PO;
  PO.Directives = Shared.Directives;
  PO.HostLaunches = Shared.HostLaunches;
  PO.FromWrappers = false; // wrappers are read symbolically here (SymbolicLaunch)
  return PO;
}

static sema::LaunchPlan guessedPlan(const ParsedFile &File, const ModuleInfo &Info, std::string_view Kernel,
                                    const FileLaunches &Shared, std::vector<std::string> &Assumptions) {
  const JitFunction *Fn = Info.jit(std::string(Kernel));
  sema::LaunchPlan Failed;
  Failed.Error = "no launch";
  if (!Fn || !Fn->Def)
    return Failed;
  sema::LaunchPlan Plain = sema::planLaunch(File, Info, Kernel, planOptions(Shared));
  std::set<std::string> Pointers = sema::inferPointerParams(*Fn->Def, Info);
  std::string Spec;
  for (const ast::Param &P : Fn->Def->Params) {
    if (sema::isConstexprAnnotation(Info, P.Annotation)) {
      bool Missing = false;
      for (const Problem &Pr : Plain.Problems)
        Missing = Missing || Pr.Message.find("'" + P.Name + "'") != std::string::npos;
      if (!Missing)
        continue;
      if (P.Name.find("BLOCK") == std::string::npos && P.Name.find("TILE") == std::string::npos &&
          P.Name.find("SIZE") == std::string::npos) {
        Failed.Error = "no launch fixes constexpr '" + P.Name + "', and its name does not say it is a block size";
        return Failed;
      }
      Spec += " " + P.Name + "=128";
      Assumptions.push_back(P.Name + "=128 (guessed: nothing in the file fixes it)");
      continue;
    }
    std::optional<ElemType> T = sema::annotationType(Info, P.Annotation);
    if ((T && T->isPointer()) || (!T && Pointers.count(P.Name)))
      Spec += " " + P.Name + "=" +
              std::string(T && T->Scalar != ScalarKind::Unknown ? shortName(T->Scalar) : std::string_view("fp32")) +
              "[1024]";
    else if (T && isFloat(T->Scalar))
      Spec += " " + P.Name + "=0.5";
    else
      Spec += " " + P.Name + "=1024";
  }
  sema::LaunchPlanOptions PO = planOptions(Shared);
  PO.SpecText = Spec;
  sema::LaunchPlan Out = sema::planLaunch(File, Info, Kernel, PO);
  Out.Origin = sema::SpecOrigin::Derived;
  Out.Assumptions.clear();
  return Out;
}

/// The plan of a kernel launched by an uncalled host wrapper (W): the
/// wrapper's constexprs and element types, every size a placeholder (the
/// prover's sizes are W's symbols). Empty Launches when W does not fix a
/// constexpr the kernel needs.
static sema::LaunchPlan wrapperPlan(const ParsedFile &File, const ModuleInfo &Info, std::string_view Kernel,
                                    const FileLaunches &Shared, const SymbolicLaunch &W) {
  sema::LaunchPlan Failed;
  const JitFunction *Fn = Info.jit(std::string(Kernel));
  if (!Fn || !Fn->Def)
    return Failed;
  std::set<std::string> Pointers = sema::inferPointerParams(*Fn->Def, Info);
  std::string Spec;
  for (const ast::Param &P : Fn->Def->Params) {
    auto V = W.Values.find(P.Name);
    if (sema::isConstexprAnnotation(Info, P.Annotation)) {
      if (V != W.Values.end() && V->second.isIntLike())
        Spec += " " + P.Name + "=" + std::to_string(V->second.asInt());
      else if (V != W.Values.end() && V->second.kind() != PyValue::Kind::Unknown)
        Spec += " " + P.Name + "=" + V->second.repr();
      else if (!P.Default)
        return Failed; // the wrapper computes it from the sizes (or not at all)
      continue;
    }
    std::optional<ElemType> T = sema::annotationType(Info, P.Annotation);
    bool Pointer = (T && T->isPointer()) || (!T && Pointers.count(P.Name));
    if (auto D = W.DTypes.find(P.Name); D != W.DTypes.end()) {
      // A tensor where the kernel takes a scalar: the wrapper was not run
      // with the arguments it expects (a scalar parameter taken for a tensor).
      if (!Pointer)
        return Failed;
      Spec += " " + P.Name + "=" + D->second + "[1024]";
    } else if (Pointer)
      Spec += " " + P.Name + "=fp32[1024]";
    else if (T && isFloat(T->Scalar))
      Spec += " " + P.Name + "=0.5";
    else if (V != W.Values.end() && V->second.isIntLike() && !W.Ints.count(P.Name))
      Spec += " " + P.Name + "=" + std::to_string(V->second.asInt());
    else if (V != W.Values.end() && V->second.kind() == PyValue::Kind::Float)
      Spec += " " + P.Name + "=0.5";
    else
      Spec += " " + P.Name + "=1024";
  }
  sema::LaunchPlanOptions PO = planOptions(Shared);
  PO.SpecText = Spec;
  sema::LaunchPlan Out = sema::planLaunch(File, Info, Kernel, PO);
  Out.Origin = sema::SpecOrigin::Derived;
  Out.Assumptions.clear();
  return Out;
}

KernelBounds proveKernel(const ParsedFile &File, const ModuleInfo &Info, std::string_view Kernel,
                         const ProverOptions &Opts, const FileLaunches &Shared) {
  Clock::time_point Start = Clock::now();
  Clock::time_point Deadline = Start + std::chrono::milliseconds(Opts.KernelTimeoutMs);
  KernelBounds KB;
  KB.Kernel = std::string(Kernel);
  if (const JitFunction *Fn = Info.jit(KB.Kernel); Fn && Fn->Def)
    KB.NameRange = Fn->Def->NameRange;
  sema::LaunchPlan Plan = sema::planLaunch(File, Info, Kernel, planOptions(Shared));
  // No spec and no launch the module's code makes: a host wrapper nothing
  // calls may still say how the kernel is launched.
  const SymbolicLaunch *Wrapper = nullptr;
  std::map<std::string, SymbolicLaunch> OwnWrappers;
  if (Opts.UseWrappers && Plan.Origin == sema::SpecOrigin::Derived && Plan.Error.empty()) {
    const std::map<std::string, SymbolicLaunch> *Wrappers = Shared.Wrappers;
    if (!Wrappers) {
      OwnWrappers = symbolicHostLaunches(File, Info);
      Wrappers = &OwnWrappers;
    }
    if (auto It = Wrappers->find(KB.Kernel); It != Wrappers->end()) {
      KB.LaunchKey = It->second.key();
      sema::LaunchPlan FromWrapper = wrapperPlan(File, Info, Kernel, Shared, It->second);
      if (!FromWrapper.Launches.empty() && FromWrapper.Error.empty()) {
        Plan = std::move(FromWrapper);
        Wrapper = &It->second;
        KB.FromWrapper = true;
        KB.Assumptions = Wrapper->Assumptions;
      }
    }
  }
  if (!Wrapper && Opts.GuessBlockSizes && Plan.Origin == sema::SpecOrigin::Derived && Plan.Launches.empty() &&
      Plan.Error.empty())
    Plan = guessedPlan(File, Info, Kernel, Shared, KB.Assumptions);
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
                           std::string(Wrapper ? "each pointer the wrapper gives no size for" : "each pointer") +
                               " covers the offsets its most tightly masked access reaches (accesses with "
                               "the same base pointer or the same offsets share one size)"});
  }
  try {
    size_t Instances = KB.FromSpec ? std::min(Plan.Launches.size(), Opts.MaxInstances) : 1;
    for (size_t I = 0; I < Instances; ++I) {
      sema::PlannedLaunch &PL = Plan.Launches[I];
      if (!KB.FromSpec)
        PL.Request.EqualToOne.clear(); // sizes stay symbolic, none is specialized to 1
      sema::AnalyzeOptions AO;
      AO.Project = Opts.Project;
      AO.RecordValueFacts = false;
      sema::LoweredKernel LK = sema::lowerKernel(File, Info, PL.Request, AO);
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
      Env.Own = &LK.OwnAccesses;
      Env.Wrapper = KB.FromSpec ? nullptr : Wrapper;
      Env.MadeUp = KB.FromSpec && !Plan.MadeUp.empty();
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
  // A wrapper's sizes can make queries nonlinear (`M * N` elements) that the
  // conventional reading keeps linear: what the wrapper leaves open takes the
  // conventional reading's verdict, access by access (the header's model),
  // and the kernel lists both readings' assumptions.
  auto Open = [](const KernelBounds &K) {
    return std::count_if(K.Accesses.begin(), K.Accesses.end(),
                         [](const AccessBounds &A) { return A.Verdict == BoundsVerdict::Undecided; });
  };
  if (KB.FromWrapper && (!KB.Analysed || Open(KB) > 0)) {
    ProverOptions Plain = Opts;
    Plain.UseWrappers = false;
    KernelBounds Conventional = proveKernel(File, Info, Kernel, Plain, Shared);
    if (Conventional.Analysed && !KB.Analysed) {
      Conventional.LaunchKey = KB.LaunchKey;
      KB = std::move(Conventional);
    } else if (Conventional.Analysed) {
      bool Took = false;
      for (AccessBounds &A : KB.Accesses) {
        if (A.Verdict != BoundsVerdict::Undecided)
          continue;
        auto It = std::find_if(Conventional.Accesses.begin(), Conventional.Accesses.end(),
                               [&](const AccessBounds &C) { return C.Range == A.Range; });
        if (It == Conventional.Accesses.end() || It->Verdict == BoundsVerdict::Undecided)
          continue;
        A = *It;
        Took = true;
      }
      if (Took) {
        for (const std::string &X : Conventional.Assumptions)
          if (std::find(KB.Assumptions.begin(), KB.Assumptions.end(), X) == KB.Assumptions.end())
            KB.Assumptions.push_back(X);
        KB.TimedOut =
            std::any_of(KB.Accesses.begin(), KB.Accesses.end(), [](const AccessBounds &A) { return A.OutOfLimits; });
      }
    }
  }
  return Finish();
}

std::vector<KernelBounds> proveFile(const ParsedFile &File, const ModuleInfo &Info, const ProverOptions &Opts) {
  std::vector<KernelBounds> Out;
  const std::vector<launch::LaunchDirective> &Directives = File.launchDirectives();
  std::map<std::string, HostLaunch> Host = firstHostLaunches(File, Info);
  std::map<std::string, SymbolicLaunch> Wrappers = symbolicHostLaunches(File, Info);
  FileLaunches Shared{&Directives, &Host, &Wrappers};
  for (const std::string &Name : Info.Order) {
    const JitFunction &J = Info.Jit.at(Name);
    if (!J.IsKernel || !J.Def)
      continue;
    Out.push_back(proveKernel(File, Info, Name, Opts, Shared));
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
