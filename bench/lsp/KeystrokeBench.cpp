//===- KeystrokeBench.cpp - the phases of one keystroke, in process -------===//
/// \file
/// Where the language server's time per keystroke goes, without the pipe and
/// the threads of bench_lsp_replay: one character typed into a kernel in the
/// middle of the 50-kernel file (the replay's edit), then each phase of the
/// server's front-end tier on the edited version: applying the edit to the
/// document, the incremental reparse (and how the two versions differ, from
/// the edits and by comparing the texts; the launch directives as a scan of
/// the whole text found them), the check from scratch and the check
/// that reuses the previous version's analysis, and the conversion of the
/// findings to a publishDiagnostics message; then all of it in sequence.
///
///   bench_lsp_keystroke [--benchmark_repetitions=5]
///
/// TESSEL_BENCH_INPUT=FILE measures another file instead (the editor's
/// large-file case: `bench/gen_kernels.py big.py --kernels=13000 --small`);
/// TESSEL_BENCH_AT=F types past that fraction of it instead of the middle
/// (near 1, almost nothing below the edit moves: the cost that does not
/// come from shifting).
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Discovery.h"
#include "compiler/host/HostLaunches.h"
#include "compiler/frontend/LaunchSpec.h"
#include "compiler/frontend/Parser.h"
#include "compiler/sema/KernelReuse.h"
#include "compiler/sema/Specializations.h"
#include "diagnostics/Check.h"
#include "lsp/ToProtocol.h"
#include "lsp/Workspace.h"

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

using namespace tessel;

namespace {

/// The document before and after one keystroke, and the server's state
/// before it (the previous parse and analysis).
struct Keystroke {
  lsp::Workspace W;
  lsp::DocumentUpdate Open, Typed;
  lsp::DocumentEdit Edit;
  std::shared_ptr<const ParsedFile> OldParse, NewParse, FreshParse;
  diag::FileReport OldReport;

  Keystroke() {
    const char *Path = std::getenv("TESSEL_BENCH_INPUT");
    if (!Path || !*Path)
      Path = TESSEL_BENCH_FILE;
    std::ifstream In(Path, std::ios::binary);
    if (!In) {
      std::cerr << "bench_lsp_keystroke: cannot read " << Path << "\n";
      std::exit(2);
    }
    std::stringstream SS;
    SS << In.rdbuf();
    std::string Text = SS.str();
    // As bench_lsp_replay: the line after the first `tl.arange(0, BLOCK)` in
    // the second half of the file, inside a kernel.
    // TESSEL_BENCH_AT=F (0 to 1) starts the search at that fraction of the
    // text instead: near 1, nothing below the edit moves.
    double From = 0.5;
    if (const char *F = std::getenv("TESSEL_BENCH_AT"))
      From = std::atof(F);
    size_t At = Text.find("tl.arange(0, BLOCK)", static_cast<size_t>(From * static_cast<double>(Text.size())));
    uint32_t Line = static_cast<uint32_t>(std::count(Text.begin(), Text.begin() + At, '\n')) + 1;
    Open = W.open("file:///bench.py", 1, Text);
    Edit = {lsp::DocumentEdit::PositionRange{{Line, 4}, {Line, 4}}, "t"};
    std::string Error;
    Typed = *W.change("file:///bench.py", 2, {Edit}, Error);
    OldParse = ParsedFile::parse(Open.Snapshot.Text);
    OldReport = diag::checkFile(OldParse);
    NewParse = ParsedFile::reparse(*OldParse, Typed.Edits, Typed.Snapshot.Text);
    FreshParse = ParsedFile::parse(Typed.Snapshot.Text);
  }
};

Keystroke &keystroke() {
  static Keystroke K;
  return K;
}

void applyEdit(benchmark::State &State) {
  Keystroke &K = keystroke();
  for (auto _ : State) {
    lsp::Workspace W;
    State.PauseTiming();
    W.open("file:///bench.py", 1, K.Open.Snapshot.Text->text());
    State.ResumeTiming();
    std::string Error;
    auto U = W.change("file:///bench.py", 2, {K.Edit}, Error);
    benchmark::DoNotOptimize(U->Snapshot.Text.get());
  }
}

void reparse(benchmark::State &State) {
  Keystroke &K = keystroke();
  for (auto _ : State) {
    auto P = ParsedFile::reparse(*K.OldParse, K.Typed.Edits, K.Typed.Snapshot.Text);
    benchmark::DoNotOptimize(P.get());
  }
}

/// Part of the reusing check: the pieces that changed, from the edits the
/// reparse recorded (the server's case).
void diffFromEdits(benchmark::State &State) {
  Keystroke &K = keystroke();
  for (auto _ : State)
    benchmark::DoNotOptimize(ParsedFile::diff(*K.OldParse, *K.NewParse).Leading);
}

/// The same between versions parsed apart: the texts are compared (what
/// every keystroke did before the reparse recorded its edits).
void diffComparingTexts(benchmark::State &State) {
  Keystroke &K = keystroke();
  for (auto _ : State)
    benchmark::DoNotOptimize(ParsedFile::diff(*K.OldParse, *K.FreshParse).Leading);
}

/// One scan of the whole text for `# tessel: launch` directives, which the
/// check and the prover's cache made several times per keystroke before the
/// parsed file kept them per piece.
void directiveScan(benchmark::State &State) {
  Keystroke &K = keystroke();
  for (auto _ : State)
    benchmark::DoNotOptimize(launch::findLaunchDirectives(K.NewParse->text().text()).size());
}

/// Part of either check: finding the kernels, configs and launch sites.
void discoverModule(benchmark::State &State) {
  Keystroke &K = keystroke();
  for (auto _ : State) {
    ProblemSink Sink;
    ModuleInfo Info = discover(K.NewParse->module(), Sink);
    benchmark::DoNotOptimize(Info.Jit.size());
  }
}

/// Part of either check: running the module-level host code for the
/// launches it makes (issue 14: the same on every keystroke while the host
/// code is unchanged).
void hostLaunches(benchmark::State &State) {
  Keystroke &K = keystroke();
  ProblemSink Sink;
  ModuleInfo Info = discover(K.NewParse->module(), Sink);
  for (auto _ : State) {
    auto L = firstHostLaunches(*K.NewParse, Info);
    benchmark::DoNotOptimize(L.size());
  }
}

/// Part of the reusing check: every kernel's reuse key (the names its text
/// may resolve, its specializations).
void kernelInputsAll(benchmark::State &State) {
  Keystroke &K = keystroke();
  ProblemSink Sink;
  ModuleInfo Info = discover(K.NewParse->module(), Sink);
  sema::AnalyzeOptions Opts;
  for (auto _ : State) {
    sema::ModuleNames Names(*K.NewParse, Info);
    size_t Bytes = 0;
    for (const std::string &Name : Info.Order) {
      const JitFunction &Fn = Info.Jit.at(Name);
      if (!Fn.Def)
        continue;
      std::vector<sema::Specialization> Specs = sema::specializationsOf(Fn, Opts.MaxSpecializations);
      Bytes += sema::kernelInputs(Names, *K.NewParse, Fn, Specs, Opts).Facts.str().size();
    }
    benchmark::DoNotOptimize(Bytes);
  }
}

void checkFromScratch(benchmark::State &State) {
  Keystroke &K = keystroke();
  for (auto _ : State) {
    diag::FileReport R = diag::checkFile(K.NewParse);
    benchmark::DoNotOptimize(R.Findings.data());
  }
}

void checkReusingPrevious(benchmark::State &State) {
  Keystroke &K = keystroke();
  size_t Reused = 0;
  for (auto _ : State) {
    diag::FileReport R = diag::checkFile(K.NewParse, {}, K.OldReport.Analysis.get());
    Reused = R.Analysis->ReusedKernels;
    benchmark::DoNotOptimize(R.Findings.data());
  }
  State.counters["reused_kernels"] = static_cast<double>(Reused);
}

void publishMessage(benchmark::State &State) {
  Keystroke &K = keystroke();
  diag::FileReport R = diag::checkFile(K.NewParse, {}, K.OldReport.Analysis.get());
  for (auto _ : State) {
    nlohmann::json Diags = nlohmann::json::array();
    for (const diag::Finding &F : R.Findings)
      Diags.push_back(lsp::toProtocol(F, *K.Typed.Snapshot.Index, K.Typed.Snapshot.Uri, lsp::PositionEncoding::UTF16));
    std::string Body =
        nlohmann::json{{"uri", K.Typed.Snapshot.Uri}, {"version", 2}, {"diagnostics", std::move(Diags)}}.dump();
    benchmark::DoNotOptimize(Body.data());
  }
  State.counters["findings"] = static_cast<double>(R.Findings.size());
}

/// Everything above in sequence, as the server does per keystroke, with the
/// previous version freed at the end as the scheduler frees it.
void wholeKeystroke(benchmark::State &State) {
  Keystroke &K = keystroke();
  for (auto _ : State) {
    State.PauseTiming();
    lsp::Workspace W;
    W.open("file:///bench.py", 1, K.Open.Snapshot.Text->text());
    auto OldParse = ParsedFile::parse(K.Open.Snapshot.Text);
    auto OldReport = std::make_unique<diag::FileReport>(diag::checkFile(OldParse));
    State.ResumeTiming();
    std::string Error;
    auto U = W.change("file:///bench.py", 2, {K.Edit}, Error);
    auto P = ParsedFile::reparse(*OldParse, U->Edits, U->Snapshot.Text);
    diag::FileReport R = diag::checkFile(P, {}, OldReport->Analysis.get());
    nlohmann::json Diags = nlohmann::json::array();
    for (const diag::Finding &F : R.Findings)
      Diags.push_back(lsp::toProtocol(F, *U->Snapshot.Index, U->Snapshot.Uri, lsp::PositionEncoding::UTF16));
    std::string Body =
        nlohmann::json{{"uri", U->Snapshot.Uri}, {"version", 2}, {"diagnostics", std::move(Diags)}}.dump();
    benchmark::DoNotOptimize(Body.data());
    OldReport.reset();
    OldParse.reset();
  }
}

} // namespace

// Process CPU time: the front end parses and checks on helper threads too.
BENCHMARK(applyEdit)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(reparse)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(diffFromEdits)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(diffComparingTexts)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(directiveScan)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(discoverModule)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(hostLaunches)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(kernelInputsAll)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(checkFromScratch)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(checkReusingPrevious)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(publishMessage)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK(wholeKeystroke)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK_MAIN();
