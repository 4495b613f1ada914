//===- BenchJit.cpp - JIT compile times per sample and config -------------===//
/// \file
/// For every kernel and autotune config of the tutorial-class samples:
///  - source -> PTX: lowering, LLVM IR, libdevice, O3 and the NVPTX back end
///    (backend::jitKernel without the assembler, no cache), the median of
///    --runs runs in this process after one warm-up (a warm process, as
///    Triton's figures are);
///  - the assembler on that PTX: nvJitLink in process and ptxas as a
///    subprocess (ptxas alone is the reference: Triton runs it that way);
///  - source -> cubin = source -> PTX + nvJitLink, and its ratio to ptxas
///    alone (goal: at most 1.5x).
/// Times are CPU time (this process plus its ptxas children), not wall
/// time, so that a busy shared machine does not inflate them; the tessel
/// stages run on one thread (nvJitLink may use more). Prints a Markdown table for
/// bench/RESULTS.md.
///
/// --ptx-only measures source -> PTX alone (median and fastest run, PTX
/// lines), for comparing code generator changes quickly.
/// --dump-ptx DIR writes each kernel's PTX to DIR/SAMPLE.KERNEL.CONFIG.ptx (for
/// comparing the generated code before and after a change: bench/jit/ptx_stats.py).
/// --config N measures only autotune config N of each kernel.
/// --time-passes turns on LLVM's pass timers (llvm::TimePassesIsEnabled) for
/// the source -> PTX runs and prints their report to stderr per kernel and
/// config (the runs are then slower: read the report's shares, not the table).
///
///   bench_jit [--runs N] [--arch sm_90] [--time-passes] [--ptx-only] [--dump-ptx DIR] [--config N]
///             [SAMPLE.py...]
//===----------------------------------------------------------------------===//
#include "compiler/backend/Assemble.h"
#include "compiler/backend/KernelJit.h"
#include "compiler/backend/Toolkit.h"
#include "compiler/frontend/Parser.h"
#include "compiler/sema/LaunchPlan.h"
#include "diagnostics/JitCheck.h"

#include "llvm/IR/PassTimingInfo.h"
#include "llvm/Pass.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>

using namespace tessel;

/// CPU milliseconds of this process and of its finished children (ptxas):
/// on a shared machine wall time measures the neighbours too.
static double cpuMs() {
  timespec T;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
  rusage Kids;
  getrusage(RUSAGE_CHILDREN, &Kids);
  auto Ms = [](const timeval &V) { return V.tv_sec * 1e3 + V.tv_usec / 1e3; };
  return T.tv_sec * 1e3 + T.tv_nsec / 1e6 + Ms(Kids.ru_utime) + Ms(Kids.ru_stime);
}

/// The median of Runs runs after a warm-up (the fastest in *Min when set).
static double medianMs(int Runs, const std::function<void()> &F, double *Min = nullptr) {
  std::vector<double> Ms;
  F(); // warm-up
  for (int I = 0; I < Runs; ++I) {
    double T0 = cpuMs();
    F();
    Ms.push_back(cpuMs() - T0);
  }
  std::sort(Ms.begin(), Ms.end());
  if (Min)
    *Min = Ms.front();
  return Ms[Ms.size() / 2];
}

int main(int Argc, char **Argv) {
  int Runs = 10;
  bool TimePasses = false, PtxOnly = false;
  backend::GpuArch Arch{90, false};
  std::vector<std::string> Files;
  std::string DumpDir;
  int OnlyConfig = -1;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--runs" && I + 1 < Argc)
      Runs = std::max(1, std::atoi(Argv[++I]));
    else if (A == "--time-passes")
      TimePasses = true;
    else if (A == "--ptx-only")
      PtxOnly = true;
    else if (A == "--dump-ptx" && I + 1 < Argc)
      DumpDir = Argv[++I];
    else if (A == "--config" && I + 1 < Argc)
      OnlyConfig = std::atoi(Argv[++I]);
    else if (A == "--arch" && I + 1 < Argc && backend::parseArch(Argv[I + 1]))
      Arch = *backend::parseArch(Argv[++I]);
    else
      Files.push_back(A);
  }
  if (Files.empty())
    for (const char *N : {"vector_add", "fused_softmax", "layer_norm", "matmul", "dropout", "attention"})
      Files.push_back(std::string(TESSEL_SOURCE_DIR) + "/samples/" + N + ".py");
  const backend::Toolkit &T = backend::toolkit();
  bool HaveNvJitLink = backend::hasAssembler(T, backend::AssemblerKind::NvJitLink);
  bool HavePtxas = backend::hasAssembler(T, backend::AssemblerKind::Ptxas);
  std::printf("arch %s, toolkit %s, %d runs (median CPU ms), one thread\n\n", Arch.name().c_str(), T.version().c_str(),
              Runs);
  if (PtxOnly)
    std::printf("| sample | kernel | config | source->PTX ms (median) | fastest run ms | PTX lines |\n"
                "|---|---|---|---|---|---|\n");
  else
    std::printf("| sample | kernel | config | source->PTX ms | nvJitLink ms | ptxas ms | source->cubin ms | "
                "ratio to ptxas | regs | spills |\n|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string &Path : Files) {
    std::ifstream In(Path, std::ios::binary);
    std::stringstream SS;
    SS << In.rdbuf();
    auto File = ParsedFile::parse(std::make_shared<SourceText>(SS.str(), Path));
    ProblemSink Sink;
    ModuleInfo Info = discover(File->module(), Sink);
    std::string Sample = Path.substr(Path.rfind('/') + 1);
    for (const std::string &Name : Info.Order) {
      const JitFunction &Fn = Info.Jit.at(Name);
      if (!Fn.IsKernel || !Fn.Def)
        continue;
      size_t NConfigs = std::max<size_t>(1, Fn.Configs.size());
      for (size_t C = 0; C < NConfigs; ++C) {
        if (OnlyConfig >= 0 && size_t(OnlyConfig) != C)
          continue;
        sema::LaunchPlanOptions PO;
        if (!Fn.Configs.empty())
          PO.Config = C;
        sema::LaunchPlan Plan = sema::planLaunch(*File, Info, Name, PO);
        if (!Plan.Error.empty() || Plan.Launches.empty())
          continue;
        backend::KernelJitOptions KO;
        KO.Arch = Arch;
        KO.Assemble = false;
        if (!Fn.Configs.empty())
          KO.MaxNReg = Fn.Configs[C].Config.MaxNReg;
        const sema::LoweringRequest &Req = Plan.Launches.front().Request;
        backend::KernelJitResult R = backend::jitKernel(*File, Info, Req, KO);
        std::string Config = Fn.Configs.empty() ? "-" : std::to_string(C);
        if (!R.Kernel) {
          std::printf("| %s | %s | %s | not compiled: %s |\n", Sample.c_str(), Name.c_str(), Config.c_str(),
                      (R.Error.empty() && !R.Problems.empty() ? R.Problems[0].Message : R.Error).c_str());
          continue;
        }
        std::string Ptx = R.Kernel->Ptx;
        if (!DumpDir.empty())
          std::ofstream(DumpDir + "/" + Sample.substr(0, Sample.size() - 3) + "." + Name + "." + Config + ".ptx",
                        std::ios::binary)
              << Ptx;
        llvm::TimePassesIsEnabled = TimePasses;
        double Fastest = 0;
        double ToPtx = medianMs(
            Runs, [&] { backend::jitKernel(*File, Info, Req, KO); }, &Fastest);
        if (TimePasses) {
          llvm::TimePassesIsEnabled = false;
          std::fprintf(stderr, "=== %s %s config %s: LLVM pass times over %d runs + warm-up\n", Sample.c_str(),
                       Name.c_str(), Config.c_str(), Runs);
          llvm::reportAndResetTimings(&llvm::errs());
        }
        if (PtxOnly) {
          std::printf("| %s | %s | %s | %.2f | %.2f | %zu |\n", Sample.c_str(), Name.c_str(), Config.c_str(), ToPtx,
                      Fastest, size_t(std::count(Ptx.begin(), Ptx.end(), '\n')));
          std::fflush(stdout);
          continue;
        }
        backend::AssembleOptions AO;
        AO.Arch = Arch;
        double Nvj = -1, Ptxas = -1;
        unsigned Regs = 0, Spills = 0;
        auto Run = [&](backend::AssemblerKind K) {
          AO.Use = K;
          auto A = backend::assemble(Ptx, AO);
          if (!A) {
            llvm::consumeError(A.takeError());
            return;
          }
          if (auto U = backend::parseAssemblerLog(A->Log, R.Kernel->Entry)) {
            Regs = U->Registers;
            Spills = U->spillBytes();
          }
        };
        if (HaveNvJitLink)
          Nvj = medianMs(Runs, [&] { Run(backend::AssemblerKind::NvJitLink); });
        if (HavePtxas)
          Ptxas = medianMs(std::max(3, Runs / 2), [&] { Run(backend::AssemblerKind::Ptxas); });
        double ToCubin = ToPtx + (Nvj >= 0 ? Nvj : Ptxas);
        std::printf("| %s | %s | %s | %.2f | %.1f | %.1f | %.1f | %.2f | %u | %u |\n", Sample.c_str(), Name.c_str(),
                    Config.c_str(), ToPtx, Nvj, Ptxas, ToCubin, Ptxas > 0 ? ToCubin / Ptxas : 0.0, Regs, Spills);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}
