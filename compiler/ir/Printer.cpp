//===- Printer.cpp - the textual form of tile IR --------------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// One recursive walk. Each op prints as `results = mnemonic [keywords]
/// operands [key=value...] : result types`, with region ops adding their
/// blocks in braces; the per-kind part is the `attributes` switch.
//===----------------------------------------------------------------------===//
#include "compiler/ir/Printer.h"

#include "compiler/ir/TypeUtils.h"
#include "compiler/support/SourceText.h"

#include <cmath>
#include <cstdio>
#include <set>
#include <unordered_map>

namespace tessel::ir {

namespace {

class Printer {
public:
  explicit Printer(const PrintOptions &Opts) : Opts(Opts) {}

  std::string run(const Function &F) {
    Out += "func @" + F.name() + "(";
    for (size_t I = 0; I < F.params().size(); ++I) {
      Value *P = F.params()[I];
      if (I)
        Out += ", ";
      Out += name(P) + ": " + typeString(P->type());
    }
    Out += ") {\n";
    printBlockOps(F.body(), 1);
    Out += "}\n";
    return std::move(Out);
  }

private:
  std::string name(const Value *V) {
    auto It = Names.find(V);
    if (It != Names.end())
      return It->second;
    std::string N;
    if (!V->name().empty()) {
      N = "%" + V->name();
      for (int K = 1; Used.count(N); ++K)
        N = "%" + V->name() + "_" + std::to_string(K);
    } else {
      do
        N = "%" + std::to_string(Next++);
      while (Used.count(N));
    }
    Used.insert(N);
    Names.emplace(V, N);
    return N;
  }

  std::string list(const std::vector<Value *> &Vs, size_t From = 0, size_t To = SIZE_MAX) {
    std::string S;
    for (size_t I = From; I < Vs.size() && I < To; ++I) {
      if (I != From)
        S += ", ";
      S += name(Vs[I]);
    }
    return S;
  }

  static std::string types(const std::vector<Value *> &Vs) {
    std::string S;
    for (size_t I = 0; I < Vs.size(); ++I) {
      if (I)
        S += ", ";
      S += typeString(Vs[I]->type());
    }
    return S;
  }

  std::string loc(SourceRange R) {
    if (!Opts.Locations || R.empty())
      return "";
    if (Opts.Source) {
      LineCol LC = Opts.Source->lineCol(R.Begin);
      return "  loc(" + std::to_string(LC.Line + 1) + ":" + std::to_string(LC.Column + 1) + ")";
    }
    return "  loc(@" + std::to_string(R.Begin) + ".." + std::to_string(R.End) + ")";
  }

  void indent(int Depth) { Out.append(static_cast<size_t>(Depth) * 2, ' '); }

  void printBlockOps(const Block &B, int Depth) {
    for (const auto &O : B.ops())
      printOp(*O, Depth);
  }

  /// `(%a: t, %b: t)` for a region's arguments.
  std::string blockArgs(const Block &B) {
    std::string S = "(";
    for (size_t I = 0; I < B.arguments().size(); ++I) {
      if (I)
        S += ", ";
      S += name(B.argument(static_cast<unsigned>(I))) + ": " + typeString(B.argument(static_cast<unsigned>(I))->type());
    }
    return S + ")";
  }

  static std::string number(double V) {
    if (std::isnan(V))
      return "nan";
    if (std::isinf(V))
      return V < 0 ? "-inf" : "inf";
    char Buf[40];
    std::snprintf(Buf, sizeof Buf, "%.17g", V);
    std::string S = Buf;
    if (S.find_first_of(".en") == std::string::npos)
      S += ".0";
    return S;
  }

  static std::string ints(const std::vector<int64_t> &Vs) {
    std::string S = "[";
    for (size_t I = 0; I < Vs.size(); ++I)
      S += (I ? ", " : "") + std::to_string(Vs[I]);
    return S + "]";
  }

  /// The text between the mnemonic and the ` : types` part.
  std::string body(const Op &O) {
    const std::vector<Value *> &Ops = O.operands();
    switch (O.kind()) {
    case OpKind::Constant: {
      const TileType &T = O.result()->type();
      if (isFloatScalar(T.Elem.Scalar))
        return " " + number(O.floatAttr());
      if (T.Elem.Scalar == ScalarKind::I1)
        return O.intAttr() ? " true" : " false";
      return " " + std::to_string(O.intAttr());
    }
    case OpKind::ExpandDims:
      return " " + name(Ops[0]) + " axis=" + std::to_string(O.intAttr());
    case OpKind::Permute:
      return " " + name(Ops[0]) + " order=" + ints(O.intsAttr());
    case OpKind::Arange:
      return " " + std::to_string(O.intAttr()) + ", " + std::to_string(O.intAttr2());
    case OpKind::ProgramId:
    case OpKind::NumPrograms:
      return " " + std::to_string(O.intAttr());
    case OpKind::Minimum:
    case OpKind::Maximum: {
      std::string S = " " + list(Ops);
      if (isFloatScalar(Ops[0]->type().Elem.Scalar) && cast<BinaryOp>(&O)->propagateNan() == PropagateNan::All)
        S += " propagate_nan=all";
      return S;
    }
    case OpKind::Cmp:
      return " " + std::string(cmpPredicateName(cast<CmpOp>(&O)->predicate())) + " " + list(Ops);
    case OpKind::Cast: {
      std::string S = " " + name(Ops[0]) + " : " + typeString(Ops[0]->type()) + " to " + typeString(O.result()->type());
      if (cast<CastOp>(&O)->rounding() == RoundingMode::RTZ)
        S = " rtz" + S;
      return S;
    }
    case OpKind::Bitcast:
      return " " + name(Ops[0]) + " : " + typeString(Ops[0]->type()) + " to " + typeString(O.result()->type());
    case OpKind::Load: {
      auto *L = cast<LoadOp>(&O);
      std::string S = " " + name(L->ptr());
      if (L->mask())
        S += ", mask=" + name(L->mask());
      if (L->other())
        S += ", other=" + name(L->other());
      if (L->cache() != CacheModifier::None)
        S += " cache=" + std::string(cacheModifierName(L->cache()));
      if (L->eviction() != EvictionPolicy::None)
        S += " evict=" + std::string(evictionPolicyName(L->eviction()));
      if (L->isVolatile())
        S += " volatile";
      if (L->descriptorBase())
        S += " descriptor=" + name(L->descriptorBase()) + "[" + list(L->descriptorOffsets()) + "]";
      return S;
    }
    case OpKind::Store: {
      auto *St = cast<StoreOp>(&O);
      std::string S = " " + name(St->ptr()) + ", " + name(St->value());
      if (St->mask())
        S += ", mask=" + name(St->mask());
      if (St->cache() != CacheModifier::None)
        S += " cache=" + std::string(cacheModifierName(St->cache()));
      if (St->eviction() != EvictionPolicy::None)
        S += " evict=" + std::string(evictionPolicyName(St->eviction()));
      if (St->descriptorBase())
        S += " descriptor=" + name(St->descriptorBase()) + "[" + list(St->descriptorOffsets()) + "]";
      return S;
    }
    case OpKind::AtomicRMW: {
      auto *A = cast<AtomicRMWOp>(&O);
      std::string S =
          " " + std::string(atomicKindName(A->atomicKind())) + " " + name(A->ptr()) + ", " + name(A->value());
      if (A->mask())
        S += ", mask=" + name(A->mask());
      return S + " sem=" + std::string(memSemanticName(A->semantic())) +
             " scope=" + std::string(memScopeName(A->scope()));
    }
    case OpKind::AtomicCas: {
      auto *A = cast<AtomicCasOp>(&O);
      return " " + list(Ops) + " sem=" + std::string(memSemanticName(A->semantic())) +
             " scope=" + std::string(memScopeName(A->scope()));
    }
    case OpKind::Reduce: {
      auto *R = cast<ReduceOp>(&O);
      std::string S =
          " " + std::string(reduceKindName(R->reduceKind())) + " " + list(Ops) + " axis=" + std::to_string(R->axis());
      if ((R->reduceKind() == ReduceKind::ArgMax || R->reduceKind() == ReduceKind::ArgMin) && !R->tieBreakLeft())
        S += " tie_break_left=false";
      return S;
    }
    case OpKind::Scan: {
      auto *Sc = cast<ScanOp>(&O);
      std::string S =
          " " + std::string(scanKindName(Sc->scanKind())) + " " + list(Ops) + " axis=" + std::to_string(Sc->axis());
      if (Sc->reverse())
        S += " reverse";
      return S;
    }
    case OpKind::Gather:
      return " " + list(Ops) + " axis=" + std::to_string(cast<GatherOp>(&O)->axis());
    case OpKind::Dot: {
      auto *D = cast<DotOp>(&O);
      std::string S = " " + list(Ops) + " precision=" + std::string(inputPrecisionName(D->inputPrecision()));
      if (D->maxNumImpreciseAcc())
        S += " max_num_imprecise_acc=" + std::to_string(D->maxNumImpreciseAcc());
      return S;
    }
    case OpKind::Rand:
    case OpKind::Randn:
    case OpKind::Randint: {
      std::string S = " " + list(Ops);
      if (cast<RandomOp>(&O)->nRounds() != 10)
        S += " n_rounds=" + std::to_string(cast<RandomOp>(&O)->nRounds());
      if (cast<RandomOp>(&O)->word())
        S += " word=" + std::to_string(cast<RandomOp>(&O)->word());
      return S;
    }
    case OpKind::DevicePrint: {
      std::string S = " \"" + O.strAttr() + "\"";
      if (!Ops.empty())
        S += " " + list(Ops);
      if (cast<DevicePrintOp>(&O)->hex())
        S += " hex";
      return S;
    }
    case OpKind::DeviceAssert: {
      auto *A = cast<DeviceAssertOp>(&O);
      std::string S = " " + name(Ops[0]);
      if (A->mask())
        S += ", mask=" + name(A->mask());
      return S + " \"" + A->message() + "\"";
    }
    case OpKind::MakeTensorDesc:
      return " " + list(Ops) + (cast<MakeTensorDescOp>(&O)->padNan() ? " padding=nan" : "");
    case OpKind::Hint:
      return " " + std::string(hintKindName(cast<HintOp>(&O)->hintKind())) + " " + name(Ops[0]) + " " +
             ints(O.intsAttr());
    case OpKind::InlineAsm: {
      auto *A = cast<InlineAsmOp>(&O);
      std::string S = " \"" + std::string(A->asmText()) + "\" \"" + std::string(A->constraints()) + "\"";
      if (!Ops.empty())
        S += " " + list(Ops);
      return S + (A->pure() ? " pure" : "") + " pack " + std::to_string(A->pack());
    }
    default:
      return Ops.empty() ? "" : " " + list(Ops);
    }
  }

  void printOp(const Op &O, int Depth) {
    indent(Depth);
    if (O.numResults())
      Out += list(O.results()) + " = ";
    Out += opName(O.kind());
    switch (O.kind()) {
    case OpKind::For:
      printFor(*cast<ForOp>(&O), Depth);
      return;
    case OpKind::While:
      printWhile(*cast<WhileOp>(&O), Depth);
      return;
    case OpKind::If:
      printIf(*cast<IfOp>(&O), Depth);
      return;
    default:
      break;
    }
    Out += body(O);
    // Casts print both types themselves: `cast %1 : [64] fp32 to [64] fp16`.
    const bool TypesInBody = O.kind() == OpKind::Cast || O.kind() == OpKind::Bitcast;
    if (O.numResults() && !TypesInBody)
      Out += " : " + types(O.results());
    else if ((O.kind() == OpKind::Yield || O.kind() == OpKind::Condition) && O.numOperands())
      Out += " : " + types(O.operands());
    if (Block *R = O.regions().empty() ? nullptr : O.region(0)) {
      Out += " combine" + blockArgs(*R) + " {\n";
      printBlockOps(*R, Depth + 1);
      indent(Depth);
      Out += "}";
    }
    Out += loc(O.loc()) + "\n";
  }

  void closeRegion(int Depth) {
    indent(Depth);
    Out += "}";
  }

  void printFor(const ForOp &F, int Depth) {
    Block *B = F.body();
    Out += " " + name(B->argument(0)) + " = " + name(F.lowerBound()) + " to " + name(F.upperBound()) + " step " +
           name(F.step());
    if (F.numStages())
      Out += " num_stages=" + std::to_string(F.numStages());
    if (F.numInits()) {
      Out += " iter_args(";
      for (unsigned I = 0; I < F.numInits(); ++I)
        Out += (I ? ", " : "") + name(B->argument(I + 1)) + " = " + name(F.init(I));
      Out += ") -> (" + types(F.results()) + ")";
    }
    Out += " : " + typeString(F.lowerBound()->type()) + " {\n";
    printBlockOps(*B, Depth + 1);
    closeRegion(Depth);
    Out += loc(F.loc()) + "\n";
  }

  void printWhile(const WhileOp &W, int Depth) {
    Block *Before = W.before();
    Out += " (";
    for (unsigned I = 0; I < W.numOperands(); ++I)
      Out += (I ? ", " : "") + name(Before->argument(I)) + " = " + name(W.operand(I));
    Out += ") -> (" + types(W.results()) + ") {\n";
    printBlockOps(*Before, Depth + 1);
    closeRegion(Depth);
    Out += " do" + blockArgs(*W.after()) + " {\n";
    printBlockOps(*W.after(), Depth + 1);
    closeRegion(Depth);
    Out += loc(W.loc()) + "\n";
  }

  void printIf(const IfOp &I, int Depth) {
    Out += " " + name(I.condition());
    if (I.numResults())
      Out += " -> (" + types(I.results()) + ")";
    Out += " {\n";
    printBlockOps(*I.thenBlock(), Depth + 1);
    closeRegion(Depth);
    if (Block *E = I.elseBlock()) {
      Out += " else {\n";
      printBlockOps(*E, Depth + 1);
      closeRegion(Depth);
    }
    Out += loc(I.loc()) + "\n";
  }

  const PrintOptions &Opts;
  std::string Out;
  std::unordered_map<const Value *, std::string> Names;
  std::set<std::string> Used;
  unsigned Next = 0;
};

} // namespace

std::string printFunction(const Function &F, const PrintOptions &Opts) { return Printer(Opts).run(F); }

} // namespace tessel::ir
