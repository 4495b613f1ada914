//===- BenchCheck.cpp - in-process cost of parsing and checking a file ----===//
/// \file
/// Google Benchmark program for the figures in bench/RESULTS.md: the
/// generated 2,000-line, 50-kernel file (bench/gen_kernels.py) through
/// ParsedFile::parse alone, diag::checkFile alone on a parsed file, and both,
/// with a per-kernel time as a counter. Process start-up and file reading are
/// left out here; bench/run.sh measures the whole `tessel check` process.
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

} // namespace

BENCHMARK(parseFile)->Unit(benchmark::kMillisecond);
BENCHMARK(checkParsedFile)->Unit(benchmark::kMillisecond);
BENCHMARK(parseAndCheckFile)->Unit(benchmark::kMillisecond);

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
