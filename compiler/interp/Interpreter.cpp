//===- Interpreter.cpp - running tile IR on the CPU -----------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The driver: the grid loop, parameter binding, structured control flow and
/// the dispatch of each op to its family's evaluator (Kernels.h). Values
/// live in one slot per SSA value, reused from program to program so that a
/// steady-state program allocates (almost) nothing.
//===----------------------------------------------------------------------===//
#include "compiler/interp/Interpreter.h"

#include "compiler/interp/Kernels.h"
#include "compiler/ir/Verifier.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

namespace tessel::interp {

using namespace ir;

std::string_view violationKindName(ViolationKind K) {
  switch (K) {
  case ViolationKind::OutOfBounds:
    return "out-of-bounds";
  case ViolationKind::Misaligned:
    return "misaligned";
  case ViolationKind::InvalidPointer:
    return "invalid-pointer";
  case ViolationKind::UninitializedRead:
    return "uninitialized";
  }
  return "?";
}

/// "load of", "stores to": the access, in singular or plural.
static std::string accessWords(ir::OpKind K, bool Plural) {
  switch (K) {
  case OpKind::Load:
    return Plural ? "loads of" : "load of";
  case OpKind::Store:
    return Plural ? "stores to" : "store to";
  default:
    return Plural ? "atomics on" : "atomic on";
  }
}

static std::string where(const std::array<int64_t, 3> &Pid, int64_t Lane) {
  return "program (" + std::to_string(Pid[0]) + ", " + std::to_string(Pid[1]) + ", " + std::to_string(Pid[2]) +
         "), lane " + std::to_string(Lane);
}

std::string describe(const AccessViolation &V) {
  std::string What = std::string(violationKindName(V.Kind)) + " " + accessWords(V.Op, false) + " ";
  if (V.Kind == ViolationKind::InvalidPointer)
    return What + "a pointer that names no buffer in " + where(V.ProgramId, V.Lane);
  return What + V.Buffer + "[" + std::to_string(V.ElementOffset) + "] (" + V.Buffer + " has " +
         std::to_string(V.BufferElements) + " elements) in " + where(V.ProgramId, V.Lane);
}

std::string describe(const ViolationSite &S) {
  std::string What = std::to_string(S.Count) + " " + std::string(violationKindName(S.Kind)) + " " +
                     accessWords(S.Op, S.Count != 1) + " ";
  if (S.Kind == ViolationKind::InvalidPointer)
    return What + "pointers that name no buffer, first in " + where(S.FirstProgramId, S.FirstLane);
  std::string Range = std::to_string(S.MinElementOffset);
  if (S.MaxElementOffset != S.MinElementOffset)
    Range += ".." + std::to_string(S.MaxElementOffset);
  return What + S.Buffer + "[" + Range + "] (" + S.Buffer + " has " + std::to_string(S.BufferElements) +
         " elements), first in " + where(S.FirstProgramId, S.FirstLane);
}

namespace {

class Machine {
public:
  Machine(const Function &F, Memory &Mem, const RunOptions &Opts, RunResult &Result)
      : F(F), Opts(Opts), Result(Result), Ctx{Mem, Result, Opts, {0, 0, 0}}, Env(F.numValues()) {}

  bool bindParams(const std::vector<ArgValue> &Args) {
    if (Args.size() != F.params().size())
      return fail({}, "kernel takes " + std::to_string(F.params().size()) + " arguments, got " +
                          std::to_string(Args.size()));
    for (size_t I = 0; I < Args.size(); ++I) {
      const Value *P = F.params()[I];
      Tile &T = slot(P);
      T.reset(P->type().Elem, {});
      const ArgValue &A = Args[I];
      if (P->type().Elem.isPointer()) {
        if (A.K != ArgValue::Kind::Pointer)
          return fail({}, "argument " + P->name() + " must be a pointer");
        T.Ints[0] = packPointer(A.BufferId, 0);
      } else if (T.isFloat()) {
        T.Floats[0] =
            roundFloat(A.K == ArgValue::Kind::Float ? A.Float : static_cast<double>(A.Int), P->type().Elem.Scalar);
      } else {
        if (A.K == ArgValue::Kind::Pointer)
          return fail({}, "argument " + P->name() + " must be a number");
        T.Ints[0] = wrapInt(A.K == ArgValue::Kind::Int ? A.Int : static_cast<int64_t>(A.Float), P->type().Elem.Scalar);
      }
    }
    return true;
  }

  bool runProgram(std::array<int64_t, 3> Pid) {
    Ctx.Pid = Pid;
    return execBlock(F.body());
  }

private:
  bool fail(SourceRange R, std::string Message) {
    if (Result.Error.empty()) {
      Result.Error = std::move(Message);
      Result.ErrorRange = R;
    }
    return false;
  }

  Tile &slot(const Value *V) { return Env[V->id()]; }
  const Tile &get(const Value *V) { return Env[V->id()]; }
  int64_t scalarInt(const Value *V) { return get(V).Ints[0]; }

  /// Runs B's ops; its terminator's operands are then readable from Env.
  bool execBlock(const Block &B) {
    for (const auto &O : B.ops())
      if (!execOp(*O))
        return false;
    return true;
  }

  /// Copies the values a terminator hands on (from operand From) into Dst.
  void takeTerminatorValues(const Block &B, unsigned From, const std::vector<Value *> &Dst) {
    const Op *T = B.terminator();
    std::vector<Tile> Tmp;
    Tmp.reserve(Dst.size());
    for (unsigned I = 0; I < Dst.size(); ++I)
      Tmp.push_back(get(T->operand(From + I)));
    for (unsigned I = 0; I < Dst.size(); ++I)
      std::swap(slot(Dst[I]), Tmp[I]);
  }

  void copyInto(const std::vector<Value *> &Src, size_t From, const std::vector<Value *> &Dst, size_t DstFrom) {
    std::vector<Tile> Tmp;
    for (size_t I = 0; I + DstFrom < Dst.size(); ++I)
      Tmp.push_back(get(Src[From + I]));
    for (size_t I = 0; I < Tmp.size(); ++I)
      std::swap(slot(Dst[DstFrom + I]), Tmp[I]);
  }

  void runRegion(const Block &B, const std::vector<const Tile *> &Args, std::vector<Tile> &Results) {
    for (size_t I = 0; I < Args.size() && I < B.arguments().size(); ++I)
      slot(B.argument(static_cast<unsigned>(I))) = *Args[I];
    Results.clear();
    if (!execBlock(B))
      return;
    for (Value *V : B.terminator()->operands())
      Results.push_back(get(V));
  }

  bool execFor(const ForOp &L) {
    const Block &Body = *L.body();
    const int64_t Lb = scalarInt(L.lowerBound()), Ub = scalarInt(L.upperBound()), Step = scalarInt(L.step());
    if (Step == 0)
      return fail(L.loc(), "for loop step is zero");
    copyInto(L.operands(), 3, Body.arguments(), 1);
    const ScalarKind IvKind = L.lowerBound()->type().Elem.Scalar;
    for (int64_t Iv = Lb; Step > 0 ? Iv < Ub : Iv > Ub; Iv += Step) {
      Tile &IvT = slot(Body.argument(0));
      IvT.reset(L.lowerBound()->type().Elem, {});
      IvT.Ints[0] = wrapInt(Iv, IvKind);
      if (!execBlock(Body))
        return false;
      std::vector<Value *> Carried(Body.arguments().begin() + 1, Body.arguments().end());
      takeTerminatorValues(Body, 0, Carried);
    }
    for (unsigned I = 0; I < L.numResults(); ++I)
      slot(L.result(I)) = get(Body.argument(I + 1));
    return true;
  }

  bool execWhile(const WhileOp &W) {
    const Block &Before = *W.before(), &After = *W.after();
    copyInto(W.operands(), 0, Before.arguments(), 0);
    while (true) {
      if (!execBlock(Before))
        return false;
      const Op *Cond = Before.terminator();
      if (!get(Cond->operand(0)).Ints[0]) {
        takeTerminatorValues(Before, 1, W.results());
        return true;
      }
      takeTerminatorValues(Before, 1, After.arguments());
      if (!execBlock(After))
        return false;
      takeTerminatorValues(After, 0, Before.arguments());
    }
  }

  bool execIf(const IfOp &I) {
    const Block *B = get(I.condition()).Ints[0] ? I.thenBlock() : I.elseBlock();
    if (!B)
      return true;
    if (!execBlock(*B))
      return false;
    takeTerminatorValues(*B, 0, I.results());
    return true;
  }

  void print(const DevicePrintOp &P) {
    char Buf[64];
    for (unsigned K = 0; K < P.numOperands(); ++K) {
      const Tile &T = get(P.operand(K));
      for (size_t I = 0; I < T.size(); ++I) {
        if (Result.PrintLog.size() > Opts.MaxPrintLines * 80)
          return;
        std::string Line = "pid (" + std::to_string(Ctx.Pid[0]) + ", " + std::to_string(Ctx.Pid[1]) + ", " +
                           std::to_string(Ctx.Pid[2]) + ")";
        if (!T.Shape.empty())
          Line += " idx (" + std::to_string(I) + ")";
        Line += " " + P.prefix();
        if (P.numOperands() > 1)
          Line += " (operand " + std::to_string(K) + ")";
        if (P.hex())
          std::snprintf(Buf, sizeof Buf, "0x%" PRIx64, elementBits(T, I));
        else if (T.isFloat())
          std::snprintf(Buf, sizeof Buf, "%.9g", T.Floats[I]);
        else
          std::snprintf(Buf, sizeof Buf, "%" PRId64, T.Ints[I]);
        Result.PrintLog += Line + ": " + Buf + "\n";
      }
    }
  }

  void assertLanes(const DeviceAssertOp &A) {
    const Tile &C = get(A.operand(0));
    const Tile *M = A.mask() ? &get(A.mask()) : nullptr;
    for (size_t I = 0; I < C.size(); ++I) {
      if (C.Ints[I] || (M && !M->Ints[M->size() == 1 ? 0 : I]))
        continue;
      auto Site = std::find_if(Result.AssertSites.begin(), Result.AssertSites.end(),
                               [&](const AssertSite &S) { return S.Range == A.loc(); });
      if (Site == Result.AssertSites.end())
        Site = Result.AssertSites.insert(Result.AssertSites.end(),
                                         AssertSite{A.loc(), A.message(), 0, Ctx.Pid, static_cast<int64_t>(I)});
      ++Site->Count;
      if (Result.Asserts.size() < Opts.MaxViolations)
        Result.Asserts.push_back({A.message(), Ctx.Pid, static_cast<int64_t>(I), A.loc()});
    }
  }

  bool execOp(const Op &O) {
    if (Opts.MaxSteps && ++Result.Steps > Opts.MaxSteps)
      return fail(O.loc(), "step limit of " + std::to_string(Opts.MaxSteps) + " ops exceeded");
    const auto &Ops = O.operands();
    switch (O.kind()) {
    case OpKind::Constant:
      evalConstant(*cast<ConstantOp>(&O), slot(O.result()));
      return true;
    case OpKind::Splat:
    case OpKind::Broadcast:
      evalBroadcast(get(Ops[0]), O.result()->type().Shape, slot(O.result()));
      return true;
    case OpKind::ExpandDims:
    case OpKind::Reshape:
    case OpKind::Hint:
    case OpKind::MakeTensorDesc: { // the base: its accesses carry their pointer form
      Tile &Out = slot(O.result());
      Out = get(Ops[0]);
      Out.Shape = O.result()->type().Shape;
      return true;
    }
    case OpKind::Permute:
      evalPermute(get(Ops[0]), O.intsAttr(), slot(O.result()));
      return true;
    case OpKind::Join:
      evalJoin(get(Ops[0]), get(Ops[1]), slot(O.result()));
      return true;
    case OpKind::Split:
      evalSplit(get(Ops[0]), slot(O.result(0)), slot(O.result(1)));
      return true;
    case OpKind::Arange:
      evalArange(O.intAttr(), O.intAttr2(), slot(O.result()));
      return true;
    case OpKind::ProgramId:
    case OpKind::NumPrograms: {
      Tile &Out = slot(O.result());
      Out.reset({ScalarKind::I32, 0, false}, {});
      int Axis = static_cast<int>(O.intAttr());
      Out.Ints[0] = O.kind() == OpKind::ProgramId ? Ctx.Pid[Axis] : Opts.Grid[Axis];
      return true;
    }
    case OpKind::Fma:
      evalFma(get(Ops[0]), get(Ops[1]), get(Ops[2]), slot(O.result()));
      return true;
    case OpKind::Cmp:
      evalCmp(cast<CmpOp>(&O)->predicate(), get(Ops[0]), get(Ops[1]), slot(O.result()));
      return true;
    case OpKind::Select:
      evalSelect(get(Ops[0]), get(Ops[1]), get(Ops[2]), slot(O.result()));
      return true;
    case OpKind::Cast:
      evalCast(get(Ops[0]), O.result()->type().Elem, cast<CastOp>(&O)->rounding(), slot(O.result()));
      return true;
    case OpKind::Bitcast:
      evalBitcast(get(Ops[0]), O.result()->type().Elem, slot(O.result()));
      return true;
    case OpKind::AddPtr:
      evalAddPtr(get(Ops[0]), get(Ops[1]), slot(O.result()));
      return true;
    case OpKind::Load: {
      auto *L = cast<LoadOp>(&O);
      evalLoad(Ctx, *L, get(L->ptr()), L->mask() ? &get(L->mask()) : nullptr, L->other() ? &get(L->other()) : nullptr,
               slot(O.result()));
      return true;
    }
    case OpKind::Store: {
      auto *S = cast<StoreOp>(&O);
      evalStore(Ctx, *S, get(S->ptr()), get(S->value()), S->mask() ? &get(S->mask()) : nullptr);
      return true;
    }
    case OpKind::AtomicRMW: {
      auto *A = cast<AtomicRMWOp>(&O);
      evalAtomicRMW(Ctx, *A, get(A->ptr()), get(A->value()), A->mask() ? &get(A->mask()) : nullptr, slot(O.result()));
      return true;
    }
    case OpKind::AtomicCas: {
      auto *A = cast<AtomicCasOp>(&O);
      evalAtomicCas(Ctx, *A, get(A->ptr()), get(A->compare()), get(A->value()), slot(O.result()));
      return true;
    }
    case OpKind::Reduce:
    case OpKind::Scan: {
      std::vector<const Tile *> Ins;
      for (Value *V : Ops)
        Ins.push_back(&get(V));
      std::vector<Tile *> Outs;
      for (Value *V : O.results())
        Outs.push_back(&slot(V));
      RegionRunner Run = [this](const Block &B, const std::vector<const Tile *> &Args, std::vector<Tile> &Res) {
        runRegion(B, Args, Res);
      };
      if (O.kind() == OpKind::Reduce)
        evalReduce(*cast<ReduceOp>(&O), Ins, Outs, Run);
      else
        evalScan(*cast<ScanOp>(&O), Ins, Outs, Run);
      return Result.Error.empty();
    }
    case OpKind::Gather: {
      int Axis = cast<GatherOp>(&O)->axis();
      const Tile &Src = get(Ops[0]);
      if (std::optional<int64_t> Bad = evalGather(Src, get(Ops[1]), Axis, slot(O.result())))
        return fail(O.loc(), "tl.gather index " + std::to_string(*Bad) + " is out of range for axis " +
                                 std::to_string(Axis) + " of size " +
                                 std::to_string(Src.Shape[static_cast<size_t>(Axis)]) + " (program " +
                                 std::to_string(Ctx.Pid[0]) + ", " + std::to_string(Ctx.Pid[1]) + ", " +
                                 std::to_string(Ctx.Pid[2]) + ")");
      return true;
    }
    case OpKind::Histogram: {
      auto *H = cast<HistogramOp>(&O);
      evalHistogram(get(H->input()), H->mask() ? &get(H->mask()) : nullptr, H->bins(), slot(O.result()));
      return true;
    }
    case OpKind::Dot: {
      const Tile &A = get(Ops[0]), &B = get(Ops[1]);
      const auto &D = *cast<DotOp>(&O);
      evalDot(D, A, B, get(Ops[2]), slot(O.result()), Opts.Tf32Truncates && Opts.Tf32Truncates(D));
      uint64_t Flops = 2;
      for (int64_t D : A.Shape)
        Flops *= static_cast<uint64_t>(D);
      Result.DotFlops += Flops * static_cast<uint64_t>(B.Shape.back());
      return true;
    }
    case OpKind::Rand:
    case OpKind::Randn:
    case OpKind::Randint: {
      const auto *R = cast<RandomOp>(&O);
      std::array<const Tile *, 3> Counters = {};
      for (unsigned I = 1; I < 4; ++I)
        if (const ir::Value *C = R->counter(I))
          Counters[I - 1] = &get(C);
      evalRandom(O.kind(), get(Ops[0]), get(Ops[1]), R->nRounds(), slot(O.result()), Counters, R->word());
      return true;
    }
    case OpKind::DevicePrint:
      print(*cast<DevicePrintOp>(&O));
      return true;
    case OpKind::InlineAsm: {
      // griddepcontrol (tl.extra.cuda.gdc_wait / gdc_launch_dependents)
      // orders this launch after the previous one: one launch alone, as
      // here, runs the same without it. Other PTX is the GPU's to run.
      const auto *A = cast<InlineAsmOp>(&O);
      if (A->asmText().rfind("griddepcontrol.", 0) != 0)
        return fail(O.loc(), "tl.inline_asm_elementwise runs PTX, which tessel's interpreter cannot; run the "
                             "kernel on the GPU (tessel run --gpu)");
      Tile &Out = slot(O.result());
      Out.reset(O.result()->type().Elem, O.result()->type().Shape);
      std::fill(Out.Ints.begin(), Out.Ints.end(), 0); // the dummy result
      std::fill(Out.Floats.begin(), Out.Floats.end(), 0.0);
      return true;
    }
    case OpKind::DeviceAssert:
      assertLanes(*cast<DeviceAssertOp>(&O));
      return true;
    case OpKind::Barrier:
      return true; // a program runs its whole tile at once: its stores are seen by every later load
    case OpKind::For:
      return execFor(*cast<ForOp>(&O));
    case OpKind::While:
      return execWhile(*cast<WhileOp>(&O));
    case OpKind::If:
      return execIf(*cast<IfOp>(&O));
    case OpKind::Yield:
    case OpKind::Condition:
    case OpKind::Return:
      return true;
    default:
      break;
    }
    if (isa<BinaryOp>(&O)) {
      evalBinary(O, get(Ops[0]), get(Ops[1]), slot(O.result()));
      return true;
    }
    if (isa<UnaryOp>(&O)) {
      evalUnary(O.kind(), get(Ops[0]), slot(O.result()));
      return true;
    }
    return fail(O.loc(), "the interpreter cannot execute " + std::string(opName(O.kind())));
  }

  const Function &F;
  const RunOptions &Opts;
  RunResult &Result;
  ExecContext Ctx;
  std::vector<Tile> Env;
};

} // namespace

RunResult run(const Function &F, Memory &Mem, const std::vector<ArgValue> &Args, const RunOptions &Opts) {
  RunResult Result;
  // The evaluators trust the IR's types and shapes; malformed IR is refused
  // here rather than allowed to crash them.
  std::vector<ir::VerifierError> Errors = ir::verify(F);
  if (!Errors.empty()) {
    Result.Error = "the function does not verify: " + Errors.front().Message;
    Result.ErrorRange = Errors.front().Loc;
    return Result;
  }
  Machine M(F, Mem, Opts, Result);
  if (!M.bindParams(Args))
    return Result;
  for (int64_t Z = 0; Z < Opts.Grid[2]; ++Z)
    for (int64_t Y = 0; Y < Opts.Grid[1]; ++Y)
      for (int64_t X = 0; X < Opts.Grid[0]; ++X)
        if (!M.runProgram({X, Y, Z}))
          return Result;
  Result.Completed = true;
  return Result;
}

} // namespace tessel::interp
