//===- HostLaunches.cpp - the launches a file's host code makes -----------===//
/// \file
/// The observer ConstEval calls at each launch binds the arguments and
/// evaluates the grid right there, inside the host function that launches:
/// a grid lambda's free names are that function's locals. hostLaunchTable
/// compares the host code's text with the previous version's and moves the
/// previous launches when it is unchanged.
//===----------------------------------------------------------------------===//
#include "compiler/host/HostLaunches.h"

#include "compiler/host/TorchLibrary.h"
#include "compiler/host/TorchModel.h"
#include "compiler/host/Wrappers.h"

#include "compiler/frontend/AstWalk.h"
#include "compiler/frontend/ConstEval.h"

#include <algorithm>
#include <array>
#include <functional>

namespace tessel {

const HostArgument *HostLaunch::arg(const std::string &Param) const {
  for (const HostArgument &A : Args)
    if (A.Param == Param)
      return &A;
  return nullptr;
}

/// Python's binding of a call's arguments to the kernel's parameters.
static void bindArguments(const ast::FunctionDefStmt &Kernel, const ConstEval::HostLaunchCall &Call, ConstEval &Eval,
                          HostLaunch &Out) {
  const ast::CallExpr &C = *Call.Call;
  size_t Next = 0;
  std::vector<bool> KeywordUsed(Call.Kwargs.size(), false);
  for (const ast::Param &P : Kernel.Params) {
    if (P.PKind == ast::Param::ParamKind::VarArgs || P.PKind == ast::Param::ParamKind::VarKeywords)
      continue;
    HostArgument A;
    A.Param = P.Name;
    bool Bound = false;
    if (P.PKind == ast::Param::ParamKind::Positional && Next < Call.Args.size()) {
      if (Next < C.Args.size() && isa<ast::StarredExpr>(C.Args[Next])) {
        Out.BindError = "the launch passes `*` arguments";
        return;
      }
      A.Value = Call.Args[Next];
      A.Range = C.Args[Next]->Range;
      ++Next;
      Bound = true;
    }
    for (size_t I = 0; !Bound && I < Call.Kwargs.size(); ++I) {
      const PyValue &Key = Call.Kwargs[I].first;
      if (!Key.isStr() || Key.asStr() != P.Name)
        continue;
      A.Value = Call.Kwargs[I].second;
      if (const ast::Keyword *K = C.keyword(P.Name))
        A.Range = K->Value->Range;
      KeywordUsed[I] = Bound = true;
    }
    if (!Bound && P.Default) {
      A.Value = Eval.eval(P.Default);
      A.FromDefault = Bound = true;
    }
    if (Bound)
      Out.Args.push_back(std::move(A));
  }
  for (size_t I = 0; I < Call.Kwargs.size(); ++I)
    if (!KeywordUsed[I] && Call.Kwargs[I].first.isStr())
      Out.Options.emplace_back(Call.Kwargs[I].first.asStr(), Call.Kwargs[I].second);
  if (Next < Call.Args.size())
    Out.BindError = "the launch passes " + std::to_string(Call.Args.size()) + " positional arguments to " +
                    std::to_string(Next) + " parameters";
}

/// The grid as Triton reads it: a tuple of up to three ints, an int, or a
/// callable of META returning one of those.
static std::vector<int64_t> evaluateGrid(const PyValue &G, const HostLaunch &L, const PyDict &ConfigKwargs,
                                         ConstEval &Eval) {
  PyValue Grid = G;
  if (G.kind() == PyValue::Kind::Lambda || G.kind() == PyValue::Kind::Function) {
    PyDict Meta;
    for (const HostArgument &A : L.Args)
      Meta.emplace_back(PyValue::string(A.Param), A.Value);
    for (const auto &[K, V] : L.Options)
      Meta.emplace_back(PyValue::string(K), V);
    for (const auto &KV : ConfigKwargs)
      Meta.push_back(KV);
    Grid = Eval.callValue(G, {PyValue::dict(std::move(Meta))}, {});
  }
  PyList Dims;
  if (Grid.isIntLike())
    Dims.push_back(Grid);
  else if (Grid.isSequence())
    Dims = Grid.elements();
  if (Dims.empty() || Dims.size() > 3)
    return {};
  std::vector<int64_t> Out;
  for (const PyValue &D : Dims) {
    if (!D.isIntLike() || D.asInt() < 0)
      return {};
    Out.push_back(D.asInt());
  }
  return Out;
}

/// The arguments of the first case of a pytest test function: every
/// `@pytest.mark.parametrize("a, b", [(1, 2), ...])` contributes its first
/// tuple. Nullopt when a parameter gets no value (a fixture, say).
static std::optional<PyDict> firstTestCase(const ast::FunctionDefStmt &Fn, ConstEval &Eval) {
  PyDict Kwargs;
  for (const ast::Expr *D : Fn.Decorators) {
    const auto *C = dyn_cast<ast::CallExpr>(D);
    const auto *A = C ? dyn_cast<ast::AttributeExpr>(C->Func) : nullptr;
    if (!A || A->Attr != "parametrize" || C->Args.size() < 2)
      continue;
    PyValue Names = Eval.eval(C->Args[0]), Cases = Eval.eval(C->Args[1]);
    std::vector<std::string> Params;
    if (Names.isStr()) {
      std::string S = Names.asStr();
      for (size_t B = 0; B <= S.size();) {
        size_t E = std::min(S.find(',', B), S.size());
        std::string N = S.substr(B, E - B);
        N.erase(0, N.find_first_not_of(" \t"));
        N.erase(N.find_last_not_of(" \t") + 1);
        if (!N.empty())
          Params.push_back(N);
        B = E + 1;
      }
    } else if (Names.isSequence()) {
      for (const PyValue &N : Names.elements())
        if (N.isStr())
          Params.push_back(N.asStr());
    }
    if (Params.empty() || !Cases.isSequence() || Cases.elements().empty())
      return std::nullopt;
    const PyValue &First = Cases.elements().front();
    if (Params.size() == 1) {
      Kwargs.emplace_back(PyValue::string(Params[0]), First);
      continue;
    }
    if (!First.isSequence() || First.elements().size() != Params.size())
      return std::nullopt;
    for (size_t I = 0; I < Params.size(); ++I)
      Kwargs.emplace_back(PyValue::string(Params[I]), First.elements()[I]);
  }
  for (const ast::Param &P : Fn.Params) {
    bool Given = std::any_of(Kwargs.begin(), Kwargs.end(),
                             [&P](const auto &KV) { return KV.first.isStr() && KV.first.asStr() == P.Name; });
    if (!Given && !P.Default && P.PKind != ast::Param::ParamKind::VarArgs &&
        P.PKind != ast::Param::ParamKind::VarKeywords)
      return std::nullopt;
  }
  return Kwargs;
}

/// Runs File's module-level code, then its pytest test functions, handing
/// each launch to Take (with the evaluator, which must not outlive this
/// call) until Done says enough.
static void runHostCode(const ParsedFile &File, const ModuleInfo &Info,
                        const std::function<void(const ConstEval::HostLaunchCall &, ConstEval &)> &Take,
                        const std::function<bool()> &Done) {
  // After the module has run, its namespace (Scope) is what functions
  // called from here read as their globals.
  std::map<std::string, PyValue> Scope;
  ConstEval Eval(Info, [&Info, &Scope](const std::string &Name) {
    if (auto It = Scope.find(Name); It != Scope.end())
      return It->second;
    auto F = Info.Functions.find(Name);
    return F == Info.Functions.end() ? PyValue() : PyValue::function(F->second);
  });
  Eval.setHostMode([&](const ConstEval::HostLaunchCall &Call) { Take(Call, Eval); }, host::torchLibrary());
  Scope["__name__"] = PyValue::string("__main__");
  Eval.exec(File.module().Body, Scope);
  // A test file is run by pytest, not as a script: its test functions are
  // called with their first parametrized case.
  for (const ast::Stmt *St : File.module().Body) {
    const auto *Fn = dyn_cast<ast::FunctionDefStmt>(St);
    if (Done() || !Fn || Fn->Name.rfind("test", 0) != 0 || Info.Jit.count(Fn->Name))
      continue;
    if (std::optional<PyDict> Case = firstTestCase(*Fn, Eval))
      Eval.call(Fn, {}, *Case);
  }
}

void host::runPreHook(const PyConfig &Config, PyDict Nargs, ConstEval &Eval) {
  if (!Config.PreHook)
    return;
  for (const auto &KV : Config.Kwargs)
    Nargs.push_back(KV);
  Nargs.emplace_back(PyValue::string("num_warps"), PyValue::integer(Config.NumWarps));
  Nargs.emplace_back(PyValue::string("num_stages"), PyValue::integer(Config.NumStages));
  Nargs.emplace_back(PyValue::string("num_ctas"), PyValue::integer(Config.NumCtas));
  (void)Eval.callValue(*Config.PreHook, {PyValue::dict(std::move(Nargs))}, {});
}

HostLaunch host::recordLaunch(const ConstEval::HostLaunchCall &Call, const PyConfig &Config, ConstEval &Eval) {
  HostLaunch L;
  L.Range = Call.Call->Range;
  if (const auto *Sub = dyn_cast<ast::SubscriptExpr>(Call.Call->Func))
    L.GridRange = Sub->Index->Range;
  L.Callers = Call.Callers;
  bindArguments(*Call.Kernel, Call, Eval, L);
  if (Config.PreHook) {
    PyDict Args;
    for (const HostArgument &A : L.Args)
      Args.emplace_back(PyValue::string(A.Param), A.Value);
    runPreHook(Config, std::move(Args), Eval);
  }
  L.Grid = evaluateGrid(Call.Grid, L, Config.Kwargs, Eval);
  return L;
}

std::vector<HostLaunch> findHostLaunches(const ParsedFile &File, const ModuleInfo &Info, const JitFunction &Kernel,
                                         const PyConfig &Config, size_t Max) {
  std::vector<HostLaunch> Out;
  if (!Kernel.Def || Max == 0)
    return Out;
  runHostCode(
      File, Info,
      [&](const ConstEval::HostLaunchCall &Call, ConstEval &Eval) {
        if (Call.Kernel == Kernel.Def && Out.size() < Max)
          Out.push_back(host::recordLaunch(Call, Config, Eval));
      },
      [&] { return Out.size() >= Max; });
  return Out;
}

std::map<std::string, HostLaunch> firstHostLaunches(const ParsedFile &File, const ModuleInfo &Info) {
  std::map<std::string, HostLaunch> Out;
  size_t Kernels = Info.Jit.size();
  runHostCode(
      File, Info,
      [&](const ConstEval::HostLaunchCall &Call, ConstEval &Eval) {
        if (!Out.count(Call.Kernel->Name))
          Out.emplace(Call.Kernel->Name, host::recordLaunch(Call, {}, Eval));
      },
      [&] { return Out.size() >= Kernels; });
  return Out;
}

/// The text the host code's run reads (HostLaunchTable::Segments).
static std::vector<SourceRange> hostSegments(const ParsedFile &File, const ModuleInfo &Info) {
  // The @jit defs, by address: looking each def's name up in Info.Jit was
  // most of a keystroke's host-table cost in a file of 13,000 kernels.
  std::vector<const ast::FunctionDefStmt *> JitDefs;
  JitDefs.reserve(Info.Jit.size());
  for (const auto &[Name, J] : Info.Jit)
    if (J.Def)
      JitDefs.push_back(J.Def);
  std::sort(JitDefs.begin(), JitDefs.end(), std::less<>());
  std::vector<SourceRange> Out;
  Out.reserve(File.module().Body.size());
  for (const ast::Stmt *St : File.module().Body) {
    const auto *Fn = dyn_cast<ast::FunctionDefStmt>(St);
    if (Fn && !Fn->Body.empty() && std::binary_search(JitDefs.begin(), JitDefs.end(), Fn, std::less<>()))
      Out.push_back({Fn->Range.Begin, Fn->Body.front()->Range.Begin});
    else
      Out.push_back(St->Range);
  }
  return Out;
}

/// Does a syntax error of File touch one of Segments (sorted)? The parser's
/// recovery there depends on the text around it, so equal text no longer
/// means an equal tree.
static bool touchesSyntaxError(const ParsedFile &File, const std::vector<SourceRange> &Segments) {
  for (const ast::SyntaxError &E : File.module().SyntaxErrors) {
    auto It = std::lower_bound(Segments.begin(), Segments.end(), E.Range.Begin,
                               [](const SourceRange &S, uint32_t At) { return S.End < At; });
    if (It != Segments.end() && It->Begin <= E.Range.End)
      return true;
  }
  return false;
}

static bool holdsTree(const HostLaunch &L) {
  for (const HostArgument &A : L.Args)
    if (A.Value.refersToTree())
      return true;
  for (const auto &[Name, V] : L.Options)
    if (V.refersToTree())
      return true;
  return false;
}

/// Moves R from the old segment that contains it to the same place in the
/// new one; false when no segment contains it.
static bool moveRange(SourceRange &R, const std::vector<SourceRange> &Old, const std::vector<SourceRange> &New) {
  if (R == SourceRange{})
    return true; // "no range": a parameter's default
  auto It =
      std::upper_bound(Old.begin(), Old.end(), R.Begin, [](uint32_t At, const SourceRange &S) { return At < S.Begin; });
  if (It == Old.begin())
    return false;
  --It;
  if (!It->contains(R))
    return false;
  const SourceRange &N = New[static_cast<size_t>(It - Old.begin())];
  int64_t Shift = int64_t(N.Begin) - int64_t(It->Begin);
  R = {static_cast<uint32_t>(R.Begin + Shift), static_cast<uint32_t>(R.End + Shift)};
  return true;
}

/// Previous's segments after Edit: those from the edited piece's end on
/// moved, the rest (the edited def's header among them) where they were.
static std::vector<SourceRange> movedSegments(const std::vector<SourceRange> &Previous, const BodyEdit &Edit) {
  std::vector<SourceRange> Out = Previous;
  if (Edit.Shift != 0)
    for (SourceRange &S : Out)
      S = Edit.moved(S);
  return Out;
}

static std::optional<std::map<std::string, HostLaunch>> moveTable(const HostLaunchTable &Previous,
                                                                  const ParsedFile &PreviousFile,
                                                                  const std::vector<SourceRange> &Segments,
                                                                  const ParsedFile &File, bool SameText) {
  if (!Previous.Reusable || Previous.Segments.size() != Segments.size())
    return std::nullopt;
  for (size_t I = 0; !SameText && I < Segments.size(); ++I)
    if (PreviousFile.text().slice(Previous.Segments[I]) != File.text().slice(Segments[I]))
      return std::nullopt;
  if (touchesSyntaxError(PreviousFile, Previous.Segments) || touchesSyntaxError(File, Segments))
    return std::nullopt;
  std::map<std::string, HostLaunch> Out = Previous.Launches;
  for (auto &[Name, L] : Out) {
    bool Ok = moveRange(L.Range, Previous.Segments, Segments) && moveRange(L.GridRange, Previous.Segments, Segments);
    for (HostArgument &A : L.Args)
      Ok = Ok && moveRange(A.Range, Previous.Segments, Segments);
    if (!Ok)
      return std::nullopt;
  }
  return Out;
}

std::shared_ptr<const HostLaunchTable> hostLaunchTable(const ParsedFile &File, const ModuleInfo &Info,
                                                       const HostLaunchTable *Previous, const ParsedFile *PreviousFile,
                                                       const BodyEdit *Edit) {
  auto T = std::make_shared<HostLaunchTable>();
  bool SameText = Edit && Previous && PreviousFile && Previous->Segments.size() == File.module().Body.size();
  T->Segments = SameText ? movedSegments(Previous->Segments, *Edit) : hostSegments(File, Info);
  std::optional<std::map<std::string, HostLaunch>> Moved;
  if (Previous && PreviousFile)
    Moved = moveTable(*Previous, *PreviousFile, T->Segments, File, SameText);
  T->Reused = Moved.has_value();
  T->Launches = Moved ? std::move(*Moved) : firstHostLaunches(File, Info);
  if (Moved)
    T->Symbolic = Previous->Symbolic;
  for (const auto &[Name, L] : T->Launches)
    T->Reusable = T->Reusable && !holdsTree(L);
  return T;
}

//===----------------------------------------------------------------------===//
// Symbolic launches of uncalled wrappers
//===----------------------------------------------------------------------===//

std::string SymbolicLaunch::describe(const SizeTerm &T) const {
  std::string Product;
  std::vector<unsigned> Rest = T.Symbols;
  // The whole shared shape reads as the owner's element count.
  std::vector<unsigned> Shape = ShapeSymbols;
  std::sort(Shape.begin(), Shape.end());
  if (!Shape.empty() && std::includes(Rest.begin(), Rest.end(), Shape.begin(), Shape.end())) {
    Product = ShapeOwner + ".numel()";
    for (unsigned S : Shape)
      Rest.erase(std::find(Rest.begin(), Rest.end(), S));
  }
  for (unsigned S : Rest)
    Product += (Product.empty() ? "" : " * ") + Symbols[S];
  if (Product.empty())
    return std::to_string(T.Coefficient + T.Offset);
  if (T.CeilDiv != 1)
    Product = "cdiv(" + Product + ", " + std::to_string(T.CeilDiv) + ")";
  std::string Out = T.Coefficient == 1 ? Product : std::to_string(T.Coefficient) + " * " + Product;
  if (T.Offset)
    Out += (T.Offset > 0 ? " + " : " - ") + std::to_string(T.Offset > 0 ? T.Offset : -T.Offset);
  return Out;
}

std::string SymbolicLaunch::key() const {
  std::string K = Wrapper + ";";
  for (const std::string &A : Assumptions)
    K += A + ";";
  for (const auto &[P, T] : DTypes)
    K += P + ":" + T + ";";
  for (const auto &[P, V] : Values)
    K += P + "=" + V.repr() + ";";
  return K;
}

const std::map<std::string, SymbolicLaunch> &HostLaunchTable::symbolic(const ParsedFile &File,
                                                                       const ModuleInfo &Info) const {
  std::call_once(Symbolic->Once, [&] { Symbolic->Launches = symbolicHostLaunches(File, Info); });
  return Symbolic->Launches;
}

namespace {
/// One run of a wrapper: the values its symbols had and the launches it made.
struct WrapperRun {
  std::vector<int64_t> Values;                              ///< per symbol
  std::vector<std::pair<std::string, HostLaunch>> Launches; ///< with the kernel's name
};

/// The runs of a wrapper: two with large primes (a product of symbols
/// equals only itself; a constant is the same in both) and one with small
/// primes, far from the others, so that a size rounded by a large block
/// (`cdiv(M, 4096)`) cannot pass for a constant. Elements stay below
/// TorchModel's limit.
constexpr int NumRuns = 3;
const std::vector<int64_t> &shapeValues(size_t Rank, int Run) {
  static const std::vector<std::vector<int64_t>> R1{{1000003}, {2750159}, {61}};
  static const std::vector<std::vector<int64_t>> R2{{10007, 7919}, {20011, 3001}, {7, 13}};
  static const std::vector<std::vector<int64_t>> R3{{331, 317, 307}, {613, 151, 709}, {3, 5, 7}};
  return (Rank == 1 ? R1 : Rank == 2 ? R2 : R3)[static_cast<size_t>(Run)];
}
constexpr int64_t IntValues[NumRuns][4] = {{7001, 6007, 5003, 4001}, {15013, 11003, 9001, 13007}, {11, 17, 19, 23}};

/// The values one size took in each run, and the symbols' values in each run.
using RunValues = std::array<int64_t, NumRuns>;
using SymbolValues = std::array<const std::vector<int64_t> *, NumRuns>;

/// The constants a size may add to a product of symbols.
constexpr int64_t MaxOffset = 16;

/// The one term whose value is X[R] in every run R.
std::optional<SizeTerm> matchTerm(const RunValues &X, const SymbolValues &V, const std::vector<int64_t> &Divisors,
                                  bool WithOffset = true) {
  if (std::all_of(X.begin(), X.end(), [&](int64_t Y) { return Y == X[0]; }))
    return SizeTerm{X[0], {}, 1};
  if (std::any_of(X.begin(), X.end(), [](int64_t Y) { return Y <= 0; }))
    return std::nullopt;
  // Monomials of degree 1 to 3 over the symbols.
  std::vector<std::vector<unsigned>> Monomials;
  size_t N = V[0]->size();
  for (unsigned I = 0; I < N; ++I) {
    Monomials.push_back({I});
    for (unsigned J = I; J < N; ++J) {
      Monomials.push_back({I, J});
      for (unsigned K = J; K < N; ++K)
        Monomials.push_back({I, J, K});
    }
  }
  auto Value = [&](const std::vector<unsigned> &M, int Run) {
    __int128 P = 1;
    for (unsigned S : M)
      P *= (*V[static_cast<size_t>(Run)])[S];
    return P;
  };
  // Coefficient * ceil(monomial / D) in every run, the same coefficient.
  auto Matches = [&](const std::vector<unsigned> &M, int64_t D, int64_t MaxCoefficient) -> std::optional<SizeTerm> {
    __int128 C = -1;
    for (int R = 0; R < NumRuns; ++R) {
      __int128 Q = (Value(M, R) + D - 1) / D;
      if (Q <= 0 || X[static_cast<size_t>(R)] % Q != 0)
        return std::nullopt;
      __int128 K = X[static_cast<size_t>(R)] / Q;
      if ((C >= 0 && K != C) || K > MaxCoefficient)
        return std::nullopt;
      C = K;
    }
    return SizeTerm{static_cast<int64_t>(C), M, D};
  };
  for (const std::vector<unsigned> &M : Monomials)
    if (std::optional<SizeTerm> T = Matches(M, 1, 64))
      return T;
  // A monomial and a small constant (`B + 1`, `n - 1`): the same constant
  // left over in every run, where the runs' primes leave nothing else equal.
  // Before the rounded-up products: with odd primes in every run, `B + 1`
  // is also `2 * cdiv(B, 2)`, which an even B makes B (a false TS203 at
  // the store of the end); a wrapper that pads to an even count is rarer.
  for (int64_t Step = 1; WithOffset && Step <= 2 * MaxOffset; ++Step) {
    int64_t Off = Step % 2 ? (Step + 1) / 2 : -Step / 2; // 1, -1, 2, -2, ...
    RunValues Y = X;
    bool Positive = true;
    for (int64_t &Z : Y)
      Positive = Positive && (Z -= Off) > 0;
    if (!Positive)
      continue;
    if (std::optional<SizeTerm> T = matchTerm(Y, V, {}, /*WithOffset=*/false); T && !T->Symbols.empty()) {
      T->Offset = Off;
      return T;
    }
  }
  for (const std::vector<unsigned> &M : Monomials)
    for (int64_t D : Divisors)
      if (D > 1)
        if (std::optional<SizeTerm> T = Matches(M, D, D))
          return T;
  return std::nullopt;
}

} // namespace

/// Is every size of S a constant or a multiple of the element count of the
/// shared shape (an elementwise wrapper's `n = x.numel()`)?
static bool numelOnly(const SymbolicLaunch &S) {
  std::vector<unsigned> Shape = S.ShapeSymbols;
  std::sort(Shape.begin(), Shape.end());
  auto Ok = [&](const SizeTerm &T) { return T.Symbols.empty() || T.Symbols == Shape; };
  return std::all_of(S.Ints.begin(), S.Ints.end(), [&](const auto &KV) { return Ok(KV.second); }) &&
         std::all_of(S.Extents.begin(), S.Extents.end(), [&](const auto &KV) { return Ok(KV.second); }) &&
         std::all_of(S.Grid.begin(), S.Grid.end(), Ok);
}

/// The symbolic launch of one kernel from the same launch seen in every run.
static std::optional<SymbolicLaunch> symbolicLaunch(const std::array<const HostLaunch *, NumRuns> &L,
                                                    const SymbolValues &V, SymbolicLaunch Base) {
  for (const HostLaunch *X : L)
    if (!X->BindError.empty() || X->Args.size() != L[0]->Args.size() || X->Grid.size() != L[0]->Grid.size())
      return std::nullopt;
  std::vector<int64_t> Divisors;
  for (int64_t P = 2; P <= (int64_t(1) << 20); P *= 2)
    Divisors.push_back(P);
  for (const HostArgument &A : L[0]->Args)
    if (A.Value.isIntLike() && !A.Value.isBool() && A.Value.asInt() > 1)
      Divisors.push_back(A.Value.asInt());
  SymbolicLaunch S = std::move(Base);
  for (size_t I = 0; I < L[0]->Args.size(); ++I) {
    const HostArgument &A = L[0]->Args[I];
    bool Tensors = true, Ints = true, Same = A.Value.kind() != PyValue::Kind::Unknown && !A.Value.refersToTree();
    RunValues Spans{}, Values{};
    for (int R = 0; R < NumRuns; ++R) {
      const HostArgument &B = L[static_cast<size_t>(R)]->Args[I];
      if (B.Param != A.Param)
        return std::nullopt;
      Tensors = Tensors && B.Value.isTensor();
      Ints = Ints && B.Value.isIntLike() && !B.Value.isBool();
      Same = Same && B.Value.repr() == A.Value.repr();
      if (B.Value.isTensor())
        Spans[static_cast<size_t>(R)] = torchmodel::reach(B.Value.asTensor());
      if (B.Value.isIntLike())
        Values[static_cast<size_t>(R)] = B.Value.asInt();
    }
    if (Tensors) {
      if (!A.Value.asTensor().DType.empty())
        S.DTypes[A.Param] = A.Value.asTensor().DType;
      if (std::optional<SizeTerm> T = matchTerm(Spans, V, Divisors)) {
        S.Extents[A.Param] = *T;
        S.Assumptions.push_back(A.Param + " has " + S.describe(*T) + " elements");
      }
      continue;
    }
    if (Ints && !Same) {
      if (std::optional<SizeTerm> T = matchTerm(Values, V, Divisors)) {
        S.Ints[A.Param] = *T;
        S.Assumptions.push_back(A.Param + " = " + S.describe(*T));
      }
      continue;
    }
    if (Same)
      S.Values[A.Param] = A.Value;
  }
  if (!L[0]->Grid.empty()) {
    std::vector<SizeTerm> Grid;
    for (size_t D = 0; D < L[0]->Grid.size(); ++D) {
      RunValues G{};
      for (int R = 0; R < NumRuns; ++R)
        G[static_cast<size_t>(R)] = L[static_cast<size_t>(R)]->Grid[D];
      if (std::optional<SizeTerm> T = matchTerm(G, V, Divisors))
        Grid.push_back(*T);
    }
    if (Grid.size() == L[0]->Grid.size()) {
      S.Grid = std::move(Grid);
      std::string Text;
      for (const SizeTerm &T : S.Grid)
        Text += (Text.empty() ? "" : ", ") + S.describe(T);
      S.Assumptions.push_back("grid = (" + Text + (S.Grid.size() == 1 ? ",)" : ")"));
    }
  }
  // A launch whose grid and integer arguments do not depend on the sizes
  // (`k[(1,)](x, BLOCK=64)`) says nothing of them: the wrapper assumes a
  // size it does not check, and the conventional reading is as good.
  auto Sized = [](const SizeTerm &T) { return !T.Symbols.empty(); };
  if (std::none_of(S.Grid.begin(), S.Grid.end(), Sized) &&
      std::none_of(S.Ints.begin(), S.Ints.end(), [&](const auto &KV) { return Sized(KV.second); }))
    return std::nullopt;
  return S;
}

std::map<std::string, SymbolicLaunch> symbolicHostLaunches(const ParsedFile &File, const ModuleInfo &Info) {
  std::map<std::string, SymbolicLaunch> Out;
  std::vector<std::pair<std::string, const ast::FunctionDefStmt *>> Wrappers = host::hostWrappers(File, Info);
  if (Wrappers.empty())
    return Out;
  host::ModuleRun Module(File, Info, host::torchLibrary());
  // The launches of one wrapper with tensors of rank Rank, by kernel.
  auto TryRank = [&](const std::string &Name, const ast::FunctionDefStmt *Fn, size_t Rank) {
    std::map<std::string, SymbolicLaunch> Found;
    SymbolicLaunch Base;
    Base.Wrapper = Name;
    WrapperRun Runs[NumRuns];
    bool Usable = true;
    for (int R = 0; R < NumRuns && Usable; ++R) {
      size_t Ints = 0;
      bool First = true;
      auto Int = [&](const std::string &Name) -> std::optional<int64_t> {
        if (Ints >= 4)
          return std::nullopt;
        if (R == 0)
          Base.Symbols.push_back(Name);
        Runs[R].Values.push_back(IntValues[R][Ints++]);
        return Runs[R].Values.back();
      };
      // Every tensor of the shared shape.
      auto Tensor = [&](const std::string &Name) {
        const std::vector<int64_t> &Dims = shapeValues(Rank, R);
        if (First) {
          First = false;
          if (R == 0) {
            Base.ShapeOwner = Name;
            for (size_t D = 0; D < Dims.size(); ++D) {
              Base.ShapeSymbols.push_back(static_cast<unsigned>(Base.Symbols.size()));
              Base.Symbols.push_back(Name + ".shape[" + std::to_string(D) + "]");
            }
          }
          Runs[R].Values.insert(Runs[R].Values.end(), Dims.begin(), Dims.end());
        }
        return host::madeUpTensor(Dims, "fp32", Name);
      };
      std::optional<PyList> Args = host::wrapperArguments(*Fn, Module.eval(), Int, Tensor);
      Usable = Args.has_value();
      if (!Usable)
        break; // an int too many, or no tensor parameter: nothing is symbolic
      // Symbols are numbered in parameter order; keep the runs' orders equal.
      Runs[R].Launches = Module.call(Fn, *Args);
    }
    if (!Usable || Runs[0].Launches.empty())
      return Found;
    for (const WrapperRun &Run : Runs)
      if (Run.Values.size() != Runs[0].Values.size())
        return Found;
    for (const auto &[KernelName, LA] : Runs[0].Launches) {
      // The same launch in every run (a path that raised in one run has none).
      std::array<const HostLaunch *, NumRuns> Same{};
      bool All = true;
      for (int R = 0; R < NumRuns; ++R) {
        const auto &List = Runs[R].Launches;
        auto It = std::find_if(List.begin(), List.end(), [&](const auto &L) { return L.second.Range == LA.Range; });
        All = All && It != List.end();
        Same[static_cast<size_t>(R)] = All ? &It->second : nullptr;
      }
      if (!All || Found.count(KernelName))
        continue;
      SymbolicLaunch Shape = Base;
      Shape.Assumptions.push_back("sizes from the host wrapper `" + Name +
                                  "` (nothing in the file calls it), called with tensors of one " +
                                  std::to_string(Rank) + "-D shape: sizes are symbolic");
      SymbolValues V{};
      for (int R = 0; R < NumRuns; ++R)
        V[static_cast<size_t>(R)] = &Runs[R].Values;
      if (std::optional<SymbolicLaunch> S = symbolicLaunch(Same, V, Shape))
        Found.emplace(KernelName, std::move(*S));
    }
    return Found;
  };
  for (const auto &[Name, Fn] : Wrappers) {
    // Rank 2 first: a wrapper written for matrices may read `x.shape[0]`
    // and `x.shape[-1]`, one size at rank 1. Where every size is the
    // element count alone, the rank does not matter, and rank 1's sizes
    // are linear (easier for the solver); where rank 2 fails, the wrapper
    // wants rank 1 or 3.
    std::map<std::string, SymbolicLaunch> Found = TryRank(Name, Fn, 2);
    if (Found.empty()) {
      Found = TryRank(Name, Fn, 1);
      if (Found.empty())
        Found = TryRank(Name, Fn, 3);
    } else if (std::all_of(Found.begin(), Found.end(), [](const auto &KV) { return numelOnly(KV.second); })) {
      std::map<std::string, SymbolicLaunch> Flat = TryRank(Name, Fn, 1);
      for (auto &[K, S] : Flat)
        Found[K] = std::move(S);
    }
    for (auto &[K, S] : Found)
      Out.emplace(K, std::move(S));
  }
  return Out;
}

} // namespace tessel
