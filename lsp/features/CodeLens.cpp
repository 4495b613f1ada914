//===- CodeLens.cpp - what each kernel costs, and how to run it -----------===//
/// \file
/// One Run lens per device, then a summary lens, then one lens per config
/// (at most 16; a long autotune list ends with "+N more").
//===----------------------------------------------------------------------===//
#include "lsp/features/CodeLens.h"
#include "lsp/AnalyzedFile.h"

namespace tessel::lsp {

static std::string kwargsText(const PyDict &Kwargs) {
  std::string S;
  for (const auto &[Key, Value] : Kwargs) {
    if (!S.empty())
      S += ", ";
    S += (Key.isStr() ? Key.asStr() : Key.repr()) + "=" + Value.repr();
  }
  return S;
}

static constexpr const char *NotYetKnown = "registers/shared memory/spills not yet known";

std::vector<CodeLensInfo> codeLenses(const AnalyzedFile &F, const CodeLensOptions &Opts) {
  std::vector<CodeLensInfo> Out;
  if (!F.Report.Analysis)
    return Out;
  const ModuleInfo &Info = F.Report.Analysis->Info;
  for (const std::string &Name : Info.Order) {
    const JitFunction *J = Info.jit(Name);
    if (!J || !J->Def || !J->IsKernel)
      continue;
    SourceRange R = J->Def->NameRange;
    Out.push_back({R, "▶ Run on CPU", std::string("cpu"), Name});
    if (Opts.GpuAvailable)
      Out.push_back({R, "▶ Run on GPU", std::string("gpu"), Name});

    if (J->HasAutotune && J->ConfigsUnknown) {
      Out.push_back({R, "autotune configs could not be evaluated", std::nullopt, Name});
      continue;
    }
    if (J->HasAutotune) {
      std::string Summary = std::to_string(J->Configs.size()) + " config" + (J->Configs.size() == 1 ? "" : "s");
      Out.push_back({R, Summary + " · " + NotYetKnown, std::nullopt, Name});
      for (size_t I = 0; I < J->Configs.size(); ++I) {
        if (I == 16) {
          Out.push_back({R, "+" + std::to_string(J->Configs.size() - I) + " more configs", std::nullopt, Name});
          break;
        }
        const PyConfig &C = J->Configs[I].Config;
        std::string T = "#" + std::to_string(I) + " ";
        std::string K = kwargsText(C.Kwargs);
        T += K.empty() ? "" : K + " · ";
        T += "num_warps=" + std::to_string(C.NumWarps) + " · num_stages=" + std::to_string(C.NumStages);
        Out.push_back({R, T, std::nullopt, Name});
      }
      continue;
    }
    // No autotune: the launch sites give the specializations.
    if (J->Launches.empty()) {
      Out.push_back({R,
                     "num_warps=4 · num_stages=3 (defaults; no launch site in this file) · " + std::string(NotYetKnown),
                     std::nullopt, Name});
      continue;
    }
    for (const LaunchSite &L : J->Launches) {
      std::string T = "launch at line " + std::to_string(F.Parsed->text().lineCol(L.Range.Begin).Line + 1) + ": ";
      std::string K;
      bool Warps = false, Stages = false;
      for (const auto &[Key, Value] : L.Keywords) {
        Warps |= Key == "num_warps";
        Stages |= Key == "num_stages";
        K += (K.empty() ? "" : ", ") + Key + "=" + (Value.isKnown() ? Value.repr() : std::string("?"));
      }
      if (!Warps)
        K += std::string(K.empty() ? "" : ", ") + "num_warps=4";
      if (!Stages)
        K += ", num_stages=3";
      Out.push_back({R, T + K + " · " + NotYetKnown, std::nullopt, Name});
    }
  }
  return Out;
}

} // namespace tessel::lsp
