//===- Tune.h - every autotune config under every launch instance -*- C++ -*-===//
/// \file
/// What `tessel tune` computes, apart from where it runs: the plan (the
/// kernel's autotune configs and its launch's instances, the key's shapes),
/// one task per config × instance (a `tessel run --config C --instance I`),
/// the cells the tasks' JSON reports fill, and per instance the config
/// triton.autotune would keep (RunReport's fastestPerLabel: least cost among
/// the configs that ran correctly, the earlier on a tie).
///
/// The cost is the GPU's median time with --gpu. On the CPU interpreter it
/// is the ops the run executed: the interpreter's wall time says little of
/// a GPU, and the op count is the same on every machine, so a tune over
/// ssh or Slurm gives exactly the local tune's answer.
///
/// A tune with a task no worker ran is incomplete: it says so first, and a
/// shape with a missing cell gets no best config.
//===----------------------------------------------------------------------===//
#ifndef TESSEL_TOOLS_TUNE_H
#define TESSEL_TOOLS_TUNE_H

#include "compiler/frontend/Parser.h"
#include "runners/Protocol.h"
#include "tools/RunReport.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tessel::tools {

struct TunePlan {
  std::string Path, Kernel;
  std::vector<std::string> Configs; ///< each config's text: "BLOCK=64, num_warps=4, num_stages=3"
  std::vector<std::string> Labels;  ///< each instance's label ("M=512, N=512"; "" for a single launch)
  std::vector<std::string> Key;     ///< the autotune key's names
};

/// False, with Error, when Kernel is not an autotuned kernel of File or its
/// launch cannot be planned.
bool planTune(const ParsedFile &File, const std::string &Path, const std::string &Kernel,
              const std::optional<std::string> &Spec, TunePlan &Plan, std::string &Error);

struct TuneTaskOptions {
  std::string Text; ///< the file's text (or the editor's buffer)
  bool Gpu = false;
  uint64_t Seed = 0, Iters = 0;
  std::optional<std::string> Spec;
  bool Reference = true; ///< false: --no-reference (GPU runs unchecked)
};

/// Task C * instances + I runs config C under instance I.
std::vector<runners::Task> tuneTasks(const TunePlan &Plan, const TuneTaskOptions &Opts);

struct TuneCell {
  bool Done = false;    ///< a result came back
  bool Ok = false;      ///< it ran correctly (and was timed, on the GPU)
  std::string Error;    ///< why not Ok
  double Cost = 0;      ///< ms (GPU) or ops (CPU)
  double RunMillis = 0; ///< the task's wall time on its worker
};

struct TuneResult {
  TunePlan Plan;
  bool Gpu = false;
  bool Reference = true; ///< GPU outputs checked against the interpreter
  uint64_t Seed = 0, Iters = 0;
  std::vector<std::vector<TuneCell>> Cells; ///< [config][instance]
  std::vector<FastestConfig> Best;          ///< per complete instance
  size_t Missing = 0;                       ///< cells without a result

  /// The configs best for at least one instance, in the list's order.
  std::vector<size_t> keep() const;
};

/// The cells from the dispatch's results (Results[i] answers tuneTasks' task i).
TuneResult gatherTune(const TunePlan &Plan, const TuneTaskOptions &Opts,
                      const std::vector<std::optional<runners::Result>> &Results);

void renderTuneText(std::ostream &OS, const TuneResult &R);
void renderTuneJson(std::ostream &OS, const TuneResult &R);

} // namespace tessel::tools

#endif // TESSEL_TOOLS_TUNE_H
