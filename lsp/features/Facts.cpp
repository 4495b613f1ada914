//===- Facts.cpp - sema's value facts, looked up by position --------------===//
/// \file
/// Linear scans over the facts: a kernel has at most a few hundred, and a
/// request looks at one file, so an index would cost more than it saves.
//===----------------------------------------------------------------------===//
#include "lsp/features/Facts.h"
#include "lsp/features/AstSearch.h"

namespace tessel::lsp {

std::vector<FactUnderSpec> factsAt(const sema::FileAnalysis &A, uint32_t Offset, const std::string &UseName,
                                   uint32_t UseBegin) {
  std::vector<FactUnderSpec> Out;
  // Facts are recorded per kernel x specialization; a helper's facts may
  // appear under the kernels that inline it, so match by position, not name.
  for (const sema::KernelAnalysis &K : A.Kernels) {
    const sema::ValueFact *Best = nullptr;
    for (const sema::ValueFact &F : K.Values) {
      if (touches(F.Range, Offset) && !F.Range.empty()) {
        Best = &F;
        break;
      }
    }
    if (!Best && !UseName.empty()) {
      const ast::FunctionDefStmt *Fn = functionAt(A.File->module(), Offset);
      for (const sema::ValueFact &F : K.Values) {
        if (F.Name != UseName || F.Range.Begin > UseBegin)
          continue;
        if (Fn && !Fn->Range.contains(F.Range))
          continue;
        if (!Best || F.Range.Begin >= Best->Range.Begin)
          Best = &F;
      }
    }
    if (Best)
      Out.push_back({Best, &K});
  }
  return Out;
}

/// The Python type of a constexpr's value, as Triton names it in
/// `constexpr[...]` messages' neighbours: int, float, bool, str...
static std::string constexprTypeName(const PyValue &V) {
  switch (V.kind()) {
  case PyValue::Kind::Bool:
    return "bool";
  case PyValue::Kind::Int:
    return "int";
  case PyValue::Kind::Float:
    return "float";
  case PyValue::Kind::Str:
    return "str";
  case PyValue::Kind::None:
    return "None";
  case PyValue::Kind::Tuple:
    return "tuple";
  case PyValue::Kind::List:
    return "list";
  case PyValue::Kind::Qualified:
    return V.qualifiedPath().rfind("triton.language.", 0) == 0 ? "dtype" : "object";
  case PyValue::Kind::Function:
  case PyValue::Kind::Lambda:
    return "function";
  default:
    return "";
  }
}

std::string describeFact(const sema::ValueFact &F) {
  // A constexpr has no tile type: say what its value is.
  if (F.Type == TileType{}) {
    if (F.Constexpr.isUnknown())
      return "constexpr (value not known here)";
    std::string T = constexprTypeName(F.Constexpr);
    return "constexpr" + (T.empty() ? std::string() : " " + T) + " = " + F.Constexpr.repr();
  }
  std::string S = sema::typeWithDimNames(F.Type, F.DimNames);
  if (F.Constexpr.isKnown())
    S += " = " + F.Constexpr.repr();
  return S;
}

} // namespace tessel::lsp
