//===- CodegenBench.cpp - source -> LLVM IR time per sample ---------------===//
//
// Part of tessel.
//
//===----------------------------------------------------------------------===//
/// \file
/// For each kernel of samples/*.py (first config): `Source` times the whole
/// front half of the JIT (parse, discovery, launch plan, lowering to tile
/// IR, emitLLVM into a fresh LLVMContext); `Emit` times emitLLVM alone on
/// the lowered function. Everything after (libdevice, O3, PTX) is the
/// backend's and is measured by bench/jit.
//===----------------------------------------------------------------------===//
#include "compiler/codegen/Codegen.h"
#include "compiler/frontend/Discovery.h"
#include "compiler/sema/LaunchPlan.h"
#include "compiler/sema/Lowering.h"

#include <benchmark/benchmark.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <fstream>
#include <sstream>

using namespace tessel;

namespace {

std::string readSample(const std::string &Name) {
  std::ifstream In(std::string(TESSEL_SOURCE_DIR) + "/samples/" + Name);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// Source text -> LLVM module; false when any stage fails.
bool sourceToLLVM(const std::string &Text, const std::string &Kernel, llvm::LLVMContext &Ctx) {
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Text, "bench.py"));
  ProblemSink Sink;
  ModuleInfo Info = discover(File->module(), Sink);
  sema::LaunchPlan Plan = sema::planLaunch(*File, Info, Kernel);
  if (Plan.Launches.empty())
    return false;
  const sema::LoweringRequest &Req = Plan.Launches.front().Request;
  sema::LoweredKernel L = sema::lowerKernel(*File, Info, Req);
  if (!L.Function)
    return false;
  codegen::CodegenOptions Opts;
  Opts.NumWarps = static_cast<int>(Req.NumWarps);
  Opts.NumStages = static_cast<int>(Req.NumStages);
  Opts.DivisibleBy16 = codegen::defaultDivisibility(*L.Function);
  return codegen::emitLLVM(*L.Function, Opts, Ctx).Module != nullptr;
}

void BM_Source(benchmark::State &S, const std::string &Sample, const std::string &Kernel) {
  std::string Text = readSample(Sample);
  for (auto _ : S) {
    llvm::LLVMContext Ctx;
    if (!sourceToLLVM(Text, Kernel, Ctx)) {
      S.SkipWithError("the kernel does not compile");
      return;
    }
  }
}

void BM_Emit(benchmark::State &S, const std::string &Sample, const std::string &Kernel) {
  std::string Text = readSample(Sample);
  auto File = ParsedFile::parse(std::make_shared<SourceText>(Text, "bench.py"));
  ProblemSink Sink;
  ModuleInfo Info = discover(File->module(), Sink);
  sema::LaunchPlan Plan = sema::planLaunch(*File, Info, Kernel);
  if (Plan.Launches.empty()) {
    S.SkipWithError("no launch");
    return;
  }
  const sema::LoweringRequest &Req = Plan.Launches.front().Request;
  sema::LoweredKernel L = sema::lowerKernel(*File, Info, Req);
  if (!L.Function) {
    S.SkipWithError("does not lower");
    return;
  }
  codegen::CodegenOptions Opts;
  Opts.NumWarps = static_cast<int>(Req.NumWarps);
  Opts.NumStages = static_cast<int>(Req.NumStages);
  Opts.DivisibleBy16 = codegen::defaultDivisibility(*L.Function);
  for (auto _ : S) {
    llvm::LLVMContext Ctx;
    codegen::CodegenResult R = codegen::emitLLVM(*L.Function, Opts, Ctx);
    benchmark::DoNotOptimize(R.Module.get());
  }
}

struct Case {
  const char *Sample, *Kernel;
};
const Case Cases[] = {{"vector_add.py", "vector_add_kernel"},     {"fused_softmax.py", "fused_softmax_kernel"},
                      {"layer_norm.py", "layer_norm_fwd_kernel"}, {"matmul.py", "matmul_kernel"},
                      {"attention.py", "attn_fwd_kernel"},        {"dropout.py", "seeded_dropout_kernel"}};

int registerAll() {
  for (const Case &C : Cases) {
    std::string Name = std::string(C.Sample) + "/" + C.Kernel;
    benchmark::RegisterBenchmark(("Source/" + Name).c_str(), BM_Source, C.Sample, C.Kernel)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("Emit/" + Name).c_str(), BM_Emit, C.Sample, C.Kernel)->Unit(benchmark::kMillisecond);
  }
  return 0;
}
const int Registered = registerAll();

} // namespace

BENCHMARK_MAIN();
