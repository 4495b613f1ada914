//===- KernelJit.cpp - one kernel specialization, source to cubin ---------===//
/// \file
/// The stages of KernelJit.h and the cache key.
//===----------------------------------------------------------------------===//
#include "compiler/backend/KernelJit.h"

#include "compiler/backend/BuildId.h"
#include "compiler/backend/JitWorker.h"
#include "compiler/backend/Occupancy.h"
#include "compiler/backend/PtxEmit.h"
#include "compiler/backend/Target.h"
#include "compiler/backend/Toolkit.h"
#include "compiler/codegen/Codegen.h"
#include "compiler/ir/TypeUtils.h"
#include "compiler/sema/KernelReuse.h"
#include "compiler/sema/Specializations.h"
#include "tessel/Version.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

namespace tessel::backend {

static double msSince(std::chrono::steady_clock::time_point T0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0).count();
}

/// CompiledKernel::DotAccumulatorRegs of the dots in B over Threads: at
/// least 1 for any dot, so 0 says B has none (CompiledKernel::FmaDot).
static unsigned dotAccumulatorRegs(const ir::Block &B, uint64_t Threads) {
  unsigned Most = 0;
  for (const auto &O : B.ops()) {
    if (O->kind() == ir::OpKind::Dot) {
      const TileType &T = O->result()->type();
      uint64_t Bits = static_cast<uint64_t>(ir::numElements(T)) * static_cast<uint64_t>(bitWidth(T.Elem.Scalar));
      Most = std::max({Most, 1u, static_cast<unsigned>((Bits / 32 + Threads - 1) / Threads)});
    }
    for (const auto &R : O->regions())
      Most = std::max(Most, dotAccumulatorRegs(*R, Threads));
  }
  return Most;
}

/// Triton's options for F. The divisibility is the usual launch's (every
/// pointer 16-byte aligned: codegen::defaultDivisibility) and the request's
/// ints that are multiples of 16, both in the cache key.
static codegen::CodegenOptions codegenOptions(const ir::Function &F, const sema::LoweringRequest &R,
                                              const KernelJitOptions &Opts) {
  codegen::CodegenOptions C;
  C.Arch = int(Opts.Arch.Capability);
  C.ArchSpecific = Opts.Arch.ArchSpecific;
  C.NumWarps = int(R.NumWarps);
  C.NumStages = int(R.NumStages);
  if (Opts.MaxNReg)
    C.MaxNReg = int(*Opts.MaxNReg);
  C.PtxIsa = ptxIsaOf(Opts.Assembler.Tools ? *Opts.Assembler.Tools : toolkit());
  C.DivisibleBy16 = codegen::defaultDivisibility(F);
  // The ints the launch makes multiples of 16, as Triton's specialization
  // marks them (strides of 4096 let a row's accesses be 128 bits wide).
  C.DivisibleBy16.insert(R.DivisibleBy16.begin(), R.DivisibleBy16.end());
  return C;
}

std::optional<CacheKey> jitCacheKey(const ParsedFile &File, const ModuleInfo &Info,
                                    const sema::LoweringRequest &Request, const KernelJitOptions &Opts) {
  return jitCacheKey(File, Info, Request, Opts, buildId());
}

std::optional<CacheKey> jitCacheKey(const ParsedFile &File, const ModuleInfo &Info,
                                    const sema::LoweringRequest &Request, const KernelJitOptions &Opts,
                                    llvm::StringRef Build) {
  const JitFunction *Fn = Info.jit(Request.Kernel);
  if (!Fn)
    return std::nullopt;
  sema::AnalyzeOptions AO;
  AO.Arch = int(Opts.Arch.Capability);
  sema::ModuleNames Names(File, Info);
  sema::KernelInputs In = sema::kernelInputs(Names, File, *Fn, sema::specializationsOf(*Fn, AO.MaxSpecializations), AO);
  if (!In.Reusable || In.Segments.empty())
    return std::nullopt;
  const Toolkit &Tools = Opts.Assembler.Tools ? *Opts.Assembler.Tools : toolkit();
  CacheKeyBuilder B;
  B.add("tessel-jit").add(TESSEL_VERSION_STRING).add(Build).add(Opts.Arch.name());
  // The developer options of the environment change the code (A/B builds).
  llvm::Expected<LlvmPipeline> Pipeline = llvmPipelineFromEnv();
  B.add(Pipeline ? llvmPipelineName(*Pipeline) : "invalid");
  if (!Pipeline)
    llvm::consumeError(Pipeline.takeError()); // the compile reports it
  B.add(uint64_t(codegen::rangeLoadPipeliningFromEnv())).add(uint64_t(codegen::wgmmaFromEnv()));
  B.add(uint64_t(codegen::wgmmaPendingsFromEnv())).add(uint64_t(codegen::wgmmaChainFromEnv()));
  B.add(uint64_t(codegen::tritonEpilogueFromEnv()));
  B.add(Tools.version()).add(assemblerName(Opts.Assembler.Use.value_or(defaultAssembler(Tools))));
  B.add(uint64_t(Opts.Assemble))
      .add(uint64_t(Opts.AssembleUnlaunchable))
      .add(uint64_t(Opts.KeepLlvm))
      .add(uint64_t(Opts.MaxNReg.value_or(-1)));
  // Line numbers reach the PTX (.loc) and the cubin (-lineinfo).
  B.add(uint64_t(File.text().lineCol(In.Segments.front().Begin).Line));
  for (const SourceRange &R : In.Segments) {
    std::string_view S = File.text().slice(R);
    B.add(llvm::StringRef(S.data(), S.size()));
  }
  B.add(In.Facts.str());
  B.add(Request.Kernel);
  for (const auto &[Name, V] : Request.Constexprs)
    B.add(Name).add(V.repr());
  for (const auto &[Name, Ty] : Request.ArgTypes)
    B.add(Name).add(Ty.str());
  for (const std::string &Name : Request.EqualToOne)
    B.add(Name);
  B.add("tensordesc");
  for (const auto &[Name, Block] : Request.DescriptorBlocks) {
    B.add(Name);
    for (int64_t D : Block)
      B.add(uint64_t(D));
  }
  B.add("divisible");
  for (const std::string &Name : Request.DivisibleBy16)
    B.add(Name);
  B.add(uint64_t(Request.NumWarps)).add(uint64_t(Request.NumStages));
  return B.finish();
}

sema::AnalyzeOptions loweringOptions(const KernelJitOptions &Opts) {
  sema::AnalyzeOptions AO;
  AO.Arch = int(Opts.Arch.Capability);
  AO.RecordValueFacts = false;
  AO.Project = Opts.Project;
  return AO;
}

static void setError(KernelJitResult &R, llvm::Error E) { R.Error = llvm::toString(std::move(E)); }

KernelJitResult jitKernel(const ParsedFile &File, const ModuleInfo &Info, const sema::LoweringRequest &Request,
                          const KernelJitOptions &Opts) {
  KernelJitResult R;
  std::optional<CacheKey> Key;
  if (Opts.Cache && Opts.Backend) {
    auto T0 = std::chrono::steady_clock::now();
    Key = jitCacheKey(File, Info, Request, Opts);
    if (Key)
      if (std::optional<std::string> Hit = Opts.Cache->lookup(*Key)) {
        auto K = deserialize(*Hit);
        if (!K) {
          llvm::consumeError(K.takeError()); // an entry of another format: compile afresh
        } else {
          R.Kernel = std::move(*K);
          R.FromCache = true;
          R.Times = {{"cache", msSince(T0)}};
          return R;
        }
      }
  }
  auto T0 = std::chrono::steady_clock::now();
  sema::LoweredKernel L = sema::lowerKernel(File, Info, Request, loweringOptions(Opts));
  R.Times.push_back({"lower", msSince(T0)});
  R.Problems = std::move(L.Problems);
  if (!L.Function)
    return R;
  auto T1 = std::chrono::steady_clock::now();
  llvm::LLVMContext Ctx;
  codegen::CodegenOptions CO = codegenOptions(*L.Function, Request, Opts);
  CO.Source = &File.text(); // line tables: `.loc` in the PTX (the key covers the kernel's line)
  codegen::CodegenResult C = codegen::emitLLVM(*L.Function, CO, Ctx);
  R.Times.push_back({"llvm-ir", msSince(T1)});
  for (Problem &P : C.Problems)
    R.Problems.push_back(std::move(P));
  if (!C.Module || !Opts.Backend)
    return R;
  LaunchShape Launch{C.ABI.ThreadsPerBlock, C.ABI.SharedBytes};
  llvm::Expected<CompiledKernel> K = [&]() -> llvm::Expected<CompiledKernel> {
    JitOptions JO;
    JO.Arch = Opts.Arch;
    JO.Assemble =
        Opts.Assemble && (Opts.AssembleUnlaunchable || C.ABI.SharedBytes <= smLimits(Opts.Arch).MaxSharedPerBlock);
    JO.KeepLlvm = Opts.KeepLlvm;
    JO.Assembler = Opts.Assembler;
    if (Opts.Worker)
      return Opts.Worker->compile(*C.Module, Launch, JO, Opts.WorkerTimeoutSeconds, Opts.Cancelled);
    if (!Opts.WorkerProgram.empty())
      return compileInWorker(*C.Module, Launch, JO, Opts.WorkerProgram, Opts.WorkerTimeoutSeconds);
    return compileModule(*C.Module, Launch, JO);
  }();
  if (!K) {
    setError(R, K.takeError());
    return R;
  }
  K->DotAccumulatorRegs = dotAccumulatorRegs(L.Function->body(), uint64_t(32) * Request.NumWarps);
  K->FmaDot = K->DotAccumulatorRegs > 0;
  adoptABI(*K, C.ABI);
  for (StageTime &T : K->Times)
    R.Times.push_back(std::move(T));
  K->Times.clear();
  if (Opts.Cache && Key)
    Opts.Cache->store(*Key, serialize(*K));
  R.Kernel = std::move(*K);
  return R;
}

} // namespace tessel::backend
