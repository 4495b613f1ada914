//===- Tune.cpp - every autotune config under every launch instance -------===//
#include "tools/Tune.h"

#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"
#include "diagnostics/JitCheck.h"
#include "runners/Failure.h"
#include "tools/CommandLine.h"

#include <nlohmann/json.hpp>

#include <set>

namespace tessel::tools {

using nlohmann::json;

bool planTune(const ParsedFile &File, const std::string &Path, const std::string &Kernel,
              const std::optional<std::string> &Spec, TunePlan &Plan, std::string &Error) {
  Plan.Path = Path;
  Plan.Kernel = Kernel;
  ProblemSink Sink;
  ModuleInfo Info = processProject().discoverFile(File, Sink);
  const JitFunction *Fn = Info.jit(Kernel);
  if (!Fn) {
    Error = "no @triton.jit function named '" + Kernel + "'";
    return false;
  }
  if (Fn->ConfigsUnknown) {
    Error = Kernel + "'s @triton.autotune configs could not be evaluated, so there is nothing tessel can tune";
    return false;
  }
  if (Fn->Configs.empty()) {
    Error = Kernel + " has no @triton.autotune configs: nothing to tune";
    return false;
  }
  for (const AutotuneConfig &C : Fn->Configs)
    Plan.Configs.push_back(diag::describeConfig(C.Config));
  Plan.Key = Fn->AutotuneKey;
  sema::LaunchPlanOptions PlanOpts;
  PlanOpts.SpecText = Spec;
  sema::AnalyzeOptions Lowering;
  Lowering.Project = &processProject();
  PlanOpts.Settle = &Lowering;
  sema::LaunchPlan LP = sema::planLaunch(File, Info, Kernel, PlanOpts);
  if (!LP.Error.empty()) {
    Error = LP.Error;
    return false;
  }
  if (LP.Launches.empty()) {
    Error = "the launch of " + Kernel + " has no instance to run";
    return false;
  }
  for (const sema::PlannedLaunch &L : LP.Launches)
    Plan.Labels.push_back(L.Launch.Label);
  return true;
}

std::vector<runners::Task> tuneTasks(const TunePlan &Plan, const TuneTaskOptions &Opts) {
  std::vector<runners::Task> Tasks;
  for (size_t C = 0; C < Plan.Configs.size(); ++C)
    for (size_t I = 0; I < Plan.Labels.size(); ++I) {
      runners::Task T;
      T.Id = Tasks.size();
      T.File = Plan.Path;
      T.Text = Opts.Text;
      T.Kernel = Plan.Kernel;
      T.Gpu = Opts.Gpu;
      T.Seed = Opts.Seed;
      T.Config = C;
      T.Instance = I;
      T.Iters = Opts.Gpu ? Opts.Iters : 0;
      T.Spec = Opts.Spec;
      T.Json = true;
      T.Reference = Opts.Reference;
      Tasks.push_back(std::move(T));
    }
  return Tasks;
}

/// The message of the first diagnostic of an error in the run's report.
static std::string firstError(const json &Report) {
  for (const char *Where : {"diagnostics", "specDiagnostics"})
    if (Report.contains(Where) && Report[Where].is_array())
      for (const json &D : Report[Where])
        if (D.value("severity", 0) == 1 && D.contains("message") && D["message"].is_string())
          return D["message"].get<std::string>();
  if (Report.contains("instances") && Report["instances"].is_array())
    for (const json &I : Report["instances"])
      if (I.contains("diagnostics") && I["diagnostics"].is_array())
        for (const json &D : I["diagnostics"])
          if (D.value("severity", 0) == 1 && D.contains("message") && D["message"].is_string())
            return D["message"].get<std::string>();
  return "";
}

static TuneCell cellOf(const runners::Result &R, bool Gpu) {
  TuneCell Cell;
  Cell.Done = true;
  Cell.RunMillis = R.Millis;
  json J = json::parse(R.Stdout, nullptr, false);
  if (R.Signal || J.is_discarded() || !J.is_object()) {
    std::string Why = runners::lastMeaningfulLine(R.Stderr);
    Cell.Error = R.Signal
                     ? "the run was killed by signal " + std::to_string(R.Signal)
                     : (Why.empty() ? "the run printed no report (exit status " + std::to_string(R.Exit) + ")" : Why);
    return Cell;
  }
  const json *Inst = nullptr;
  if (J.contains("instances") && J["instances"].is_array() && J["instances"].size() == 1)
    Inst = &J["instances"][0];
  if (!Inst) {
    Cell.Error = J.contains("notRun") && J["notRun"].is_string() ? J["notRun"].get<std::string>() : "no instance ran";
    return Cell;
  }
  if (Inst->contains("error") && (*Inst)["error"].is_string()) {
    Cell.Error = (*Inst)["error"].get<std::string>();
    return Cell;
  }
  if (J.value("errors", 0) != 0) {
    std::string E = firstError(J);
    Cell.Error = E.empty() ? "the run reported errors" : E;
    return Cell;
  }
  if (!Gpu) {
    Cell.Cost = static_cast<double>(Inst->value("steps", uint64_t(0)));
    Cell.Ok = Inst->value("ran", false);
    if (!Cell.Ok)
      Cell.Error = "the interpreter did not finish the run";
    return Cell;
  }
  const json *G = Inst->contains("gpu") ? &(*Inst)["gpu"] : nullptr;
  if (!G || !G->value("ran", false)) {
    Cell.Error = G && G->contains("error") && (*G)["error"].is_string() ? (*G)["error"].get<std::string>()
                                                                        : "it did not run on the GPU";
    return Cell;
  }
  if (!G->contains("time") || !(*G)["time"].is_object()) {
    Cell.Error = "it was not timed";
    return Cell;
  }
  Cell.Cost = (*G)["time"].value("medianMillis", 0.0);
  Cell.Ok = true;
  return Cell;
}

TuneResult gatherTune(const TunePlan &Plan, const TuneTaskOptions &Opts,
                      const std::vector<std::optional<runners::Result>> &Results) {
  TuneResult R;
  R.Plan = Plan;
  R.Gpu = Opts.Gpu;
  R.Reference = Opts.Reference;
  R.Seed = Opts.Seed;
  R.Iters = Opts.Gpu ? Opts.Iters : 0;
  size_t N = Plan.Labels.size();
  R.Cells.assign(Plan.Configs.size(), std::vector<TuneCell>(N));
  for (size_t C = 0; C < Plan.Configs.size(); ++C)
    for (size_t I = 0; I < N; ++I) {
      const std::optional<runners::Result> &Res = Results[C * N + I];
      if (!Res) {
        ++R.Missing;
        continue;
      }
      R.Cells[C][I] = cellOf(*Res, Opts.Gpu);
    }
  // The instance index makes each label unique (two instances may share one).
  std::vector<ConfigCost> Costs;
  for (size_t I = 0; I < N; ++I) {
    bool Complete = true;
    for (size_t C = 0; C < Plan.Configs.size(); ++C)
      Complete &= R.Cells[C][I].Done;
    if (!Complete)
      continue; // a best among the configs that came back would be a guess
    for (size_t C = 0; C < Plan.Configs.size(); ++C)
      if (R.Cells[C][I].Ok)
        Costs.push_back(ConfigCost{std::to_string(I), C, Plan.Configs[C], R.Cells[C][I].Cost});
  }
  R.Best = fastestPerLabel(Costs);
  return R;
}

std::vector<size_t> TuneResult::keep() const {
  std::set<size_t> Set;
  for (const FastestConfig &F : Best)
    Set.insert(F.Config);
  return std::vector<size_t>(Set.begin(), Set.end());
}

static std::string labelText(const std::string &L) { return L.empty() ? "the launch" : L; }

static std::string costText(double Cost, bool Gpu) {
  if (Gpu)
    return formatNumber(Cost) + " ms";
  return std::to_string(static_cast<uint64_t>(Cost)) + " ops";
}

static const FastestConfig *bestOf(const TuneResult &R, size_t Instance) {
  for (const FastestConfig &F : R.Best)
    if (F.Label == std::to_string(Instance))
      return &F;
  return nullptr;
}

void renderTuneText(std::ostream &OS, const TuneResult &R) {
  const TunePlan &P = R.Plan;
  size_t Runs = P.Configs.size() * P.Labels.size();
  OS << "tune " << P.Kernel << " in " << P.Path << ": " << P.Configs.size() << " configs x " << P.Labels.size()
     << (P.Labels.size() == 1 ? " instance" : " instances") << " on " << (R.Gpu ? "the GPU" : "the CPU interpreter")
     << " (seed " << R.Seed << ")\n";
  if (!P.Key.empty()) {
    OS << "key:";
    for (const std::string &K : P.Key)
      OS << ' ' << K;
    OS << '\n';
  }
  OS << (R.Gpu ? "cost: median time of " + std::to_string(R.Iters) + " timed runs, outputs " +
                     (R.Reference ? "checked against the interpreter" : "unchecked (--no-reference)")
               : std::string("cost: ops the interpreter executed (the same on every machine)"))
     << '\n';
  if (R.Missing)
    OS << "INCOMPLETE: " << R.Missing << " of " << Runs
       << " runs have no result (a runner failed); shapes they leave open get no best config\n";
  for (size_t I = 0; I < P.Labels.size(); ++I) {
    OS << '\n' << "instance " << I << " (" << labelText(P.Labels[I]) << "):\n";
    for (size_t C = 0; C < P.Configs.size(); ++C) {
      const TuneCell &Cell = R.Cells[C][I];
      OS << "  config " << C << " (" << P.Configs[C] << "): ";
      if (!Cell.Done)
        OS << "no result\n";
      else if (!Cell.Ok)
        OS << "failed: " << Cell.Error << '\n';
      else
        OS << costText(Cell.Cost, R.Gpu) << '\n';
    }
    if (const FastestConfig *F = bestOf(R, I))
      OS << "  best: config " << F->Config << " (" << F->ConfigText << ")\n";
    else
      OS << "  best: none (" << (R.Missing ? "runs missing" : "no config ran correctly") << ")\n";
  }
  std::vector<size_t> Keep = R.keep();
  OS << '\n'
     << (R.Missing ? "so far, " : "") << Keep.size() << " of " << P.Configs.size()
     << " configs are best for some instance:";
  for (size_t K : Keep)
    OS << ' ' << K;
  OS << '\n';
}

void renderTuneJson(std::ostream &OS, const TuneResult &R) {
  const TunePlan &P = R.Plan;
  json J;
  J["file"] = P.Path;
  J["kernel"] = P.Kernel;
  J["device"] = R.Gpu ? "gpu" : "cpu";
  J["cost"] = R.Gpu ? "medianMillis" : "ops";
  J["seed"] = R.Seed;
  J["key"] = P.Key;
  J["configs"] = P.Configs;
  J["instances"] = P.Labels;
  J["complete"] = R.Missing == 0;
  J["missing"] = R.Missing;
  J["cells"] = json::array();
  for (size_t C = 0; C < P.Configs.size(); ++C) {
    json Row = json::array();
    for (const TuneCell &Cell : R.Cells[C]) {
      json X;
      X["done"] = Cell.Done;
      X["ok"] = Cell.Ok;
      X["cost"] = Cell.Ok ? json(Cell.Cost) : json(nullptr);
      X["error"] = Cell.Error.empty() ? json(nullptr) : json(Cell.Error);
      Row.push_back(std::move(X));
    }
    J["cells"].push_back(std::move(Row));
  }
  J["best"] = json::array();
  for (size_t I = 0; I < P.Labels.size(); ++I) {
    const FastestConfig *F = bestOf(R, I);
    J["best"].push_back(F ? json{{"instance", I},
                                 {"label", P.Labels[I]},
                                 {"config", F->Config},
                                 {"configText", F->ConfigText},
                                 {"cost", F->MedianMs}}
                          : json(nullptr));
  }
  J["keep"] = R.keep();
  OS << J.dump(2) << '\n';
}

} // namespace tessel::tools
