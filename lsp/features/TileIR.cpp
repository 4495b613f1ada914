//===- TileIR.cpp - a kernel's tile IR for the editor's IR view -----------===//
/// \file
/// Plans, lowers and prints one kernel for `tessel/viewIR` (kind "tir").
//===----------------------------------------------------------------------===//
#include "lsp/features/TileIR.h"

#include "compiler/ir/Printer.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"

namespace tessel::lsp {

TileIRView tileIRView(const AnalyzedFile &F, const std::string &Kernel, std::optional<size_t> Config) {
  TileIRView V;
  if (!F.Parsed || !F.Report.Analysis) {
    V.Error = "the document was not analysed" + (F.Skipped.empty() ? std::string() : ": " + F.Skipped);
    return V;
  }
  const ModuleInfo &Info = F.Report.Analysis->Info;
  sema::LaunchPlanOptions Opts;
  Opts.Config = Config;
  const sema::AnalyzeOptions Lowering; // as the view lowers, below
  Opts.Settle = &Lowering;
  sema::LaunchPlan Plan = sema::planLaunch(*F.Parsed, Info, Kernel, Opts);
  auto Why = [&](const std::vector<Problem> &Ps) {
    std::string S;
    for (const Problem &P : Ps) {
      LineCol At = F.Parsed->text().lineCol(P.Range.Begin);
      S += (S.empty() ? "" : "; ") + std::to_string(At.Line + 1) + ":" + std::to_string(At.Column + 1) + ": " +
           P.Message;
    }
    return S;
  };
  if (!Plan.Error.empty()) {
    V.Error = Plan.Error;
    return V;
  }
  if (Plan.Launches.empty()) {
    V.Error = "kernel '" + Kernel + "' has no launch to lower: " + Why(Plan.Problems);
    return V;
  }
  sema::LoweredKernel L = sema::lowerKernel(*F.Parsed, Info, Plan.Launches.front().Request);
  if (!L.Function) {
    V.Error = "kernel '" + Kernel + "' cannot be lowered: " + Why(L.Problems);
    return V;
  }
  for (const std::string &A : Plan.Assumptions)
    V.Text += "// " + A + "\n";
  V.Text += ir::printFunction(*L.Function, {&F.Parsed->text(), true});
  return V;
}

} // namespace tessel::lsp
