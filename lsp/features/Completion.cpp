//===- Completion.cpp - what may be typed at the cursor -------------------===//
/// \file
/// Reads the text before the cursor (CursorContext) to know where the cursor
/// is, and the previous analysis's module tables (imports, functions,
/// globals, kernels) and the AST of the enclosing function to know what can
/// go there. A position the context does not recognise gets the names in
/// scope, never a guess at something more specific.
//===----------------------------------------------------------------------===//
#include "lsp/features/Completion.h"
#include "lsp/AnalyzedFile.h"
#include "lsp/features/AstSearch.h"
#include "lsp/features/CursorContext.h"
#include "lsp/features/KernelContext.h"
#include "lsp/features/Signatures.h"

#include "compiler/frontend/AstWalk.h"

#include <algorithm>
#include <set>

namespace tessel::lsp {

using namespace ast;

namespace {

CompletionKind kindOf(BuiltinKind K) {
  switch (K) {
  case BuiltinKind::Function:
    return CompletionKind::Function;
  case BuiltinKind::Class:
    return CompletionKind::Class;
  case BuiltinKind::DType:
    return CompletionKind::DType;
  case BuiltinKind::Constant:
    return CompletionKind::Constant;
  }
  return CompletionKind::Function;
}

bool startsWith(std::string_view S, std::string_view Prefix) { return S.substr(0, Prefix.size()) == Prefix; }

/// The part of a dotted word after its last dot ("tl.ma" -> "ma").
std::string lastComponent(const std::string &Word) {
  size_t Dot = Word.rfind('.');
  return Dot == std::string::npos ? Word : Word.substr(Dot + 1);
}

/// `triton.` members a host file uses (Triton 3.6's triton/__init__.py).
struct HostName {
  std::string_view Name, Detail;
  CompletionKind Kind;
};
constexpr HostName TritonNames[] = {
    {"Config", "Config(kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None)",
     CompletionKind::Class},
    {"autotune", "autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, ...)",
     CompletionKind::Function},
    {"cdiv", "cdiv(x, y)", CompletionKind::Function},
    {"constexpr_function", "constexpr_function(fn)", CompletionKind::Function},
    {"heuristics", "heuristics(values)", CompletionKind::Function},
    {"jit", "jit(fn=None, *, do_not_specialize=None, debug=None, noinline=None, ...)", CompletionKind::Function},
    {"knobs", "module triton.knobs", CompletionKind::Module},
    {"language", "module triton.language", CompletionKind::Module},
    {"next_power_of_2", "next_power_of_2(n)", CompletionKind::Function},
    {"testing", "module triton.testing", CompletionKind::Module},
    {"TensorDescriptor", "tools.tensor_descriptor.TensorDescriptor", CompletionKind::Class},
};

/// Python names a @jit function may call (CodeGenerator.builtin_namespace).
constexpr std::string_view KernelBuiltins[] = {"float", "getattr", "hasattr", "int",   "isinstance", "len",
                                               "list",  "max",     "min",     "print", "range"};

class Completer {
public:
  Completer(const AnalyzedFile &F, uint32_t Offset, const ImportedSignatures *Imported)
      : F(F), Info(F.Report.Analysis->Info), Text(F.Doc.Text->text()), Offset(Offset), Ctx(cursorContext(Text, Offset)),
        Imported(Imported) {}

  std::vector<CompletionInfo> run() {
    if (Ctx.InComment)
      return {};
    if (Ctx.String) {
      stringItems();
      return std::move(Out);
    }
    size_t Dot = Ctx.Word.rfind('.');
    if (Dot != std::string::npos) {
      memberItems(Ctx.Word.substr(0, Dot), Ctx.Word.substr(Dot + 1));
      return std::move(Out);
    }
    if (configDictAtKey()) {
      for (const std::string &P : relatedKernelParams(true))
        add({"\"" + P + "\"", CompletionKind::Field, "constexpr parameter of the kernel", "", "\"" + P + "\"", false});
      return std::move(Out);
    }
    if (Ctx.Call && Ctx.Call->AtArgStart)
      keywordItems();
    scopeItems();
    return std::move(Out);
  }

private:
  void add(CompletionInfo I) {
    if (!startsWith(I.Label, Prefix()) && !startsWith(I.InsertText, Prefix()))
      return;
    if (Seen.insert(I.Label).second)
      Out.push_back(std::move(I));
  }
  std::string Prefix() const { return Ctx.String ? *Ctx.String : lastComponent(Ctx.Word); }

  void memberItems(const std::string &Head, const std::string &) {
    std::string Q = qualifyDotted(Info, Head);
    if (Q == "triton") {
      for (const HostName &N : TritonNames)
        add({std::string(N.Name), N.Kind, std::string(N.Detail), "", "", false});
      return;
    }
    bool Math = Q == "triton.language.math";
    if (Q != "triton.language" && !Math)
      return;
    for (const BuiltinDoc &D : builtinDocs()) {
      if (Math && !std::binary_search(mathNames().begin(), mathNames().end(), D.Name))
        continue;
      add({std::string(D.Name), kindOf(D.Kind), std::string(D.Signature), std::string(D.Doc), "", true});
    }
    if (!Math)
      add({"math", CompletionKind::Module, "module triton.language.math", "", "", false});
  }

  /// `name=` for each parameter of the callee not given yet.
  void keywordItems() {
    const OpenCall &C = *Ctx.Call;
    auto S = signatureOf(Info, *F.Doc.Text, C.Callee, C.IsLaunch, Imported);
    if (!S)
      return;
    for (size_t I = 0; I < S->Params.size(); ++I) {
      const ParamInfo &P = S->Params[I];
      if (P.Variadic || P.Name.empty() || P.Name[0] == '*' || (I < C.Positional && !P.LaunchOption))
        continue;
      if (std::find(C.UsedKeywords.begin(), C.UsedKeywords.end(), P.Name) != C.UsedKeywords.end())
        continue;
      std::string Detail = P.LaunchOption ? "launch option" : P.Constexpr ? "constexpr parameter" : "parameter";
      std::string Doc = P.Doc;
      if (!P.Values.empty()) {
        Doc = "One of:";
        for (const std::string &V : P.Values)
          Doc += " `\"" + V + "\"`";
      }
      add({P.Name + "=", CompletionKind::Keyword, Detail + " of " + C.Callee, Doc, P.Name + "=", false});
    }
  }

  void stringItems() {
    // A keyword's value: `eviction_policy="|`.
    if (Ctx.Call && !Ctx.Call->Keyword.empty() && Ctx.Brackets.back().Offset == Ctx.Call->Paren) {
      if (auto S = signatureOf(Info, *F.Doc.Text, Ctx.Call->Callee, Ctx.Call->IsLaunch, Imported))
        for (const ParamInfo &P : S->Params)
          if (P.Name == Ctx.Call->Keyword)
            for (const std::string &V : P.Values)
              if (!V.empty())
                add({V, CompletionKind::Value, "accepted by " + Ctx.Call->Callee + "(" + P.Name + "=...)", "", "",
                     false});
      return;
    }
    if (Ctx.Brackets.empty())
      return;
    const OpenBracket &B = Ctx.Brackets.back();
    bool ConfigKey = configDictAtKey();
    bool AutotuneKey = B.Kind == '[' && B.KeywordBefore == "key";
    // `args["|` in a heuristics lambda, `meta["|` in a grid lambda.
    bool ArgsSubscript = B.Kind == '[' && !B.Before.empty() && B.Before.find('.') == std::string::npos;
    if (!ConfigKey && !AutotuneKey && !ArgsSubscript)
      return;
    for (const std::string &P : relatedKernelParams(ConfigKey))
      add({P, CompletionKind::Field, "parameter of the kernel", "", "", false});
  }

  /// Inside `triton.Config({` where a key goes (or a string key is typed).
  bool configDictAtKey() const {
    if (Ctx.Brackets.size() < 2)
      return false;
    const OpenBracket &Dict = Ctx.Brackets.back(), &Call = Ctx.Brackets[Ctx.Brackets.size() - 2];
    if (Dict.Kind != '{' || Call.Kind != '(' || qualifyDotted(Info, Call.Before) != "triton.Config")
      return false;
    if (Ctx.String) {
      // The string is a key when nothing but blanks precede it in its entry.
      uint32_t I = Ctx.StringStart - 1;
      while (I > 0 && (Text[I - 1] == ' ' || Text[I - 1] == '\n' || Text[I - 1] == '\t'))
        --I;
      return I > 0 && (Text[I - 1] == '{' || Text[I - 1] == ',');
    }
    return Ctx.AtItemStart;
  }

  /// The kernel a decorator, config list or launch at the cursor is about:
  /// the decorated `def` when the cursor is in its decorators, the kernels
  /// launched in the host function around the cursor, or the autotuned
  /// kernels whose decorator names the function around the cursor (a
  /// `get_configs()` helper). Parameters only (constexpr ones when Constexpr).
  std::vector<std::string> relatedKernelParams(bool Constexpr) {
    std::vector<const JitFunction *> Kernels = kernelsAround(*F.Parsed, Info, Offset);
    std::vector<std::string> Out;
    for (const JitFunction *J : Kernels) {
      if (!J->Def)
        continue;
      auto S = signatureOf(Info, *F.Doc.Text, J->Name, false);
      if (!S)
        continue;
      for (const ParamInfo &P : S->Params)
        if (!P.Variadic && (!Constexpr || P.Constexpr) && std::find(Out.begin(), Out.end(), P.Name) == Out.end())
          Out.push_back(P.Name);
    }
    return Out;
  }

  void scopeItems() {
    const FunctionDefStmt *Fn = functionAt(F.Parsed->module(), Offset);
    bool InJit = false;
    if (Fn && Offset > Fn->DefKeywordRange.Begin) {
      InJit = Info.jit(Fn->Name) != nullptr;
      for (const Param &P : Fn->Params)
        add({P.Name, CompletionKind::Parameter, std::string(F.Parsed->text().slice(P.Range)), "", "", false});
      std::set<std::string> Locals;
      for (const Stmt *S : Fn->Body)
        if (S->Range.Begin < Offset)
          boundNames(S, Locals);
      for (const std::string &L : Locals)
        add({L, CompletionKind::Variable, "local", "", "", false});
    }
    for (const auto &[Name, G] : Info.Globals)
      if (G.IsConstexpr)
        add({Name, CompletionKind::Constant,
             G.Value.isKnown() ? "constexpr = " + G.Value.repr() : std::string("constexpr global"), "", "", false});
    for (const auto &[Name, Def] : Info.Functions) {
      const JitFunction *J = Info.jit(Name);
      add({Name, CompletionKind::Function,
           J ? (J->IsKernel ? "@triton.jit kernel" : "@triton.jit helper") : std::string("function"), "", "", false});
    }
    for (const auto &[Name, Path] : Info.Imports)
      add({Name, CompletionKind::Module, Path, "", "", false});
    if (InJit)
      for (std::string_view B : KernelBuiltins)
        add({std::string(B), CompletionKind::Function, "Python builtin, evaluated at compile time", "", "", false});
    else if (!Fn)
      for (const auto &[Name, G] : Info.Globals)
        add({Name, CompletionKind::Variable, "global", "", "", false});
  }

  const AnalyzedFile &F;
  const ModuleInfo &Info;
  const std::string &Text;
  uint32_t Offset;
  CursorContext Ctx;
  const ImportedSignatures *Imported;
  std::vector<CompletionInfo> Out;
  std::set<std::string> Seen;
};

} // namespace

std::vector<CompletionInfo> complete(const AnalyzedFile &F, uint32_t Offset, const ImportedSignatures *Imported) {
  if (!F.Report.Analysis || !F.Parsed || Offset > F.Doc.Text->text().size())
    return {};
  return Completer(F, Offset, Imported).run();
}

} // namespace tessel::lsp
