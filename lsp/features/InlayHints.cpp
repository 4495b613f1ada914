//===- InlayHints.cpp - tile types shown inline ---------------------------===//
/// \file
/// Groups the facts of every specialization by name token, keeping the
/// distinct types in the order the specializations come.
//===----------------------------------------------------------------------===//
#include "lsp/features/InlayHints.h"
#include "lsp/AnalyzedFile.h"

#include <algorithm>
#include <map>
#include <set>

namespace tessel::lsp {

std::vector<InlayHint> inlayHints(const AnalyzedFile &F, SourceRange Within) {
  std::vector<InlayHint> Out;
  if (!F.Report.Analysis)
    return Out;
  const sema::FileAnalysis &A = *F.Report.Analysis;
  std::set<SourceRange> Params;
  for (const auto &[Name, Fn] : A.Info.Functions)
    if (Fn)
      for (const ast::Param &P : Fn->Params)
        Params.insert(P.NameRange);

  std::map<SourceRange, std::vector<std::string>> Types;
  for (const sema::KernelAnalysis &K : A.Kernels)
    for (const sema::ValueFact &V : K.Values) {
      if (!V.Type.isBlock() || V.Range.empty() || Params.count(V.Range))
        continue;
      if (V.Range.End < Within.Begin || V.Range.End > Within.End)
        continue;
      std::vector<std::string> &Seen = Types[V.Range];
      std::string T = sema::typeWithDimNames(V.Type, V.DimNames);
      if (std::find(Seen.begin(), Seen.end(), T) == Seen.end())
        Seen.push_back(T);
    }
  for (const auto &[Range, Seen] : Types) {
    std::string Label = ":";
    for (size_t I = 0; I < Seen.size() && I < 3; ++I)
      Label += (I ? " | " : " ") + Seen[I];
    if (Seen.size() > 3)
      Label += " | …";
    Out.push_back({Range.End, Label});
  }
  return Out;
}

} // namespace tessel::lsp
