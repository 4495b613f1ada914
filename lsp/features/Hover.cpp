//===- Hover.cpp - what is under the cursor -------------------------------===//
/// \file
/// Tries, in order: a kernel's name at its `def`, a `triton.language` name
/// (through whatever alias the file imported it as), a value with sema facts,
/// a call of a `@jit` function. The first that answers wins.
//===----------------------------------------------------------------------===//
#include "lsp/features/Hover.h"
#include "lsp/AnalyzedFile.h"
#include "lsp/features/AstSearch.h"
#include "lsp/features/BuiltinDocs.h"
#include "lsp/features/Facts.h"
#include "lsp/features/KernelContext.h"
#include "lsp/features/Signatures.h"

#include "compiler/analysis/BoundsProver.h"

#include <algorithm>

namespace tessel::lsp {

using namespace ast;

std::string HoverInfo::markdown() const {
  std::string S = "```python\n" + Code + "\n```";
  if (!Notes.empty()) {
    S += "\n";
    for (const std::string &N : Notes)
      S += "\n- " + N;
  }
  if (!Doc.empty())
    S += "\n\n" + Doc;
  return S;
}

std::string HoverInfo::plainText() const {
  std::string S = Code;
  for (const std::string &N : Notes)
    S += "\n" + N;
  if (!Doc.empty())
    S += "\n\n" + Doc;
  return S;
}

static std::string paramList(const FunctionDefStmt &Fn, const SourceText &Text) {
  std::string S;
  for (const Param &P : Fn.Params) {
    if (!S.empty())
      S += ", ";
    S += std::string(Text.slice(P.Range));
  }
  return S;
}

static std::string configSummary(const PyConfig &C) {
  std::string S;
  for (const auto &[Key, Value] : C.Kwargs) {
    S += Key.isStr() ? Key.asStr() : Key.repr();
    S += "=" + Value.repr() + ", ";
  }
  S += "num_warps=" + std::to_string(C.NumWarps) + ", num_stages=" + std::to_string(C.NumStages);
  return S;
}

static HoverInfo hoverFunction(const AnalyzedFile &F, const FunctionDefStmt &Fn, SourceRange Range) {
  const ModuleInfo &Info = F.Report.Analysis->Info;
  HoverInfo H;
  H.Range = Range;
  H.Code = "def " + Fn.Name + "(" + paramList(Fn, F.Parsed->text()) + ")";
  const JitFunction *J = Info.jit(Fn.Name);
  if (!J) {
    H.Notes.push_back("a plain Python function (not `@triton.jit`)");
    return H;
  }
  H.Notes.push_back(J->IsKernel ? "`@triton.jit` kernel" : "`@triton.jit` helper, inlined at each call");
  if (J->HasAutotune) {
    if (J->ConfigsUnknown)
      H.Notes.push_back("`@triton.autotune` configs could not be evaluated statically");
    else
      H.Notes.push_back(std::to_string(J->Configs.size()) + " autotune config" + (J->Configs.size() == 1 ? "" : "s"));
    // Every config (the code lens shows the first and counts the others).
    for (size_t I = 0; I < J->Configs.size() && I < 64; ++I)
      H.Notes.push_back("config " + std::to_string(I) + ": `" + configSummary(J->Configs[I].Config) + "`");
    if (J->Configs.size() > 64)
      H.Notes.push_back("+" + std::to_string(J->Configs.size() - 64) + " more configs");
  }
  if (!J->Launches.empty()) {
    H.Notes.push_back(std::to_string(J->Launches.size()) + " launch site" + (J->Launches.size() == 1 ? "" : "s") +
                      " in this file");
    if (J->Launches.size() > 1)
      for (size_t I = 0; I < J->Launches.size() && I < 16; ++I)
        H.Notes.push_back("line " + std::to_string(F.Parsed->text().lineCol(J->Launches[I].Range.Begin).Line + 1));
  }
  if (const ConstantExpr *Doc = Fn.docstring())
    H.Doc = Doc->StrValue;
  return H;
}

static std::optional<HoverInfo> hoverBuiltin(const ModuleInfo &Info, const Expr &E) {
  std::string Q = Info.qualify(&E);
  constexpr std::string_view Prefix = "triton.language.";
  if (Q.compare(0, Prefix.size(), Prefix) != 0)
    return std::nullopt;
  const BuiltinDoc *D = findBuiltin(std::string_view(Q).substr(Prefix.size()));
  if (!D)
    return std::nullopt;
  HoverInfo H;
  H.Range = E.Range;
  if (auto *A = dyn_cast<AttributeExpr>(&E))
    H.Range = A->AttrRange;
  H.Code = "tl." + std::string(D->Signature);
  H.Doc = std::string(D->Doc);
  return H;
}

/// The kernel around Offset whose proof's own process failed (out of
/// memory, a crash): its accesses have no verdict, and a hover on one says why.
static const analysis::KernelBounds *failedProofAround(const AnalyzedFile &F, const ModuleInfo &Info, uint32_t Offset) {
  for (const analysis::KernelBounds &K : F.Report.Bounds)
    if (!K.Failure.empty())
      if (const JitFunction *Fn = Info.jit(K.Kernel); Fn && Fn->Def && Fn->Def->Range.contains(Offset))
        return &K;
  return nullptr;
}

static bool isMemoryAccess(const std::string &Qualified) {
  return Qualified == "triton.language.load" || Qualified == "triton.language.store" ||
         Qualified.rfind("triton.language.atomic_", 0) == 0;
}

static std::optional<HoverInfo> hoverFacts(const AnalyzedFile &F, uint32_t Offset, const Expr *E) {
  const sema::FileAnalysis &A = *F.Report.Analysis;
  std::string UseName;
  uint32_t UseBegin = 0;
  if (auto *N = dyn_cast<NameExpr>(E)) {
    UseName = N->Id;
    UseBegin = N->Range.Begin;
  }
  std::vector<FactUnderSpec> Facts = factsAt(A, Offset, UseName, UseBegin);
  if (Facts.empty())
    return std::nullopt;
  HoverInfo H;
  const sema::ValueFact &First = *Facts.front().Fact;
  H.Range = E && isa<NameExpr>(E) ? E->Range : First.Range;
  bool AllSame = true;
  for (const FactUnderSpec &X : Facts)
    AllSame &= describeFact(*X.Fact) == describeFact(First);
  if (AllSame) {
    H.Code = First.Name + ": " + describeFact(First);
    if (Facts.size() > 1)
      H.Notes.push_back("the same under all " + std::to_string(Facts.size()) + " specializations");
    else if (!Facts.front().Kernel->Specialization.empty())
      H.Notes.push_back("under " + Facts.front().Kernel->Specialization);
    return H;
  }
  H.Code = First.Name + ": " + describeFact(First);
  // One bullet per distinct fact, in the order the specializations come,
  // naming the specializations it holds under (18 configs of an autotuned
  // kernel give a few distinct facts, not 18 near-identical bullets).
  std::vector<std::pair<std::string, std::vector<std::string>>> Groups;
  for (const FactUnderSpec &X : Facts) {
    std::string Fact = describeFact(*X.Fact);
    std::string Spec = X.Kernel->Specialization.empty() ? std::string("the defaults") : X.Kernel->Specialization;
    auto It = std::find_if(Groups.begin(), Groups.end(), [&](const auto &G) { return G.first == Fact; });
    if (It == Groups.end())
      Groups.push_back({Fact, {Spec}});
    else
      It->second.push_back(Spec);
  }
  for (const auto &[Fact, Specs] : Groups) {
    std::string Under = Specs.front();
    if (Specs.size() == 2)
      Under += " and " + Specs[1];
    else if (Specs.size() > 2)
      Under = std::to_string(Specs.size()) + " specializations, e.g. " + Specs.front();
    H.Notes.push_back("`" + Fact + "` under " + Under);
  }
  return H;
}

namespace {
struct HostDoc {
  std::string_view Name, Code, Doc;
};
/// The host-side API a kernel file decorates and launches with.
constexpr HostDoc HostDocs[] = {
    {"triton.autotune",
     "@triton.autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, warmup=None, "
     "rep=None, use_cuda_graph=False, do_bench=None, cache_results=False)",
     "Benchmarks every `triton.Config` of `configs` the first time the kernel is launched with a new value of the "
     "arguments named in `key`, and uses the fastest from then on. Each config's keys must be constexpr parameters "
     "of the kernel, and the launch must not pass them again."},
    {"triton.Config", "triton.Config(kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None)",
     "One candidate of `@triton.autotune`: `kwargs` maps constexpr parameters of the kernel to values; "
     "`num_warps` and `num_stages` are launch options tried with them."},
    {"triton.heuristics", "@triton.heuristics(values)",
     "`values` maps a kernel parameter to `lambda args: ...`, computed from the launch's arguments (`args` is a "
     "dict of them by name) each time the kernel is launched."},
    {"triton.jit", "@triton.jit(fn=None, *, do_not_specialize=None, debug=None, noinline=None, ...)",
     "Compiles the function for the GPU when it is launched (`kernel[grid](...)`) or inlines it where another "
     "`@triton.jit` function calls it."},
    {"triton.cdiv", "triton.cdiv(x, y)", "`(x + y - 1) // y`: how many blocks of `y` cover `x` elements."},
    {"triton.next_power_of_2", "triton.next_power_of_2(n)", "The smallest power of two not below `n`."},
};

/// A keyword argument `name=` at a call of a builtin, a @jit function or a
/// launch: what that parameter is.
std::optional<HoverInfo> hoverKeyword(const AnalyzedFile &F, uint32_t Offset) {
  const ModuleInfo &Info = F.Report.Analysis->Info;
  const Stmt *S = topLevelStmtAt(F.Parsed->module(), Offset);
  if (!S)
    return std::nullopt;
  std::optional<HoverInfo> Out;
  forEachExpr(*S, [&](const Expr &E) {
    auto *C = dyn_cast<CallExpr>(&E);
    if (!C || Out)
      return;
    for (const Keyword &K : C->Keywords) {
      if (K.Name.empty() || !touches(K.NameRange, Offset))
        continue;
      bool Launch = isa<SubscriptExpr>(C->Func);
      const Expr *Callee = Launch ? cast<SubscriptExpr>(C->Func)->Value : C->Func;
      std::string Name = dottedName(Callee);
      auto Sig = signatureOf(Info, *F.Doc.Text, Name, Launch);
      if (!Sig)
        return;
      for (const ParamInfo &P : Sig->Params) {
        if (P.Name != K.Name)
          continue;
        HoverInfo H;
        H.Range = K.NameRange;
        H.Code = P.Label;
        H.Notes.push_back(P.LaunchOption ? "launch option of `" + Name + "`"
                                         : (P.Constexpr ? "constexpr parameter of `" : "parameter of `") + Name + "`");
        if (!P.Values.empty()) {
          std::string V;
          for (const std::string &X : P.Values)
            V += (V.empty() ? "" : ", ") + ("`\"" + X + "\"`");
          H.Notes.push_back("accepted values: " + V);
        }
        H.Doc = P.Doc;
        Out = std::move(H);
      }
    }
  });
  return Out;
}
} // namespace

std::optional<HoverInfo> hover(const AnalyzedFile &F, uint32_t Offset) {
  if (!F.Parsed || !F.Report.Analysis)
    return std::nullopt;
  const Module &M = F.Parsed->module();
  const ModuleInfo &Info = F.Report.Analysis->Info;
  for (const Stmt *S : M.Body)
    if (auto *Fn = dyn_cast<FunctionDefStmt>(S); Fn && touches(Fn->NameRange, Offset))
      return hoverFunction(F, *Fn, Fn->NameRange);

  if (auto H = hoverKeyword(F, Offset))
    return H;
  const Expr *E = innermostExprAt(M, Offset);
  if (E) {
    if (auto H = hoverBuiltin(Info, *E)) {
      // On a load, store or atomic: what the bounds prover concluded.
      const analysis::KernelBounds *K = nullptr;
      if (const analysis::AccessBounds *A = analysis::accessAt(F.Report.Bounds, Offset, &K))
        for (std::string &Line : analysis::describeVerdict(*K, *A))
          H->Notes.push_back(std::move(Line));
      else if (const analysis::KernelBounds *Failed = failedProofAround(F, Info, Offset);
               Failed && isMemoryAccess(Info.qualify(E)))
        H->Notes.push_back("bounds: not proven (" + Failed->Reason + ")");
      return H;
    }
    std::string Q = Info.qualify(E);
    for (const HostDoc &D : HostDocs)
      if (Q == D.Name) {
        HoverInfo H;
        H.Range = E->Range;
        if (auto *A = dyn_cast<AttributeExpr>(E))
          H.Range = A->AttrRange;
        H.Code = std::string(D.Code);
        H.Doc = std::string(D.Doc);
        return H;
      }
  }
  if (auto H = hoverFacts(F, Offset, E))
    return H;
  // A parameter of a @jit function sema has no facts for (a helper nothing
  // calls yet): what it is declared as.
  if (const FunctionDefStmt *Fn = functionAt(M, Offset); Fn && Info.jit(Fn->Name))
    for (const Param &P : Fn->Params)
      if (touches(P.NameRange, Offset)) {
        HoverInfo H;
        H.Range = P.NameRange;
        H.Code = std::string(F.Parsed->text().slice(P.Range));
        const JitFunction *J = Info.jit(Fn->Name);
        bool Constexpr = isConstexprParam(P, Info);
        H.Notes.push_back(std::string(Constexpr ? "constexpr parameter" : "parameter") + " of `@triton.jit` " +
                          (J->IsKernel ? "kernel" : "helper") + " `" + Fn->Name + "`" +
                          (J->IsKernel ? "" : ": takes each caller's value, inlined at the call"));
        return H;
      }
  if (auto *N = dyn_cast<NameExpr>(E)) {
    auto It = Info.Functions.find(N->Id);
    if (It != Info.Functions.end() && It->second)
      return hoverFunction(F, *It->second, N->Range);
    auto G = Info.Globals.find(N->Id);
    if (G != Info.Globals.end()) {
      HoverInfo H;
      H.Range = N->Range;
      H.Code = N->Id + (G->second.Value.isKnown() ? " = " + G->second.Value.repr() : std::string());
      H.Notes.push_back(G->second.IsConstexpr ? "module-level `tl.constexpr` global"
                                              : "module-level global (not constexpr: a kernel cannot read it)");
      return H;
    }
  }
  return std::nullopt;
}

} // namespace tessel::lsp
