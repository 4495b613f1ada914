//===- CodeLens.cpp - what each kernel costs, and how to run it -----------===//
/// \file
/// One Run lens per device, then a summary lens, then one lens per config
/// with the JIT tier's figures where it has them. A config written as its own
/// `triton.Config(...)` call in this file gets its lens on that call, so the
/// config under the cursor shows its own figures where the cursor is (LSP's
/// code-lens request carries no position; a lens on each config's line is
/// how the standard protocol follows it); configs that share one call (a
/// loop or comprehension builds them) are summed up above the kernel: the
/// first with its figures, then "+N configs" (the kernel's hover lists each),
/// since an editor draws every lens of a line on that one line. A launch's
/// lens names the keyword values known before the run (at most six), and
/// counts the others.
//===----------------------------------------------------------------------===//
#include "lsp/features/CodeLens.h"

#include "compiler/reference/ReferenceDirective.h"
#include "lsp/AnalyzedFile.h"

#include "diagnostics/JitCheck.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

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
/// With the JIT tier off no figures will come: the lens says so rather than
/// that they are not known yet.
static constexpr const char *JitOff = "figures off (the tessel.jit setting is false)";
static constexpr const char *Compiling = "compiling…";

static std::string bytesText(unsigned B) {
  if (B < 1024)
    return std::to_string(B) + " B";
  char Buf[32];
  std::snprintf(Buf, sizeof Buf, B % 1024 ? "%.1f KiB" : "%.0f KiB", B / 1024.0);
  return Buf;
}

/// Compiled, but with more shared memory than a block can have: Triton's
/// autotuner skips such a config (OutOfResources) and times the others.
static bool overSharedLimit(const diag::JitSummary &S) {
  return S.Compiled && S.Compiled->Assembler.empty() && diag::canAssemble();
}

std::string jitFiguresText(const diag::JitSummary &S) {
  if (!S.Compiled) {
    std::string Why = S.Failure.substr(0, S.Failure.find('\n'));
    if (Why.size() > 100)
      Why = Why.substr(0, 97) + "...";
    return "figures unavailable: " + Why;
  }
  const backend::CompiledKernel &K = *S.Compiled;
  if (overSharedLimit(S))
    return bytesText(K.sharedBytes()) + " smem: more than a block can have, so not assembled";
  if (K.Assembler.empty())
    return "PTX only (no ptxas or nvJitLink found): registers not known";
  const backend::ResourceUsage &R = K.Resources;
  std::string T = std::to_string(R.Registers) + " regs · ";
  if (!R.HasSpillCounts)
    T += "spills not reported";
  else if (R.spillBytes())
    T += bytesText(R.spillBytes()) + " spills";
  else
    T += "0 spills";
  T += " · " + bytesText(K.sharedBytes()) + " smem · ";
  if (K.Occ.Limit == backend::OccupancyLimit::DoesNotFit)
    T += "does not fit on an SM";
  else
    T += std::to_string(int(std::lround(K.Occ.fraction() * 100))) + "% occupancy";
  // Where the dot runs, as its PTX shows: "has a tl.dot" is not "on FMA units".
  if (std::string_view Units = backend::dotUnits(K); Units == "FMA units")
    T += " (tl.dot on FMA units)";
  else if (!Units.empty())
    T += " (tl.dot on tensor cores: " + std::string(Units) + ")";
  if (S.Representative)
    T += " · with assumed values";
  return T;
}

/// The first config of Kernel the autotuner keeps that has figures, when
/// config #0 is one it skips; nullopt otherwise.
static std::optional<size_t> firstKeptConfig(const CodeLensOptions &Opts, const std::string &Kernel) {
  auto It = Opts.Jit.find(Kernel);
  if (It == Opts.Jit.end())
    return std::nullopt;
  const std::vector<JitFigures> &Cs = It->second.Configs;
  auto Zero = std::find_if(Cs.begin(), Cs.end(), [](const JitFigures &F) { return F.Config == size_t(0); });
  if (Zero == Cs.end() || !overSharedLimit(Zero->Summary))
    return std::nullopt;
  std::optional<size_t> Best;
  for (const JitFigures &F : Cs)
    if (F.Config && F.Summary.Compiled && !overSharedLimit(F.Summary) && (!Best || *F.Config < *Best))
      Best = F.Config;
  return Best;
}

/// The figures of Kernel under Config, "compiling…" while the tier works on
/// it, or nullopt when the tier has nothing to say.
static std::optional<std::string> figures(const CodeLensOptions &Opts, const std::string &Kernel,
                                          std::optional<size_t> Config) {
  auto It = Opts.Jit.find(Kernel);
  if (It != Opts.Jit.end())
    for (const JitFigures &F : It->second.Configs)
      if (F.Config == Config)
        return jitFiguresText(F.Summary);
  if (Opts.JitEnabled && It != Opts.Jit.end() && It->second.Pending)
    return std::string(Compiling);
  return std::nullopt;
}

/// The callee of a `...Config(...)` call at Range of this file's text (one
/// line, as a lens range should be); nullopt for anything else, such as the
/// `configs=` expression Discovery names when it cannot tell the calls apart.
static std::optional<SourceRange> configCallee(const AnalyzedFile &F, SourceRange Range) {
  const std::string &Text = F.Parsed->text().text();
  if (Range.End <= Range.Begin || Range.End > Text.size())
    return std::nullopt;
  std::string_view S = std::string_view(Text).substr(Range.Begin, Range.End - Range.Begin);
  size_t Open = S.find('(');
  if (Open == std::string_view::npos || S.back() != ')' || !S.substr(0, Open).ends_with("Config") ||
      S.substr(0, Open).find('\n') != std::string_view::npos)
    return std::nullopt;
  return SourceRange{Range.Begin, Range.Begin + static_cast<uint32_t>(Open)};
}

static std::string noFigures(const CodeLensOptions &Opts) { return Opts.JitEnabled ? NotYetKnown : JitOff; }

/// Does Kernel have a `# tessel: reference` directive (compiler/reference)?
static bool hasReference(const AnalyzedFile &F, const std::string &Kernel) {
  const std::string &Text = F.Doc.Text->text();
  if (Text.find("reference") == std::string::npos || !F.Report.Analysis)
    return false;
  std::vector<std::pair<uint32_t, std::string>> Starts;
  for (const auto &[Name, J] : F.Report.Analysis->Info.Jit)
    if (J.Def)
      Starts.emplace_back(J.Def->Range.Begin, Name);
  return reference::referenceFor(Text, Kernel, Starts).has_value();
}

std::vector<CodeLensInfo> codeLenses(const AnalyzedFile &F, const CodeLensOptions &Opts) {
  std::vector<CodeLensInfo> Out;
  if (!F.Report.Analysis)
    return Out;
  const ModuleInfo &Info = F.Report.Analysis->Info;
  // How many configs (of every kernel) each Config(...) call makes: only a
  // call that makes one config carries that config's lens.
  std::map<std::pair<uint32_t, uint32_t>, unsigned> CallUses;
  for (const std::string &Name : Info.Order)
    if (const JitFunction *J = Info.jit(Name); J && J->Def && J->IsKernel && !J->ConfigsUnknown)
      for (const AutotuneConfig &C : J->Configs)
        ++CallUses[{C.Range.Begin, C.Range.End}];
  // Helpers that other modules' kernels call: the tier compiles them only
  // inside their callers, so no figures of their own will come.
  const std::set<std::string> Helpers = sema::uncalledHelpers(*F.Report.Analysis);
  // The kernels the tier compiles: the others have front-end errors.
  std::set<const JitFunction *> Compiled;
  for (const JitFunction *Fn : diag::jitKernels(Info, F.Report.Findings))
    Compiled.insert(Fn);
  for (const std::string &Name : Info.Order) {
    const JitFunction *J = Info.jit(Name);
    if (!J || !J->Def || !J->IsKernel)
      continue;
    // Above the decorators, as clangd and rust-analyzer put a lens above
    // the whole item: between `@triton.jit` and `def` it splits the two.
    // The first decorator's name (`triton.autotune` of a call spanning many
    // lines) is where the lens belongs.
    SourceRange R = J->Def->NameRange;
    if (!J->Def->Decorators.empty()) {
      const ast::Expr *D = J->Def->Decorators.front();
      if (const auto *C = ast::dyn_cast<ast::CallExpr>(D))
        D = C->Func;
      R = D->Range;
    }
    if (Helpers.count(Name)) {
      Out.push_back({R, "@jit helper called from other modules: its figures are its callers'", std::nullopt, Name});
      continue;
    }
    Out.push_back({R, "▶ Run on CPU", std::string("cpu"), Name});
    if (Opts.GpuAvailable) {
      CodeLensInfo Gpu{R, "▶ Run on GPU", std::string("gpu"), Name};
      Gpu.Reference = hasReference(F, Name);
      if (Gpu.Reference)
        Gpu.Title = "▶ Run on GPU beside its CUDA reference";
      Out.push_back(std::move(Gpu));
    }
    // Several configs to choose from: time them all (tessel tune, over the tessel.runners setting).
    if (J->HasAutotune && J->Configs.size() > 1)
      Out.push_back({R, "⏱ Tune " + std::to_string(J->Configs.size()) + " configs", std::nullopt, Name, false,
                     /*Tunes=*/true});
    // A kernel with front-end errors is not compiled (as the tier's report
    // says, diag::jitCheckFile): its lenses say so where figures would be.
    const std::string None =
        Compiled.count(J) ? noFigures(Opts) : "figures unavailable: the kernel has errors; fix them first";

    if (J->HasAutotune && J->ConfigsUnknown) {
      // The tier still compiles the launch it planned (values assumed where
      // the configs would give them): its figures, with the reason.
      std::optional<std::string> Fig = figures(Opts, Name, std::nullopt);
      if (!Fig)
        Fig = figures(Opts, Name, 0);
      Out.push_back({R, "autotune configs could not be evaluated · " + Fig.value_or(None), std::nullopt, Name});
      continue;
    }
    if (J->HasAutotune) {
      auto LensRange = [&](const AutotuneConfig &C) {
        std::optional<SourceRange> Callee = configCallee(F, C.Range);
        return Callee && CallUses[{C.Range.Begin, C.Range.End}] == 1 ? *Callee : R;
      };
      std::string Summary = std::to_string(J->Configs.size()) + " config" + (J->Configs.size() == 1 ? "" : "s");
      auto ConfigText = [&](size_t I) {
        const PyConfig &C = J->Configs[I].Config;
        std::string T = "#" + std::to_string(I) + " ";
        std::string K = kwargsText(C.Kwargs);
        T += K.empty() ? "" : K + " · ";
        T += "num_warps=" + std::to_string(C.NumWarps) + " · num_stages=" + std::to_string(C.NumStages);
        if (std::optional<std::string> Fig = figures(Opts, Name, I); Fig && *Fig != Compiling)
          T += " · " + *Fig;
        return T;
      };
      // A config with a Config(...) call of its own gets its lens there; the
      // others (a loop or comprehension builds them) would all sit on the
      // kernel's line, which an editor draws as one line of every config:
      // that line shows the first of them, and how many more the kernel's
      // hover lists.
      std::vector<size_t> Shared;
      std::vector<CodeLensInfo> OwnLines;
      for (size_t I = 0; I < J->Configs.size(); ++I) {
        SourceRange At = LensRange(J->Configs[I]);
        if (At == R)
          Shared.push_back(I);
        else
          OwnLines.push_back({At, ConfigText(I), std::nullopt, Name});
      }
      std::optional<std::string> First = J->Configs.empty() ? std::nullopt : figures(Opts, Name, 0);
      bool FirstShared = !Shared.empty() && Shared.front() == 0;
      std::string What;
      if (!FirstShared)
        What = !First ? None : *First == Compiling ? *First : "#0: " + *First;
      else // config #0 itself, with its figures (ConfigText adds them) or why there are none
        What = ConfigText(0) + (!First ? " · " + None : *First == Compiling ? " · " + *First : std::string());
      // Config #0 over the block's shared memory: the autotuner times the
      // others, so the line shows the first of those too.
      if (std::optional<size_t> Kept = firstKeptConfig(Opts, Name))
        What += " (skipped by @triton.autotune) · " + ConfigText(*Kept);
      Out.push_back({R, Summary + " · " + What, std::nullopt, Name});
      size_t More = Shared.size() - (FirstShared ? 1 : 0);
      if (More > 0)
        Out.push_back({R, "+" + std::to_string(More) + " config" + (More == 1 ? "" : "s") + ": show the table",
                       std::nullopt, Name, /*ShowsConfigs=*/true});
      for (CodeLensInfo &L : OwnLines)
        Out.push_back(std::move(L));
      continue;
    }
    // No autotune: the launch sites give the specializations.
    // The tier compiles the first planned launch: its figures go on the
    // first line.
    std::optional<std::string> Fig = figures(Opts, Name, std::nullopt);
    if (J->Launches.empty()) {
      Out.push_back({R, "num_warps=4 · num_stages=3 (defaults; no launch site in this file) · " + Fig.value_or(None),
                     std::nullopt, Name});
      continue;
    }
    // The first launch (the one the tier compiles) with its figures; the
    // others, on the same line of the editor, only counted.
    const LaunchSite &L = J->Launches.front();
    std::string T = "launch at line " + std::to_string(F.Parsed->text().lineCol(L.Range.Begin).Line + 1) + ": ";
    std::string K;
    bool Warps = false, Stages = false;
    size_t Shown = 0, Unknown = 0, Hidden = 0;
    for (const auto &[Key, Value] : L.Keywords) {
      Warps |= Key == "num_warps";
      Stages |= Key == "num_stages";
      if (!Value.isKnown())
        ++Unknown;
      else if (Shown == 6)
        ++Hidden;
      else {
        K += (K.empty() ? "" : ", ") + Key + "=" + Value.repr();
        ++Shown;
      }
    }
    if (!Warps)
      K += std::string(K.empty() ? "" : ", ") + "num_warps=4";
    if (!Stages)
      K += ", num_stages=3";
    if (Hidden)
      K += " +" + std::to_string(Hidden) + " more";
    if (Unknown)
      K += " (+" + std::to_string(Unknown) + " keyword" + (Unknown == 1 ? "" : "s") + " known at run time)";
    Out.push_back({R, T + K + " · " + Fig.value_or(None), std::nullopt, Name});
    if (J->Launches.size() > 1) {
      size_t More = J->Launches.size() - 1;
      Out.push_back(
          {R, "+" + std::to_string(More) + " launch site" + (More == 1 ? "" : "s") + ": hover `" + Name + "` for each",
           std::nullopt, Name});
    }
  }
  return Out;
}

std::string configTable(const AnalyzedFile &F, const CodeLensOptions &Opts, const std::string &Kernel) {
  if (!F.Report.Analysis)
    return "";
  const JitFunction *J = F.Report.Analysis->Info.jit(Kernel);
  if (!J || !J->Def || !J->HasAutotune || J->ConfigsUnknown || J->Configs.empty())
    return "";
  auto Cell = [](std::string S) {
    std::string Out;
    for (char C : S)
      Out += C == '|' ? std::string("\\|") : std::string(1, C);
    return Out;
  };
  auto It = Opts.Jit.find(Kernel);
  std::string T = "### `" + Kernel + "`: " + std::to_string(J->Configs.size()) + " autotune config" +
                  (J->Configs.size() == 1 ? "" : "s") + "\n\n| # | config | num_warps | num_stages | figures |\n" +
                  "|---:|:---|---:|---:|:---|\n";
  for (size_t I = 0; I < J->Configs.size(); ++I) {
    const PyConfig &C = J->Configs[I].Config;
    std::string Fig;
    if (std::optional<std::string> Known = figures(Opts, Kernel, I))
      Fig = *Known;
    else
      Fig = noFigures(Opts);
    if (It != Opts.Jit.end())
      for (const JitFigures &G : It->second.Configs)
        if (G.Config == I && overSharedLimit(G.Summary))
          Fig += " (skipped by @triton.autotune)";
    std::string K = kwargsText(C.Kwargs);
    T += "| " + std::to_string(I) + " | " + Cell(K.empty() ? "-" : K) + " | " + std::to_string(C.NumWarps) + " | " +
         std::to_string(C.NumStages) + " | " + Cell(Fig) + " |\n";
  }
  return T;
}

} // namespace tessel::lsp
