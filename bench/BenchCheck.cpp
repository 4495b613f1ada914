//===- BenchCheck.cpp - in-process cost of parsing and checking a file ----===//
/// \file
/// Google Benchmark program for the figures in bench/RESULTS.md: the
/// generated 2,000-line, 50-kernel file (bench/gen_kernels.py) through
/// ParsedFile::parse alone, diag::checkFile alone on a parsed file, and both,
/// with a per-kernel time as a counter; and ParsedFile::reparse after a
/// one-character edit in the middle of the file (what the language server
/// does on each keystroke before sema). Process start-up and file reading
/// are left out here; bench/run.sh measures the whole `tessel check` process.
///
///   bench_check [FILE.py] [--benchmark_* options]
//===----------------------------------------------------------------------===//
#include "compiler/frontend/Parser.h"
#include "diagnostics/Check.h"

#include <benchmark/benchmark.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

using namespace tessel;

namespace {

std::string BenchFile = TESSEL_BENCH_FILE;

std::shared_ptr<const SourceText> loadText() {
  static std::shared_ptr<const SourceText> Text = [] {
    std::ifstream In(BenchFile, std::ios::binary);
    if (!In) {
      std::cerr << "bench_check: cannot read " << BenchFile << "\n";
      std::exit(2);
    }
    std::stringstream SS;
    SS << In.rdbuf();
    return std::make_shared<const SourceText>(SS.str(), BenchFile);
  }();
  return Text;
}

/// Kernels in the file, as the checker counts them.
size_t kernelCount() {
  static size_t N = diag::checkFile(ParsedFile::parse(loadText())).NumKernels;
  return N;
}

void setCounters(benchmark::State &State) {
  size_t Kernels = kernelCount();
  State.counters["kernels"] = static_cast<double>(Kernels);
  // Seconds per kernel, shown by the console reporter in its own unit.
  State.counters["per_kernel"] = benchmark::Counter(
      static_cast<double>(Kernels), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  State.SetBytesProcessed(static_cast<int64_t>(State.iterations() * loadText()->text().size()));
}

void parseFile(benchmark::State &State) {
  auto Text = loadText();
  for (auto _ : State) {
    auto File = ParsedFile::parse(Text);
    benchmark::DoNotOptimize(File.get());
  }
  setCounters(State);
}

void checkParsedFile(benchmark::State &State) {
  auto File = ParsedFile::parse(loadText());
  for (auto _ : State) {
    diag::FileReport R = diag::checkFile(File);
    benchmark::DoNotOptimize(R.Findings.data());
  }
  setCounters(State);
}

void parseAndCheckFile(benchmark::State &State) {
  auto Text = loadText();
  for (auto _ : State) {
    diag::FileReport R = diag::checkFile(ParsedFile::parse(Text));
    benchmark::DoNotOptimize(R.Findings.data());
  }
  setCounters(State);
}

/// Reparses after inserting Insert at the first " = " past the middle of the
/// file; every iteration edits the same old file, as a keystroke does.
void reparseAfterEdit(benchmark::State &State, const std::string &Insert) {
  auto Old = ParsedFile::parse(loadText());
  const std::string &S = loadText()->text();
  uint32_t At = static_cast<uint32_t>(S.find(" = ", S.size() / 2)) + 1;
  std::string New = S;
  New.insert(At, Insert);
  auto NewText = std::make_shared<const SourceText>(New, BenchFile);
  ByteEdit E;
  E.StartByte = E.OldEndByte = At;
  E.NewEndByte = At + static_cast<uint32_t>(Insert.size());
  E.Start = E.OldEnd = Old->text().lineCol(At);
  E.NewEnd = NewText->lineCol(E.NewEndByte);
  for (auto _ : State) {
    auto File = ParsedFile::reparse(*Old, {E}, NewText);
    benchmark::DoNotOptimize(File.get());
  }
}

/// A keystroke that keeps the code valid (a space before `=`).
void reparseAfterOneCharEdit(benchmark::State &State) { reparseAfterEdit(State, " "); }
/// A keystroke that breaks the line (`a = b` becomes `a (= b`).
void reparseAfterBreakingEdit(benchmark::State &State) { reparseAfterEdit(State, "("); }

} // namespace

BENCHMARK(parseFile)->Unit(benchmark::kMillisecond);
BENCHMARK(checkParsedFile)->Unit(benchmark::kMillisecond);
BENCHMARK(parseAndCheckFile)->Unit(benchmark::kMillisecond);
BENCHMARK(reparseAfterOneCharEdit)->Unit(benchmark::kMicrosecond);
BENCHMARK(reparseAfterBreakingEdit)->Unit(benchmark::kMicrosecond);

int main(int Argc, char **Argv) {
  // A first argument that is not a --benchmark_ option names the file.
  if (Argc > 1 && std::string(Argv[1]).rfind("--", 0) != 0) {
    BenchFile = Argv[1];
    for (int I = 1; I + 1 < Argc; ++I)
      Argv[I] = Argv[I + 1];
    --Argc;
  }
  benchmark::Initialize(&Argc, Argv);
  if (benchmark::ReportUnrecognizedArguments(Argc, Argv))
    return 1;
  std::cout << "file: " << BenchFile << " (" << loadText()->lineCount() << " lines, " << kernelCount() << " kernels)\n";
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
