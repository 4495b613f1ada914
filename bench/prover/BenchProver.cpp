//===- BenchProver.cpp - time per kernel and verdicts of the bounds prover -===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// For the figures of bench/RESULTS.md ("issue 13: bounds prover"): runs
/// analysis::proveKernel on every kernel of the given files, one kernel at a
/// time on one thread, and prints the CPU time per kernel (mean, p50, p99,
/// max; the thread's CPU clock, so that a loaded machine does not inflate it)
/// and how many accesses were proven, refuted and left undecided, with one
/// line per refutation (file:line, kernel, counterexample) to review by
/// hand. Kernels that do not lower (for example whose helpers come from
/// another module) are counted as not analysed.
///
/// --guess-block-sizes turns on ProverOptions::GuessBlockSizes (the corpus
/// study: a library's block sizes are set by host wrappers that no code in
/// the file runs). Each file is analysed as `tessel check` does, in one
/// project (compiler/project: helpers imported from other modules are
/// inlined, kernels are told from helpers across files); --no-project
/// reads each file alone. --causes prints why kernels were not analysed,
/// by reason (names elided). --isolated proves each kernel in a forked child
/// as the language server does (analysis/IsolatedProof.h): the per-kernel
/// time is then the prover's own as the child measured it, and the wall time
/// per kernel (fork, proof, verdicts back) is summarised beside it, so that
/// the isolation's cost is the difference between two runs' wall times.
///
///   bench_prover [--quiet] [--guess-block-sizes] [--no-project] [--causes] [--isolated] [--tsv OUT] FILE.py...
//===----------------------------------------------------------------------===//
#include "compiler/analysis/BoundsProver.h"
#include "compiler/analysis/IsolatedProof.h"
#include "compiler/project/Project.h"
#include "compiler/sema/Analysis.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace tessel;

static double threadCpuMs() {
  timespec T{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return static_cast<double>(T.tv_sec) * 1e3 + static_cast<double>(T.tv_nsec) / 1e6;
}

int main(int Argc, char **Argv) {
  std::vector<std::string> Files;
  bool Quiet = false, UseProject = true, Causes = false, Isolated = false;
  analysis::ProverOptions Opts;
  std::string TsvPath;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--quiet")
      Quiet = true;
    else if (A == "--guess-block-sizes")
      Opts.GuessBlockSizes = true;
    else if (A == "--no-project")
      UseProject = false;
    else if (A == "--causes")
      Causes = true;
    else if (A == "--isolated")
      Isolated = true;
    else if (A == "--tsv" && I + 1 < Argc)
      TsvPath = Argv[++I];
    else
      Files.push_back(A);
  }
  if (Files.empty()) {
    std::cerr
        << "usage: bench_prover [--quiet] [--guess-block-sizes] [--no-project] [--causes] [--isolated] [--tsv OUT] "
           "FILE.py...\n";
    return 2;
  }
  std::ofstream Tsv;
  if (!TsvPath.empty())
    Tsv.open(TsvPath);
  project::Project Proj;
  if (UseProject)
    Opts.Project = &Proj;
  std::map<std::string, size_t> Reasons;
  std::vector<double> Times, Walls;
  size_t Proven = 0, Refuted = 0, Undecided = 0, Kernels = 0, NotAnalysed = 0, TimedOut = 0, FromSpec = 0,
         FromWrapper = 0;
  for (const std::string &Path : Files) {
    std::ifstream In(Path, std::ios::binary);
    if (!In) {
      std::cerr << "cannot read " << Path << "\n";
      continue;
    }
    std::stringstream SS;
    SS << In.rdbuf();
    std::shared_ptr<const ParsedFile> File = ParsedFile::parse(std::make_shared<SourceText>(SS.str(), Path));
    ModuleInfo Info;
    if (UseProject) {
      // As `tessel check` sees the file: a @jit function that another file's
      // @jit code calls is a helper there, not a kernel.
      sema::AnalyzeOptions AO;
      AO.Project = &Proj;
      AO.RecordValueFacts = false;
      Info = sema::analyzeFile(File, AO)->Info;
    } else {
      ProblemSink Sink;
      Info = discover(File->module(), Sink);
    }
    for (const std::string &Name : Info.Order) {
      const JitFunction &J = Info.Jit.at(Name);
      if (!J.IsKernel || !J.Def)
        continue;
      ++Kernels;
      auto Start = std::chrono::steady_clock::now();
      double CpuStart = threadCpuMs();
      analysis::KernelBounds K = Isolated ? analysis::proveKernelIsolated(*File, Info, Name, Opts, {})
                                          : analysis::proveKernel(*File, Info, Name, Opts);
      double Ms = Isolated ? K.Milliseconds : threadCpuMs() - CpuStart;
      double WallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start).count();
      Walls.push_back(WallMs);
      if (!K.Analysed) {
        ++NotAnalysed;
        std::string Why;
        for (size_t C = 0, Quote = 0; C < K.Reason.size(); ++C) {
          char Ch = K.Reason[C];
          if (Ch == '\'' || Ch == '`') {
            Why += (Quote++ % 2) ? "" : "_";
            continue;
          }
          if (Quote % 2 == 0)
            Why += Ch;
        }
        ++Reasons[Why.substr(0, 90)];
        if (Tsv)
          Tsv << Path << "\t" << Name << "\tnot-analysed\t\t" << K.Reason << "\n";
        continue;
      }
      Times.push_back(Ms);
      TimedOut += K.TimedOut;
      FromSpec += K.FromSpec;
      FromWrapper += K.FromWrapper;
      for (const analysis::AccessBounds &A : K.Accesses) {
        LineCol LC = File->text().lineCol(A.Range.Begin);
        std::string Where = Path + ":" + std::to_string(LC.Line + 1);
        const char *V = "undecided";
        if (A.Verdict == analysis::BoundsVerdict::Proven) {
          ++Proven;
          V = "proven";
        } else if (A.Verdict == analysis::BoundsVerdict::Refuted) {
          ++Refuted;
          V = "refuted";
          if (!Quiet)
            std::cout << "refuted " << Where << " " << Name << ": " << A.Example.Text << "\n";
        } else {
          ++Undecided;
        }
        if (Tsv)
          Tsv << Where << "\t" << Name << "\t" << V << "\t" << A.Op << "\t"
              << (A.Verdict == analysis::BoundsVerdict::Refuted ? A.Example.Text : A.Reason) << "\n";
      }
      if (!Quiet)
        std::printf("%8.2f ms CPU %8.2f ms wall  %s %s (%zu accesses%s)\n", Ms, WallMs, Path.c_str(), Name.c_str(),
                    K.Accesses.size(), K.TimedOut ? ", out of limits" : "");
    }
  }
  std::vector<double> Sorted = Times;
  std::sort(Sorted.begin(), Sorted.end());
  std::sort(Walls.begin(), Walls.end());
  auto PctOf = [](const std::vector<double> &V, double P) {
    if (V.empty())
      return 0.0;
    size_t I = static_cast<size_t>(P * static_cast<double>(V.size() - 1) + 0.5);
    return V[std::min(I, V.size() - 1)];
  };
  auto Pct = [&](double P) { return PctOf(Sorted, P); };
  double Sum = 0;
  for (double T : Times)
    Sum += T;
  std::printf("kernels %zu (analysed %zu, not analysed %zu, with a launch spec %zu, from an uncalled host wrapper %zu, "
              "out of limits %zu)\n",
              Kernels, Times.size(), NotAnalysed, FromSpec, FromWrapper, TimedOut);
  std::printf("CPU ms per analysed kernel: mean %.2f  p50 %.2f  p99 %.2f  max %.2f\n",
              Times.empty() ? 0.0 : Sum / static_cast<double>(Times.size()), Pct(0.5), Pct(0.99), Pct(1.0));
  double WallSum = 0;
  for (double T : Walls)
    WallSum += T;
  std::printf("wall ms per kernel%s: mean %.2f  p50 %.2f  p99 %.2f  max %.2f\n", Isolated ? " (in a child)" : "",
              Walls.empty() ? 0.0 : WallSum / static_cast<double>(Walls.size()), PctOf(Walls, 0.5), PctOf(Walls, 0.99),
              PctOf(Walls, 1.0));
  std::printf("accesses: proven %zu, refuted %zu, undecided %zu\n", Proven, Refuted, Undecided);
  if (Causes) {
    std::vector<std::pair<size_t, std::string>> ByCount;
    for (const auto &[Why, N] : Reasons)
      ByCount.push_back({N, Why});
    std::sort(ByCount.rbegin(), ByCount.rend());
    for (const auto &[N, Why] : ByCount)
      std::printf("not analysed %5zu  %s\n", N, Why.c_str());
  }
  return 0;
}
