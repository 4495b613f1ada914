//===- Signatures.cpp - parameter lists of what a kernel calls -----------===//
/// \file
/// Builtin signatures are parsed from BuiltinDocs' text once per request (a
/// few dozen characters); which of their parameters are constexpr and which
/// strings they accept is the table below, from the `:C` marks and the value
/// lists of triton-3.6-facts.md §1.
//===----------------------------------------------------------------------===//
#include "lsp/features/Signatures.h"
#include "lsp/features/BuiltinDocs.h"
#include "lsp/features/KernelContext.h"

#include <algorithm>
#include <cctype>

namespace tessel::lsp {

namespace {
/// Parameters Triton 3.6 requires as compile-time constants wherever they
/// appear in a builtin (`:C` in the facts file).
constexpr std::string_view ConstexprNames[] = {"axis",
                                               "start",
                                               "end",
                                               "shape",
                                               "dtype",
                                               "can_reorder",
                                               "*shape",
                                               "*dims",
                                               "fp_downcast_rounding",
                                               "bitcast",
                                               "input_precision",
                                               "allow_tf32",
                                               "max_num_imprecise_acc",
                                               "out_dtype",
                                               "boundary_check",
                                               "padding_option",
                                               "cache_modifier",
                                               "eviction_policy",
                                               "volatile",
                                               "block_shape",
                                               "order",
                                               "sem",
                                               "scope",
                                               "propagate_nan",
                                               "combine_fn",
                                               "keep_dims",
                                               "reverse",
                                               "num_bins",
                                               "values",
                                               "num_stages",
                                               "loop_unroll_factor",
                                               "disallow_acc_multi_buffer",
                                               "flatten",
                                               "warp_specialize",
                                               "disable_licm",
                                               "lhs_format",
                                               "rhs_format",
                                               "fast_math",
                                               "lhs_k_pack",
                                               "rhs_k_pack",
                                               "sanitize_overflow",
                                               "k",
                                               "dim",
                                               "descending",
                                               "return_indices",
                                               "tie_break_left",
                                               "msg",
                                               "prefix",
                                               "hex",
                                               "asm",
                                               "constraints",
                                               "is_pure",
                                               "pack",
                                               "n_rounds"};

struct AllowedValues {
  std::string_view Builtin, Param;
  std::vector<std::string> Values;
};

const std::vector<AllowedValues> &allowedValues() {
  static const std::vector<AllowedValues> T = {
      {"load", "cache_modifier", {"", ".ca", ".cg", ".cv"}},
      {"load", "eviction_policy", {"", "evict_first", "evict_last"}},
      {"load", "padding_option", {"", "zero", "nan"}},
      {"store", "cache_modifier", {"", ".wb", ".cg", ".cs", ".wt"}},
      {"store", "eviction_policy", {"", "evict_first", "evict_last"}},
      {"make_tensor_descriptor", "padding_option", {"zero", "nan"}},
      {"dot", "input_precision", {"tf32", "tf32x3", "ieee"}},
      {"cast", "fp_downcast_rounding", {"rtne", "rtz"}},
      {"*", "sem", {"acquire", "release", "acq_rel", "relaxed"}},
      {"*", "scope", {"gpu", "cta", "sys"}},
  };
  return T;
}

/// Splits "a, b=(1, 2), *c" at its top-level commas.
std::vector<std::string> splitParams(std::string_view S) {
  std::vector<std::string> Out;
  int Depth = 0;
  size_t Begin = 0;
  for (size_t I = 0; I <= S.size(); ++I) {
    char C = I < S.size() ? S[I] : ',';
    if (C == '(' || C == '[' || C == '{')
      ++Depth;
    else if (C == ')' || C == ']' || C == '}')
      --Depth;
    else if (C == ',' && Depth == 0) {
      std::string_view P = S.substr(Begin, I - Begin);
      while (!P.empty() && P.front() == ' ')
        P.remove_prefix(1);
      while (!P.empty() && P.back() == ' ')
        P.remove_suffix(1);
      if (!P.empty())
        Out.emplace_back(P);
      Begin = I + 1;
    }
  }
  return Out;
}

void layOut(SignatureInfo &S, const std::string &Head) {
  S.Label = Head + "(";
  S.ParamOffsets.clear();
  for (size_t I = 0; I < S.Params.size(); ++I) {
    if (I)
      S.Label += ", ";
    uint32_t B = static_cast<uint32_t>(S.Label.size());
    S.Label += S.Params[I].Label;
    S.ParamOffsets.push_back({B, static_cast<uint32_t>(S.Label.size())});
  }
  S.Label += ")";
}
} // namespace

const std::vector<ParamInfo> &launchOptions() {
  static const std::vector<ParamInfo> T = [] {
    std::vector<ParamInfo> V;
    auto Add = [&](const char *Name, const char *Label, const char *Doc) {
      ParamInfo P;
      P.Name = Name;
      P.Label = Label;
      P.Constexpr = true;
      P.LaunchOption = true;
      P.Doc = Doc;
      V.push_back(std::move(P));
    };
    Add("num_warps", "num_warps=4", "Warps per program (a power of two, 1 to 32): 32 threads each.");
    Add("num_stages", "num_stages=3", "Software-pipelining depth of the kernel's `tl.range` loops.");
    Add("num_ctas", "num_ctas=1", "CTAs per program: a thread-block cluster on sm_90 and later.");
    Add("maxnreg", "maxnreg=None", "An upper bound on registers per thread.");
    return V;
  }();
  return T;
}

const std::vector<std::string_view> &mathNames() {
  // triton/language/math.py in 3.6 (its own functions and the core functions
  // it re-exports), sorted.
  static const std::vector<std::string_view> T = {"abs",   "ceil", "cos",   "div_rn",  "erf",   "exp",
                                                  "exp2",  "fdiv", "floor", "fma",     "log",   "log2",
                                                  "rsqrt", "sin",  "sqrt",  "sqrt_rn", "umulhi"};
  return T;
}

std::optional<SignatureInfo> builtinSignature(std::string_view Name) {
  if (Name.rfind("math.", 0) == 0) {
    if (!std::binary_search(mathNames().begin(), mathNames().end(), Name.substr(5)))
      return std::nullopt;
    Name.remove_prefix(5);
  }
  const BuiltinDoc *D = findBuiltin(Name);
  if (!D || D->Kind == BuiltinKind::DType || D->Kind == BuiltinKind::Constant)
    return std::nullopt;
  std::string_view Sig = D->Signature;
  size_t Open = Sig.find('('), Close = Sig.rfind(')');
  if (Open == std::string_view::npos || Close == std::string_view::npos || Close < Open)
    return std::nullopt;
  SignatureInfo S;
  S.Doc = std::string(D->Doc);
  bool StaticRange = Name == "static_range";
  for (const std::string &Text : splitParams(Sig.substr(Open + 1, Close - Open - 1))) {
    ParamInfo P;
    P.Label = Text;
    P.Name = Text.substr(0, Text.find('='));
    P.Variadic = !P.Name.empty() && P.Name[0] == '*';
    P.Constexpr = StaticRange ||
                  std::find(std::begin(ConstexprNames), std::end(ConstexprNames), P.Name) != std::end(ConstexprNames);
    for (const AllowedValues &A : allowedValues())
      if ((A.Builtin == Name || A.Builtin == "*") && A.Param == P.Name)
        P.Values = A.Values;
    S.Params.push_back(std::move(P));
  }
  layOut(S, "tl." + std::string(Sig.substr(0, Open)));
  return S;
}

SignatureInfo jitSignature(const ModuleInfo &Info, const SourceText &Text, const JitFunction &J, bool IsLaunch) {
  SignatureInfo S;
  for (const ast::Param &P : J.Def->Params) {
    ParamInfo PI;
    PI.Name = P.Name;
    PI.Label = std::string(Text.slice(P.Range));
    PI.Constexpr = isConstexprParam(P, Info);
    PI.Variadic = P.PKind == ast::Param::ParamKind::VarArgs;
    S.Params.push_back(std::move(PI));
  }
  if (IsLaunch)
    for (const ParamInfo &O : launchOptions())
      S.Params.push_back(O);
  if (const ast::ConstantExpr *Doc = J.Def->docstring())
    S.Doc = Doc->StrValue;
  layOut(S, J.Name + (IsLaunch ? "[grid]" : ""));
  return S;
}

std::string qualifyDotted(const ModuleInfo &Info, const std::string &Dotted) {
  size_t Dot = Dotted.find('.');
  std::string Head = Dotted.substr(0, Dot);
  auto It = Info.Imports.find(Head);
  if (It == Info.Imports.end())
    return {};
  return It->second + (Dot == std::string::npos ? "" : Dotted.substr(Dot));
}

std::optional<SignatureInfo> signatureOf(const ModuleInfo &Info, const SourceText &Text, const std::string &Callee,
                                         bool IsLaunch, const ImportedSignatures *Imported) {
  if (Callee.find('.') == std::string::npos) {
    if (const JitFunction *J = Info.jit(Callee); J && J->Def)
      return jitSignature(Info, Text, *J, IsLaunch);
  }
  auto FromImports = [&]() -> std::optional<SignatureInfo> {
    if (!Imported || !*Imported)
      return std::nullopt;
    return (*Imported)(Callee, IsLaunch);
  };
  if (IsLaunch)
    return FromImports();
  std::string Q = qualifyDotted(Info, Callee);
  constexpr std::string_view Lang = "triton.language.";
  if (Q.rfind(Lang, 0) != 0)
    return FromImports();
  std::string_view Member = std::string_view(Q).substr(Lang.size());
  if (Member.rfind("core.", 0) == 0 || Member.rfind("standard.", 0) == 0)
    Member = Member.substr(Member.find('.') + 1);
  return builtinSignature(Member);
}

int activeParameter(const SignatureInfo &S, unsigned Positional, const std::string &Keyword) {
  if (!Keyword.empty()) {
    for (size_t I = 0; I < S.Params.size(); ++I)
      if (S.Params[I].Name == Keyword)
        return static_cast<int>(I);
    return -1;
  }
  for (size_t I = 0; I < S.Params.size(); ++I) {
    if (S.Params[I].Variadic || I == Positional)
      return S.Params[I].LaunchOption ? -1 : static_cast<int>(I);
  }
  return -1;
}

} // namespace tessel::lsp
