//===- InterpBench.cpp - CPU interpreter throughput -----------------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// The two figures issue 3 asks for: a 1M-element fp32 vector add (elements
/// per second, BLOCK 1024, grid 1024) and a 512x512x512 fp16 matmul through
/// tl.dot (FLOP/s counting 2*M*N*K, 64x64x32 tiles, grid 8x8), both over the
/// whole grid with every lane bounds-checked. Results go to bench/RESULTS.md.
//===----------------------------------------------------------------------===//
#include "TestKernels.h"

#include "compiler/interp/Interpreter.h"

#include <benchmark/benchmark.h>

using namespace tessel;
using namespace tessel::interp;
using namespace tessel::testkernels;

static void BM_VectorAdd1M(benchmark::State &State) {
  const int64_t N = 1 << 20, Block = 1024;
  ir::Function F("add_kernel");
  vectorAdd(F, Block);
  Memory Mem;
  uint32_t X = Mem.addBuffer("x", ScalarKind::FP32, N), Y = Mem.addBuffer("y", ScalarKind::FP32, N),
           O = Mem.addBuffer("out", ScalarKind::FP32, N, true);
  for (int64_t I = 0; I < N; ++I) {
    Mem.writeFloat(X, I, static_cast<double>(I));
    Mem.writeFloat(Y, I, 1.0);
  }
  RunOptions Opts;
  Opts.Grid = {N / Block, 1, 1};
  std::vector<ArgValue> Args{ArgValue::pointer(X), ArgValue::pointer(Y), ArgValue::pointer(O), ArgValue::integer(N)};
  for (auto _ : State) {
    RunResult R = run(F, Mem, Args, Opts);
    if (!R.Completed || R.TotalViolations)
      State.SkipWithError("vector add did not run cleanly");
    benchmark::DoNotOptimize(Mem.buffer(O).Bytes.data());
  }
  State.SetItemsProcessed(State.iterations() * N);
}
BENCHMARK(BM_VectorAdd1M)->Unit(benchmark::kMillisecond);

static void BM_MatmulFp16_512(benchmark::State &State) {
  const int64_t M = 512, N = 512, K = 512;
  ir::Function F("matmul");
  matmul(F, ScalarKind::FP16, 64, 64, 32);
  Memory Mem;
  uint32_t A = Mem.addBuffer("a", ScalarKind::FP16, M * K), B = Mem.addBuffer("b", ScalarKind::FP16, K * N),
           C = Mem.addBuffer("c", ScalarKind::FP32, M * N, true);
  for (int64_t I = 0; I < M * K; ++I)
    Mem.writeFloat(A, I, (I % 7) * 0.125);
  for (int64_t I = 0; I < K * N; ++I)
    Mem.writeFloat(B, I, (I % 5) * 0.25);
  RunOptions Opts;
  Opts.Grid = {M / 64, N / 64, 1};
  std::vector<ArgValue> Args{ArgValue::pointer(A), ArgValue::pointer(B), ArgValue::pointer(C),
                             ArgValue::integer(M), ArgValue::integer(N), ArgValue::integer(K)};
  for (auto _ : State) {
    RunResult R = run(F, Mem, Args, Opts);
    if (!R.Completed || R.TotalViolations)
      State.SkipWithError("matmul did not run cleanly");
    benchmark::DoNotOptimize(Mem.buffer(C).Bytes.data());
  }
  State.counters["FLOP/s"] =
      benchmark::Counter(static_cast<double>(2 * M * N * K) * State.iterations(), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MatmulFp16_512)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
